"""The quick post-round capture dialog."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from companion.core.day.loops import create_loop, end_round, get_round, start_round
from companion.core.journal import detail as journal_detail
from companion.core.journal import entries as journal

pytestmark = pytest.mark.gui


@pytest.fixture
def ended_round(ctx, clock):
    loop = create_loop(ctx.db, "Acme", starts_on=clock.now().date().isoformat())
    rid = start_round(
        ctx.db,
        "design",
        clock.now() - dt.timedelta(minutes=50),
        loop_id=loop,
        interviewer_role="peer",
    )
    end_round(ctx.db, rid, clock.now() - dt.timedelta(minutes=5))
    return loop, rid


def _capture_due(ctx) -> int:
    """The round whose capture the day says is due (0: none)."""
    from companion.core.day.actions import load_view
    from companion.core.day.rules import day_rules

    return load_view(ctx.db, day_rules(ctx.content), ctx.now()).capture_round_id


def _round_entries(ctx, rid):
    """What the Journal shows for the round."""
    loop_id = get_round(ctx.db, rid).loop_id
    rounds = journal_detail.loop_detail(ctx.db, loop_id).rounds
    return next(e for e in rounds if e.round is not None and e.round.id == rid)


def _type(qtbot, widget, text):
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key.Key_Return)


def test_keyboard_only_capture_saves_everything(qtbot, ctx, bus, ended_round):
    from companion.ui.journal.capture import CaptureDialog

    loop, rid = ended_round
    assert _capture_due(ctx)
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    assert not dialog.isModal()
    _type(qtbot, dialog.asked.entry, "Shard a KV cache #consistent hashing")
    _type(qtbot, dialog.asked.entry, "Handle burst load")
    dialog.severity.setCurrentIndex(2)
    _type(qtbot, dialog.flubbed.entry, "Forgot 429s #burst load")
    _type(qtbot, dialog.went_well.entry, "Clear requirements")
    _type(qtbot, dialog.asked_them.entry, "What does success look like?")
    assert dialog.asked.list.count() == 2
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        qtbot.keyClick(dialog.asked.entry, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert not dialog.isVisible() and dialog.saved
    entries = _round_entries(ctx, rid)
    assert [(a.question, a.topic) for a in entries.asked] == [
        ("Shard a KV cache", "consistent hashing"),
        ("Handle burst load", ""),
    ]
    assert [(f.topic, f.detail, f.severity) for f in entries.flubs] == [
        ("burst load", "Forgot 429s", 3)
    ]
    assert [w.text for w in entries.went_well] == ["Clear requirements"]
    from companion.core.selfcheck.planner import asked_questions

    assert [q.text for q in asked_questions(ctx.db, loop)] == ["What does success look like?"]
    assert not _capture_due(ctx)


def test_escape_saves_nothing_and_the_next_capture_restores_the_text(qtbot, ctx, bus, ended_round):
    from companion.ui.journal.capture import CaptureDialog

    _loop, rid = ended_round
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.severity.setCurrentIndex(2)
    _type(qtbot, dialog.flubbed.entry, "Went long #timebox")
    qtbot.keyClicks(dialog.asked.entry, "Typed but not yet added")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible() and not dialog.saved
    entries = _round_entries(ctx, rid)
    assert entries.asked == [] and entries.flubs == [], "Esc saves nothing silently"

    again = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(again)
    assert again.asked.pending() == ["Typed but not yet added"]
    assert again.flubbed.pending() == ["Went long #timebox"] and again.flubbed.extra == [3]
    assert "not saved yet" in again.message.text()
    again.save_and_close()
    assert [f.topic for f in _round_entries(ctx, rid).flubs] == ["timebox"]
    third = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(third)
    assert third.asked.pending() == [] and not third.message.isVisibleTo(third)


def test_tab_goes_from_the_flub_line_to_its_severity(qtbot, ctx, bus, ended_round):
    from companion.ui.journal.capture import CaptureDialog

    dialog = CaptureDialog(ctx, bus, ended_round[1])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    dialog.flubbed.entry.setFocus()
    qtbot.waitUntil(dialog.flubbed.entry.hasFocus)
    qtbot.keyClick(dialog.flubbed.entry, Qt.Key.Key_Tab)
    assert dialog.severity.hasFocus()


def test_a_failed_save_keeps_the_text_and_says_why(qtbot, ctx, bus, ended_round, monkeypatch):
    from companion.ui.journal.capture import CaptureDialog

    _loop, rid = ended_round
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    dialog.show()
    _type(qtbot, dialog.asked.entry, "Kept question")

    def broken(*_a, **_k):
        raise ValueError("disk on fire.")

    monkeypatch.setattr(journal, "add_asked", broken)
    dialog.save_and_close()
    assert dialog.isVisible()
    assert "disk on fire" in dialog.message.text()
    assert dialog.asked.pending() == ["Kept question"]


def test_a_closed_capture_is_freed_without_the_collector(qtbot, ctx, bus, ended_round):
    """No reference cycle runs through the dialog: when the last reference goes, the
    dialog goes with it. With one (the flub line held a lambda over the dialog), an
    unparented dialog lived on as garbage, and Python's collector, not Qt, deleted the
    window when it next ran: inside a paint event, a segfault in QLineEdit::paintEvent
    or QListView::paintEvent ("Internal C++ object already deleted" in style.py)."""
    import gc
    import weakref

    from companion.ui.journal.capture import CaptureDialog

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        dialog = CaptureDialog(ctx, bus, ended_round[1])
        dialog.show()
        _type(qtbot, dialog.flubbed.entry, "Went long #timebox")  # the severity goes with it
        assert dialog.flubbed.extra == [2]
        gone = weakref.ref(dialog)
        dialog.close()
        del dialog
        assert gone() is None, "something still holds the closed capture"
    finally:
        if was_enabled:
            gc.enable()


def test_round_zero_goes_to_the_current_loop(qtbot, ctx, bus, clock):
    from companion.ui.journal.capture import CaptureDialog

    loop = create_loop(ctx.db, "Globex", starts_on=clock.now().date().isoformat())
    dialog = CaptureDialog(ctx, bus, 0)
    qtbot.addWidget(dialog)
    _type(qtbot, dialog.asked.entry, "Tell me about yourself")
    dialog.notes.setPlainText("Friendly panel")
    dialog.save_and_close()
    detail = journal_detail.loop_detail(ctx.db, loop)
    assert detail.rounds[-1].asked[0].question == "Tell me about yourself"
    assert detail.loop.notes == "Friendly panel"


def test_split_topic():
    from companion.ui.journal.capture import split_topic

    assert split_topic("A #b c") == ("A", "b c")
    assert split_topic("C# generics") == ("C# generics", "")
    assert split_topic("  plain ") == ("plain", "")


def test_one_topic_rule_for_asked_and_flubbed():
    from companion.core.journal.capture_lines import asked_parts, flub_parts

    assert asked_parts("Design a rate limiter #rate limiting") == (
        "Design a rate limiter",
        "rate limiting",
    )
    assert flub_parts("Went past the timebox... #timebox") == (
        "timebox",
        "Went past the timebox...",
    )
    assert flub_parts("Consistent hashing") == ("Consistent hashing", "")
    assert flub_parts("#caching") == ("caching", "")
    assert asked_parts("#caching") == ("caching", "caching")


def test_whole_path_round_end_to_spreadsheet_and_anki(qtbot, ctx, bus, ended_round, tmp_path):
    import csv
    import io

    from companion.core.study.exports import export_study_list
    from companion.core.study.ranking import GuideIndex
    from companion.ui.journal.capture import CaptureDialog

    _loop, rid = ended_round
    assert _capture_due(ctx) == rid
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    dialog.severity.setCurrentIndex(2)
    _type(qtbot, dialog.flubbed.entry, "said bare utilization #=GPU utilization")
    dialog.save_and_close()
    guide = GuideIndex(ctx.content)
    export_study_list(ctx.db, "csv", tmp_path / "s.csv", ctx.now(), guide=guide)
    export_study_list(ctx.db, "anki", tmp_path / "s.txt", ctx.now(), guide=guide)
    rows = list(csv.reader(io.StringIO((tmp_path / "s.csv").read_text(encoding="utf-8-sig"))))
    assert rows[1][1] == "'=GPU utilization" and rows[1][4] == "3" and rows[1][5] == "Acme"
    assert rows[1][8] == "Traps to avoid"
    lines = (tmp_path / "s.txt").read_text(encoding="utf-8").split("\n")
    cards = list(csv.reader(io.StringIO("\n".join(lines[6:])), delimiter="\t"))
    assert len(cards) == 1 and len(cards[0]) == 3
    # a front is a question in words (#27), starting with the topic as typed: Anki is
    # not a spreadsheet, so the "=" is not escaped there
    front = cards[0][0]
    assert front.startswith("=GPU utilization") and front.endswith("?")
    assert "company::Acme" in cards[0][2].split()


def test_a_draft_belongs_to_its_round_and_never_opens_in_another(qtbot, ctx, bus, clock):
    """Typed for an Acme round and closed with Esc: back in that round's capture, never in
    a Globex one."""
    from companion.ui.journal.capture import CaptureDialog

    acme = create_loop(ctx.db, "Acme", starts_on=clock.now().date().isoformat())
    globex = create_loop(ctx.db, "Globex", starts_on=clock.now().date().isoformat())
    first = start_round(ctx.db, "design", clock.now(), loop_id=acme)
    end_round(ctx.db, first, clock.now())
    second = start_round(ctx.db, "coding", clock.now(), loop_id=globex)
    end_round(ctx.db, second, clock.now())

    dialog = CaptureDialog(ctx, bus, first)
    qtbot.addWidget(dialog)
    dialog.show()
    _type(qtbot, dialog.asked.entry, "Design a rate limiter")
    dialog.reject()  # Esc: kept as a draft

    other = CaptureDialog(ctx, bus, second)
    qtbot.addWidget(other)
    assert other.asked.list.count() == 0 and not other.message.isVisibleTo(other)
    assert not other.notes.toPlainText()
    other.reject()

    again = CaptureDialog(ctx, bus, first)
    qtbot.addWidget(again)
    assert [again.asked.list.item(i).text() for i in range(again.asked.list.count())] == [
        "Design a rate limiter"
    ]
    assert again.save()
    assert ctx.settings.get(f"capture.draft.{first}") is None


def test_the_capture_fits_a_small_screen(qtbot, ctx, bus, ended_round):
    """1600x900 at 200% is 800x450 logical pixels: the capture still fits, fields scroll."""
    from PySide6.QtCore import QRect

    from companion.ui.journal.capture import CaptureDialog, fit_on_screen

    _loop, rid = ended_round
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)

    class Small:
        def availableGeometry(self):
            return QRect(0, 0, 800, 450)

    fit_on_screen(dialog, Small())
    dialog.show()
    assert QRect(0, 0, 800, 450).contains(dialog.geometry())
    assert dialog.minimumSizeHint().height() <= 450 - 48


def test_a_long_line_wraps_in_its_list_and_keeps_its_severity_in_view(qtbot, ctx, bus, ended_round):
    from companion.ui.journal.capture import CaptureDialog

    _loop, rid = ended_round
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    dialog.resize(420, dialog.height())
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.severity.setCurrentIndex(1)
    long = "froze when asked how the scheduler preempts a long-running batch job " * 2
    _type(qtbot, dialog.flubbed.entry, long.strip())
    qtbot.keyClick(dialog.flubbed.entry, Qt.Key.Key_Return)
    view = dialog.flubbed.list
    qtbot.waitUntil(lambda: view.count() > 0, timeout=10_000)
    item = view.item(0)
    assert item.text().endswith("(2 noticeable)")
    assert not view.horizontalScrollBar().isVisible()
    rect = view.visualItemRect(item)
    assert rect.right() <= view.viewport().width()  # nothing runs off to the right
    assert rect.height() > 2 * view.fontMetrics().height()  # wrapped onto several lines
    dialog.reject()


def test_the_header_names_the_round_as_the_day_does(qtbot, ctx, bus, ended_round):
    """The walk: the capture said "Design · Acme" where the card and Today say "System
    design round" (the type's id, not its title)."""
    from PySide6.QtWidgets import QLabel

    from companion.ui.journal.capture import CaptureDialog

    _loop, rid = ended_round
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert any("<b>System design round</b> · Acme" in t for t in texts), texts
