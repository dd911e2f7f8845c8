"""Preflight's checks against the real things they read: a running process named like a
program that pings, a UPower stand-in on the private bus, a camera device folder, the
next round's link and zone; and the command's JSON and exit status."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from named_process import named_process, record_signals
from upower_standin import UPowerStandIn

from companion.core.context import AppContext
from companion.core.day.loops import add_round, create_loop, update_round
from companion.core.platform.devices import cameras
from companion.core.preflight import checks, exit_status, link, pingers, power

TZ_NY = dt.timezone(dt.timedelta(hours=-5))
BUS_CONF = Path(__file__).resolve().parents[2] / "private-bus.conf"


@pytest.fixture
def private_bus(monkeypatch):
    """A bus of our own with the suite's private config (the conftest hides any other)."""
    if shutil.which("dbus-daemon") is None:
        pytest.skip("needs dbus-daemon")
    daemon = subprocess.Popen(
        ["dbus-daemon", f"--config-file={BUS_CONF}", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    address = daemon.stdout.readline().strip()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
    yield address
    daemon.terminate()
    daemon.wait(5)
    daemon.stdout.close()


@pytest.fixture
def slack(tmp_path):
    """A real process whose name is `slack`."""
    with named_process(tmp_path, "slack") as proc:
        yield proc


def test_a_running_pinger_is_found_named_and_closed_only_when_asked(slack, monkeypatch):
    sent = record_signals(monkeypatch)
    found = [p for p in pingers.find_pingers() if p.pid == slack.pid]
    assert found == [pingers.Pinger(slack.pid, "Slack", "slack")]
    check = pingers.pingers_check(found)
    assert check.ok is False and "Slack" in check.say
    assert sent == [] and slack.poll() is None  # finding it did nothing to it
    assert pingers.close_politely(found[0])
    assert sent == [(slack.pid, signal.SIGTERM)]
    # quit but not yet reaped (a zombie, as under a parent that has not looked): gone
    deadline = time.monotonic() + 5
    while pingers.still_running(slack.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Path(f"/proc/{slack.pid}").exists() and not pingers.still_running(slack.pid)
    assert not [p for p in pingers.find_pingers() if p.pid == slack.pid]
    assert slack.wait(5) == -15  # SIGTERM: asked to quit, not killed
    assert not [p for p in pingers.find_pingers() if p.pid == slack.pid]
    assert pingers.pingers_check([]).ok is True


def test_close_politely_refuses_a_pid_that_is_now_another_program(slack, monkeypatch):
    sent = record_signals(monkeypatch)
    other = pingers.Pinger(slack.pid, "Discord", "discord")
    assert not pingers.close_politely(other)
    assert sent == [] and slack.poll() is None


def _battery(percent: float, state: int, present: bool = True, kind: int = power.BATTERY):
    return {
        "Type": ("u", kind),
        "State": ("u", state),
        "Percentage": ("d", percent),
        "IsPresent": ("b", present),
    }


@pytest.mark.parametrize(
    ("props", "ok", "words"),
    [
        (_battery(20.0, power.DISCHARGING), False, "plug in the charger"),
        (_battery(80.0, power.DISCHARGING), True, "On battery at 80%"),
        (_battery(20.0, 1), True, "Plugged in (20%)"),  # charging
        (_battery(0.0, 0, present=False, kind=0), True, "No battery"),
    ],
)
def test_power_reads_upower_on_the_bus(private_bus, props, ok, words):
    standin = UPowerStandIn(props)
    try:
        check = power.power_check(power.read_display_device("SESSION"))
    finally:
        standin.close()
    assert standin.asked == 1
    assert check.ok is ok and words in check.say


def test_power_without_upower_cannot_tell(private_bus):
    check = power.power_check(power.read_display_device("SESSION", timeout=1))
    assert check.ok is None


def test_camera_is_seen_by_its_device_only(tmp_path):
    assert checks.camera_check(cameras(tmp_path)).ok is False
    (tmp_path / "video0").touch()
    check = checks.camera_check(cameras(tmp_path))
    assert check.ok is True and "video0" in check.say


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_off_linux_no_camera_listing_is_cannot_tell_not_no_camera(tmp_path, system):
    (tmp_path / "video0").touch()  # never looked at there: no /dev listing on that OS
    check = checks.camera_check(cameras(tmp_path, system))
    assert check.ok is None and "check it in the call app" in check.say


def test_mic_names_the_chosen_input():
    devices = [("a", "Built-in", True), ("b", "USB headset", False)]
    assert "Built-in" in checks.mic_check(devices).say
    assert "USB headset" in checks.mic_check(devices, chosen="b").say
    assert checks.mic_check([]).ok is False and checks.mic_check(None).ok is None
    no_server = checks.mic_check([], server=False)
    assert no_server.ok is False and "No sound server" in no_server.say


def test_do_not_disturb_unknown_is_said_in_the_users_words():
    """Not the adapter's name ("Cannot tell whether Manual is paused"): what could not
    be told, and the one thing to do."""
    by_hand = checks.dnd_check(None, automatic=False)
    assert by_hand.ok is None and by_hand.say.startswith("Cannot tell whether notifications")
    assert "notification settings" in by_hand.say and "Manual" not in by_hand.say
    switch = checks.dnd_check(None)
    assert "turn do-not-disturb on" in switch.say and switch.say != by_hand.say


def test_the_link_and_both_zones(db):
    loop = create_loop(db, "Acme", "SRE", starts_on="2026-12-15")
    at = dt.datetime(2026, 12, 15, 10, 0, tzinfo=TZ_NY)
    rid = add_round(db, loop, "coding", scheduled_at=at)
    now = at - dt.timedelta(minutes=10)
    local = dt.timezone(dt.timedelta(hours=1))
    info = link.round_info(link.next_round(db, now), local)
    assert info["at"] == "2026-12-15T16:00:00+01:00"
    assert info["when"] == "Tue 15 Dec 16:00 local (10:00 UTC-05:00 in the invitation)"
    assert link.link_check(info).ok is False  # no link yet
    update_round(db, rid, link="https://meet.example.com/abc")
    info = link.round_info(link.next_round(db, now), TZ_NY)
    assert info["when"] == "Tue 15 Dec 10:00 local"
    check = link.link_check(info)
    assert check.ok is True and "https://meet.example.com/abc" in check.say
    assert link.next_round(db, at + dt.timedelta(hours=3)) is None


def test_exit_status_is_zero_unless_a_check_failed():
    assert exit_status([checks.Check("a", True, ""), checks.Check("b", None, "")]) == 0
    assert exit_status([checks.Check("a", True, ""), checks.Check("b", False, "")]) == 1


def test_the_command_prints_the_documented_json(private_bus, data_dir, monkeypatch, slack):
    ctx = AppContext(data_dir)
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on="2030-01-01")
    add_round(ctx.db, loop, "coding", scheduled_at=dt.datetime(2030, 1, 1, 10, tzinfo=TZ_NY))
    ctx.close()
    monkeypatch.setenv("COMPANION_UPOWER_BUS", "session")
    standin = UPowerStandIn(_battery(10.0, power.DISCHARGING))
    try:
        # a process of its own, as a user runs it: listing the mics starts QtMultimedia,
        # whose audio backend would stay in this worker for the tests after it
        done = subprocess.run(
            [sys.executable, "-m", "companion", "--data-dir", str(data_dir), "preflight", "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        standin.close()
    status = done.returncode
    doc = json.loads(done.stdout)
    assert set(doc) == {"round", "checks"}
    assert doc["round"]["type"] == "coding"
    ids = [c["id"] for c in doc["checks"]]
    assert ids == [
        "mic", "camera", "do-not-disturb", "hotkeys", "notification", "pingers", "power",
        "link", "screen-share",
    ]  # fmt: skip
    for check in doc["checks"]:
        assert set(check) == {"id", "ok", "say"} and check["ok"] in (True, False, None)
    by_id = {c["id"]: c for c in doc["checks"]}
    assert by_id["power"]["ok"] is False and "Slack" in by_id["pingers"]["say"]
    assert status == 1
    assert slack.poll() is None  # the command never closes anything itself


INVITE = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//test//EN\r
BEGIN:VEVENT\r
UID:zone-test@example.com\r
SEQUENCE:{seq}\r
DTSTAMP:2026120{seq}T120000Z\r
DTSTART;TZID=America/New_York:20301215T{hour}0000\r
DTEND;TZID=America/New_York:20301215T{end}0000\r
SUMMARY:Acme - Coding interview\r
X-GOOGLE-CONFERENCE:https://meet.google.com/abc-defg-hij\r
END:VEVENT\r
END:VCALENDAR\r
"""


def test_an_imported_invitation_keeps_its_zone_for_the_link(data_dir, tmp_path, capsys):
    """A real invitation in New York time, imported on a machine elsewhere: the round is
    stored at the machine's offset, and preflight still names the invitation's time (it
    could only show local time: the import dropped the invitation's zone)."""
    from companion.cli import main

    path = tmp_path / "invite.ics"
    path.write_text(INVITE.format(seq=0, hour=10, end=11), encoding="utf-8")
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(path)]) == 0
    ctx = AppContext(data_dir)
    at = dt.datetime(2030, 12, 15, 10, 0, tzinfo=TZ_NY)
    local = dt.timezone(dt.timedelta(hours=1))
    info = link.round_info(link.next_round(ctx.db, at - dt.timedelta(minutes=10)), local)
    assert info["when"] == "Sun 15 Dec 16:00 local (10:00 UTC-05:00 in the invitation)"
    ctx.close()
    path.write_text(INVITE.format(seq=1, hour=11, end=12), encoding="utf-8")  # moved
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(path)]) == 0
    capsys.readouterr()
    ctx = AppContext(data_dir)
    info = link.round_info(link.next_round(ctx.db, at - dt.timedelta(minutes=10)), local)
    assert info["when"] == "Sun 15 Dec 17:00 local (11:00 UTC-05:00 in the invitation)"
    # a round imported before the invitation's start was kept gains it on the next import
    update_round(ctx.db, info["id"], ics_start="")
    ctx.close()
    assert main(["--data-dir", str(data_dir), "schedule", "import", str(path)]) == 0
    ctx = AppContext(data_dir)
    info = link.round_info(link.next_round(ctx.db, at - dt.timedelta(minutes=10)), local)
    assert info["when"] == "Sun 15 Dec 17:00 local (11:00 UTC-05:00 in the invitation)"
    ctx.close()


def test_the_apps_own_reminders_count_as_a_pinger_until_notifications_pause():
    """Preflight said "Nothing that pings is running" while the app itself pinged."""
    own = pingers.pingers_check([], app_pings=True)
    assert own.ok is False and "This app's own reminders" in own.say
    assert pingers.pingers_check([], app_pings=False).ok is True
