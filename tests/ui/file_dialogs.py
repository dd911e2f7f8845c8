"""Choosing a file as a user does, for the GUI tests: the dialog the page opened (Qt's
own, window-modal, without a nested loop) is found and a file picked in it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog


def open_file_dialog(parent) -> QFileDialog:
    """The one file dialog open on ``parent``."""
    (dialog,) = [d for d in parent.findChildren(QFileDialog) if d.isVisible()]
    assert dialog.isModal() and dialog.testOption(QFileDialog.Option.DontUseNativeDialog)
    return dialog


def pick(parent, path: Path | None) -> QFileDialog:
    """Pick ``path`` in the dialog open on ``parent`` (None: cancel it)."""
    dialog = open_file_dialog(parent)
    if path is None:
        dialog.reject()
    else:
        dialog.selectFile(str(path))
        dialog.accept()
    return dialog
