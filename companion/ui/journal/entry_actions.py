"""The Journal page's row of buttons under the rounds: edit, delete, mark weak, the weak
topics list, and undo (wired to the editor's undo stack)."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from companion.core.journal.entries import Flub, WeakTopic
from companion.ui.journal.models import RoundNotes
from companion.ui.journal.rounds_pane import is_entry


def _button(text: str, name: str, tip: str = "") -> QPushButton:
    button = QPushButton(text)
    button.setAccessibleName(name)
    if tip:
        button.setToolTip(tip)
    return button


class EntryActions(QWidget):
    """The buttons; the page connects their ``clicked``. ``show_for`` enables them for
    the selected row."""

    def __init__(self, undo_stack: QUndoStack):
        super().__init__()
        self.edit_button = _button(
            "Ed&it…",
            "Edit the selected entry or round",
            "Edit the selected row (Enter, F2 or double-click)",
        )
        self.delete_button = _button(
            "De&lete",
            "Delete the selected entry",
            "Delete the selected entry (Delete); Ctrl+Z brings it back",
        )
        self.weak_button = _button(
            "Mark topic &weak",
            "Mark the selected entry's topic weak",
            "Put the selected entry's topic on the study list",
        )
        self.weak_list_button = _button("Weak &topics…", "Show and unmark the topics marked weak")
        self.undo_button = self._undo_button(undo_stack)
        self._undo_tip(undo_stack.undoText())
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for button in self.menu_buttons() + [self.weak_list_button]:
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.undo_button)

    def _undo_button(self, undo_stack: QUndoStack) -> QPushButton:
        button = _button("&Undo", "Undo the last edit or delete on this page")
        button.clicked.connect(undo_stack.undo)
        # straight to the widgets: the stack also signals while the page is destroyed
        undo_stack.canUndoChanged.connect(button.setEnabled)
        undo_stack.undoTextChanged.connect(self._undo_tip)
        button.setEnabled(undo_stack.canUndo())
        return button

    def menu_buttons(self) -> list[QPushButton]:
        """The buttons a row's context menu offers too."""
        return [self.edit_button, self.delete_button, self.weak_button]

    def show_for(self, obj, has_loop: bool) -> None:
        """Enable the buttons for the selected row ``obj`` (None: no row)."""
        notes = isinstance(obj, RoundNotes)
        self.edit_button.setEnabled(obj is not None)
        self.delete_button.setEnabled(is_entry(obj) or notes)
        self.weak_button.setEnabled(has_loop and not isinstance(obj, WeakTopic))
        self.delete_button.setText("Clear &notes" if notes else "De&lete")
        self.weak_button.setToolTip(
            f"Put “{obj.topic}” on the study list"
            if isinstance(obj, Flub) or (is_entry(obj) and getattr(obj, "topic", ""))
            else "Name a topic to put on the study list"
        )

    def _undo_tip(self, what: str) -> None:
        try:
            self.undo_button.setToolTip(f"Undo {what} (Ctrl+Z)" if what else "Nothing to undo")
        except RuntimeError:  # the page is being destroyed
            pass
