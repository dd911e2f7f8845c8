"""A GUI export never writes over the data folder's own files: the file dialog refuses
the journal (or prefs, a backup) as a target with a message, as `-o` does on the CLI."""

from __future__ import annotations

from file_dialogs import open_file_dialog
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from companion.ui.widgets.opening import choose_file


def test_saving_an_export_over_the_journal_is_refused(qtbot, ctx):
    ctx.db.execute("SELECT 1")  # the journal is made on first use
    journal = ctx.data_dir / "companion.sqlite3"
    before = journal.read_bytes()
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    chosen = []
    choose_file(
        parent,
        "Export the journal",
        ctx.data_dir / "journal.json",
        "JSON (*.json)",
        lambda path, _f: chosen.append(path),
        save=True,
        ctx=ctx,
    )
    dialog = open_file_dialog(parent)
    dialog.selectFile(str(journal))
    dialog.accept()
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox))
    box = QApplication.activeModalWidget()
    assert "one of the app's own files" in box.text()
    box.accept()
    assert dialog.isVisible() and chosen == []  # still choosing; nothing written
    assert journal.read_bytes() == before
    dialog.selectFile(str(ctx.data_dir.parent / "journal.json"))
    dialog.accept()
    qtbot.waitUntil(lambda: bool(chosen))
    assert chosen == [ctx.data_dir.parent / "journal.json"]
