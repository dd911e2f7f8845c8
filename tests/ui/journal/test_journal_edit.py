"""Editing the journal from its page: entries, rounds, loops, delete with undo, weak topics."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QDate, Qt

from companion.core.day.loops import add_round, create_loop, get_loop, get_round
from companion.core.journal import edits as journal_edits
from companion.core.journal import entries as journal
from companion.core.journal import weak as journal_weak
from companion.core.journal.search import search
from companion.core.study.ranking import study_list

pytestmark = pytest.mark.gui


class FakeDialogs:
    """Answers the page's dialogs without showing them, and records what was asked (an
    answer of None is a cancel: the page's callback is not called, as with the real ones)."""

    def __init__(self):
        self.entry_answer = None
        self.loop_answer = None
        self.round_answer = None
        self.weak_answer = None
        self.confirm_answer = True
        self.calls = []

    @staticmethod
    def _answer(answer, then) -> None:
        if answer is not None:
            then(answer)

    def edit_entry(self, parent, kind, entry, already_weak, then):
        self.calls.append(("entry", kind, entry.id, already_weak))
        self._answer(self.entry_answer, then)

    def edit_loop(self, parent, loop, then):
        self.calls.append(("loop", loop.id))
        self._answer(self.loop_answer, then)

    def edit_round(self, parent, rnd, types, focus_notes=False, lengths=None, *, then):
        self.calls.append(("round", rnd.id, focus_notes))
        self._answer(self.round_answer, then)

    def weak_topic(self, parent, topic="", note="", *, then):
        self.calls.append(("weak", topic))
        self._answer(self.weak_answer, then)

    def confirm(self, parent, title, text, action, then):
        self.calls.append(("confirm", text))
        if self.confirm_answer:
            then()


@pytest.fixture
def filled(ctx):
    db = ctx.db
    loop = create_loop(db, "Acme", "SRE", starts_on="2026-12-01", ends_on="2026-12-01")
    rid = add_round(db, loop, "design", interviewer_name="Dana")
    ids = {
        "asked": journal.add_asked(db, loop, rid, "Shard a KV cache", "consistent hashing"),
        "flub": journal.add_flub(db, loop, rid, "Burst load", "no 429s", 2),
        "went_well": journal.add_went_well(db, loop, rid, "Rapport"),
    }
    create_loop(db, "Globex", starts_on="2026-11-20")
    return loop, rid, ids


@pytest.fixture
def page(qtbot, ctx, bus, day_service, filled):
    from companion.ui.journal.page import JournalPage

    widget = JournalPage(ctx, bus, day=day_service)
    widget.editor.dialogs = FakeDialogs()
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.refresh()
    return widget


def _select(page, kind, ref_id):
    index = page.rounds.model.index_of(kind, ref_id)
    assert index.isValid(), (kind, ref_id)
    page.rounds.view.setCurrentIndex(index)
    return index


def _entry_texts(page):
    model = page.rounds.model
    top = model.index(0, 0)
    return [model.data(model.index(r, 1, top)) for r in range(model.rowCount(top))]


def test_changed_models_pass_the_model_tester(qtmodeltester, page, filled, ctx):
    loop, rid, _ids = filled
    journal.set_round_notes(ctx.db, rid, "Whiteboard was tiny")
    page.refresh()
    qtmodeltester.check(page.rounds.model)
    qtmodeltester.check(page.loop_list.model)
    assert page.rounds.model.index_of("notes", rid).isValid()
    assert not page.rounds.model.index_of("flub", 999).isValid()


def test_enter_on_a_flub_edits_it_and_search_follows(qtbot, page, filled, ctx, bus):
    _loop, _rid, ids = filled
    page.editor.dialogs.entry_answer = (
        {"topic": "Rate limiting", "detail": "token bucket refill", "severity": 3},
        False,
    )
    _select(page, "flub", ids["flub"])
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        qtbot.keyClick(page.rounds.view, Qt.Key.Key_Return)
    assert page.editor.dialogs.calls[0] == ("entry", "flub", ids["flub"], False)
    flub = journal_edits.get_entry(ctx.db, "flub", ids["flub"])
    assert (flub.topic, flub.detail, flub.severity) == ("Rate limiting", "token bucket refill", 3)
    assert "Rate limiting: token bucket refill" in _entry_texts(page)
    assert [h.kind for h in search(ctx.db, "bucket")] == ["flub"]
    assert search(ctx.db, "burst") == []
    # the edited row stays selected, and Ctrl+Z (through the page's action) undoes it
    assert page.rounds.selected_object().id == ids["flub"]
    assert "Ctrl+Z" in page.message.text()
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        page.undo_action.trigger()
    flub = journal_edits.get_entry(ctx.db, "flub", ids["flub"])
    assert (flub.topic, flub.severity) == ("Burst load", 2)
    assert "Undone: edit the flub" in page.message.text()
    page.redo_action.trigger()
    assert journal_edits.get_entry(ctx.db, "flub", ids["flub"]).topic == "Rate limiting"


def test_f2_and_double_click_open_the_editor_and_cancel_changes_nothing(qtbot, page, filled):
    _loop, _rid, ids = filled
    page.show()
    qtbot.waitExposed(page)
    index = _select(page, "asked", ids["asked"])
    qtbot.keyClick(page.rounds.view, Qt.Key.Key_F2)
    rect = page.rounds.view.visualRect(index)
    qtbot.mouseClick(page.rounds.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(page.rounds.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert [c[:2] for c in page.editor.dialogs.calls] == [("entry", "asked"), ("entry", "asked")]
    assert not page.editor.undo_stack.canUndo()


def test_an_invalid_edit_is_refused_with_a_reason(page, filled, ctx):
    _loop, _rid, ids = filled
    page.editor.dialogs.entry_answer = ({"text": "   "}, False)
    _select(page, "went_well", ids["went_well"])
    page.edit_selected()
    assert "not saved" in page.message.text() and "empty" in page.message.text()
    assert journal_edits.get_entry(ctx.db, "went_well", ids["went_well"]).text == "Rapport"
    assert not page.editor.undo_stack.canUndo()


def test_delete_key_asks_then_deletes_and_ctrl_z_brings_it_back(qtbot, page, filled, ctx, bus):
    _loop, _rid, ids = filled
    page.editor.dialogs.confirm_answer = False
    _select(page, "flub", ids["flub"])
    qtbot.keyClick(page.rounds.view, Qt.Key.Key_Delete)
    assert page.editor.dialogs.calls[-1] == ("confirm", "Delete the flub “Burst load”?")
    assert journal_edits.get_entry(ctx.db, "flub", ids["flub"]) is not None

    page.editor.dialogs.confirm_answer = True
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        qtbot.keyClick(page.rounds.view, Qt.Key.Key_Delete)
    assert journal_edits.get_entry(ctx.db, "flub", ids["flub"]) is None
    assert search(ctx.db, "burst") == []
    assert "Burst load: no 429s" not in _entry_texts(page)
    assert page.rounds.selected_object().id == ids["went_well"]  # the next row is selected
    assert page.entry_actions.undo_button.isEnabled()

    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        page.entry_actions.undo_button.click()
    flub = journal_edits.get_entry(ctx.db, "flub", ids["flub"])
    assert (flub.topic, flub.detail, flub.severity) == ("Burst load", "no 429s", 2)
    assert [h.kind for h in search(ctx.db, "burst")] == ["flub"]
    assert page.rounds.selected_object().id == ids["flub"]
    assert not page.entry_actions.undo_button.isEnabled()


def test_ctrl_z_shortcut_reaches_the_page(qtbot, page, filled, ctx):
    _loop, _rid, ids = filled
    page.show()
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)
    _select(page, "went_well", ids["went_well"])
    page.rounds.view.setFocus()
    page.entry_actions.delete_button.click()
    assert journal_edits.get_entry(ctx.db, "went_well", ids["went_well"]) is None
    qtbot.keyClick(page.rounds.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert journal_edits.get_entry(ctx.db, "went_well", ids["went_well"]).text == "Rapport"


def test_a_round_and_its_notes_are_edited_and_notes_cleared_with_undo(qtbot, page, filled, ctx):
    _loop, rid, _ids = filled
    page.editor.dialogs.round_answer = {
        "type": "coding",
        "interviewer_role": "peer",
        "interviewer_name": "Sam",
        "notes": "Graphs, then a heap",
    }
    _select(page, "round", rid)
    assert not page.entry_actions.delete_button.isEnabled()
    qtbot.keyClick(page.rounds.view, Qt.Key.Key_F2)
    got = get_round(ctx.db, rid)
    assert (got.type, got.interviewer_role, got.interviewer_name, got.notes) == (
        "coding",
        "peer",
        "Sam",
        "Graphs, then a heap",
    )
    # named as the day names it
    assert page.rounds.model.data(page.rounds.model.index(0, 0)) == "Coding round"
    _select(page, "notes", rid)
    assert page.entry_actions.delete_button.text() == "Clear &notes"
    page.delete_selected()
    assert get_round(ctx.db, rid).notes == ""
    page.editor.undo_stack.undo()
    assert get_round(ctx.db, rid).notes == "Graphs, then a heap"
    page.editor.undo_stack.undo()
    assert get_round(ctx.db, rid).type == "design"


def test_edit_the_loop_from_the_list_with_enter(qtbot, page, filled, ctx, bus):
    loop, _rid, _ids = filled
    page.editor.dialogs.loop_answer = {
        "company": "Acme Robotics",
        "role": "Staff SRE",
        "starts_on": "2026-12-01",
        "ends_on": "2026-12-02",
        "status": "offer",
        "notes": "Team of six",
    }
    page.loop_list.view.setCurrentIndex(
        page.loop_list.model.index(page.loop_list.model.row_of(loop), 0)
    )
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        qtbot.keyClick(page.loop_list.view, Qt.Key.Key_Return)
    got = get_loop(ctx.db, loop)
    assert (got.company, got.ends_on, got.status, got.notes) == (
        "Acme Robotics",
        "2026-12-02",
        "offer",
        "Team of six",
    )
    assert page.header.title.text() == "Acme Robotics · Staff SRE · 1–2 Dec 2026 · offer"
    assert page.header.notes.text() == "Notes: Team of six"
    assert [h.kind for h in search(ctx.db, "robotics")] == ["loop"]
    page.editor.undo_stack.undo()
    assert get_loop(ctx.db, loop).company == "Acme"
    assert page.header.notes.isHidden()


def test_a_bad_loop_edit_keeps_the_loop(page, filled, ctx):
    loop, _rid, _ids = filled
    page.editor.dialogs.loop_answer = {
        "company": "Acme",
        "starts_on": "2026-12-05",
        "ends_on": None,
    }
    page.editor.dialogs.loop_answer["ends_on"] = "2026-12-01"
    page.edit_loop(loop)
    assert "before the first day" in page.message.text()
    assert get_loop(ctx.db, loop).starts_on == "2026-12-01"


def test_mark_a_flub_topic_weak_then_unmark_it_from_the_weak_topics_window(
    qtbot, page, filled, ctx, bus, clock
):
    _loop, _rid, ids = filled
    _select(page, "flub", ids["flub"])
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        page.entry_actions.weak_button.click()
    assert page.editor.dialogs.calls == []  # the flub names its topic: no question asked
    assert journal_weak.is_weak(ctx.db, "burst load")
    items = study_list(ctx.db, clock.now(), include_quiz=False)
    assert {i.topic: i.sources for i in items}["Burst load"] == {"flub", "weak"}
    page.entry_actions.weak_button.click()  # twice: still one mark
    assert "already marked weak" in page.message.text()
    assert len(journal_weak.open_weak_topics(ctx.db)) == 1

    page.show_weak_topics()
    window = page.weak_dialog
    assert window.list.count() == 1 and window.list.item(0).text() == "Burst load"
    assert window.empty.isHidden()
    with qtbot.waitSignal(
        bus.changed,
        check_params_cb=lambda c: c.touches(
            "loop", "round", "capture", "thank-you", "plan", "study"
        ),
    ):
        window.unmark.click()
    assert not journal_weak.is_weak(ctx.db, "burst load")
    assert window.list.count() == 0 and not window.empty.isHidden()
    assert not window.unmark.isEnabled()
    page.editor.undo_stack.undo()
    assert journal_weak.is_weak(ctx.db, "burst load") and window.list.count() == 1
    page.editor.undo_stack.undo()  # undo the mark itself
    assert not journal_weak.is_weak(ctx.db, "burst load")


def test_mark_weak_asks_for_a_topic_when_the_entry_has_none(page, filled, ctx):
    _loop, _rid, ids = filled
    page.editor.dialogs.weak_answer = ("Small talk", "practise the opener")
    _select(page, "went_well", ids["went_well"])
    page.mark_selected_weak()
    assert page.editor.dialogs.calls == [("weak", "Rapport")]
    (weak,) = journal_weak.open_weak_topics(ctx.db)
    assert (weak.topic, weak.note, weak.round_id) == ("Small talk", "practise the opener", _rid)
    page.editor.dialogs.weak_answer = None  # cancelled: nothing more
    page.mark_selected_weak()
    assert len(journal_weak.open_weak_topics(ctx.db)) == 1


def test_edit_dialog_can_mark_the_topic_weak_in_one_undo_step(page, filled, ctx):
    _loop, _rid, ids = filled
    page.editor.dialogs.entry_answer = ({"question": "Shard a cache", "topic": "Sharding"}, True)
    _select(page, "asked", ids["asked"])
    page.edit_selected()
    assert journal_edits.get_entry(ctx.db, "asked", ids["asked"]).topic == "Sharding"
    assert journal_weak.is_weak(ctx.db, "sharding")
    page.editor.undo_stack.undo()
    assert journal_edits.get_entry(ctx.db, "asked", ids["asked"]).topic == "consistent hashing"
    assert not journal_weak.is_weak(ctx.db, "sharding")


def test_a_loop_with_nothing_written_says_what_to_do(page, filled):
    page.loop_list.view.setCurrentIndex(
        page.loop_list.model.index(page.loop_list.model.row_of(4), 0)
    )
    globex = next(lp for lp in page.loop_list.model.loops if lp.company == "Globex")
    page.loop_list.view.setCurrentIndex(
        page.loop_list.model.index(page.loop_list.model.row_of(globex.id), 0)
    )
    assert page.rounds.currentWidget() is page.rounds.empty
    assert "Capture" in page.rounds.empty.text()
    assert (
        not page.entry_actions.edit_button.isEnabled()
        and not page.entry_actions.delete_button.isEnabled()
    )


def test_empty_journal_lists_say_so(qtbot, ctx, bus, day_service):
    from companion.ui.journal.page import JournalPage

    widget = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(widget)
    widget.refresh()
    assert widget.loop_list.currentWidget() is widget.loop_list.empty
    widget.show_weak_topics()
    assert widget.weak_dialog.list.isHidden() and "No topics" in widget.weak_dialog.empty.text()


def test_loops_list_fits_its_width_and_every_control_has_a_name(qtbot, ctx, bus, page):
    from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QHeaderView, QLineEdit

    create_loop(
        ctx.db,
        "An extraordinarily long company name that will never fit " * 2,
        "Principal engineer, distributed storage and everything else " * 2,
        starts_on="2026-12-09",
    )
    page.refresh()
    page.show()
    qtbot.waitExposed(page)
    view = page.loop_list.view
    assert view.horizontalScrollBar().maximum() == 0
    assert view.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    first = page.loop_list.model.index(0, 0)
    assert view.visualRect(first).right() <= view.viewport().width()
    assert "Principal engineer" in page.loop_list.model.data(first, Qt.ItemDataRole.ToolTipRole)
    spoken = page.loop_list.model.data(first, Qt.ItemDataRole.AccessibleTextRole)
    assert spoken.startswith("An extraordinarily long") and "9 Dec 2026" in spoken
    # arrow keys move through the loops
    view.setCurrentIndex(first)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert page.current_loop_id == page.loop_list.model.loops[1].id
    for widget in page.findChildren(QAbstractButton) + page.findChildren(QLineEdit):
        if widget.isVisibleTo(page):
            assert widget.accessibleName() or widget.text().replace("&", ""), widget
    for widget in page.findChildren(QAbstractItemView):
        if not isinstance(widget, QHeaderView):
            assert widget.accessibleName(), widget


def test_real_entry_dialog_checks_fields_before_closing(qtbot, filled, ctx):
    from companion.ui.journal.dialogs import EntryDialog

    _loop, _rid, ids = filled
    flub = journal_edits.get_entry(ctx.db, "flub", ids["flub"])
    dialog = EntryDialog("flub", flub)
    qtbot.addWidget(dialog)
    assert dialog.values() == {"topic": "Burst load", "detail": "no 429s", "severity": 2}
    dialog.fields["topic"].setText("  ")
    assert not dialog.mark_weak.isEnabled()
    assert not dialog.try_accept()
    assert "empty" in dialog.error.text() and dialog.error.isVisibleTo(dialog)
    dialog.fields["topic"].setText("Back-pressure")
    dialog.fields["severity"].setCurrentIndex(2)
    dialog.mark_weak.setChecked(True)
    assert dialog.try_accept()
    assert dialog.values()["severity"] == 3 and dialog.wants_weak()
    for widget in dialog.fields.values():
        assert widget.accessibleName()


def test_real_entry_dialog_shows_a_topic_that_is_already_weak(qtbot, filled, ctx):
    from companion.ui.journal.dialogs import EntryDialog

    _loop, _rid, ids = filled
    asked = journal_edits.get_entry(ctx.db, "asked", ids["asked"])
    dialog = EntryDialog("asked", asked, already_weak=True)
    qtbot.addWidget(dialog)
    assert dialog.mark_weak.isChecked() and not dialog.mark_weak.isEnabled()
    assert not dialog.wants_weak()


def test_real_loop_dialog_dates_and_status(qtbot, filled, ctx):
    from companion.ui.journal.dialogs import NO_DATE, LoopEditDialog

    loop, _rid, _ids = filled
    dialog = LoopEditDialog(get_loop(ctx.db, loop))
    qtbot.addWidget(dialog)
    values = dialog.values()
    assert (values["starts_on"], values["ends_on"], values["status"]) == (
        "2026-12-01",
        "2026-12-01",
        "planned",
    )
    dialog.ends.setDate(NO_DATE)
    assert dialog.values()["ends_on"] is None
    dialog.ends.setDate(QDate(2026, 11, 30))
    assert not dialog.try_accept() and "before the first day" in dialog.error.text()
    dialog.company.setText("")
    assert not dialog.try_accept() and "company" in dialog.error.text()


def test_real_round_dialog_keeps_an_unknown_type_and_focuses_notes(qtbot, filled, ctx):
    from companion.ui.widgets.loop_dialogs import RoundDialog

    _loop, rid, _ids = filled
    db = ctx.db
    db.execute("UPDATE rounds SET type = 'bar-raiser', notes = 'n' WHERE id = ?", [rid])
    dialog = RoundDialog(
        [("design", "System design")], None, get_round(db, rid), notes=True, focus_notes=True
    )
    qtbot.addWidget(dialog)
    assert dialog.values()["type"] == "bar-raiser"
    dialog.type.setCurrentIndex(0)
    assert dialog.values()["type"] == "design"
    dialog.type.setEditText("")
    assert not dialog.try_accept() and "type is empty" in dialog.error.text()


def test_deleting_the_last_entry_of_a_round_selects_the_one_above(page, filled, ctx):
    _loop, _rid, ids = filled
    _select(page, "went_well", ids["went_well"])
    page.delete_selected()
    assert journal_edits.get_entry(ctx.db, "went_well", ids["went_well"]) is None
    assert journal_edits.entry_kind_of(page.rounds.selected_object()) == "flub"
    assert "Dana" in page.rounds.model.data(page.rounds.model.index(0, 1))


def test_the_real_dialogs_open_without_a_nested_event_loop(qtbot, page, filled, ctx, bus):
    """The journal's edit and delete dialogs return at once; the change is made when the
    user answers (the day's timer and other pages' writes run while they are open)."""
    from PySide6.QtWidgets import QDialog

    from companion.core.changes import Change
    from companion.ui.journal.dialogs import JournalDialogs

    _loop, _rid, ids = filled
    page.editor.dialogs = JournalDialogs()
    page.show()
    _select(page, "flub", ids["flub"])
    page.delete_selected()  # the question is open; nothing is deleted yet
    box = page.editor.dialogs.open
    assert box.isVisible() and _count(ctx.db, "flubs") == 1
    bus.announce(Change.of("round"))  # the day moves on under the question: a refresh
    yes = next(b for b in box.buttons() if b.text() == "Delete flub")
    yes.click()
    assert _count(ctx.db, "flubs") == 0
    _select(page, "asked", ids["asked"])
    page.edit_selected()
    dialog = page.editor.dialogs.open
    assert isinstance(dialog, QDialog) and dialog.isVisible()
    dialog.reject()  # cancelled: nothing changes
    assert _count(ctx.db, "asked") == 1 and page.editor.dialogs.open is dialog


def _count(db, table: str) -> int:
    return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
