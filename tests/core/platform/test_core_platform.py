"""The core's platform seam on each desktop: the POSIX branches for real, the Windows and
macOS ones on Linux with ``sys.platform`` (and psutil's battery) standing in for the OS."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from collections import namedtuple

import psutil
import pytest

from companion.core.platform import files, locks, processes
from companion.core.platform import power as platform_power
from companion.core.preflight import pingers, power


@pytest.fixture
def windows(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")


def test_a_file_others_may_write_is_foreign_on_posix_and_not_judged_on_windows(
    tmp_path, monkeypatch
):
    shared = tmp_path / "prefs.json"
    shared.write_text("{}")
    shared.chmod(0o666)
    assert files.foreign(os.stat(shared)) == "can be written by others (mode 666)"
    shared.chmod(0o600)
    assert files.foreign(os.stat(shared)) is None
    root_owned = os.stat("/")
    if os.geteuid() != 0:
        assert files.foreign(root_owned) == "belongs to another user (root)"
    shared.chmod(0o666)
    monkeypatch.setattr(sys, "platform", "win32")
    # NTFS access lists guard the folder there; st_uid is 0 for every file
    assert files.foreign(os.stat(shared)) is None and files.owned_by_me(root_owned)
    assert files.owner_name(0) == "uid 0"
    assert files.on_read_only_mount(tmp_path) is None and files.runtime_dir() == ""


def test_the_users_key_is_the_uid_on_posix_and_the_login_on_windows(monkeypatch):
    assert files.user_key() == str(os.getuid())
    assert files.runtime_dir() == f"/run/user/{os.getuid()}"
    assert files.on_read_only_mount("/proc") is True or files.on_read_only_mount("/") is False
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("USERNAME", "ada")
    assert files.user_key() == "ada"


def test_the_folder_lock_is_the_folder_itself_on_posix_and_a_file_lock_on_windows(
    tmp_path, monkeypatch
):
    with locks.folder_lock(tmp_path, timeout=0.05):
        fd = os.open(tmp_path, os.O_RDONLY)
        try:
            assert locks.try_flock(fd) is False  # held: a second open waits
        finally:
            os.close(fd)
    assert list(tmp_path.iterdir()) == []  # POSIX: no file added
    with locks.folder_lock(tmp_path, timeout=0.05, system="win32"):
        other = locks.file_lock(tmp_path / locks.FOLDER_LOCK_NAME)
        assert other is None  # held by the block
    monkeypatch.setattr(sys, "platform", "win32")
    assert not locks.has_flock() and locks.try_flock(0) is None
    assert locks.try_lock_range(0, 0, 1) is None
    monkeypatch.undo()
    again = locks.file_lock(tmp_path / locks.FOLDER_LOCK_NAME)
    assert again is not None
    again.release()


def test_liveness_never_signals_and_a_zombie_is_gone():
    assert processes.alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        for _ in range(600):  # exits, then waits as a zombie until reaped below
            if not processes.alive(child.pid):
                break
            time.sleep(0.05)
        assert not processes.alive(child.pid)
        assert psutil.Process(child.pid).status() == psutil.STATUS_ZOMBIE
    finally:
        child.wait()
    assert not processes.alive(child.pid)
    assert not processes.alive(2**31 - 1)  # no such pid: not an error


def test_a_windows_process_name_finds_its_program():
    assert pingers.PINGERS[pingers.program_key("Slack.exe")] == "Slack"
    assert pingers.PINGERS[pingers.program_key("Microsoft Teams")] == "Teams"
    assert pingers.PINGERS[pingers.program_key("telegram-desktop")] == "Telegram"


Battery = namedtuple("Battery", "percent secsleft power_plugged")


@pytest.mark.parametrize(
    ("reading", "ok", "words"),
    [
        (Battery(20.0, 3600, False), False, "On battery at 20%: plug in the charger"),
        (Battery(80.0, 3600, False), True, "On battery at 80%"),
        (Battery(20.0, -2, True), True, "Plugged in (20%)"),
        (None, True, "No battery"),
    ],
)
def test_power_on_macos_and_windows_reads_psutil(monkeypatch, reading, ok, words):
    monkeypatch.setattr(psutil, "sensors_battery", lambda: reading)
    monkeypatch.setattr(sys, "platform", "darwin")
    check = power.power_check(power.read_power("SYSTEM"))
    assert check.ok is ok and words in check.say
    monkeypatch.setattr(sys, "platform", "win32")
    assert power.power_check(power.read_power("SYSTEM")) == check


def test_the_portable_power_reading_is_forced_by_the_switch(monkeypatch):
    monkeypatch.setattr(psutil, "sensors_battery", lambda: Battery(30.0, 60, False))
    monkeypatch.setenv("COMPANION_PORTABLE", "1")
    assert power.power_check(power.read_power("SYSTEM")).ok is False
    monkeypatch.setattr(psutil, "sensors_battery", lambda: (_ for _ in ()).throw(OSError()))
    assert platform_power.battery() is None


def test_the_stale_temp_sweep_leaves_a_live_writer_and_owns_by_uid(tmp_path):
    live = tmp_path / f".journal.json.{os.getppid()}-x.tmp"
    live.write_text("")
    live.chmod(stat.S_IRUSR | stat.S_IWUSR)
    from companion.core.storage.files import sweep_stale_temps

    sweep_stale_temps(tmp_path, "journal.json")
    assert live.exists()
