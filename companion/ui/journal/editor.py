"""Editing the journal from its page: edit, delete with undo, and weak topics.

A part of :class:`companion.ui.journal.page.JournalPage` (its Qt parent, on which the
dialogs open). The page hands in what is selected; the editor writes, keeps the undo
stack, and says what changed (``edited``, which the page announces) and what to tell the
user (``said``)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from companion.core.content.lengths import type_lengths
from companion.core.day.loops import Round, get_loop, update_loop, update_round
from companion.core.journal import edits, weak
from companion.core.journal import entries as journal
from companion.core.journal.entries import Asked, Flub, WeakTopic, WentWell
from companion.core.stories.rounds import load_expected, save_expected
from companion.ui.journal.dialogs import JournalDialogs
from companion.ui.journal.models import RoundNotes
from companion.ui.journal.undo import JournalCommand

ENTRY_NAMES = {
    "asked": "question",
    "flub": "flub",
    "went_well": "went-well note",
    "weak": "weak topic",
}


class JournalEditor(QObject):
    #: (kinds, loop id or None, the row to select as (kind, id) or None): a write made
    #: here, for the page to announce (it refreshes on it, selecting that row)
    edited = Signal(object, object, object)
    said = Signal(str)  # a line for the page's status
    stale = Signal()  # what the page shows is out of date (a row already gone)

    def __init__(self, ctx, page):
        super().__init__(page)
        self.ctx = ctx
        self.dialogs = JournalDialogs()  # tests swap it
        self.undo_stack = QUndoStack(self)

    def _page(self):
        return self.parent()  # the Qt parent, not an attribute: no cycle through the page

    def status(self, text: str) -> None:
        self.said.emit(text)

    def _edit_fields(
        self,
        update,
        row_id: int,
        changed: dict,
        failed: str,
        text: str,
        loop_id,
        select=None,
        *,
        kinds: tuple[str, ...],
    ) -> None:
        """Write ``changed`` with ``update`` (update_round, update_loop: they return the
        previous values) and make it one undoable step; a refusal is shown, nothing kept."""
        db = self.ctx.db
        try:
            old = update(db, row_id, **changed)
        except ValueError as exc:
            self._failed(failed, exc)
            return
        self._push(
            text,
            lambda: update(db, row_id, **changed),
            lambda: update(db, row_id, **old),
            loop_id,
            select,
            kinds=kinds,
        )

    def _push(
        self,
        text: str,
        redo,
        undo,
        loop_id: int | None,
        select=None,
        first_select=None,
        *,
        kinds: tuple[str, ...] = ("capture",),
    ) -> None:
        """Record a change already made and tell everyone. ``select`` ((kind, id), or a
        function giving it) is the row to select after an undo or redo, ``first_select``
        the one to select now (default: ``select``); ``kinds`` say what it changed."""

        def report(message: str) -> None:
            self._changed(message, loop_id, select, kinds)

        self.undo_stack.push(JournalCommand(text, redo, undo, report))
        now = first_select if first_select is not None else select
        self._changed(f"{text[:1].upper()}{text[1:]}. Ctrl+Z undoes it.", loop_id, now, kinds)

    def _changed(self, message: str, loop_id: int | None, select, kinds=("capture",)) -> None:
        self.edited.emit(kinds, loop_id, select() if callable(select) else select)
        self.status(message)

    def _failed(self, what: str, exc: Exception) -> None:
        self.status(f"{what}: {exc}")

    def edit(self, obj) -> None:
        """Edit a row of the rounds view: an entry, a Round or a RoundNotes."""
        if isinstance(obj, RoundNotes):
            self.edit_round(obj.round, focus_notes=True)
        elif isinstance(obj, Round):
            self.edit_round(obj)
        else:
            self.edit_entry(obj)

    def edit_entry(self, entry) -> None:
        kind = edits.entry_kind_of(entry)
        db = self.ctx.db
        topic = getattr(entry, "topic", "")
        weak_now = bool(topic) and kind != "weak" and weak.is_weak(db, topic)

        def answered(answer) -> None:
            fields, want_weak = answer
            changed = {k: v for k, v in fields.items() if v != getattr(entry, k)}
            name = ENTRY_NAMES[kind]
            old = None
            if changed:
                try:
                    old = edits.update_entry(db, kind, entry.id, **changed)
                except ValueError as exc:
                    self._failed(f"The {name} was not saved", exc)
                    return
            elif not want_weak:
                self.status("Nothing changed.")
                return
            both = old is not None and want_weak
            if both:  # one Ctrl+Z undoes the edit and the mark together
                self.undo_stack.beginMacro(f"edit the {name} and mark its topic weak")
            try:
                if old is not None:
                    self._push(
                        f"edit the {name}",
                        lambda: edits.update_entry(db, kind, entry.id, **changed),
                        lambda: edits.update_entry(db, kind, entry.id, **old),
                        entry.loop_id,
                        (kind, entry.id),
                    )
                if want_weak:
                    new_topic = fields.get("topic", topic)
                    self._mark_weak(new_topic, "", entry.loop_id, entry.round_id, (kind, entry.id))
            finally:
                if both:
                    self.undo_stack.endMacro()

        self.dialogs.edit_entry(self._page(), kind, entry, weak_now, answered)

    def edit_round(self, rnd, focus_notes: bool = False) -> None:
        types = [(t.id, t.title) for t in self.ctx.content.round_types()]
        lengths = type_lengths(self.ctx.content)  # the one rule the day and the card use

        def answered(fields) -> None:
            topics = fields.pop("expected_topics", None)  # the story bank's (ui/stories)
            saved_topics = False
            if topics is not None and topics != load_expected(self.ctx.db, rnd.id):
                save_expected(self.ctx.db, rnd.id, topics)
                saved_topics = True
                self.status("Expected topics saved.")
                self.stale.emit()
            changed = {k: v for k, v in fields.items() if v != getattr(rnd, k)}
            if not changed and saved_topics:
                return
            if not changed:
                self.status("Nothing changed.")
                return
            self._edit_fields(
                update_round,
                rnd.id,
                changed,
                "The round was not saved",
                "edit the round",
                rnd.loop_id,
                ("notes" if focus_notes and changed.get("notes") else "round", rnd.id),
                kinds=("round", "capture"),  # its notes are part of the capture
            )

        self.dialogs.edit_round(self._page(), rnd, types, focus_notes, lengths, then=answered)

    def edit_loop(self, loop_id: int | None) -> None:
        loop = get_loop(self.ctx.db, loop_id) if loop_id is not None else None
        if loop is None:
            return

        def answered(fields) -> None:
            changed = {k: v for k, v in fields.items() if v != getattr(loop, k)}
            if not changed:
                self.status("Nothing changed.")
                return
            self._edit_fields(
                update_loop,
                loop.id,
                changed,
                "The loop was not saved",
                f"edit the {loop.company} loop",
                loop.id,
                kinds=("loop",),
            )

        self.dialogs.edit_loop(self._page(), loop, answered)

    def delete(self, obj, neighbour) -> None:
        """Delete the entry ``obj`` (or clear a round's notes) once confirmed; ``neighbour``
        is the entry to select once it is gone (None: none)."""
        if isinstance(obj, RoundNotes):
            self._clear_round_notes(obj.round)
            return
        if obj is None or isinstance(obj, Round):
            self.status("Select an entry under a round to delete it.")
            return
        kind = edits.entry_kind_of(obj)
        name = ENTRY_NAMES[kind]
        text = getattr(obj, "question", None) or getattr(obj, "topic", None) or obj.text
        short = " ".join(text.split())
        short = short if len(short) <= 120 else short[:119] + "…"

        def confirmed() -> None:
            db = self.ctx.db
            row = edits.entry_row(db, kind, obj.id)
            if row is None:
                self.status(f"That {name} was already deleted.")
                self.stale.emit()
                return
            state = {"id": obj.id}
            journal.delete_entry(db, kind, obj.id)

            def redo() -> None:
                journal.delete_entry(db, kind, state["id"])

            def undo() -> None:
                state["id"] = edits.restore_entry(db, kind, row)

            select = None
            if neighbour is not None:
                select = (edits.entry_kind_of(neighbour), neighbour.id)
            # now the next entry is selected; after an undo, the entry put back
            self._push(
                f"delete the {name}", redo, undo, obj.loop_id, lambda: (kind, state["id"]), select
            )

        self.dialogs.confirm(
            self._page(),
            f"Delete the {name}?",
            f"Delete the {name} “{short}”?",
            f"Delete {name}",
            confirmed,
        )

    def _clear_round_notes(self, rnd) -> None:
        def confirmed() -> None:
            db = self.ctx.db
            old = update_round(db, rnd.id, notes="")
            self._push(
                "clear the round's notes",
                lambda: update_round(db, rnd.id, notes=""),
                lambda: update_round(db, rnd.id, **old),
                rnd.loop_id,
                ("round", rnd.id),
            )

        self.dialogs.confirm(
            self._page(), "Clear the notes?", "Clear this round's notes?", "Clear notes", confirmed
        )

    # --- weak topics -----------------------------------------------------------------------
    def mark_weak(self, obj, loop_id: int | None) -> None:
        """Mark the topic of the row ``obj`` weak (asked for when it has none); ``loop_id``
        is the loop shown, for a mark with no entry."""
        round_id, topic, select = None, "", None
        if isinstance(obj, WeakTopic):
            self.status(f"“{obj.topic}” is already marked weak.")
            return
        if isinstance(obj, (Asked, Flub, WentWell)):
            loop_id, round_id = obj.loop_id, obj.round_id
            topic = getattr(obj, "topic", "")
            kind = {Asked: "asked", Flub: "flub", WentWell: "went_well"}[type(obj)]
            select = (kind, obj.id)
        elif isinstance(obj, (Round, RoundNotes)):
            rnd = obj if isinstance(obj, Round) else obj.round
            round_id, select = rnd.id, ("round", rnd.id)
        if topic:
            self._mark_weak(topic, "", loop_id, round_id, select)
            return
        suggested = getattr(obj, "question", "") or getattr(obj, "text", "")
        self.dialogs.weak_topic(
            self._page(),
            " ".join(suggested.split())[:80],
            then=lambda answer: self._mark_weak(answer[0], answer[1], loop_id, round_id, select),
        )

    def _mark_weak(self, topic: str, note: str, loop_id, round_id, select) -> None:
        db = self.ctx.db
        try:
            weak_id = weak.mark_weak(
                db, topic, loop_id=loop_id, round_id=round_id, note=note, at=self.ctx.now()
            )
        except ValueError as exc:
            self._failed("Not marked weak", exc)
            return
        if weak_id is None:
            self.status(f"“{topic.strip()}” is already marked weak; it is on the study list.")
            return
        row = edits.entry_row(db, "weak", weak_id)
        state = {"id": weak_id}

        def redo() -> None:
            state["id"] = edits.restore_entry(db, "weak", row)

        def undo() -> None:
            journal.delete_entry(db, "weak", state["id"])

        self._push(f"mark “{topic.strip()}” weak", redo, undo, loop_id, select)

    def add_weak_topic(self, parent) -> None:
        """Name a topic to mark weak (from the Weak topics window, ``parent``)."""
        self.dialogs.weak_topic(
            parent, then=lambda answer: self._mark_weak(answer[0], answer[1], None, None, None)
        )

    def unmark_weak(self, key: str) -> None:
        db = self.ctx.db
        rows = weak.unmark_weak(db, key)
        if not rows:
            self.status("That topic is no longer marked weak.")
            self.stale.emit()
            return
        topic = rows[-1]["topic"]
        state = {"rows": rows}

        def redo() -> None:
            state["rows"] = weak.unmark_weak(db, key)

        def undo() -> None:
            for row in state["rows"]:
                edits.restore_entry(db, "weak", row)

        self._push(f"unmark “{topic}” as weak", redo, undo, None)
