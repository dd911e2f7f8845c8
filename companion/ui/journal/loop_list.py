"""The Journal page's left side: the loops, or the search results while a search is
typed, or a line for no loops or no matches."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListView, QStackedWidget

from companion.ui.journal.models import OBJECT, LoopListModel, SearchResultsModel
from companion.ui.journal.views import LoopDelegate, ViewKeys

# the list's least width, in average characters: a company's name, and no more than
# lets the window fit 800 x 500 (1600 x 1000 at 200 %, tests/ui/test_accessibility.py)
LIST_CHARS = 16


def _list_view(model, name: str) -> QListView:
    view = QListView()
    view.setModel(model)
    view.setAccessibleName(name)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return view


def _centred(text: str, name: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setAccessibleName(name)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


class LoopList(QStackedWidget):
    """``view`` over ``model`` (the loops), ``results_view`` over ``results_model``; a
    loop the user moves to or picks from the results is ``loop_chosen``, Enter, F2 or a
    double-click on a loop is ``edit_requested``."""

    loop_chosen = Signal(int)
    edit_requested = Signal()

    def __init__(self):
        super().__init__()
        self._selecting = False
        self.model = LoopListModel(self)
        self.view = _list_view(self.model, "Loops")
        self.view.setAccessibleDescription(
            "Arrow keys choose a loop; Enter or F2 edits it; Tab moves to its rounds."
        )
        self.view.setItemDelegate(LoopDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.selectionModel().currentChanged.connect(self._moved)
        self.view.doubleClicked.connect(self._edit)
        self._keys = ViewKeys(self.view, self._edit)
        self.results_model = SearchResultsModel(self)
        self.results_view = _list_view(self.results_model, "Search results")
        self.results_view.setWordWrap(True)
        self.results_view.activated.connect(self._result_chosen)
        self.results_view.clicked.connect(self._result_chosen)
        self.results_empty = _centred("No matches.", "No search matches")
        # the pane beside says "No loops yet." and what to do: not the same line twice
        self.empty = _centred("The loops you add are listed here.", "No loops yet")
        for widget in (self.view, self.results_view, self.results_empty, self.empty):
            self.addWidget(widget)
        # room for a company's name: at 200 % the detail's minimum width left it about
        # nine characters ("Northw…")
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * LIST_CHARS)

    @property
    def loops(self) -> list:
        return self.model.loops

    def set_loops(self, loops: list) -> None:
        self.model.set_loops(loops)

    def row_of(self, loop_id: int) -> int:
        return self.model.row_of(loop_id)

    def status_of(self, loop_id: int, default: str) -> str:
        """The loop's status as the list shows it (its rounds tell it), else ``default``."""
        row = self.model.row_of(loop_id)
        return self.model.loops[row].status if row >= 0 else default

    def current_loop_id(self) -> int | None:
        index = self.view.currentIndex()
        return index.data(OBJECT).id if index.isValid() else None

    def select_row(self, row: int) -> int:
        """Make ``row`` current without a ``loop_chosen``; its loop's id."""
        index = self.model.index(row, 0)
        self._selecting = True
        try:
            self.view.setCurrentIndex(index)
        finally:
            self._selecting = False
        self.view.scrollTo(index)
        return self.model.loops[row].id

    def show_loops(self) -> None:
        self.setCurrentWidget(self.view)

    def show_no_loops(self) -> None:
        self.setCurrentWidget(self.empty)

    def leave_no_loops(self) -> None:
        """Back to the loops when the list had said there are none."""
        if self.currentWidget() is self.empty:
            self.setCurrentWidget(self.view)

    def show_hits(self, hits: list) -> None:
        self.results_model.set_hits(hits)
        self.setCurrentWidget(self.results_view if hits else self.results_empty)

    def _moved(self, current: QModelIndex, _previous=None) -> None:
        if current.isValid() and not self._selecting:
            self.loop_chosen.emit(current.data(OBJECT).id)

    def _edit(self, *_args) -> None:
        self.edit_requested.emit()

    def _result_chosen(self, index: QModelIndex) -> None:
        hit = index.data(OBJECT)
        if hit is None or hit.loop_id is None:
            return
        row = self.model.row_of(hit.loop_id)
        if row >= 0:
            self.view.setCurrentIndex(self.model.index(row, 0))
            self.loop_chosen.emit(hit.loop_id)
