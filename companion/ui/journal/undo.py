"""Undo for the Journal page: each change is done first, then pushed as a command that
knows how to undo and redo it through the core functions."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand


class JournalCommand(QUndoCommand):
    """A change already made; ``undo_fn`` reverts it, ``redo_fn`` makes it again.

    ``report(message)`` runs after every undo or redo (the page refreshes and says what
    happened). A step that can no longer be undone (its loop was deleted meanwhile) is
    reported and dropped from the stack.
    """

    def __init__(
        self,
        text: str,
        redo_fn: Callable[[], None],
        undo_fn: Callable[[], None],
        report: Callable[[str], None],
    ):
        super().__init__(text)
        self._redo_fn = redo_fn
        self._undo_fn = undo_fn
        self._report = report
        self._done = True  # the change was made before the command was pushed

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self._run(self._redo_fn, "Redone")

    def undo(self) -> None:
        self._run(self._undo_fn, "Undone")

    def _run(self, fn: Callable[[], None], what: str) -> None:
        try:
            fn()
        except ValueError as exc:
            self.setObsolete(True)
            self._report(f"Could not undo or redo “{self.text()}”: {exc}")
            return
        self._report(f"{what}: {self.text()}.")
