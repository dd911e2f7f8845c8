"""The Journal page's top bar: search as you type, a new loop, and the export menu."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QMenu, QPushButton, QToolButton, QWidget

SEARCH_PAUSE_MS = 60  # a search runs once typing pauses this long, not on every key


class JournalTopBar(QWidget):
    """``search`` signals ``search_due`` when typing pauses; ``new_loop_button`` and
    ``export_button`` (a menu of ``exports``: (title, action) pairs, None a separator)."""

    search_due = Signal()

    def __init__(self, exports: list[tuple[str, Callable] | None]):
        super().__init__()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the journal…  (Ctrl+F)")
        self.search.setAccessibleName("Search the journal")
        self.search.setClearButtonEnabled(True)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(SEARCH_PAUSE_MS)
        self._pause.timeout.connect(self.search_due)
        self.search.textChanged.connect(self._typed)
        QShortcut(QKeySequence("Escape"), self.search, self.search.clear)
        self.new_loop_button = QPushButton("&New loop…")
        self.export_button = QToolButton()
        self.export_button.setText("&Export")
        self.export_button.setAccessibleName("Export or import")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.export_button.setMenu(self._menu(exports))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.search, 1)
        row.addWidget(self.new_loop_button)
        row.addWidget(self.export_button)

    def _menu(self, exports) -> QMenu:
        menu = QMenu(self.export_button)
        for item in exports:
            if item is None:
                menu.addSeparator()
            else:
                menu.addAction(*item)
        return menu

    def text(self) -> str:
        """What is searched for (blank: nothing)."""
        return self.search.text().strip()

    def _typed(self, _text: str) -> None:
        self._pause.start()
