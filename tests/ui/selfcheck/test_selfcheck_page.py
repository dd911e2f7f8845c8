"""The Self-check page: the quiz flow by keyboard, flagged-only mode and the planner tab."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from companion.core.changes import Change
from companion.core.day import loops
from companion.core.selfcheck import planner, quiz

pytestmark = pytest.mark.gui


@pytest.fixture
def page(qtbot, ctx, bus):
    from companion.ui.selfcheck.page import SelfCheckPage

    widget = SelfCheckPage(ctx, bus)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    qtbot.waitUntil(widget.isActiveWindow)
    widget.on_shown()
    return widget


def key(qtbot, page, k):
    qtbot.keyClick(page.quiz.card, k)


def test_answer_is_hidden_until_asked_for_then_marked_by_keys(qtbot, page, ctx, bus):
    panel = page.quiz
    first = panel.session.current.question
    assert panel.card.question_label.text() == first.question
    assert not panel.card.answer_label.isVisible()
    assert not panel.card.got_button.isEnabled()
    assert panel.card.hasFocus()

    key(qtbot, page, Qt.Key.Key_1)  # marking before revealing is refused, nothing stored
    assert quiz.get_card(ctx.db, first.id) is None
    assert "first" in panel.card.hint_label.text()

    key(qtbot, page, Qt.Key.Key_Space)
    assert panel.card.answer_label.isVisible()
    assert panel.card.answer_label.text() == first.answer
    assert panel.card.see_label.text().startswith("Read again: ")
    assert panel.card.got_button.isEnabled()

    with qtbot.waitSignal(bus.changed, check_params_cb=lambda c: c.touches("quiz")):
        key(qtbot, page, Qt.Key.Key_3)
    assert quiz.get_card(ctx.db, first.id).state == "missed"
    assert panel.session.position == 2
    assert not panel.card.answer_label.isVisible()
    assert panel.progress_label.text().startswith(f"Question 2 of {panel.session.total}")


def test_a_full_pass_then_missed_and_flagged_come_first(qtbot, page, ctx, bus):
    panel = page.quiz
    total = panel.session.total
    assert total >= 6
    ids = [item.question.id for item in panel.session.items]
    with qtbot.waitSignal(bus.changed, check_params_cb=lambda c: c.touches("quiz")):
        key(qtbot, page, Qt.Key.Key_F)  # flag the first
    assert panel.card.flag_button.isChecked()
    assert quiz.flagged_ids(ctx.db) == [ids[0]]
    marks = ["got"] * total
    marks[1], marks[2] = "missed", "shaky"
    keys = {"got": Qt.Key.Key_1, "shaky": Qt.Key.Key_2, "missed": Qt.Key.Key_3}
    for mark in marks:
        key(qtbot, page, Qt.Key.Key_Space)
        key(qtbot, page, keys[mark])
    assert panel.session.finished
    assert panel.stack.currentWidget() is panel.message
    assert "1 shaky, 1 missed" in panel.message.label.text()
    assert panel.message.flagged_button.isVisible()

    qtbot.mouseClick(panel.message.again_button, Qt.MouseButton.LeftButton)
    order = [item.question.id for item in panel.session.items]
    assert order[:3] == [ids[1], ids[2], ids[0]]  # missed, shaky, flagged
    assert panel.card.reason_label.text().startswith("Missed last time")


def test_show_flagged_opens_only_the_flagged_questions(qtbot, page, ctx, bus):
    questions = ctx.content.quiz()
    quiz.set_flag(ctx.db, questions[3], True, ctx.now())
    quiz.set_flag(ctx.db, questions[1], True, ctx.now())
    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    bus.open_flagged_quiz.emit()
    assert page.tabs.currentIndex() == page.QUIZ_TAB
    assert page.quiz.flagged_box.isChecked()
    shown = {item.question.id for item in page.quiz.session.items}
    assert shown == {questions[1].id, questions[3].id}
    assert page.quiz.card.flag_button.isChecked()


def test_flagged_only_with_nothing_flagged_says_how_to_flag(qtbot, page):
    page.show_flagged()
    assert page.quiz.stack.currentWidget() is page.quiz.message
    assert "Nothing is flagged" in page.quiz.message.label.text()
    qtbot.mouseClick(page.quiz.message.all_button, Qt.MouseButton.LeftButton)
    assert not page.quiz.flagged_box.isChecked()
    assert page.quiz.stack.currentWidget() is page.quiz.card


def test_no_quiz_content_says_so(qtbot, ctx, bus, tmp_path, monkeypatch):
    from companion.core import paths
    from companion.ui.selfcheck.page import SelfCheckPage

    empty = tmp_path / "no-content"
    empty.mkdir()
    monkeypatch.setattr(paths, "shipped_content_dir", lambda: empty)
    widget = SelfCheckPage(ctx, bus)
    qtbot.addWidget(widget)
    widget.on_shown()
    assert "No self-check questions yet" in widget.quiz.message.label.text()
    key(qtbot, widget, Qt.Key.Key_Space)  # keys do nothing harmful on an empty quiz
    widget.tabs.setCurrentIndex(widget.PLANNER_TAB)
    loops.create_loop(ctx.db, "Acme")
    widget.planner.refresh()
    assert widget.planner.suggested.no_suggestions.isVisibleTo(widget.planner)
    assert not widget.planner.suggested.tree.isVisibleTo(widget.planner)


def test_planner_without_loops_points_to_the_journal(qtbot, page, bus):
    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    panel = page.planner
    assert panel.stack.currentWidget() is panel.empty
    assert "Journal" in panel.empty.label.text()
    with qtbot.waitSignal(bus.open_page) as blocker:
        qtbot.mouseClick(panel.empty.journal_button, Qt.MouseButton.LeftButton)
    assert blocker.args == ["journal"]


def _suggestion_item(panel, audience: str, n: int = 0):
    for i in range(panel.suggested.tree.topLevelItemCount()):
        group = panel.suggested.tree.topLevelItem(i)
        if group.data(0, Qt.ItemDataRole.UserRole + 1) == audience:
            return group.child(n)
    raise AssertionError(audience)


def test_planning_questions_for_a_loop(qtbot, page, ctx, bus):
    loop_id = loops.create_loop(ctx.db, "Acme", "ML infra", starts_on="2026-12-02")
    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    panel = page.planner
    bus.announce(Change.of("loop", ids=[loop_id]))  # the journal added a loop
    assert panel.stack.currentWidget() is panel.planner
    assert panel.loop_id() == loop_id

    # A peer question picked from its group goes to a peer: no warning.
    panel.suggested.tree.setCurrentItem(_suggestion_item(panel, "peer"))
    assert panel.suggested.add_audience.currentData() == "peer"
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        qtbot.keyClick(panel.suggested.tree, Qt.Key.Key_Return)
    (first,) = planner.plan(ctx.db, loop_id)
    assert first.audience == "peer"
    assert not panel.warnings_label.isVisibleTo(panel)

    # Adding it again is refused with a message; the plan is unchanged.
    panel.suggested.tree.setCurrentItem(_suggestion_item(panel, "peer"))
    qtbot.mouseClick(panel.suggested.add_button, Qt.MouseButton.LeftButton)
    assert "already planned" in panel.your_plan.error_label.text()
    assert len(planner.plan(ctx.db, loop_id)) == 1

    # A hiring-manager question sent to leadership warns inline.
    panel.suggested.tree.setCurrentItem(_suggestion_item(panel, "hiring-manager"))
    panel.suggested.add_audience.setCurrentIndex(
        panel.suggested.add_audience.findData("leadership")
    )
    qtbot.mouseClick(panel.suggested.add_button, Qt.MouseButton.LeftButton)
    assert panel.warnings_label.isVisibleTo(panel)
    assert "senior leader may not" in panel.warnings_label.text()
    # Moving it back to the hiring manager clears the warning.
    assert (
        panel.your_plan.plan_list.currentItem().data(Qt.ItemDataRole.UserRole + 1) == "leadership"
    )
    panel.your_plan.plan_audience.setCurrentIndex(
        panel.your_plan.plan_audience.findData("hiring-manager")
    )
    panel.your_plan.plan_audience.activated.emit(panel.your_plan.plan_audience.currentIndex())
    assert not panel.warnings_label.isVisibleTo(panel)

    # Own questions: an empty one is refused, typed ones are added with the chosen audience.
    qtbot.keyClick(panel.your_plan.custom_edit, Qt.Key.Key_Return)
    assert "empty" in panel.your_plan.error_label.text()
    for text in ("How are decisions made here?", "What would you change first?", "Why now?"):
        panel.your_plan.custom_audience.setCurrentIndex(
            panel.your_plan.custom_audience.findData("leadership")
        )
        qtbot.keyClicks(panel.your_plan.custom_edit, text)
        qtbot.keyClick(panel.your_plan.custom_edit, Qt.Key.Key_Return)
        assert panel.your_plan.custom_edit.text() == ""
    assert len(planner.planned_for(ctx.db, loop_id, "leadership")) == 3
    assert "more than four" in panel.count_label.text()
    assert "5 questions are planned" in panel.warnings_label.text()

    # Delete removes the selected one; the size warning goes away.
    panel.your_plan.plan_list.setFocus()
    panel.your_plan.plan_list.setCurrentRow(4)
    qtbot.keyClick(panel.your_plan.plan_list, Qt.Key.Key_Delete)
    assert len(planner.plan(ctx.db, loop_id)) == 4
    assert not panel.warnings_label.isVisibleTo(panel)

    # Mark asked: recorded for the journal.
    panel.your_plan.plan_list.setCurrentRow(0)
    qtbot.mouseClick(panel.your_plan.asked_button, Qt.MouseButton.LeftButton)
    assert [q.id for q in planner.asked_questions(ctx.db, loop_id)] == [first.id]
    assert panel.your_plan.plan_list.item(0).text().startswith("✓ asked")
    assert panel.your_plan.asked_button.text().replace("&", "") == "Not asked"


def test_pack_text_is_shown_as_plain_text_never_html(qtbot, ctx, bus, tmp_path):
    """A quiz answer holding <img src="file:..."> must not make Qt open that file: every
    label that shows pack text is plain text."""
    from companion.ui.selfcheck.page import SelfCheckPage

    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not an image")
    pack = ctx.data_dir / "content"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "hostile.md").write_text(
        "---\nid: hostile-quiz\nkind: quiz\nset: hostile\ntitle: Hostile\n---\n"
        f'- <b>Bold?</b> <img src="file://{secret}">\n'
        f'  answer: <img src="file://{secret}"> <a href="https://example.com">x</a>\n',
        encoding="utf-8",
    )
    ctx.reload_content()
    widget = SelfCheckPage(ctx, bus)
    qtbot.addWidget(widget)
    widget.show()
    widget.on_shown()
    panel = widget.quiz
    for label in (
        panel.card.question_label,
        panel.card.answer_label,
        panel.card.hint_label,
        panel.card.see_label,
        panel.card.reason_label,
    ):
        assert label.textFormat() == Qt.TextFormat.PlainText
    for label in (widget.planner.rule_label, widget.planner.warnings_label):
        assert label.textFormat() == Qt.TextFormat.PlainText


def test_suggested_questions_are_shown_whole(qtbot, page, ctx, bus):
    from PySide6.QtGui import QFontMetrics

    loop_id = loops.create_loop(ctx.db, "Acme", "ML infra", starts_on="2026-12-02")
    page.resize(700, 700)  # narrow: the long questions must wrap
    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    bus.announce(Change.of("loop", ids=[loop_id]))
    tree = page.planner.suggested.tree
    tree.expandAll()
    QApplication.sendPostedEvents()  # the resize and show the narrow page posted
    tree.doItemsLayout()  # the view lays its items out on a timer: now, not after a wait
    metrics = QFontMetrics(tree.font())
    cut = []
    checked = 0
    for top in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(top)
        for n in range(group.childCount()):
            item = group.child(n)
            rect = tree.visualItemRect(item)
            if not rect.isValid():
                continue
            text_width = rect.width() - 12  # the item's padding and focus frame
            needed = metrics.boundingRect(
                0, 0, text_width, 10_000, Qt.TextFlag.TextWordWrap, item.text(0)
            ).height()
            checked += 1
            if rect.height() < needed or rect.right() > tree.viewport().width() + 1:
                cut.append(item.text(0))
    assert checked, "some suggestions are on screen"
    assert not cut, cut
    assert tree.textElideMode() == Qt.TextElideMode.ElideNone


def test_the_question_set_keeps_its_width_in_a_narrow_window(qtbot, page):
    """At 200% scale the header is squeezed and the set read "All sets (6" cut off: the
    word-wrapped progress label gives up the room, never the set's name."""
    panel = page.quiz
    page.resize(300, 700)  # as narrow as the page goes: the header is squeezed
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    combo = panel.set_combo
    assert combo.currentText().startswith("All sets (")
    assert combo.width() >= combo.sizeHint().width()
    assert panel.progress_label.width() < panel.progress_label.sizeHint().width()


def test_the_hint_is_the_quiz_sections_intro(qtbot, ctx, bus):
    """The quiz's intro was replaced by a hint written in code: a pack's own words show."""
    from companion.ui.selfcheck.page import SelfCheckPage

    pack = ctx.data_dir / "content"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "mine.md").write_text(
        "---\nid: my-quiz\nkind: quiz\nset: mine\ntitle: Mine\n---\n"
        "Say it to the wall, then look.\n\n- What is two and two?\n  answer: Four.\n",
        encoding="utf-8",
    )
    ctx.reload_content()
    widget = SelfCheckPage(ctx, bus)
    qtbot.addWidget(widget)
    widget.show()
    widget.on_shown()
    panel = widget.quiz
    hints = set()
    for _ in range(panel.session.total):
        item = panel.session.current
        hints.add((item.question.set, panel.card.hint_label.text()))
        panel.card.show_button.click()
        panel.card.got_button.click()
    assert ("mine", "Say it to the wall, then look. Then press Space to check.") in hints
    intro = " ".join(ctx.content.section("quiz-day-of").intro.split())
    assert ("day-of", f"{intro} Then press Space to check.") in hints


def test_the_planner_follows_the_day_service_to_a_loop_written_elsewhere(
    qtbot, page, ctx, bus, day_service
):
    """A test pack's loop, written with no announcement on this bus: Today showed it while
    the planner still said "No interview loops yet"."""
    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    panel = page.planner
    assert panel.stack.currentWidget() is panel.empty
    loop_id = loops.create_loop(ctx.db, "Acme", starts_on=ctx.now().date().isoformat())
    view = day_service.refresh()  # what the day service's timer does
    assert view.loop_id == loop_id
    assert panel.stack.currentWidget() is panel.planner
    assert panel.loop_id() == loop_id
