"""The Today page through a whole interview day, on a fake clock and a fake desktop."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest
from desktop_standins import FakeGsettings
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from companion.core.day.loops import add_round, create_loop, get_round, update_round
from companion.core.dnd.adapters import GnomeAdapter
from companion.core.dnd.base import CommandResult
from companion.core.dnd.controller import DndController
from companion.core.dnd.record import record_path
from companion.core.timeutil import to_stored

pytestmark = pytest.mark.gui

TZ = dt.timezone(dt.timedelta(hours=1))


def at(day: int, hour: int, minute: int = 0, second: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, second, tzinfo=TZ)


@pytest.fixture
def desk():
    return FakeGsettings()


@pytest.fixture
def dnd(request, ctx, bus, desk, clock):
    """The session's do-not-disturb model on a stand-in GNOME (``request.param``: another
    command runner), handed to the day service (tests/conftest.py)."""
    from companion.ui.dnd.switch import DndModel

    run = getattr(request, "param", desk)
    controller = DndController(GnomeAdapter(run), record_path(ctx.data_dir), clock=clock)
    return DndModel(ctx, bus, controller=controller)


@pytest.fixture
def notes(bus):
    """What reached the user as a notification (the desktop service is not on this bus,
    so the notifier falls back to the window, recorded here)."""
    seen = []
    day(bus).notifier._fallback = lambda title, message: seen.append((title, message))
    bus.notify.connect(lambda title, message: seen.append((title, message)))
    return seen


def day(bus):
    """The test's day service (the one its pages are handed)."""
    return _day[0]


_day: list = []


@pytest.fixture(autouse=True)
def _remember_day(day_service):
    _day[:] = [day_service]
    yield
    _day.clear()


def tick(bus):
    """The day service's timer fired (the tests move a fake clock instead of waiting)."""
    return day(bus).refresh()


def make_page(qtbot, ctx, bus):
    from companion.ui.today.page import TodayPage

    page = TodayPage(ctx, bus, day=day(bus))
    qtbot.addWidget(page)
    page.resize(800, 900)
    page.show()
    page.on_shown()
    qtbot.waitUntil(lambda: page._built)
    return page


@pytest.fixture
def loop(db):
    loop_id = create_loop(db, "Acme", "SRE", starts_on="2026-12-02")
    first = add_round(db, loop_id, "coding", scheduled_at=at(2, 10))
    second = add_round(db, loop_id, "design", scheduled_at=at(2, 11, 30))
    return loop_id, first, second


def test_empty_state_says_how_to_start(qtbot, ctx, bus, dnd):
    page = make_page(qtbot, ctx, bus)
    assert page.start_here.isVisible() and "Add a loop" in page.start_here.label.text()
    assert not page.schedule_box.isVisible()
    # one heading (the page title), then the steps: no line repeating "no loop yet"
    assert not page.countdown.isVisible()
    assert "<h3>" not in page.start_here.label.text()
    assert page.loops.add_button.text() == "Add a &loop…"  # Alt+L, the loop key
    page.create_loop("Acme", "SRE", "2026-12-02")
    assert not page.start_here.isVisible() and page.schedule_box.isVisible()
    assert page.countdown.isVisible()
    assert page.loops.add_button.text() == "Add a l&oop…"  # Alt+L is the Loop list now
    assert page.countdown.text() == "No rounds scheduled yet: add them below."
    assert page.schedule.add_button.isEnabled()
    page.schedule.save_new(
        {
            "scheduled_at": at(2, 10),
            "type": "coding",
            "interviewer_role": "peer",
            "interviewer_name": "Sam",
        }
    )
    assert page.countdown.text() == "Next: Coding round at Wed 2 Dec 10:00, in 1 d 1 h"
    assert page.schedule.tree.topLevelItemCount() == 1


def test_the_page_title_shows_a_company_name_as_typed(qtbot, ctx, bus, dnd):
    """The title was rich text ("<h2>Today · ...</h2>"): markup in a company name ran."""
    from PySide6.QtCore import Qt

    page = make_page(qtbot, ctx, bus)
    page.create_loop("<b>Acme</b> & Co", "SRE", "2026-12-02")
    assert page.headline.text() == "Today · <b>Acme</b> & Co · SRE"
    assert page.headline.textFormat() == Qt.TextFormat.PlainText


def test_the_day_brings_up_each_phase_and_notifies_once(qtbot, ctx, bus, dnd, clock, loop, notes):
    loop_id, first, _second = loop
    page = make_page(qtbot, ctx, bus)
    assert page.phase_group is None and notes == []

    clock.set(at(1, 18))
    tick(bus)
    assert page.now_box.title() == "Now: night before"
    assert page.phase_group.phase_list.phase == "night-before"
    assert notes == [("Tomorrow: first round at 10:00", notes[0][1])]
    assert notes[0][1].endswith("(due at 17:00)")  # sent late, with its time

    clock.set(at(2, 7))
    tick(bus)
    assert page.phase_group.phase_list.phase == "morning-of"
    assert notes[-1][0] == "Interview day: first round at 10:00"

    clock.set(at(2, 9, 50))
    tick(bus)
    assert page.phase_group.phase_list.phase == "before-round"
    assert page.phase_group.scope.round_id == first
    # the app slept through 15 minutes before: only the newest step is shown, late ones once
    assert notes[-1][0] == "Coding round in 10 min (10:00)"
    assert "notebook" in notes[-1][1].lower()
    count = len(notes)
    clock.advance(seconds=20)
    tick(bus)
    assert len(notes) == count  # each reminder once

    # a restart does not send them again either: the dedupe is in the database
    from companion.ui.bus import AppBus
    from companion.ui.day.notifier import Notifier
    from companion.ui.day.service import DayService

    other = AppBus()
    fresh = DayService(ctx, other, Notifier(other, fallback=lambda t, m: notes.append((t, m))))
    fresh.refresh()
    assert len(notes) == count


def test_warm_up_and_item_links(qtbot, ctx, bus, dnd, clock, loop, desk):
    clock.set(at(2, 9, 50))
    page = make_page(qtbot, ctx, bus)
    opened, flagged = [], []
    bus.open_page.connect(opened.append)
    bus.open_flagged_quiz.connect(lambda: flagged.append(True))
    buttons = {
        b.text().replace("&", ""): b for b in page.now_box.findChildren(type(page.loops.add_button))
    }
    # the warm-up is the steps' own links (the two buttons that repeated them are gone)
    assert "Read the pitch aloud" not in buttons and "Speak one answer aloud" not in buttons
    links = page.phase_group.link_buttons
    by_link = {
        item.link: links[item.key] for item in page.phase_group.phase_list.items if item.link
    }
    by_link["about-me"].click()
    by_link["one-answer"].click()  # nothing flagged: the quiz offers one
    assert opened == ["about", "selfcheck"] and flagged == []
    by_link["dnd"].click()
    assert desk.banners is False
    assert page.dnd_banner.isVisible() and "until the round ends" in page.dnd_banner.text()
    assert by_link["dnd"].text() == "Turn notifications back on"


def test_dnd_restored_when_the_round_ends(qtbot, ctx, bus, dnd, clock, loop, desk, notes):
    _loop_id, first, _ = loop
    clock.set(at(2, 9, 50))
    page = make_page(qtbot, ctx, bus)
    page.dnd_switch.box.click()
    # ticked 10 minutes early: the choice is kept, notifications pause when the round starts
    assert desk.banners is True and dnd.hold is None and page.dnd_switch.box.isChecked()
    assert "when the round starts" in page.dnd_switch.status.text()
    clock.set(at(2, 10, 0))
    tick(bus)
    assert desk.banners is False and dnd.hold.round_id == first
    # a restart mid-round: start-up restores the pause, the day makes it again
    from companion.core.dnd.controller import restore_after_crash

    clock.set(at(2, 10, 30))
    restore_after_crash(ctx, run=desk)
    assert desk.banners is True and dnd.hold is None
    tick(bus)
    assert desk.banners is False and dnd.hold.round_id == first  # still in the round
    page.dnd_switch.refresh()
    assert page.dnd_switch.box.isChecked()
    clock.set(at(2, 10, 46))  # coding is 45 minutes
    tick(bus)
    assert desk.banners is True and dnd.hold is None
    assert ("Round over", "Notifications are back on.") in notes
    assert not page.dnd_banner.isVisible()


def test_round_finished_restores_and_opens_capture(qtbot, ctx, bus, dnd, clock, loop, desk):
    _loop_id, first, _ = loop
    clock.set(at(2, 10, 5))
    page = make_page(qtbot, ctx, bus)
    assert page.now_box.title() == "Now: in the round"
    dnd.set_on(True, round_id=first)
    captured = []
    bus.capture_round.connect(captured.append)
    finish = next(
        b for b in page.now_box.findChildren(type(page.loops.add_button)) if "finished" in b.text()
    )
    finish.click()
    assert captured == [first]
    assert get_round(ctx.db, first).ended_at is not None
    assert desk.banners is True
    assert page.countdown.text().startswith("Next: System design")


def _broken(argv):
    return CommandResult(1, "", "dconf: permission denied")


@pytest.mark.parametrize("dnd", [_broken], indirect=True)
def test_failing_dnd_is_told_not_hidden(qtbot, ctx, bus, clock, loop, notes, dnd):
    page = make_page(qtbot, ctx, bus)
    page.dnd_switch.box.click()
    assert not page.dnd_switch.box.isChecked()
    assert "permission denied" in page.dnd_switch.status.text()
    assert notes and "permission denied" in notes[-1][1]


def test_journal_reminders_show_with_actions(qtbot, ctx, bus, dnd, clock, loop):
    _loop_id, first, _ = loop
    clock.set(at(2, 11))  # the coding round ended by the clock at 10:45, nothing written
    page = make_page(qtbot, ctx, bus)
    assert page.reminders_box.isVisible()
    captured = []
    bus.capture_round.connect(captured.append)
    buttons = page.reminders_box.findChildren(type(page.loops.add_button))
    assert "write down what was asked" in buttons[0].accessibleName()
    buttons[0].click()
    assert captured == [first]


def test_ics_import_from_the_schedule(qtbot, ctx, bus, dnd, loop, tmp_path):
    page = make_page(qtbot, ctx, bus)
    path = tmp_path / "invite.ics"
    path.write_text(
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261202T130000Z\nSUMMARY:Hiring manager chat\n"
        "END:VEVENT\nBEGIN:VEVENT\nDTSTART:tomorrow\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    message = page.schedule.import_file(path)
    assert "Added 1 round from invite.ics" in message and "invite.ics, line 7" in message
    assert page.schedule.tree.topLevelItemCount() == 3
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    assert "not an iCalendar file" in page.schedule.import_file(bad)


def test_an_invitation_from_another_company_goes_to_its_own_loop(
    qtbot, ctx, bus, dnd, loop, tmp_path
):
    """Today showed Acme; a Globex invitation imported there landed in Acme's schedule."""
    from companion.core.day.loops import list_loops, list_rounds

    loop_id = loop[0]
    page = make_page(qtbot, ctx, bus)
    path = tmp_path / "globex.ics"
    path.write_text(
        "BEGIN:VCALENDAR\n"
        "BEGIN:VEVENT\nUID:g1\nDTSTART:20261203T150000Z\nSUMMARY:Globex - Coding\nEND:VEVENT\n"
        "BEGIN:VEVENT\nUID:g2\nDTSTART:20261203T170000Z\nSUMMARY:Globex - System design\n"
        "END:VEVENT\nEND:VCALENDAR\n"
    )
    message = page.schedule.import_file(path)
    assert "from Globex, not Acme" in message
    assert len(list_rounds(ctx.db, loop_id)) == 2  # Acme's own two, nothing added
    globex = [lp for lp in list_loops(ctx.db) if lp.company == "Globex"]
    assert len(globex) == 1 and len(list_rounds(ctx.db, globex[0].id)) == 2
    again = page.schedule.import_file(path)  # the same file again: found, nothing added
    assert "added 0 rounds," in again
    assert len([lp for lp in list_loops(ctx.db) if lp.company == "Globex"]) == 1


def test_module_import_is_light():
    """The page registry imports the page after the first paint, and the page's body is
    built later still: the module brings the day's core (pure Python) but neither the
    database library, Markdown, nor the schedule's editors (built with the body)."""
    code = (
        "import sys; import companion.ui.today.page; "
        "heavy = [m for m in ('sqlite_utils', 'markdown', 'companion.ui.today.schedule', "
        "'companion.ui.widgets.loop_dialogs') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_today_shows_the_takeaways_card(qtbot, ctx, bus, dnd, content):
    """The guide's summary reaches the user on the page they open first."""
    from html import escape

    from PySide6.QtWidgets import QLabel

    page = make_page(qtbot, ctx, bus)
    box = page.takeaways_box
    assert box is not None
    qtbot.waitUntil(lambda: box.isVisibleTo(page))  # layouts show new children queued
    shown = box.findChild(QLabel).text()
    for item in content.section("takeaways").items:
        assert escape(item.text) in shown


def test_the_chapters_pointer_to_the_next_guide_shows_under_the_takeaways(
    qtbot, ctx, bus, dnd, content
):
    from PySide6.QtWidgets import QLabel

    page = make_page(qtbot, ctx, bus)
    pointer = page.takeaways_box.findChild(QLabel, "nextGuide")
    assert pointer is not None
    assert "PagedAttention from First Principles" in pointer.text()
    assert pointer.text() == content.section("takeaways").meta["next"]


def test_the_capture_reminder_follows_the_packs_capture_window(
    qtbot, ctx, bus, day_service, dnd, clock, loop
):
    """A user pack that allows three hours for the capture keeps the reminder up at two."""
    from companion.core.day.loops import end_round, start_round
    from companion.core.paths import shipped_content_dir

    shipped = (shipped_content_dir() / "13-after-loop.md").read_text(encoding="utf-8")
    folder = ctx.data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / "after.md").write_text(
        shipped.replace("within_hours: 1\n", "within_hours: 3\n"), encoding="utf-8"
    )
    loop_id, first, second = loop
    start_round(ctx.db, "coding", at(2, 10), loop_id=loop_id, round_id=first)
    end_round(ctx.db, first, at(2, 10, 45))
    start_round(ctx.db, "design", at(2, 11, 30), loop_id=loop_id, round_id=second)
    end_round(ctx.db, second, at(2, 12, 15))
    clock.set(at(2, 14, 15))  # two hours after the last end: past the shipped hour
    page = make_page(qtbot, ctx, bus)
    assert day_service.view.capture_due_by == at(2, 15, 15)
    assert page.reminders_box.isVisible()


def test_a_pack_with_other_before_round_offsets_changes_the_reminders(
    qtbot, ctx, bus, dnd, clock, loop, notes
):
    folder = ctx.data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / "before.md").write_text(
        "---\nid: before-round\nkind: checklist\nphase: before-round\ntitle: Before\n---\n"
        "- Notifications off\n  minutes_before: 30\n- Deep breath\n  minutes_before: 2\n",
        encoding="utf-8",
    )
    clock.set(at(2, 9, 30))
    page = make_page(qtbot, ctx, bus)
    tick(bus)
    assert page.phase_group.phase_list.phase == "before-round"  # 30 min ahead, not 15
    assert notes[-1] == ("Coding round in 30 min (10:00)", "Notifications off.")
    count = len(notes)
    clock.set(at(2, 9, 50))
    tick(bus)
    assert len(notes) == count  # no step at ten minutes in this pack
    clock.set(at(2, 9, 58))
    tick(bus)
    assert notes[-1] == ("Coding round in 2 min (10:00)", "Deep breath.")


def test_a_round_type_of_your_own_keeps_its_words(qtbot, ctx, bus, dnd, loop):
    """Typing your own round type in Add round and pressing Enter stores it with its label;
    every page that shows the day keeps working."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from companion.core.day.loops import list_rounds
    from companion.ui.widgets.loop_dialogs import RoundDialog

    loop_id, _first, _second = loop
    page = make_page(qtbot, ctx, bus)
    dialog = RoundDialog(page.schedule._types(), at(2, 15))
    qtbot.addWidget(dialog)
    dialog.type.setEditText("Bar raiser")
    QTest.keyClick(dialog.type.lineEdit(), Qt.Key.Key_Return)
    page.schedule.save_new(dialog.values())
    rnd = list_rounds(ctx.db, loop_id)[-1]
    assert (rnd.type, rnd.type_label) == ("bar-raiser", "Bar raiser")
    view = tick(bus)
    assert view.round(rnd.id).title == "Bar raiser round"
    assert page.schedule.tree.topLevelItemCount() == 3


def test_an_invitation_is_read_off_the_gui_thread(
    qtbot, ctx, bus, dnd, loop, tmp_path, monkeypatch
):
    import threading

    import companion.core.day.ics as ics

    page = make_page(qtbot, ctx, bus)
    path = tmp_path / "invite.ics"
    path.write_text(
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261202T130000Z\nSUMMARY:Hiring manager chat\n"
        "END:VEVENT\nEND:VCALENDAR\n"
    )
    threads, shown = [], []
    real_parse = ics.parse_ics

    def watched(*args, **kwargs):  # the real parser, noting where it runs
        threads.append(threading.current_thread())
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(ics, "parse_ics", watched)
    page.schedule.import_in_background(path)
    qtbot.waitUntil(lambda: page.schedule.dialog is not None, timeout=10_000)
    shown.append(page.schedule.dialog.text())  # shown without a nested event loop
    page.schedule.dialog.done(0)
    assert threads and threads[0] is not threading.main_thread()
    assert "Added 1 round from invite.ics" in shown[0]
    assert page.schedule.import_button.isEnabled()


def test_a_round_added_to_a_loop_dated_today_defaults_to_today(qtbot, ctx, bus, dnd, clock):
    page = make_page(qtbot, ctx, bus)
    page.create_loop("Acme", "SRE", clock.now().date().isoformat())
    start = page.schedule._default_start()
    assert start.date() == clock.now().date() and start.minute == 0 and start > clock.now()


def test_an_interviewer_without_a_role_shows_by_name_only(qtbot, ctx, bus, dnd, loop):
    from companion.core.day.loops import update_round

    update_round(ctx.db, loop[1], interviewer_name="Kim", interviewer_role="")
    page = make_page(qtbot, ctx, bus)
    page.schedule.refresh()
    whos = [page.schedule.tree.topLevelItem(i).text(3) for i in range(2)]
    assert "Kim" in whos and not any("not known" in w for w in whos)


def test_do_not_disturb_by_hand_has_no_tickable_box(qtbot, ctx, bus, loop):
    page = make_page(qtbot, ctx, bus)
    switch = page.dnd_switch
    if switch.model.status().automatic:
        pytest.skip("this desktop switches do-not-disturb itself")
    assert not switch.box.isVisible()
    assert "by hand" in switch.status.text()


def _select(page, round_id):
    tree = page.schedule.tree
    for n in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(n)
        if item.data(0, 0x0100) == round_id:
            tree.setCurrentItem(item)
            return item
    raise AssertionError(f"round {round_id} is not in the schedule")


def test_skip_and_unskip_from_the_schedule_move_the_day(qtbot, ctx, bus, dnd, loop, clock):
    """Skip had no button: the day's skip/unskip transitions were unreachable."""
    loop_id, first, second = loop
    clock.set(at(2, 9))
    page = make_page(qtbot, ctx, bus)
    assert page.view.next.id == first
    _select(page, first)
    assert page.schedule.skip_button.isEnabled()
    assert page.schedule.skip_button.text().replace("&", "") == "Skip"
    page.schedule.skip_button.click()
    assert get_round(ctx.db, first).skipped_at
    assert page.view.round(first).state == "skipped" and page.view.next.id == second
    assert _select(page, first).text(2) == "skipped"  # the State column
    assert page.schedule.skip_button.text().replace("&", "") == "Unskip"
    clock.set(at(2, 9, 0, 1))  # a deliberate second click (not a double click's tail)
    page.schedule.skip_button.click()
    assert not get_round(ctx.db, first).skipped_at
    assert page.view.next.id == first


def test_a_changed_start_time_goes_through_reschedule(
    qtbot, ctx, bus, dnd, loop, clock, monkeypatch
):
    from companion.core.day import actions

    loop_id, first, _second = loop
    clock.set(at(2, 9))
    page = make_page(qtbot, ctx, bus)
    calls = []
    real = actions.reschedule
    monkeypatch.setattr(actions, "reschedule", lambda *a: calls.append(a[1:]) or real(*a))
    values = {"type": "coding", "interviewer_role": "peer", "interviewer_name": "Sam"}
    page.schedule.save_edit(first, {**values, "scheduled_at": at(2, 10)})  # same time
    assert calls == [] and get_round(ctx.db, first).interviewer_name == "Sam"
    page.schedule.save_edit(first, {**values, "scheduled_at": at(2, 14)})
    assert calls == [(first, at(2, 14))]
    assert get_round(ctx.db, first).scheduled == at(2, 14)
    assert page.view.round(first).starts_at == at(2, 14)


def test_the_loop_shown_first_is_one_pref_written_by_the_service(qtbot, ctx, bus, dnd):
    from companion.ui.day.service import SHOWN_LOOP

    page = make_page(qtbot, ctx, bus)
    seen = []
    bus.changed.connect(seen.append)
    loop_id = page.create_loop("Acme", "SRE", "2026-12-02")
    assert ctx.settings.get(SHOWN_LOOP) == loop_id and page.day.shown_loop == loop_id
    assert [sorted(c.kinds) for c in seen] == [["loop", "prefs"]]
    assert page.schedule.loop_id == loop_id and page.headline.text() == "Today · Acme · SRE"
    # "All loops" sets it back: the day's loops, in the order their rounds come
    page.loops.combo.setCurrentIndex(page.loops.combo.findData(0))
    page.loops.combo.activated.emit(page.loops.combo.currentIndex())
    assert page.day.shown_loop == 0 and page.loops.combo.currentText() == "All loops"


def test_reloaded_content_gives_the_day_new_rules(ctx, bus, monkeypatch):
    """content_reloaded() was never called, so a reload left the day on the old rules;
    the service now reads them again whenever the context holds other content."""
    service = day(bus)
    before = service.rules
    assert service.rules is before  # read once per content
    ctx.reload_content()
    assert service.rules is not before
    assert not hasattr(service, "content_reloaded")


def test_dialogs_open_without_a_nested_event_loop(qtbot, ctx, bus, dnd, loop, clock):
    """The day's timer fires while a dialog is open: add, edit and delete return at once
    and act when the dialog is answered (exec() ran a loop of its own under them)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialog, QMessageBox

    loop_id, first, second = loop
    clock.set(at(2, 9))
    page = make_page(qtbot, ctx, bus)
    page.add_loop()  # returns: the dialog is open, nothing written yet
    assert page.dialog.isVisible() and page.dialog.windowModality() == Qt.WindowModality.WindowModal
    page.dialog.company.setText("Globex")
    page.dialog.accept()
    assert page.headline.text() == "Today · Globex"  # created and shown once accepted
    page.day.choose_loop(loop_id)
    _select(page, first)
    page.schedule.delete_selected()
    tick(bus)  # the day moves on while the question is open
    assert get_round(ctx.db, first) is not None
    page.schedule.dialog.button(QMessageBox.StandardButton.Yes).click()
    assert get_round(ctx.db, first) is None
    _select(page, second)
    page.schedule.edit_selected()
    assert isinstance(page.schedule.dialog, QDialog) and page.schedule.dialog.isVisible()
    page.schedule.dialog.reject()
    assert get_round(ctx.db, second).scheduled == at(2, 11, 30)


def test_a_pause_made_outside_the_app_shows_on_today(qtbot, ctx, bus, dnd, clock, desk, loop):
    """`companion dnd on` from a terminal, then a pause made with the desktop's own key:
    Today says what is true, without a restart or a click."""
    page = make_page(qtbot, ctx, bus)
    assert "Notifications are on" in page.dnd_switch.status.text()
    cli = DndController(GnomeAdapter(desk), record_path(ctx.data_dir), holder="cli", clock=clock)
    cli.turn_on()
    qtbot.waitUntil(lambda: "command line" in page.dnd_switch.status.text(), timeout=10_000)
    assert page.dnd_switch.box.isChecked()
    cli.turn_off()
    qtbot.waitUntil(lambda: "Notifications are on" in page.dnd_switch.status.text(), timeout=10_000)
    desk.banners = False  # the desktop's own do-not-disturb key, in another window
    other = QWidget()
    qtbot.addWidget(other)
    other.show()
    other.activateWindow()
    qtbot.waitUntil(other.isActiveWindow)
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)
    qtbot.waitUntil(lambda: "already paused" in page.dnd_switch.status.text(), timeout=10_000)


def test_the_morning_items_and_the_warm_up_come_before_the_first_round_only(
    qtbot, ctx, bus, dnd, clock, loop
):
    page = make_page(qtbot, ctx, bus)

    def shown():
        buttons = page.now_box.findChildren(type(page.loops.add_button))
        items = [i.text for i in page.phase_group.phase_list.items]
        return {b.text().replace("&", "") for b in buttons}, items

    clock.set(at(2, 9, 50))
    tick(bus)
    buttons, items = shown()
    links = [i.link for i in page.phase_group.phase_list.items]
    assert "dnd" in links and "Do not disturb" in buttons  # the list's first item offers it
    assert any(t.startswith("Warm-up") for t in items) and any("Phone" in t for t in items)
    clock.set(at(2, 11, 20))  # before the second round of the day
    tick(bus)
    assert page.phase_group.phase_list.phase == "before-round"
    buttons, items = shown()
    # offered before every round, not only the first: the list's item is a morning one
    assert "dnd" not in [i.link for i in page.phase_group.phase_list.items]
    assert "Do not disturb" in buttons
    assert not any(t.startswith("Warm-up") or "Phone" in t for t in items)
    assert any("Bathroom" in t for t in items)  # what comes back before every round


def test_at_one_am_today_leads_with_sleep(qtbot, ctx, bus, dnd, clock, loop):
    page = make_page(qtbot, ctx, bus)
    clock.set(at(2, 1))
    tick(bus)
    assert page.now_box.title() == "Now: night before"
    assert page.now_box.label.text().startswith("Go to sleep. A chapter read at 1am")
    assert page.phase_group.phase_list.items[0].text == "Go to sleep"


def test_tab_goes_down_today_as_drawn_and_the_now_buttons_keep_their_size(
    qtbot, ctx, bus, dnd, clock, loop
):
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QApplication

    clock.set(at(2, 9, 50))  # before the first round: the Now box has its buttons
    page = make_page(qtbot, ctx, bus)
    page.day.refresh()
    buttons = [
        page.now_box.actions_row.itemAt(i).widget() for i in range(page.now_box.actions_row.count())
    ]
    buttons = [b for b in buttons if b is not None]
    assert buttons, "the Now box offers its actions before a round"
    # laid out (and the tab order follows the layout then): wait for the layout, not a time
    qtbot.waitUntil(
        lambda: all(b.width() <= b.sizeHint().width() + 2 for b in buttons), timeout=10_000
    )
    for button in buttons:  # not stretched across the page
        assert button.width() <= button.sizeHint().width() + 2
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)
    page.loops.combo.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(page.loops.combo.hasFocus)
    rows = []
    for _ in range(12):
        widget = QApplication.focusWidget()
        top = widget.mapTo(page, QPoint(0, 0)).y() + widget.height() // 2
        rows.append((top, widget))
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
        if QApplication.focusWidget() is page.loops.combo:
            break
    tops = [top for top, _ in rows]
    assert buttons[0] in [w for _, w in rows]
    assert all(b >= a - 12 for a, b in zip(tops, tops[1:])), rows


def test_the_schedule_shows_each_rounds_state_in_the_order_they_ran(
    qtbot, ctx, bus, dnd, clock, loop
):
    """A state column, the round now in bold, "written down" told from "ended", and a
    round started early above the one it overtook."""

    _loop_id, first, second = loop
    clock.set(at(2, 9, 0))
    page = make_page(qtbot, ctx, bus)

    def rows():
        tree = page.schedule.tree
        return [
            (
                tree.topLevelItem(i).text(1),
                tree.topLevelItem(i).text(2),
                tree.topLevelItem(i).font(0).bold(),
            )
            for i in range(tree.topLevelItemCount())
        ]

    assert rows() == [("Coding round", "next", True), ("System design round", "upcoming", False)]
    page.day.start_round(round_id=second)  # the design round starts early, at 9:00
    page.day.refresh()
    assert rows() == [
        ("System design round", "\u25cf now", True),
        ("Coding round", "upcoming", False),
    ]
    clock.set(at(2, 9, 40))
    page.day.end_round(second)
    page.day.refresh()
    assert rows()[0][:2] == ("System design round", "ended, not written down")
    assert rows()[1] == ("Coding round", "next", True)
    ctx.db.execute("UPDATE rounds SET notes = 'asked about sharding' WHERE id = ?", [second])
    page.day.refresh()
    assert rows()[0][:2] == ("System design round", "done, written down")


def _now_button(page, words):
    return next(
        b for b in page.now_box.findChildren(type(page.loops.add_button)) if words in b.text()
    )


def test_double_clicking_round_finished_does_not_start_the_next(qtbot, ctx, bus, dnd, clock, db):
    """The walk: the second click landed on "Start it now" in the same place and the
    next round started 4 minutes early, its start rewritten."""
    loop_id = create_loop(db, "Acme", "SRE", starts_on="2026-12-02")
    first = add_round(db, loop_id, "coding", scheduled_at=at(2, 10))
    second = add_round(db, loop_id, "peer", scheduled_at=at(2, 10, 45))
    clock.set(at(2, 10, 40))
    page = make_page(qtbot, ctx, bus)
    finish = _now_button(page, "finished")
    qtbot.mouseClick(finish, Qt.MouseButton.LeftButton)
    start_now = _now_button(page, "Start it now")  # where "Round finished" was
    qtbot.mouseClick(start_now, Qt.MouseButton.LeftButton)  # the double click's tail
    assert get_round(ctx.db, first).ended_at is not None
    assert get_round(ctx.db, second).started_at is None
    clock.set(at(2, 10, 40, 2))
    qtbot.mouseClick(start_now, Qt.MouseButton.LeftButton)  # a deliberate click works
    assert get_round(ctx.db, second).started == at(2, 10, 40, 2)


def test_a_clock_started_round_on_today_is_started_now_and_ends_at_a_second_click(
    qtbot, ctx, bus, dnd, clock, loop
):
    _loop_id, first, second = loop
    clock.set(at(2, 10, 0, 10))
    page = make_page(qtbot, ctx, bus)
    assert "started by the clock" in page.now_box.label.text()
    qtbot.mouseClick(_now_button(page, "Start it now"), Qt.MouseButton.LeftButton)
    assert get_round(ctx.db, first).started == at(2, 10, 0, 10)
    clock.set(at(2, 10, 0, 30))
    tick(bus)
    finish = _now_button(page, "finished")
    qtbot.mouseClick(finish, Qt.MouseButton.LeftButton)  # a young round: it asks
    assert get_round(ctx.db, first).ended_at is None
    again = _now_button(page, "again")
    qtbot.mouseClick(again, Qt.MouseButton.LeftButton)  # a double click's tail: nothing
    assert get_round(ctx.db, first).ended_at is None
    clock.set(at(2, 10, 0, 32))
    qtbot.mouseClick(again, Qt.MouseButton.LeftButton)
    assert get_round(ctx.db, first).ended == at(2, 10, 0, 32)
    assert get_round(ctx.db, second).started_at is None


def test_double_clicking_skip_skips_once(qtbot, ctx, bus, dnd, loop, clock):
    _loop_id, first, _second = loop
    clock.set(at(2, 9))
    page = make_page(qtbot, ctx, bus)
    _select(page, first)
    qtbot.mouseClick(page.schedule.skip_button, Qt.MouseButton.LeftButton)
    _select(page, first)
    qtbot.mouseClick(page.schedule.skip_button, Qt.MouseButton.LeftButton)
    assert get_round(ctx.db, first).skipped_at, "still skipped: the second click did nothing"


def test_a_custom_round_type_gets_the_packs_default_length_not_a_typed_45(
    qtbot, ctx, bus, dnd, loop
):
    folder = ctx.data_dir / "content"
    folder.mkdir(exist_ok=True)
    from companion.core.paths import shipped_content_dir

    rounds = (shipped_content_dir() / "80-rounds.md").read_text(encoding="utf-8")
    (folder / "80-rounds.md").write_text(
        rounds.replace("\nminutes: 45\n", "\nminutes: 50\n", 1), encoding="utf-8"
    )
    page = make_page(qtbot, ctx, bus)
    assert ctx.content.round_defaults().minutes == 50
    page.schedule.add_round()
    dialog = page.schedule.dialog
    dialog.type.setEditText("Bar raiser")
    assert dialog.length.minutes() == 50
    dialog.reject()


def test_the_countdown_wakes_when_its_words_change(qtbot, ctx, bus, dnd, loop, clock):
    """Minutes round up ("in 21 min" with 20 min 10 s left): the line changes 10 s on,
    not 50 s on as if they rounded down (the card said 3 min beside Today's 2)."""
    clock.set(at(2, 9, 39, 50))
    page = make_page(qtbot, ctx, bus)
    assert page.countdown.text().endswith("in 21 min")
    assert page.clock_timer.interval() == 10_000


def test_past_its_end_the_in_round_line_says_by_how_much_and_keeps_count(
    qtbot, ctx, bus, dnd, clock, db
):
    """At 10:47 "ends about 10:30" read as a mistake: past the end the line says the
    overrun, and the countdown's timer keeps it current each minute while the day itself
    has nothing new to draw (the round runs on by the clock for its overrun)."""
    loop_id = create_loop(db, "Acme", "SRE", starts_on="2026-12-02")
    rid = add_round(db, loop_id, "coding", scheduled_at=at(2, 10))
    update_round(db, rid, started_at=to_stored(at(2, 10)), length_minutes=30)
    clock.set(at(2, 10, 20))
    page = make_page(qtbot, ctx, bus)
    assert "ends about 10:30" in page.now_box.label.text()
    clock.set(at(2, 10, 42))
    tick(bus)  # the end passed: the day changed
    assert "was due to end at 10:30, 12 min over" in page.now_box.label.text()
    assert page.clock_timer.isActive() and page.clock_timer.interval() <= 60_000
    clock.set(at(2, 10, 47))
    page.update_countdown()  # the countdown's timer fired; the day has not changed
    assert "was due to end at 10:30, 17 min over" in page.now_box.label.text()
    assert "ends about" not in page.now_box.label.text()


def test_one_step_at_a_time_before_a_round(qtbot, ctx, bus, dnd, clock, loop):
    """The step due now is marked and the only one shown; the rest fold behind a button,
    and ticking the step brings the next."""
    clock.set(at(2, 9, 50))  # 10 minutes before the first round: the water step is due
    page = make_page(qtbot, ctx, bus)
    group = page.phase_group
    items = {i.key: i for i in group.phase_list.items}
    assert items[group.step_key].text.startswith("Water within reach")
    shown = [k for k in items if not group.boxes[k].isHidden()]
    assert shown == [group.step_key] and not group.fold_button.isHidden()
    assert group.when_labels[group.step_key].text().endswith("now")
    group.fold_button.click()  # unfold: every step, the one now still marked
    assert not any(group.boxes[k].isHidden() for k in items)
    group.fold_button.click()
    group.boxes[group.step_key].click()  # done: the newest step not ticked comes up
    assert items[group.step_key].minutes_before == 15
    clock.set(at(2, 9, 53))
    tick(bus)
    assert items[page.phase_group.step_key].text.startswith("Warm-up: read the about-me")
