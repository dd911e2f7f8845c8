"""The top of an editing page (About me, Stories): a toolbar of the page's actions with the
save status beside it, and a notice row under it that the user dismisses."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QToolBar, QWidget

from companion.ui.theme import soft_background


def action_bar(name: str, actions) -> tuple[QHBoxLayout, list[QWidget], QLabel]:
    """The toolbar named ``name`` holding ``actions`` (its buttons in order, for the Tab
    chain), and the save status on its right.
    Toolbar buttons are out of the Tab chain by default; some actions have no shortcut,
    so each button takes Tab focus and keyboard users reach them all."""
    toolbar = QToolBar(name)
    toolbar.setAccessibleName(name)
    buttons = []
    for action in actions:
        toolbar.addAction(action)
        buttons.append(toolbar.widgetForAction(action))
        buttons[-1].setFocusPolicy(Qt.FocusPolicy.TabFocus)
    status = QLabel("")
    status.setAccessibleName("Save status")
    top = QHBoxLayout()
    top.addWidget(toolbar, 1)
    top.addWidget(status)
    return top, buttons, status


class NoticeRow(QWidget):
    """A notice in plain text (file names and pack text are never read as markup) on a
    quiet background that follows the scheme, with a Dismiss button; hidden when empty."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.label.setAccessibleName("Notice")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dismiss = QPushButton("Dismiss")
        self.dismiss.setAccessibleName("Dismiss notice")
        self.dismiss.clicked.connect(lambda: self.show_text(""))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.dismiss)
        self.hide()

    def show_text(self, text: str) -> None:
        self.label.setText(text)
        self.setVisible(bool(text))

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)

        painter = QPainter(self)
        painter.fillRect(self.rect(), soft_background(self.palette()))
        painter.end()
