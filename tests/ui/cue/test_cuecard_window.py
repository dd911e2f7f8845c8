"""The cue card window: switching, stepping, the timebox on a fake clock, geometry."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from companion.core.cue import placement
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import state as cue_state
from companion.core.day import loops

pytestmark = pytest.mark.gui


@pytest.fixture
def make_card(ctx, bus, day_service, qtbot):
    from companion.ui.cue.window import CueCardWindow

    def make():
        card = CueCardWindow(ctx, bus, day_service)
        qtbot.addWidget(card)
        return card

    return make


@pytest.fixture
def card(make_card):
    return make_card()


def _restart(card, make_card):
    card.close()
    return make_card()


def test_window_is_an_on_top_tool_that_does_not_take_focus(card):
    flags = card.windowFlags()
    assert flags & Qt.WindowType.Tool
    assert flags & Qt.WindowType.WindowStaysOnTopHint
    assert card.testAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
    assert card.start_button.accessibleName() == "Start round"
    assert "Ctrl+Enter" in card.start_button.toolTip()
    assert all(b.accessibleName() and b.toolTip() for b in card.round_buttons.values())


def test_switch_by_click_and_by_key(card, content, make_card):
    card.round_buttons["coding"].click()
    assert card.current.id == "coding" and card.title.text() == "Coding"
    card.set_round("opening")
    assert card.title.text() == "Opening" and "tell me" in card.title.toolTip()
    card.set_round("coding")
    assert card.stack.currentWidget().round_id == "coding"
    assert card.round_buttons["coding"].isChecked()
    assert not card.round_buttons["design"].isChecked()
    from PySide6.QtTest import QTest

    QTest.keyClick(card, Qt.Key.Key_2)
    assert card.current.id == "design"
    page = card.stack.currentWidget()
    assert [s.id for s in page.sections] == list(
        cue_rounds.find_round(cue_rounds.round_infos(content), "design").sections
    )
    assert "failure modes" in page.rule.text() and not page.rule.isHidden()
    QTest.keyClick(card, Qt.Key.Key_3)
    assert card.stack.currentWidget().rule.isHidden()  # coding has no standing rule
    QTest.keyClick(card, Qt.Key.Key_2)
    QTest.keyClick(card, Qt.Key.Key_9)  # no round on 9: nothing changes
    assert card.current.id == "design"
    again = _restart(card, make_card)
    assert again.current.id == "design"


def test_every_round_type_renders(card, content):
    for info in cue_rounds.round_infos(content):
        assert card.set_round(info.id)
        page = card.stack.currentWidget()
        assert page.round_id == info.id and page.blocks
    assert not card.set_round("no-such-round")


def test_coding_moves_end_with_the_contents_last_step(card, content):
    """Trade-offs and narration, then the check-in at the timebox closes the move: the
    card adds no step of its own (no hard-coded "hand back")."""
    steps = content.section("coding-moves").items
    card.set_round("coding")
    stepper = card.stack.currentWidget().stepper
    for _ in steps:
        stepper.forward.click()
    assert stepper.current.text() == steps[-1].text
    assert steps[-1].get("id") == "check-in"
    assert [s.get("id") for s in steps[-3:-1]] == ["tradeoffs", "narrate"]
    assert stepper.next.text() == "Last step."
    assert not stepper.forward.isEnabled()


def test_stepper_keys_and_restart(card, content, make_card):
    from PySide6.QtTest import QTest

    steps = content.section("design-move").items
    card.set_round("design")
    stepper = card.stack.currentWidget().stepper
    assert stepper.current.text() == steps[0].text
    assert stepper.next.text() == f"Next: {steps[1].text}"
    QTest.keyClick(card, Qt.Key.Key_Right)
    QTest.keyClick(card, Qt.Key.Key_Space)
    QTest.keyClick(card, Qt.Key.Key_Right)
    QTest.keyClick(card, Qt.Key.Key_Left)
    assert stepper.current.text() == steps[2].text
    assert stepper.position.text().startswith(f"Step 3 of {len(steps)}")
    stepper.back.click()
    assert stepper.current.text() == steps[1].text
    again = _restart(card, make_card)
    assert again.stack.currentWidget().stepper.current.text() == steps[1].text


def test_timebox_nudges_on_a_fake_clock_and_records_the_round(
    card, ctx, db, clock, qtbot, make_card
):
    loop_id = loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())
    card.set_round("coding")
    timebox = card.stack.currentWidget().timebox
    timebox.length.setValue(30)
    assert "30:00" in timebox.clock.text()
    card.toggle_round()
    assert card.start_button.text() == "End"
    round_id = card.state.round_id
    rnd = loops.get_round(db, round_id)
    assert rnd.loop_id == loop_id and rnd.type == "coding" and rnd.started == clock.now()

    clock.advance(minutes=20, seconds=2)
    card.tick()
    assert not card.banner.isHidden()
    assert "Working solution" in card.banner_text.text()
    assert timebox.clock.text() == "9:58 left"
    assert not timebox.length.isEnabled()
    card.set_glance(True)
    assert "Working solution" in card.glance_text.text()
    card.set_glance(False)

    clock.advance(minutes=8, seconds=30)  # 28:32: near the end
    card.tick()
    assert card.clock.property("phase") == "near-end"

    again = _restart(card, make_card)  # the timer survives a restart
    again.set_round("coding")
    again.tick()
    assert again.running and again.clock.text() == "1:28"
    assert again.banner.isHidden()  # nudges already shown are not shown again

    clock.advance(minutes=3)
    with qtbot.waitSignal(again.bus.capture_round) as signal:
        again.toggle_round()
    assert signal.args == [round_id]
    assert loops.get_round(db, round_id).ended == clock.now()
    assert not again.running
    # right after End, Start says it would begin an extra round and asks for a second press
    assert again.start_button.text() == "Start\u2026" and "again" in again.start_button.toolTip()
    clock.advance(seconds=1)  # not the tail of a double click on End
    again.toggle_round()
    assert not again.running and again.start_button.text() == "Start extra"
    assert len(loops.list_rounds(db, loop_id)) == 1


def test_glance_shows_the_current_step(card, content):
    card.set_round("design")
    card.move_step(1)
    card.set_glance(True)
    assert card.stack.isHidden() and not card.glance.isHidden()
    assert card.glance_text.text() == content.section("design-move").items[1].text
    from PySide6.QtTest import QTest

    QTest.keyClick(card, Qt.Key.Key_Escape)
    assert not card.state.glance and not card.stack.isHidden()


def test_look_and_state_survive_a_restart(card, make_card):
    from PySide6.QtTest import QTest

    card.set_opacity(40)
    assert card.windowOpacity() == pytest.approx(0.4, abs=0.01)
    QTest.keyClick(card, Qt.Key.Key_BracketLeft)
    QTest.keyClick(card, Qt.Key.Key_BracketLeft)  # clamps at 30
    QTest.keyClick(card, Qt.Key.Key_Plus)
    card.set_glance(True)
    font = card.state.font_pt
    again = _restart(card, make_card)
    assert again.state.opacity == 30 and again.state.font_pt == font == cue_state.DEFAULT_FONT + 1
    assert again.state.glance and again.glance_button.isChecked()
    assert f"{font}pt" in again.styleSheet()


def test_collapse_and_topic(card, content):
    card.set_round("peer")
    page = card.stack.currentWidget()
    page.blocks["traps"].header.click()
    assert page.blocks["traps"].body.isHidden()
    assert card.state.collapsed == ["traps"]
    card.set_round("coding")  # the fold applies to the same section everywhere
    assert card.stack.currentWidget().blocks["traps"].body.isHidden()
    field = card.stack.currentWidget().topic_field
    field.edit.setText("GPU scheduling")
    closing = card.stack.currentWidget().closing_labels[0][0]
    assert "GPU scheduling is precisely" in closing.text()
    card.set_round("peer")
    assert "GPU scheduling" in card.stack.currentWidget().closing_labels[0][0].text()


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking, no hints
def test_share_reminder_once_a_day(make_card, clock, qtbot):
    first = make_card()
    first.show_card()
    assert not first.reminder.isHidden()
    second = _restart(first, make_card)
    second.show_card()
    assert second.reminder.isHidden()
    clock.advance(days=1)
    third = _restart(second, make_card)
    third.show_card()
    assert not third.reminder.isHidden()


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_a_glance_hides_the_nudge_and_the_reminder_for_a_while_a_dismissal_for_good(
    card, db, clock
):
    loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())
    card.show_card()
    card.set_round("coding")
    card.stack.currentWidget().timebox.length.setValue(30)
    card.toggle_round()
    clock.advance(minutes=20, seconds=2)
    card.tick()
    assert not card.banner.isHidden() and not card.reminder.isHidden()
    card.set_glance(True)
    assert card.banner.isHidden() and card.reminder.isHidden()
    card.set_glance(False)
    assert not card.banner.isHidden(), "the nudge due now is back after the glance"
    assert "Working solution" in card.banner_text.text()
    assert not card.reminder.isHidden(), "the reminder was never dismissed"
    card.reminder.dismiss_button.click()
    card.banner.dismiss_button.click()
    card.set_glance(True)
    card.set_glance(False)
    assert card.reminder.isHidden() and card.banner.isHidden(), "dismissed stays dismissed"


def test_geometry_per_layout_and_off_screen_rescue(make_card, monkeypatch):
    from companion.ui.cue import geometry

    left, right = placement.Rect(0, 0, 1920, 1080), placement.Rect(1920, 0, 1920, 1080)
    layout = {"screens": [left, right]}
    monkeypatch.setattr(geometry, "screens", lambda: (layout["screens"], layout["screens"]))
    card = make_card()
    card.restore_geometry()
    card.setGeometry(3000, 200, 400, 500)
    card.appearance.save_geometry()
    again = _restart(card, make_card)
    assert not again.restore_geometry()
    assert (again.x(), again.y(), again.width(), again.height()) == (3000, 200, 400, 500)
    layout["screens"] = [left]  # the right monitor is unplugged
    third = _restart(again, make_card)
    assert third.restore_geometry()  # rescued
    assert third.x() >= 0 and third.x() + third.width() <= 1920
    assert (third.width(), third.height()) == (400, 500)


def test_opening_uses_own_outline_when_about_me_has_one(card, ctx, clock):
    from companion.core.about import store as about_store

    about_store.save_text(
        ctx.db, "# Me\n\n## Who I am\n\nI run the payments platform.\n", clock.now()
    )
    about_store.set_words_per_minute(ctx.db, 150)
    from companion.core.changes import Change

    card.bus.announce(Change.of("about"))
    card.set_round("opening")
    outline = card.stack.currentWidget().sections[0]
    assert outline.kind == "pitch-outline" and outline.lines[0].text == "Who I am"
    assert outline.lines[0].detail == "I run the payments platform."
    assert outline.lines[0].meta == "2 s / 10 s"  # five words at 150 a minute


def test_command_rejects_unknown_round(capsys, data_dir):
    from companion.cli import main

    assert main(["cue", "--round", "nope"]) == 2
    assert "unknown round type 'nope'" in capsys.readouterr().err
    assert main(["cue", "--list"]) == 0
    assert "coding" in capsys.readouterr().out


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_cue_page_saves_choices_and_opens_the_card(ctx, bus, day_service, db, qtbot, make_card):
    from companion.ui.cue.page import CuePage

    loop_id = loops.create_loop(db, "Acme")
    card = make_card()  # an open card keeps its own edits and picks up the page's
    card.set_round("design")
    card.appearance.change_font(2)
    page = CuePage(ctx, bus)
    qtbot.addWidget(page)
    page.round_combo.setCurrentIndex(page.round_combo.findData("coding"))
    page.loop_combo.setCurrentIndex(page.loop_combo.findData(loop_id))
    page.minutes.setValue(60)
    card.memory.save_now()
    state = cue_state.load_state(ctx.settings)
    assert state.loop_id == loop_id and state.minutes["coding"] == 60
    assert state.font_pt == cue_state.DEFAULT_FONT + 2
    with qtbot.waitSignal(bus.show_cue_card) as signal:
        page.open_button.click()
    assert signal.args == ["coding"]
    from companion.ui.cue.window import open_cue_card

    assert open_cue_card(ctx, bus, day_service, "coding", card) is card
    assert card.current.id == "coding" and card.state.loop_id == loop_id
    assert card.stack.currentWidget().timebox.length.value() == 60


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_the_cue_page_opens_the_card_on_the_days_round(ctx, bus, day_service, db, qtbot, clock):
    """Not on the last type used: on the round running now (unless one is picked here)."""
    import datetime as dt

    from companion.ui.cue.page import CuePage
    from companion.ui.cue.window import open_cue_card

    loop_id = loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())
    loops.add_round(db, loop_id, "design", scheduled_at=clock.now() - dt.timedelta(minutes=5))
    page = CuePage(ctx, bus)
    qtbot.addWidget(page)
    with qtbot.waitSignal(bus.show_cue_card) as signal:
        page.open_button.click()
    assert signal.args == [""]
    card = open_cue_card(ctx, bus, day_service, signal.args[0] or None)
    qtbot.addWidget(card)
    assert card.current.id == "design" and card.running


def test_a_card_with_its_window_frame_on_stays_on_top(card, make_card):
    """The frame switch rebuilds the window flags: on-top must survive it, and a card
    opened with its frame on must be on top from the start."""
    card.appearance.set_frameless(False)
    flags = card.windowFlags()
    assert not flags & Qt.WindowType.FramelessWindowHint
    assert flags & Qt.WindowType.WindowStaysOnTopHint and flags & Qt.WindowType.Tool
    framed = _restart(card, make_card)
    assert not framed.state.frameless
    assert framed.windowFlags() & Qt.WindowType.WindowStaysOnTopHint
    framed.appearance.set_frameless(True)
    assert framed.windowFlags() & Qt.WindowType.FramelessWindowHint
    assert framed.windowFlags() & Qt.WindowType.WindowStaysOnTopHint


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), opacity
def test_a_fold_shows_its_sections_introduction_while_open(qtbot, card, content):
    """The guide's few words on why a section matters (recover in one breath, talk while
    you work) reached only the checklists; the card's folds show them under the title."""
    from companion.ui.cue.sections import CollapsibleSection

    card.show()
    qtbot.waitExposed(card)
    seen = 0
    for info in cue_rounds.round_infos(content):
        card.set_round(info.id)
        for fold in card.stack.currentWidget().findChildren(CollapsibleSection):
            intro = next(
                (s.intro for s in card.stack.currentWidget().sections if s.id == fold.section_id),
                "",
            )
            assert fold.intro.text() == intro
            if intro:
                seen += 1
                if fold.collapsed:
                    fold.set_collapsed(False)
                assert fold.intro.isVisible() and fold.intro.wordWrap()
                assert fold.intro.width() <= fold.width()  # wrapped, never widening the card
                fold.set_collapsed(True)
                assert not fold.intro.isVisible()
                fold.set_collapsed(False)
    assert seen, "the shipped pack introduces some of the card's sections"


def test_command_knows_the_journals_custom_types(capsys, data_dir, monkeypatch):
    """`companion cue --round inference-deep-dive` (a type from an imported invitation)
    was refused and `--list` did not know it."""
    from companion.cli import main
    from companion.commands import cue as cue_command
    from companion.core.context import AppContext

    made = AppContext(data_dir)
    loop_id = loops.create_loop(made.db, "Acme")
    rid = loops.add_round(made.db, loop_id, "inference-deep-dive")
    loops.update_round(made.db, rid, type_label="Inference deep dive")
    made.close()
    assert main(["cue", "--list"]) == 0
    out = capsys.readouterr().out
    assert "inference-deep-dive" in out and "Inference deep dive (custom" in out
    shown = []
    monkeypatch.setattr(cue_command, "_run_gui", lambda ctx, rtype: shown.append(rtype) or 0)
    assert main(["cue", "--round", "inference-deep-dive"]) == 0, capsys.readouterr().err
    assert (
        len(shown) == 1 and shown[0] != "inference-deep-dive"
    )  # its page: a known type or the day's


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_companion_while_the_card_runs_opens_the_main_window(ctx, bus, day_service, qtbot):
    """`companion` while `companion cue` ran only brought the card forward."""
    from companion.ui.process.card_launch import open_main

    mains: list = []
    window = open_main(ctx, bus, day_service, mains)
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    assert window.isVisible() and window.windowTitle()
    assert open_main(ctx, bus, day_service, mains) is window and len(mains) == 1
    window.close()


def test_the_cue_card_page_scrolls_to_its_last_line(ctx, bus, qtbot):
    """At 200 % the page's help ran past its bottom edge with no way to reach it."""
    from PySide6.QtWidgets import QApplication

    from companion.ui.cue.page import CuePage
    from companion.ui.widgets.vertical_scroll import VerticalScroll

    page = CuePage(ctx, bus)
    qtbot.addWidget(page)
    page.resize(500, 260)  # shorter than its settings and help
    page.show()
    qtbot.waitExposed(page)
    QApplication.processEvents()
    scroll = page.findChild(VerticalScroll)
    assert scroll is not None and scroll.verticalScrollBar().maximum() > 0
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    assert page.open_button.isVisibleTo(page)
