"""The card around Start and End, as a view of the day: the capture in front and once,
the countdown, custom types, the stepper reset, a pick mid-round, late opening, glance
in every round type, keys that scroll what they changed into view, Esc."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from companion.core.day import actions, loops

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]


@pytest.fixture
def session(ctx, qapp):
    from companion.ui.bus import AppBus
    from companion.ui.session import Session

    bus = AppBus()
    made = Session(ctx, bus)
    yield made
    made.captures.close_all()
    if made.card is not None:
        made.card.close()
    made.shutdown()


@pytest.fixture
def loop_id(db, clock):
    return loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())


def _card(session, qtbot, round_type=""):
    card = session.show_cue_card(round_type)
    qtbot.addWidget(card)
    card.resize(380, 640)
    qtbot.waitExposed(card)
    return card


def _add(db, loop_id, rtype, when, **kw):
    rid = loops.add_round(db, loop_id, rtype, scheduled_at=when, interviewer_name=kw.get("who", ""))
    if kw.get("label"):
        loops.update_round(db, rid, type_label=kw["label"])
    return rid


def test_end_opens_one_capture_in_front_focused_and_start_end_bring_it_back(
    session, qtbot, ctx, db, loop_id, clock
):
    card = _card(session, qtbot, "coding")
    card.toggle_round()
    assert card.running
    round_id = card.running_round().id
    clock.advance(minutes=30)
    card.toggle_round()  # End
    dialog = session.captures.open_one()
    assert dialog is not None and dialog.round_id == round_id
    assert dialog.windowFlags() & Qt.WindowType.WindowStaysOnTopHint, "above the on-top card"
    qtbot.waitUntil(dialog.asked.entry.hasFocus)  # focused in "Asked"
    screen = dialog.screen().availableGeometry()
    assert screen.contains(dialog.frameGeometry()), "the whole capture on screen"
    # the next press brings the capture forward and starts nothing
    assert card.start_button.text() == "Capture"
    before = len(loops.list_rounds(db, loop_id))
    card.toggle_round()
    card.toggle_round()
    assert len(loops.list_rounds(db, loop_id)) == before and not card.running
    assert session.captures.open_one() is dialog and len(session.captures.dialogs) == 1
    # the capture opens once per round, ever: a second End of it opens nothing
    session.day.end_round(round_id)
    assert len(session.captures.dialogs) == 1
    dialog.reject()
    QApplication.processEvents()
    assert session.captures.open_one() is None
    loops.update_round(db, round_id, ended_at=None)  # its end cleared (a journal edit)
    session.day.end_round(round_id)  # and ended again: its capture opened once already
    assert session.captures.open_one() is None
    # with the capture gone, a press right after End asks before an extra round
    assert card.start_button.text() == "Start\u2026"
    clock.advance(seconds=1)  # not the tail of a double click on Capture
    card.toggle_round()
    assert not card.running and len(loops.list_rounds(db, loop_id)) == before
    card.toggle_round()  # at once: a double click's tail on the changed button does nothing
    assert not card.running and len(loops.list_rounds(db, loop_id)) == before
    clock.advance(seconds=1)
    card.toggle_round()  # a deliberate second press
    assert card.running and len(loops.list_rounds(db, loop_id)) == before + 1


def test_before_a_round_the_card_counts_down_and_between_it_shows_the_next(
    session, qtbot, db, loop_id, clock
):
    now = clock.now()
    first = _add(db, loop_id, "coding", now + dt.timedelta(minutes=12), who="Priya")
    _add(db, loop_id, "design", now + dt.timedelta(hours=2), who="Marcus")
    card = _card(session, qtbot)
    assert card.current.id == "coding"
    assert card.header.line.text() == "Coding with Priya in 12 min"
    clock.advance(minutes=12)
    session.day.refresh()
    assert card.running and card.running_round().id == first
    clock.advance(minutes=45)
    card.toggle_round()
    session.captures.close_all()
    clock.advance(minutes=5)
    session.day.refresh()
    assert card.current.id == "design"
    assert card.header.line.text().startswith("Next: System design with Marcus at ")


def test_a_custom_round_type_has_its_own_title_and_never_another_types_label(
    session, qtbot, ctx, db, loop_id, clock
):
    from companion.core.cue import state as cue_state

    # the card showed Senior leadership last time; a custom-type round runs now
    cue_state.CardMemory(ctx.settings).change(round_type="leadership")
    _add(db, loop_id, "bar-raiser", clock.now() - dt.timedelta(minutes=2), label="Bar raiser")
    card = _card(session, qtbot, "")
    assert card.running
    assert card.title.text() == "Bar raiser"
    assert card.current.id == "@generic"
    assert not any(b.isChecked() for b in card.round_buttons.values())
    page = card.pages.current()
    assert page.timebox is not None and "@pitch-outline" in page.blocks


def test_start_resets_the_stepper_and_a_pick_mid_round_is_only_viewing(
    session, qtbot, ctx, db, loop_id, clock
):
    card = _card(session, qtbot, "design")
    card.move_step(1)
    card.move_step(1)
    assert card.state.step("design") == 2
    card.toggle_round()
    assert card.state.step("design") == 0, "Start resets the stepper"
    assert card.pages.current().stepper.position.text().startswith("Step 1 of")
    clock.advance(minutes=20)
    card.tick()
    assert card.banner.isVisible()
    card.set_round("coding")  # by hand, mid-round
    assert card.header.line.text() == "viewing Coding \u00b7 System design running"
    assert not card.banner.isVisible(), "not the running round's nudges"
    page = card.pages.current()
    assert page.timebox.length.isEnabled(), "the picked type's own timer, idle"
    assert card.start_button.text() == "End"


def test_opened_late_only_the_current_nudge_shows(session, qtbot, db, loop_id, clock, content):
    rid = _add(db, loop_id, "coding", clock.now() - dt.timedelta(minutes=20))
    actions.start(db, actions.load_view(db, session.day.rules, clock.now()), clock.now(),
                  round_id=rid)  # fmt: skip
    loops.update_round(
        db, rid, started_at=loops.get_round(db, rid).scheduled_at
    )  # started 20 minutes ago
    card = _card(session, qtbot)
    assert card.running
    nudges = [i.text for i in content.section("coding-nudges").items]
    shown = [n for n in nudges if n in card.banner_text.text()]
    assert len(shown) == 1, card.banner_text.text()


@pytest.mark.parametrize(
    "round_type", ["opening", "design", "coding", "hiring-manager", "peer", "leadership"]
)
def test_glance_shows_a_step_or_the_next_question_in_every_round_type(
    session, qtbot, round_type, loop_id
):
    card = _card(session, qtbot, round_type)
    card.toggle_round()
    card.set_glance(True)
    text = card.glance_text.text()
    assert text and "press G" not in card.glance.caption.text()
    page = card.pages.current()
    lines = [ln.text for s in page.sections for ln in s.lines]
    assert text in lines, f"{round_type}: {text!r}"
    assert not card.voice.isVisible(), "glance keeps the voice line only while the mic listens"
    card.set_glance(False)
    card.toggle_round()


def _in_view(widget, page) -> bool:
    viewport = page.scroll.viewport()
    top = widget.mapTo(viewport, QPoint(0, 0)).y()
    return top >= 0 and top + min(widget.height(), 30) <= viewport.height()


def test_step_and_recovery_keys_bring_what_they_changed_into_view(session, qtbot):
    card = _card(session, qtbot, "design")
    card.resize(380, 360)
    QApplication.processEvents()
    page = card.pages.current()
    bar = page.scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    QApplication.processEvents()
    assert not _in_view(page.stepper.current, page)
    session.on_hotkey("next-step")
    QApplication.processEvents()
    assert _in_view(page.stepper.current, page), "the step it moved to"
    bar.setValue(0)
    QApplication.processEvents()
    session.on_hotkey("recovery")
    qtbot.waitUntil(lambda: _in_view(page.blocks["recovery"].header, page))


def test_esc_leaves_glance_and_never_hides_the_card(session, qtbot):
    card = _card(session, qtbot, "coding")
    QTest.keyClick(card, Qt.Key.Key_Escape)
    assert card.isVisible()
    card.set_glance(True)
    QTest.keyClick(card, Qt.Key.Key_Escape)
    assert card.isVisible() and not card.state.glance


def test_unselected_round_tabs_look_like_buttons(session, qtbot):
    card = _card(session, qtbot, "coding")
    QApplication.processEvents()
    tab = card.round_buttons["design"]
    assert not tab.isChecked() and not tab.autoRaise()
    image = tab.grab().toImage()
    edge = image.pixelColor(image.width() // 2, 0)
    inside = image.pixelColor(image.width() // 2, image.height() // 2 - 4)
    around = card.tabs.grab().toImage().pixelColor(1, 1)
    assert edge != inside or inside != around, "a frame or a fill sets the tab apart"


def test_the_session_hands_its_one_day_service_down(ctx, qapp, qtbot):
    """The bus carries changes, never the service: the session makes the one day service
    and hands it to the card it opens."""
    from companion.ui.bus import AppBus
    from companion.ui.session import Session

    bare = AppBus()
    session = Session(ctx, bare)
    assert not hasattr(bare, "day")
    card = session.show_cue_card("")
    qtbot.addWidget(card)
    assert card.day is session.day
    session.shutdown()


# --- a press at the start of a round (#46) and double clicks (#41) -------------------


def test_the_hotkey_at_12_s_into_a_clock_started_round_starts_it_at_the_press(
    session, qtbot, db, loop_id, clock
):
    """The report: the round started by itself at its time; the candidate pressed the
    start/end hotkey 12 s later and the round ended, with the capture over the call."""
    start = clock.now() + dt.timedelta(minutes=1)
    rid = _add(db, loop_id, "coding", start)
    card = _card(session, qtbot)
    clock.set(start + dt.timedelta(seconds=12))
    session.day.refresh()
    card.tick()
    assert card.running and loops.get_round(db, rid).started_at is None  # the clock's
    assert card.start_button.text() == "Start"
    assert card.header.line.text().startswith("started by the clock \u00b7 press to start now")
    session.on_hotkey("start-end-round")
    rnd = loops.get_round(db, rid)
    assert rnd.ended_at is None and rnd.started == clock.now(), "re-anchored at the press"
    assert session.captures.open_one() is None
    assert card.running and card.header.line.text().startswith(f"started {clock.now():%H:%M}")
    # a second press at once (a double press) does not end it either
    session.on_hotkey("start-end-round")
    clock.advance(seconds=2)
    session.on_hotkey("start-end-round")  # a first deliberate press only asks
    assert loops.get_round(db, rid).ended_at is None and card.start_button.text() == "End now"
    clock.advance(seconds=2)
    session.on_hotkey("start-end-round")  # the second one ends it
    assert loops.get_round(db, rid).ended == clock.now()


def test_double_clicks_on_the_cards_start_and_end_make_one_transition_each(
    session, qtbot, db, loop_id, clock
):
    first = _add(db, loop_id, "coding", clock.now() + dt.timedelta(minutes=3))
    second = _add(db, loop_id, "design", clock.now() + dt.timedelta(minutes=50))
    card = _card(session, qtbot)
    button = card.start_button
    assert button.text() == "Start"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the double click's second half
    rnd = loops.get_round(db, first)
    assert rnd.started == clock.now() and rnd.ended_at is None
    assert card.start_button.text() == "End"  # not armed by the tail of the double click
    clock.advance(minutes=40)
    card.tick()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert loops.get_round(db, first).ended == clock.now()
    assert loops.get_round(db, second).started_at is None
    assert len(session.captures.dialogs) == 1


def test_the_card_passes_no_length_an_invitations_60_minutes_stay(
    session, qtbot, db, loop_id, clock
):
    """The card's Start wrote its own 45 over the round's 60 (the invitation's end)."""
    rid = _add(db, loop_id, "coding", clock.now() + dt.timedelta(minutes=2))
    loops.update_round(db, rid, length_minutes=60)
    card = _card(session, qtbot)
    card.state.minutes["coding"] = 45  # a length chosen on the card for the type
    card.memory.change("minutes")
    card.toggle_round()
    assert loops.get_round(db, rid).length_minutes == 60
    assert session.day.view.round(rid).minutes == 60


def test_the_cards_countdown_wakes_when_its_words_change_like_todays(
    session, qtbot, db, loop_id, clock
):
    """The card once said "in 3 min" beside Today's "in 2 min": before a round it woke
    only at the day's changes. It wakes when the words change, by the same rule."""
    from companion.core.day.clock import countdown_text

    start = clock.now() + dt.timedelta(minutes=3, seconds=20)
    _add(db, loop_id, "coding", start)
    card = _card(session, qtbot)
    assert card.header.line.text().endswith("in 4 min")
    assert card.ticker.line_timer.isActive() and card.ticker.line_timer.interval() == 20_000
    clock.advance(seconds=20)
    card.ticker.line_timer.timeout.emit()
    assert card.header.line.text().endswith(countdown_text(start - clock.now()))
    assert card.header.line.text().endswith("in 3 min")


def test_a_custom_rounds_title_stays_while_its_capture_is_open(session, qtbot, db, loop_id, clock):
    """The walk: after a custom "Bar raiser" round ended, the header went back to
    "Peer / IC" (the next round's base type) while its capture was still open."""
    rid = _add(db, loop_id, "bar-raiser", clock.now() + dt.timedelta(minutes=1), label="Bar raiser")
    _add(db, loop_id, "peer", clock.now() + dt.timedelta(minutes=120))
    card = _card(session, qtbot)
    clock.advance(minutes=1)
    card.toggle_round()
    assert card.title.text() == "Bar raiser"
    clock.advance(minutes=40)
    card.tick()
    card.toggle_round()
    assert loops.get_round(db, rid).ended_at is not None
    assert session.captures.open_one() is not None
    assert card.title.text() == "Bar raiser"


STORIES = """## Story: Cut GPU cost
Tags: ownership, impact
Result: Spend fell 40%.

## Story: The schema fight
Tags: conflict
Result: One schema in 2 weeks.
"""


def test_while_its_capture_is_open_the_stories_fold_is_the_ended_rounds(
    session, qtbot, db, loop_id, clock
):
    """The #41 walk: after the loop's last round (a hiring-manager round) ended, its
    capture open, the fold lost the story's told mark and said "Start the round to mark
    a story told"; with a later round of the same type, a story marked then went to it."""
    from companion.core.about import store as about_store
    from companion.core.stories.rounds import used_stories

    about_store.save_text(db, STORIES, clock.now(), doc="stories")
    rid = _add(db, loop_id, "hiring-manager", clock.now() + dt.timedelta(minutes=1))
    later = _add(db, loop_id, "hiring-manager", clock.now() + dt.timedelta(minutes=180))
    card = _card(session, qtbot)
    clock.advance(minutes=1)
    card.toggle_round()
    assert card.running_round().id == rid
    assert card.stories.toggle_used("the-schema-fight") is True
    clock.advance(minutes=40)
    card.tick()
    card.toggle_round()
    assert loops.get_round(db, rid).ended_at is not None
    assert session.captures.open_one() is not None
    fold = card.stories.fold
    assert "Start the round" not in fold.filter.text()
    assert any(fold.list.item(i).text().startswith("\u2713 The schema fight") for i in range(2))
    assert card.stories.toggle_used("cut-gpu-cost") is True
    assert used_stories(db, rid) == {"the-schema-fight", "cut-gpu-cost"}
    assert used_stories(db, later) == frozenset()


def test_a_press_just_after_end_now_ran_out_is_taken(session, qtbot, db, loop_id, clock):
    """The walk: "End now" ran out and turned back to "End" as the hesitant press came;
    that press was taken for a double click's tail and did nothing."""
    from companion.core.cue.card import ARMED_FOR

    rid = _add(db, loop_id, "coding", clock.now())
    card = _card(session, qtbot)
    qtbot.mouseClick(card.start_button, Qt.MouseButton.LeftButton)  # started by the press
    clock.advance(seconds=2)
    qtbot.mouseClick(card.start_button, Qt.MouseButton.LeftButton)  # young: it only asks
    assert card.start_button.text() == "End now"
    clock.advance(seconds=ARMED_FOR.total_seconds() + 0.1)
    card.render()  # the armed press runs out: the clock changed the button, no press
    assert card.start_button.text() == "End"
    clock.advance(seconds=0.2)
    qtbot.mouseClick(card.start_button, Qt.MouseButton.LeftButton)
    assert card.start_button.text() == "End now"  # asked again, not swallowed
    assert loops.get_round(db, rid).ended_at is None
