"""The single-instance lock and socket on each desktop: flock and a socket file on POSIX,
filelock and a named pipe on Windows (run here with the platform standing in)."""

from __future__ import annotations

import os
import sys

import pytest

from companion.ui.process.single_instance import InstanceLock, server_name


def test_the_instance_socket_is_a_pipe_name_on_windows(tmp_path, monkeypatch):
    assert server_name(tmp_path).endswith(".sock") and os.sep in server_name(tmp_path)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("USERNAME", "ada")
    name = server_name(tmp_path)
    assert name.startswith("interview-companion-ada-") and os.sep not in name


# filelock reads sys.platform itself, so the lock's branch is chosen by its argument
@pytest.mark.parametrize("system", ["linux", "win32"])
def test_one_instance_lock_per_folder_on_each_desktop(tmp_path, system):
    first, second = InstanceLock(tmp_path, system=system), InstanceLock(tmp_path, system=system)
    assert first.acquire()
    assert not second.acquire()  # another open of the file: refused, as another process is
    first.release()
    assert second.acquire()
    second.release()
