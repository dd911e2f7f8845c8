"""A write the disk refuses, raised inside a Qt slot, is told in the window in one line."""

from __future__ import annotations

import errno
import sqlite3
import sys

import pytest

pytestmark = pytest.mark.gui


@pytest.mark.parametrize(
    ("exc", "words"),
    [
        (sqlite3.OperationalError("database or disk is full"), "disk is full"),
        (sqlite3.OperationalError("disk I/O error"), "disk I/O error"),
        (sqlite3.OperationalError("database is locked"), "locked"),
        (OSError(errno.ENOSPC, "No space left on device", "/data/x"), "No space left"),
    ],
)
def test_a_refused_write_in_a_slot_is_one_line_in_the_window(qtbot, exc, words, capsys):
    from PySide6.QtCore import QObject, Signal

    from companion.ui.process import write_errors

    shown: list[str] = []
    previous = write_errors.install(shown.append)
    try:

        class Emitter(QObject):
            fire = Signal()

        emitter = Emitter()

        def save() -> None:
            raise exc

        emitter.fire.connect(save)
        emitter.fire.emit()  # PySide6 hands a slot's exception to sys.excepthook
    finally:
        sys.excepthook = previous
    assert len(shown) == 1 and words in shown[0] and "Nothing was lost" in shown[0]
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1


def test_a_bug_keeps_its_traceback():
    from companion.core.storage.refusals import storage_message

    assert storage_message(ValueError("bad")) is None
    assert storage_message(sqlite3.OperationalError("no such column: x")) is None
