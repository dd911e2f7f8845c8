"""A loop's schedule: its rounds with start times, entered by hand or from an .ics file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from companion.core.changes import Change
from companion.core.content.lengths import type_lengths
from companion.core.cue.card import SETTLE
from companion.core.day.actions import add
from companion.core.day.dates import default_round_start
from companion.core.day.ics import IcsError, read_ics
from companion.core.day.invitation import import_invitation_events, titles_company
from companion.core.day.invite_people import my_address, remember_my_address
from companion.core.day.loops import delete_round, get_loop, get_round, list_rounds, update_round
from companion.core.text import count_of
from companion.ui.stories.expected import dialog_topics, save_dialog_topics
from companion.ui.today.ics_worker import IcsRead
from companion.ui.today.rounds_tree import RoundsTree, round_row
from companion.ui.widgets.loop_dialogs import RoundDialog
from companion.ui.widgets.opening import ask, choose_file, open_dialog, tell


class ScheduleEditor(QWidget):
    """The rounds of one loop, soonest first, with add / edit / delete / import."""

    changed = Signal()

    def __init__(self, ctx, bus, day, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service: skip, unskip and reschedule go through it
        self.loop_id = 0
        self.ask_dialog = None  # "which address is yours?", asked once at an import
        self._reading = False
        self.dialog = None  # the dialog or question open now (opened without a nested loop)
        self._skippable: dict[int, tuple[bool, bool]] = {}
        self._skip_done: tuple[int, dt.datetime] | None = None  # the last Skip/Unskip
        self._view = None  # the day's view of this loop, when Today passes it
        self._every = False  # every loop of the day's view on one calendar
        self._day_loop_id = 0  # the loop Today passed: new rounds go there
        self.tree = RoundsTree()
        self.tree.itemActivated.connect(lambda *_: self.edit_selected())
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addLayout(self._buttons())
        self._update_buttons()

    def _buttons(self) -> QHBoxLayout:
        """Add, Edit, Skip, Delete and Import, under the list."""
        self.add_button = QPushButton("&Add round…")
        self.edit_button = QPushButton("&Edit…")
        self.delete_button = QPushButton("Dele&te")
        self.skip_button = QPushButton("S&kip")
        self.skip_button.setToolTip("Skip this round (it stays in the schedule, marked)")
        self.import_button = QPushButton("&Import .ics…")
        self.import_button.setToolTip("Add the rounds from a calendar invitation file")
        self.add_button.clicked.connect(self.add_round)
        self.edit_button.clicked.connect(self.edit_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.skip_button.clicked.connect(self.toggle_skip)
        self.import_button.clicked.connect(self.choose_ics)
        buttons = QHBoxLayout()
        for button in (
            self.add_button,
            self.edit_button,
            self.skip_button,
            self.delete_button,
            self.import_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        return buttons

    def _types(self) -> list[tuple[str, str]]:
        return [(t.id, t.title) for t in self.ctx.content.round_types()]

    def _lengths(self) -> dict[str, int]:
        """Each round type's length, by the one rule the day and the card use."""

        return type_lengths(self.ctx.content)

    def set_loop(self, loop_id: int, view=None, *, every: bool = False) -> None:
        """Show ``loop_id``'s rounds; with the day's ``view`` of that loop, each with its
        state, in the order they run (a round started early moves up), the one now
        marked. With ``every``, the rounds of every loop of the view on one calendar,
        each named with its company; a new round goes to the selected round's loop, else
        to ``loop_id`` (the day's)."""
        self.loop_id = self._day_loop_id = loop_id
        held = view is not None and any(lp.id == loop_id for lp in view.loops)
        self._view = view if held else None  # the day holds every loop's rounds
        self._every = every and self._view is not None
        self.refresh()

    def _day_rounds(self) -> list:
        """(round, state, when) for the loop (every loop's with ``every``): from the
        day's view when there is one."""
        view = self._view
        if view is not None:
            mine = [d for d in view.rounds if self._every or d.round.loop_id == self.loop_id]
            return [(d.round, d.state, d.starts_at) for d in mine]

        rounds = list_rounds(self.ctx.db, self.loop_id) if self.loop_id else []
        return [(r, "", r.started or r.scheduled) for r in rounds]

    def refresh(self) -> None:
        now = self.ctx.now()
        titles = dict(self._types())
        view = self._view
        focus = view.focus.id if view is not None and view.focus is not None else 0
        rows = []
        self._skippable: dict[int, tuple[bool, bool]] = {}  # round id -> (skipped, begun)
        self._loops_of: dict[int, int] = {}  # round id -> its loop
        for rnd, state, when in self._day_rounds():
            loop = view.loop_of(rnd.id) if self._every else None
            rows.append(round_row(rnd, state, when, now, titles, focus, loop))
            self._loops_of[rnd.id] = rnd.loop_id
            self._skippable[rnd.id] = (bool(rnd.skipped_at), bool(rnd.started_at or rnd.ended_at))
        self.tree.show_rows(rows, focus)  # the day's ticks keep the list as it is
        self._update_buttons()

    def _selected_id(self) -> int:
        return self.tree.selected_id()

    def _update_buttons(self) -> None:
        selected = self._selected_id()
        if self._every:  # Add round and Import go to the selected round's loop
            self.loop_id = self._loops_of.get(selected, self._day_loop_id)
        has_loop = bool(self.loop_id)
        for button in (self.add_button, self.import_button):
            button.setEnabled(has_loop)
        for button in (self.edit_button, self.delete_button):
            button.setEnabled(has_loop and bool(selected))
        skipped, begun = self._skippable.get(selected, (False, False))
        self.skip_button.setText("Uns&kip" if skipped else "S&kip")
        self.skip_button.setAccessibleName("Put the round back" if skipped else "Skip the round")
        self.skip_button.setEnabled(has_loop and bool(selected) and not begun)

    def _default_start(self) -> dt.datetime:
        now = self.ctx.now()
        times = [r.scheduled for r in list_rounds(self.ctx.db, self.loop_id) if r.scheduled]
        loop = get_loop(self.ctx.db, self.loop_id) if self.loop_id else None
        starts_on = dt.date.fromisoformat(loop.starts_on) if loop and loop.starts_on else None
        return default_round_start(now, starts_on, times)

    def _today(self) -> dt.date:
        """Today on the start field's wall clock: a typed "tomorrow" counts from it."""
        return self.ctx.now().date()  # ctx.now() is in the local zone

    def add_round(self) -> None:
        dialog = RoundDialog(
            self._types(),
            self._default_start(),
            parent=self,
            today=self._today(),
            lengths=self._lengths(),
            default_minutes=self.ctx.content.round_defaults().minutes,
            **dialog_topics(self.ctx),
        )
        self._open(
            dialog, lambda: save_dialog_topics(self.ctx, self.save_new(dialog.values()), dialog)
        )

    def save_new(self, values: dict) -> int:
        """Add the round through the day's one checked path (a custom type keeps its
        words, an empty one is refused)."""

        round_id = add(
            self.ctx.db,
            self.loop_id,
            values["type"],
            known={type_id for type_id, _title in self._types()},
            label=values.get("type_label", ""),
            scheduled_at=values.get("scheduled_at"),
            interviewer_role=values.get("interviewer_role", ""),
            interviewer_name=values.get("interviewer_name", ""),
            minutes=values.get("length_minutes"),
            link=values.get("link", ""),
        )
        if values.get("organizer"):
            update_round(self.ctx.db, round_id, organizer=values["organizer"])
        self._changed([round_id])
        return round_id

    def edit_selected(self) -> None:
        rnd = get_round(self.ctx.db, self._selected_id())
        if rnd is None:
            return
        start = (rnd.scheduled or self._default_start()).astimezone(self.ctx.now().tzinfo)

        dialog = RoundDialog(
            self._types(),
            start,
            rnd,
            parent=self,
            today=self._today(),
            lengths=self._lengths(),
            default_minutes=self.ctx.content.round_defaults().minutes,
            **dialog_topics(self.ctx, rnd),
        )

        def accepted() -> None:
            save_dialog_topics(self.ctx, rnd.id, dialog)
            self.save_edit(rnd.id, dialog.values())

        self._open(dialog, accepted)

    def save_edit(self, round_id: int, values: dict) -> None:
        """Store an edited round: its type and interviewer here, a changed start time
        through the day's ``reschedule`` (one announced change either way)."""

        rnd = get_round(self.ctx.db, round_id)
        if rnd is None:
            return
        values = dict(values)
        when = values.pop("scheduled_at", rnd.scheduled)
        update_round(self.ctx.db, round_id, **values)  # checks the fields
        if when != rnd.scheduled:
            self.refresh()
            self.changed.emit()
            self.day.reschedule_round(round_id, when, origin=self)
        else:
            self._changed([round_id])

    def toggle_skip(self) -> None:
        """Skip the selected round, or put a skipped one back, through the day service."""

        round_id = self._selected_id()
        if not round_id:
            return
        now = self.ctx.now()
        done = self._skip_done
        if done is not None and done[0] == round_id and dt.timedelta(0) <= now - done[1] < SETTLE:
            return  # the second click of a double click: Skip just became Unskip
        self._skip_done = (round_id, now)
        skipped, _begun = self._skippable.get(round_id, (False, False))
        if skipped:
            self.day.unskip_round(round_id, origin=self)
        else:
            self.day.skip_round(round_id, origin=self)
        self.refresh()
        self.changed.emit()

    def _open(self, dialog, accepted) -> None:
        """Show ``dialog`` without a nested event loop (the day's timer keeps firing and
        may redraw this list under it); ``accepted`` runs when it is accepted."""
        self.dialog = open_dialog(dialog, accepted)

    def delete_selected(self) -> None:
        round_id = self._selected_id()
        if not round_id:
            return
        self.dialog = ask(
            self,
            "Delete round",
            "Delete this round from the schedule (and any notes on it)?",
            lambda: self.delete_round(round_id),
        )

    def delete_round(self, round_id: int) -> None:
        try:
            delete_round(self.ctx.db, round_id)
        except Exception as exc:  # noqa: BLE001 - a foreign key from journal entries
            self.dialog = tell(
                self, "Delete round", f"The round could not be deleted: {exc}", warning=True
            )
            return
        self._changed([round_id])

    def choose_ics(self) -> None:
        self.dialog = choose_file(
            self,
            "Import a calendar invitation",
            Path.home(),
            "Calendar files (*.ics);;All files (*)",
            lambda path, _filter: self.import_in_background(path),
            ctx=self.ctx,
        )

    def import_in_background(self, path: Path) -> None:
        """Read the file on a worker thread (a hostile file must not freeze the window);
        the rounds are added back here, on the GUI thread, and the outcome shown."""
        from PySide6.QtCore import QThreadPool

        job = IcsRead(path)
        self._ics_signals = job.signals  # outlives the job, so the result is delivered
        job.signals.read.connect(
            lambda events, problems, error: self._show_import(path, events, problems, error)
        )
        self.import_button.setEnabled(False)
        self.setCursor(Qt.CursorShape.BusyCursor)
        QThreadPool.globalInstance().start(job)

    def _show_import(self, path: Path, events, problems, error: str) -> None:
        self.import_button.setEnabled(True)
        self.unsetCursor()
        self._reading = True  # a question it asks opens over the result's box, below
        try:
            message = error or self.apply_import(path, events, problems)
        finally:
            self._reading = False
        # file names and event titles are not HTML: tell() shows plain text, line breaks kept
        self.dialog = tell(self, "Import .ics", message)
        if self.ask_dialog is not None and not self.ask_dialog.isVisible():
            self.ask_dialog.open()  # the question goes on top of the result

    def import_file(self, path: Path) -> str:
        """Import a .ics file into this loop at once; returns the message to show."""

        try:
            events, problems = read_ics(path)
        except IcsError as exc:
            return str(exc)
        return self.apply_import(path, events, problems)

    def apply_import(self, path: Path, events, problems) -> str:
        """Add the events read from ``path`` as this loop's rounds; the message to show.
        An invitation whose titles name another company goes to that company's loop
        (found, or made), as `companion schedule import` does: never into this one. A
        later copy of an event imported before moves or cancels its round."""

        me = my_address(self.ctx.settings)
        rules = self.day.rules
        # the people and domains too: "Alex <> Cobalt Labs" names Cobalt Labs, not Alex
        timed = [e for e in events if not e.all_day]
        named = titles_company(timed, me, [*rules.titles, *rules.titles.values()])
        mine = get_loop(self.ctx.db, self.loop_id) if self.loop_id else None
        other = bool(named and mine is not None and named.lower() != mine.company.lower())
        try:
            result = import_invitation_events(
                self.ctx.db,
                path,
                events,
                problems,
                rules,  # the day's rules, read once by the service
                company=None if other or mine is None else mine.company,
                me=me,
                now=self.ctx.now(),
                into=None if other else self.loop_id or None,
            )
        except ValueError as exc:
            return str(exc)
        self._changed([result.loop_id] if result.loop_id != self.loop_id else ())
        if result.unsure:
            self._ask_my_address(result.unsure, path, events, problems)
        if other:
            head = [
                f"{path.name} is an invitation from {named}, not {mine.company}.",
                result.summary,
            ]
        else:
            n = result.added
            head = [f"Added {count_of(n, 'round')} from {path.name}."]
            if result.duplicates:
                head.append(f"Skipped {count_of(result.duplicates, 'round')} already there.")
        return "\n".join([*head, *result.messages])

    def _ask_my_address(self, addresses, path: Path, events, problems) -> None:
        """Asked once: which invited address is the user's, so the others are named."""
        from PySide6.QtWidgets import QInputDialog

        ask = QInputDialog(self)
        ask.setWindowTitle("Which address is yours?")
        ask.setLabelText(
            "Several people are invited. Which address is yours?\n"
            "Asked once: the others are then named as the interviewers."
        )
        ask.setComboBoxItems(list(addresses))
        ask.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        ask.destroyed.connect(lambda *_: setattr(self, "ask_dialog", None))

        def chosen(address: str) -> None:
            remember_my_address(self.ctx.settings, address)
            self.apply_import(path, events, problems)  # names the rounds just imported

        ask.textValueSelected.connect(chosen)
        self.ask_dialog = ask
        if not self._reading:  # read off the GUI thread: opened over the result's box
            ask.open()

    def _changed(self, ids=()) -> None:
        self.refresh()
        self.changed.emit()
        self.bus.announce(Change.of("round", ids=ids, origin=self))
