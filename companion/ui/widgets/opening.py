"""Dialogs opened without a nested event loop.

``dialog.exec()`` and the static ``QMessageBox.question`` or ``QFileDialog.getOpenFileName``
run an event loop of their own while the day's timer keeps firing: the day (and the page
under the dialog) can change, and the code after ``exec()`` then acts on what was true
before (qutebrowser #8674 was a crash from one). These open the dialog window-modal with
``open()`` and call back from ``finished`` instead; each returns the dialog (its parent
owns it until it closes). tests/ui/test_no_nested_loops.py keeps it that way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from companion.core.last_folder import remember, start_folder
from companion.core.paths import own_file


def open_dialog(dialog: QDialog, accepted: Callable[[], None]) -> QDialog:
    """Show ``dialog``; ``accepted()`` runs once it is accepted (nothing on cancel)."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def done(code: int) -> None:
        if code == QDialog.DialogCode.Accepted:
            accepted()

    dialog.finished.connect(done)
    QDialog.open(dialog)  # QPrintDialog's open(receiver, member) hides it in PySide
    return dialog


def ask(parent: QWidget | None, title: str, text: str, yes: Callable[[], None]) -> QMessageBox:
    """A Yes/No question; ``yes()`` runs when Yes is chosen."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the text quotes the user's words
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
    box.setTextFormat(Qt.TextFormat.PlainText)  # file names and error text, never markup
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


class _FileDialog(QFileDialog):
    """Qt's file dialog with its two questions asked without a loop of their own: its
    ``accept()`` calls the static ``QMessageBox.warning`` for a file that would be replaced
    (saving) or is not there (opening)."""

    data_dir: Path | None = None  # its files are never a place to save an export

    def accept(self) -> None:
        files = self.selectedFiles()
        path = Path(files[0]) if files and files[0] else None
        saving = self.acceptMode() == QFileDialog.AcceptMode.AcceptSave
        if path is None or path.is_dir():
            super().accept()  # nothing named yet, or a folder to go into: Qt's own way
        elif saving and self.data_dir is not None and own_file(self.data_dir, path):
            tell(
                self,
                self.windowTitle(),
                f"{path.name} is one of the app's own files in its data folder; saving "
                "there would replace it. Choose another name or folder.",
                warning=True,
            )
        elif saving and path.exists():
            ask(
                self,
                self.windowTitle(),
                f"{path.name} already exists.\nDo you want to replace it?",
                lambda: QFileDialog.accept(self),
            )
        elif self.acceptMode() == QFileDialog.AcceptMode.AcceptOpen and not path.exists():
            tell(
                self,
                self.windowTitle(),
                f"{path.name}\nFile not found.\nCheck the file name and try again.",
                warning=True,
            )
        else:
            super().accept()


def choose_file(
    parent: QWidget | None,
    title: str,
    start: Path,
    filters: str,
    chosen: Callable[[Path, str], None],
    *,
    save: bool = False,
    ctx=None,
) -> QFileDialog:
    """Qt's own file dialog (the desktop's native one may run a loop of its own), opening
    in the last folder used (``ctx``'s settings, core.last_folder); ``chosen(path, name_filter)``
    runs once a file is picked, and its folder is remembered. ``start`` is the suggested
    file when saving, the folder when opening; ``filters`` are separated by ``;;``."""

    dialog = _FileDialog(parent, title)
    settings = ctx.settings if ctx is not None else None
    if ctx is not None and save:
        dialog.data_dir = ctx.data_dir  # its own files are never an export's target
    dialog.setOptions(
        QFileDialog.Option.DontUseNativeDialog | QFileDialog.Option.DontConfirmOverwrite
    )
    dialog.setAccessibleName(title)
    dialog.setNameFilters(filters.split(";;"))
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setDirectory(str(start_folder(settings, start.parent)))
        dialog.selectFile(start.name)
    else:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setDirectory(str(start_folder(settings, start)))

    def picked() -> None:
        files = dialog.selectedFiles()
        if files and files[0]:
            path = Path(files[0])
            remember(settings, path)
            chosen(path, dialog.selectedNameFilter())

    return open_dialog(dialog, picked)
