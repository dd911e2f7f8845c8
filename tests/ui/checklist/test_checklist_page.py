"""The Checklist page: phases with progress, ticks saved, reset, new day, links."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtWidgets import QMessageBox

from companion.core.day import checklist as cl
from companion.core.day.loops import add_round, create_loop
from companion.core.dnd.adapters import ManualAdapter
from companion.core.dnd.controller import DndController
from companion.core.dnd.record import record_path

pytestmark = pytest.mark.gui

TZ = dt.timezone(dt.timedelta(hours=1))


@pytest.fixture
def dnd(ctx, bus, clock):
    from companion.ui.dnd.switch import DndModel

    controller = DndController(
        ManualAdapter("Nothing to drive here."), record_path(ctx.data_dir), clock=clock
    )
    return DndModel(ctx, bus, controller=controller)


@pytest.fixture
def page(qtbot, ctx, bus, day_service, dnd):
    from companion.ui.checklist.page import ChecklistPage

    widget = ChecklistPage(ctx, bus, day=day_service)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitUntil(lambda: widget._built)
    return widget


def test_four_phases_with_progress(page, content):
    assert list(page.groups) == ["night-before", "morning-of", "before-round", "after-loop"]
    night = page.groups["night-before"]
    total = len(cl.phase_list(content, "night-before").items)
    assert night.progress.format() == f"0 of {total} done"
    assert "No interview loop yet" in page.subtitle.text()


def test_ticks_are_saved_and_reset(page, ctx):
    night = page.groups["night-before"]
    first_key = night.phase_list.items[0].key
    night.boxes[first_key].click()
    assert first_key in cl.checked_keys(ctx.db, night.scope)
    assert night.progress.value() == 1
    assert night.progress.format().startswith("1 of")
    night.reset_button.click()
    assert cl.checked_keys(ctx.db, night.scope) == set()
    assert not night.boxes[first_key].isChecked()


def test_new_day_unticks_every_list(page, ctx, monkeypatch):
    for group in page.groups.values():
        if group.phase_list.items:
            group.boxes[group.phase_list.items[0].key].click()
    page.new_day()
    assert page.dialog.isVisible()  # asked without a nested event loop: nothing yet
    assert any(cl.checked_keys(ctx.db, g.scope) for g in page.groups.values())
    page.dialog.button(QMessageBox.StandardButton.Yes).click()
    for group in page.groups.values():
        assert group.progress.value() == 0
        assert cl.checked_keys(ctx.db, group.scope) == set()


def test_lists_follow_the_loop_and_its_next_round(qtbot, ctx, bus, day_service, dnd, clock):
    from companion.ui.checklist.page import ChecklistPage

    loop = create_loop(ctx.db, "Acme", starts_on="2026-12-01")
    first = add_round(
        ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 1, 9, 10, tzinfo=TZ)
    )
    page = ChecklistPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page._built)
    before = page.groups["before-round"]
    assert before.scope == cl.Scope(loop, "2026-12-01", first)
    assert "Coding round at 09:10" in before.note.text()
    assert before.title().endswith("— now")
    assert "Acme" in page.subtitle.text()


def test_links_open_what_they_name(page, bus, monkeypatch):
    opened, flagged, captures, reviews = [], [], [], []
    bus.open_page.connect(opened.append)
    bus.open_flagged_quiz.connect(lambda: flagged.append(1))
    bus.open_review.connect(lambda: reviews.append(1))
    bus.capture_round.connect(captures.append)
    buttons = {}
    for group in page.groups.values():
        for item in group.phase_list.items:
            if item.link:
                buttons[item.link] = group.link_buttons[item.key]
    buttons["about-me"].click()
    buttons["flagged-quiz"].click()
    buttons["study-list"].click()
    buttons["thank-you"].click()
    buttons["journal-capture"].click()
    assert opened == ["about", "study", "journal"] and flagged == [1] and captures == [0]
    buttons["review-list"].click()  # "re-skim the answer keys" with nothing answered yet:
    assert opened[-1] == "selfcheck" and reviews == []  # the whole quiz is the first review
    from companion.core.selfcheck import quiz

    question = page.ctx.content.quiz()[0]
    quiz.record_mark(page.ctx.db, question, "missed", page.ctx.now())
    buttons["review-list"].click()  # then the review before the loop
    assert opened[-1] == "study" and reviews == [1]
    buttons["dnd"].click()  # no adapter applies: the manual steps are shown, and it returns
    (shown,) = [b for b in page.findChildren(QMessageBox) if b.isVisible()]
    assert "Nothing to drive here." in shown.text()
    shown.done(0)
    assert buttons["about-me"].accessibleName().startswith("Open About me:")


def test_today_and_checklist_stay_in_step(qtbot, ctx, bus, day_service, dnd, page, clock):
    other = type(page)(ctx, bus, day=day_service)
    qtbot.addWidget(other)
    qtbot.waitUntil(lambda: other._built)
    night = page.groups["night-before"]
    key = night.phase_list.items[0].key
    night.boxes[key].click()
    assert other.groups["night-before"].boxes[key].isChecked()


def test_keyboard_ticks_an_item(qtbot, page):
    from PySide6.QtCore import Qt

    morning = page.groups["morning-of"]
    box = morning.boxes[morning.phase_list.items[0].key]
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked() and morning.progress.value() == 1


def test_clicking_the_item_text_ticks_it(qtbot, page):
    from PySide6.QtCore import Qt

    from companion.ui.checklist.page import _ClickLabel

    morning = page.groups["morning-of"]
    label = next(
        lb
        for lb in morning.findChildren(_ClickLabel)
        if lb.text() == morning.phase_list.items[1].text
    )
    qtbot.mouseClick(label, Qt.MouseButton.LeftButton)
    assert morning.boxes[morning.phase_list.items[1].key].isChecked()
    assert label.wordWrap()


def test_the_warm_up_offers_one_answer_when_nothing_is_flagged(page, qtbot, ctx, bus):
    from companion.core.selfcheck import quiz
    from companion.ui.selfcheck.page import SelfCheckPage

    selfcheck = SelfCheckPage(ctx, bus)
    qtbot.addWidget(selfcheck)
    opened = []
    bus.open_page.connect(lambda key: (opened.append(key), selfcheck.on_shown()))
    before = page.groups["before-round"]
    (item,) = [i for i in before.phase_list.items if i.link == "one-answer"]
    button = before.link_buttons[item.key]
    assert button.text() == "Offer one answer"
    button.click()
    assert opened == ["selfcheck"]
    assert selfcheck.quiz.stack.currentWidget() is not selfcheck.quiz.message
    assert "Nothing is flagged" not in selfcheck.quiz.message_label.text()
    question = ctx.content.quiz()[0]
    quiz.set_flag(ctx.db, question, True, at=ctx.now())
    flagged = []
    bus.open_flagged_quiz.connect(lambda: flagged.append(1))
    before.refresh()
    assert button.text() == "Show flagged answers (1)"
    button.click()
    assert flagged == [1]


def test_every_reason_shows_under_its_item_without_hovering(page, content):
    reasons = {
        (phase, item.key): item.why
        for phase in ("night-before", "morning-of", "before-round", "after-loop")
        for item in cl.phase_list(content, phase).items
        if item.why
    }
    assert len(reasons) >= 5  # the caffeine dose, the meal, 1am, "sounds trivial", ...
    for (phase, key), why in reasons.items():
        label = page.groups[phase].why_labels[key]
        assert label.text() == why and label.isVisible()


def test_day_ticks_follow_the_journal_on_both_pages(qtbot, ctx, bus, day_service, dnd):
    """Marked sent in the Journal, "send ... a thank-you" ticked on the Checklist page and
    on Today's list, though neither redraws its lists for a day change; un-marked, unticked."""
    from companion.core.changes import Change
    from companion.core.journal.thankyou import save_thank_you
    from companion.ui.checklist.page import ChecklistPage
    from companion.ui.today.page import TodayPage

    loop = create_loop(ctx.db, "Acme", starts_on="2026-12-01")
    add_round(ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 1, 7, 0, tzinfo=TZ))
    checklist = ChecklistPage(ctx, bus, day=day_service)
    today = TodayPage(ctx, bus, day=day_service)
    for page in (checklist, today):
        qtbot.addWidget(page)
        page.show()
        page.on_shown()
    qtbot.waitUntil(lambda: checklist._built and today._built)
    assert today.phase_group.phase_list.phase == "after-loop"  # the round is over

    def ticked() -> list[bool]:
        out = []
        for group in (checklist.groups["after-loop"], today.phase_group):
            (item,) = [i for i in group.phase_list.items if i.link == "thank-you"]
            out.append(group.boxes[item.key].isChecked())
        return out

    def mark(sent) -> None:  # as the Journal's thank-you box does
        save_thank_you(ctx.db, loop, sent_at=sent)
        bus.announce(Change.of("thank-you", ids=[loop], origin=object()))

    assert ticked() == [False, False]
    mark(ctx.now())
    assert ticked() == [True, True]
    mark(None)
    assert ticked() == [False, False]
    # a click cannot untick what the day holds: the item says what ticks it
    group = checklist.groups["after-loop"]
    (item,) = [i for i in group.phase_list.items if i.link == "thank-you"]
    assert "Ticks itself once the thank-you note is marked sent" in (
        group.boxes[item.key].toolTip()
    )
