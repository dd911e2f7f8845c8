"""The Journal page's rounds of one loop: a tree of each round with what was asked,
flubbed and went well under it, or a line that says nothing is written down yet."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTreeView,
)

from companion.core.day.loops import Round
from companion.ui.journal.models import OBJECT, RoundNotes, RoundTreeModel
from companion.ui.journal.views import ViewKeys

EMPTY_LOOP_TEXT = (
    "Nothing written down for this loop yet.\n\nAfter a round, press “Capture…” (or use "
    "the cue card) to note what was asked, what you flubbed and what went well."
)


def is_entry(obj) -> bool:
    """True for a row that is an entry (asked, flub, went well, weak), not a round or notes."""
    return obj is not None and not isinstance(obj, (Round, RoundNotes))


class RoundsPane(QStackedWidget):
    """The tree (``view`` over ``model``) or the empty line; Enter or F2 and Delete on a
    row, a double-click and the context menu are signals for the page."""

    current_changed = Signal()
    edit_requested = Signal()
    delete_requested = Signal()
    menu_requested = Signal(QPoint)  # a right-click on a row, in the view's coordinates

    def __init__(self):
        super().__init__()
        self.model = RoundTreeModel(self)
        self.view = QTreeView()
        self.view.setModel(self.model)
        self.view.setAccessibleName("Rounds and what was written for each")
        self.view.setAccessibleDescription(
            "Enter or F2 edits the selected row; Delete deletes an entry; Ctrl+Z undoes."
        )
        self.view.setAlternatingRowColors(True)
        self.view.setUniformRowHeights(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.doubleClicked.connect(self._edit)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._menu_asked)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self._keys = ViewKeys(self.view, self._edit, self._delete)
        self.empty = QLabel(EMPTY_LOOP_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setAccessibleName("Nothing written down for this loop yet")
        self.addWidget(self.view)
        self.addWidget(self.empty)

    def show_detail(self, detail, titles) -> None:
        """Show a loop's rounds (``detail``: its LoopDetail; ``titles``: round type id ->
        title, as the day names them)."""
        self.model.set_detail(detail, titles)
        self.view.expandAll()
        self.view.resizeColumnToContents(0)
        self.setCurrentWidget(self.view if self.model.rowCount() else self.empty)

    def clear(self) -> None:
        self.model.set_detail(None)

    def has_rows(self) -> bool:
        return self.model.rowCount() > 0

    def selected_object(self):
        """What the current row stands for: an entry, a Round, a RoundNotes, or None."""
        index = self.view.currentIndex()
        if not index.isValid():
            return None
        return index.siblingAtColumn(0).data(OBJECT)

    def selected_round(self):
        """The Round of the current row (itself, or the one above its entry), or None."""
        index = self.view.currentIndex()
        while index.isValid() and index.parent().isValid():
            index = index.parent()
        return index.data(OBJECT) if index.isValid() else None

    def first_round(self):
        return next((g.round for g in self.model.groups if g.round), None)

    def neighbour_entry(self):
        """The entry to select once the current one is gone: below, else above."""
        current = self.view.currentIndex()
        for near in (self.view.indexBelow(current), self.view.indexAbove(current)):
            candidate = near.siblingAtColumn(0).data(OBJECT) if near.isValid() else None
            if is_entry(candidate):
                return candidate
        return None

    def select(self, *keys) -> None:
        """Select the first row of ``keys`` ((kind, id) pairs, None skipped) that is
        shown, else the first row."""
        index = QModelIndex()
        for key in keys:
            if key is not None and not index.isValid():
                index = self.model.index_of(*key)
        if not index.isValid() and self.model.rowCount():
            index = self.model.index(0, 0)
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)

    def _edit(self, *_args) -> None:
        self.edit_requested.emit()

    def _delete(self) -> None:
        self.delete_requested.emit()

    def _current_changed(self, *_args) -> None:
        self.current_changed.emit()

    def _menu_asked(self, pos: QPoint) -> None:
        self.menu_requested.emit(pos)

    def popup_menu(self, pos: QPoint, buttons: list[QPushButton]) -> None:
        """A menu at ``pos`` with an item per button (its text, enabled as it is), when
        ``pos`` is on a row."""
        if not self.view.indexAt(pos).isValid():
            return
        menu = QMenu(self.view)
        menu.aboutToHide.connect(menu.deleteLater)
        for button in buttons:
            action = menu.addAction(button.text().replace("&", ""), button.click)
            action.setEnabled(button.isEnabled())
        menu.popup(self.view.viewport().mapToGlobal(pos))  # no loop of its own
