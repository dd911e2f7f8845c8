"""Dialogs opened without a nested event loop.

``dialog.exec()`` and the static ``QMessageBox.question`` run an event loop of their own
while the day's timer keeps firing: the day (and the page under the dialog) can change,
and the code after ``exec()`` then acts on what was true before (qutebrowser #8674 was a
crash from one). These open the dialog window-modal with ``open()`` and call back from
``finished`` instead; each returns the dialog (its parent owns it until it closes).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget


def open_dialog(dialog: QDialog, accepted: Callable[[], None]) -> QDialog:
    """Show ``dialog``; ``accepted()`` runs once it is accepted (nothing on cancel)."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def done(code: int) -> None:
        if code == QDialog.DialogCode.Accepted:
            accepted()

    dialog.finished.connect(done)
    dialog.open()
    return dialog


def ask(parent: QWidget | None, title: str, text: str, yes: Callable[[], None]) -> QMessageBox:
    """A Yes/No question; ``yes()`` runs when Yes is chosen."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=parent)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def done(_code: int) -> None:
        if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
            yes()

    box.finished.connect(done)
    box.open()
    return box


def tell(parent: QWidget | None, title: str, text: str, *, warning: bool = False) -> QMessageBox:
    """An information (or warning) box that returns at once."""
    icon = QMessageBox.Icon.Warning if warning else QMessageBox.Icon.Information
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
