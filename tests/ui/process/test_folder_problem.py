"""The GUI on a data folder it cannot use shows a dialog (what is wrong, how to choose
another folder) instead of dying before any window appears."""

from __future__ import annotations

import pytest

from companion.core.context import AppContext
from companion.ui.process.folder_problem import usable_context

pytestmark = pytest.mark.gui


@pytest.fixture
def afile(tmp_path):
    path = tmp_path / "afile"
    path.write_text("x")
    return path


@pytest.mark.parametrize("how", ["file", "below-a-file", "too-long"])
def test_an_unusable_folder_asks_for_another(tmp_path, afile, how, capsys):
    bad = {"file": afile, "below-a-file": afile / "d", "too-long": tmp_path / ("n" * 300)}[how]
    asked = []
    good = tmp_path / "good"

    def ask(folder, problem):
        asked.append((folder, problem))
        return good

    ctx = usable_context(AppContext(bad), ask=ask)
    assert ctx is not None and ctx.data_dir == good and good.is_dir()
    assert asked and asked[0][0] == bad and asked[0][1]
    assert "companion: " in capsys.readouterr().err


def test_quitting_the_dialog_returns_none(afile):
    assert usable_context(AppContext(afile), ask=lambda f, p: None) is None


def test_a_usable_folder_asks_nothing(tmp_path):
    ctx = AppContext(tmp_path / "fresh")
    assert usable_context(ctx, ask=lambda f, p: pytest.fail("asked")) is ctx


def test_run_gui_shows_the_dialog_and_quits(qtbot, afile, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from companion.ui.process.launch import run_gui

    seen = {}

    def close_it():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, close_it)
            return
        seen["text"] = box.text() + box.informativeText()
        quit_button = next(b for b in box.buttons() if b.text() == "Quit")
        quit_button.click()

    QTimer.singleShot(20, close_it)

    class Args:
        page = None

    assert run_gui(Args(), AppContext(afile)) == 2  # a file is never a folder: a usage error
    assert "is a file" in seen["text"] and "--data-dir" in seen["text"]
