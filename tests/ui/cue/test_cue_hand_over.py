"""`companion cue` while the app runs on the folder: the running app shows its card
instead of a second card opening on top of the first."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.gui


def test_companion_cue_hands_over_to_the_running_app(qtbot, data_dir):
    from companion.ui.process.single_instance import InstanceLock, make_server, server_name

    lock = InstanceLock(data_dir)
    assert lock.acquire()  # this test stands in for the running app
    server = make_server(server_name(data_dir))
    try:
        with qtbot.waitSignal(server.cue_requested, timeout=15_000) as got:
            proc = subprocess.Popen(
                [sys.executable, "-m", "companion", "cue", "--round", "coding"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        out, err = proc.communicate(timeout=30)
    finally:
        server.close()
        lock.release()
    assert got.args == ["coding"]
    assert proc.returncode == 0, err
    assert "its cue card is shown" in out


def test_a_cue_message_carries_only_a_round_type_id():
    from companion.ui.process.single_instance import cue_message

    assert cue_message("coding") == b"cue coding\n"
    assert cue_message("") == b"cue\n"
    assert cue_message("x; rm -rf /\nraise") == b"cue xrm-rfraise\n"
