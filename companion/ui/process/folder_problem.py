"""The GUI started on a data folder it cannot use (not writable, cannot be created, a
path that is a file, a name too long): a dialog says what is wrong and how to choose
another folder, instead of dying before any window appears."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core import paths
from companion.ui.process.launch_context import LaunchContext
from companion.ui.process.single_instance import lock_problem

if TYPE_CHECKING:
    from companion.core.context import AppContext


def prepare_folder(folder: Path) -> str | None:
    """Create ``folder`` (0700) if missing; why it cannot be used, or None."""
    problem = paths.folder_problem(folder)
    if problem:
        return problem
    try:
        paths.ensure_private_dir(folder)
    except paths.DataDirError as exc:
        return str(exc)
    problem = paths.folder_problem(folder)
    if problem:
        return problem

    return lock_problem(folder)


def message_for(folder: Path, problem: str) -> tuple[str, str]:
    """(text, informative text) of the dialog."""
    return (
        f"Interview Companion cannot use the data folder\n{folder}\n\n{problem}.",
        "Choose another folder now, or quit and start the app with "
        "--data-dir FOLDER (or set COMPANION_HOME) to keep your data elsewhere. "
        "Nothing was changed.",
    )


def usable_context(
    ctx: AppContext | LaunchContext, *, ask: Callable[[Path, str], Path | None] | None = None
) -> AppContext | LaunchContext | None:
    """``ctx`` if its folder can be used; otherwise a dialog, and a LaunchContext on the
    folder the user picks (checked the same way), or None when they quit."""
    folder = ctx.data_dir
    problem = prepare_folder(folder)
    while problem:
        print(f"companion: {problem}", file=sys.stderr)
        chosen = (ask or ask_for_folder)(folder, problem)
        if chosen is None:
            return None
        folder = Path(chosen)
        problem = prepare_folder(folder)
    if folder == ctx.data_dir:
        return ctx
    ctx.close()
    return LaunchContext(folder)


def ask_for_folder(folder: Path, problem: str) -> Path | None:
    """The dialog: 'Choose another folder…' or 'Quit'."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

    QApplication.instance() or QApplication(sys.argv[:1])
    text, more = message_for(folder, problem)
    box = QMessageBox(QMessageBox.Icon.Critical, "Cannot use the data folder", text)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText(more)
    choose = box.addButton("Choose another folder…", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Quit", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(choose)
    box.exec()
    if box.clickedButton() is not choose:
        return None
    picked = QFileDialog.getExistingDirectory(
        None, "Choose a folder for your data", str(Path.home())
    )
    return Path(picked) if picked else None
