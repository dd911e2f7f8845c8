"""Reminders reach a real notification daemon (dunst on a private bus) the way a user
should see them: normal urgency with an expiry; a newer step replaces the shown one
(``replaces_id``) instead of stacking; a late one says the real time left; and a round's
reminder is taken down (``CloseNotification``) when the round starts, and what is still
shown when the app quits. The app starts on the Journal page (Today never opened).

Everything runs in a child shell under ``dbus-run-session`` with its own Xvfb, so the
test never touches the session it was started from. dunst's rules write each
notification's urgency into its formatted message, which its history keeps.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = [pytest.mark.gui, pytest.mark.slow, pytest.mark.system]

NEEDED = {"Xvfb": "xvfb", "dunst": "dunst", "dunstctl": "dunst", "dbus-run-session": "dbus-daemon"}

DUNSTRC = textwrap.dedent(
    """
    [mark_low]
        msg_urgency = low
        format = "urgency=low %s"
    [mark_normal]
        msg_urgency = normal
        format = "urgency=normal %s"
    [mark_critical]
        msg_urgency = critical
        format = "urgency=critical %s"
    """
)

SCRIPT = textwrap.dedent(
    """
    set -u
    export XDG_RUNTIME_DIR="$WORK/runtime"; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
    Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
    XPID=$!
    for _ in $(seq 300); do [ -e "/tmp/.X11-unix/X${DISPLAY#:}" ] && break; sleep 0.1; done
    dunst -config "$WORK/dunstrc" >"$WORK/dunst.log" 2>&1 &
    DPID=$!
    for _ in $(seq 300); do dunstctl count >/dev/null 2>&1 && break; sleep 0.1; done
    "$PYTHON" -m companion --data-dir "$WORK/data" --page journal >"$WORK/app.out" 2>"$WORK/app.err" &
    APID=$!
    # until the design round has started and its reminder is taken down (by then the
    # coding round's 10-minute step, 8 s earlier, has replaced its late one)
    for _ in $(seq 900); do
        [ "$(dunstctl count history 2>/dev/null)" -ge 1 ] 2>/dev/null && break; sleep 0.1
    done
    dunstctl history >"$WORK/closed.json"
    dunstctl count displayed >"$WORK/displayed.txt"
    # quitting (SIGTERM ends it as Quit does) takes down what the app still shows
    kill "$APID"; wait "$APID" 2>/dev/null
    dunstctl count displayed >"$WORK/after_quit.txt"
    dunstctl close-all
    for _ in $(seq 300); do [ "$(dunstctl count displayed)" = 0 ] && break; sleep 0.1; done
    dunstctl history >"$WORK/history.json"
    kill "$DPID" "$XPID" 2>/dev/null
    wait 2>/dev/null
    exit 0
    """
)


# a bus that activates no installed service (tests/private-bus.conf): on the standard
# session bus, the first `dunstctl` activated the machine's own dunst (without the test's
# rules) whenever it asked before the test's dunst had taken the name
PRIVATE_BUS = [
    "dbus-run-session",
    f"--config-file={Path(__file__).resolve().parents[2] / 'private-bus.conf'}",
    "--",
]


def _free_display(offset: int) -> str:
    """A display number no X server holds (parallel workers and helpers run their own):
    from 300 on, away from the hotkey tests' :140-:239."""
    first = 300 + (os.getpid() + offset) % 400
    for number in [*range(first, 700), *range(300, first)]:
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            return f":{number}"
    raise AssertionError("no free X display number from :300 to :699")


def _missing() -> list[str]:
    return sorted({pkg for cmd, pkg in NEEDED.items() if shutil.which(cmd) is None})


def _notices(path: Path) -> list[dict]:
    found = json.loads(path.read_text())["data"]
    return [
        {
            "message": n["message"]["data"],
            "summary": n["summary"]["data"],
            "timeout": n["timeout"]["data"],
        }
        for n in (found[0] if found else [])
    ]


@pytest.mark.skipif(bool(_missing()), reason=f"needs Debian packages: {' '.join(_missing())}")
def test_reminders_on_dunst_replace_expire_and_leave_when_the_round_starts(tmp_path: Path):
    from companion.core.context import AppContext
    from companion.core.day.loops import add_round, create_loop

    data = tmp_path / "data"
    ctx = AppContext(data)
    now = dt.datetime.now().astimezone()
    coding = now + dt.timedelta(minutes=10, seconds=16)  # its 10-minute step comes in 16 s
    design = now + dt.timedelta(seconds=24)  # all its steps are late at start-up
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=now.date().isoformat())
    add_round(ctx.db, loop, "coding", scheduled_at=coding)
    add_round(ctx.db, loop, "design", scheduled_at=design)
    ctx.close()
    (tmp_path / "dunstrc").write_text(DUNSTRC)

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY")
    }
    env.update(
        WORK=str(tmp_path),
        PYTHON=sys.executable,
        DISPLAY=_free_display(0),
        QT_QPA_PLATFORM="xcb",
        HOME=str(tmp_path),
    )
    subprocess.run(
        [*PRIVATE_BUS, "bash", "-c", SCRIPT],
        env=env,
        timeout=120,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    app_err = (tmp_path / "app.err").read_text()
    assert "Traceback" not in app_err, app_err
    history = _notices(tmp_path / "history.json")
    closed_by_app = _notices(tmp_path / "closed.json")  # taken down before close-all
    summaries = [n["summary"] for n in history]
    # normal urgency, with an expiry, every one
    assert history and all(n["message"].startswith("urgency=normal ") for n in history), history
    assert all(n["timeout"] > 0 for n in history), history
    # the coding round: the late 15-minute step (sent saying the real time left, "in 11
    # min") was replaced by the 10-minute one: one notification, never two stacked
    coding_seen = [s for s in summaries if s.startswith("Coding round")]
    assert len(coding_seen) == 1 and coding_seen[0].startswith("Coding round in 10 min"), summaries
    # the design round: its late steps replaced each other, and the one left was taken
    # down when the round started, before anything else closed it
    design_seen = [s for s in summaries if "design" in s.lower()]
    assert len(design_seen) == 1 and "starts in" in design_seen[0], summaries
    assert [n["summary"] for n in closed_by_app] == design_seen, closed_by_app
    assert (tmp_path / "displayed.txt").read_text().strip() == "1"  # the coding one only
    # and once the app has quit, nothing it showed stays up until its expiry
    assert (tmp_path / "after_quit.txt").read_text().strip() == "0"


MARKUP_SCRIPT = textwrap.dedent(
    """
    set -u
    export XDG_RUNTIME_DIR="$WORK/runtime"; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
    Xvfb "$DISPLAY" -screen 0 800x600x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
    XPID=$!
    for _ in $(seq 300); do [ -e "/tmp/.X11-unix/X${DISPLAY#:}" ] && break; sleep 0.1; done
    dunst -config "$WORK/markup.dunstrc" >"$WORK/dunst.log" 2>&1 &
    DPID=$!
    for _ in $(seq 300); do dunstctl count >/dev/null 2>&1 && break; sleep 0.1; done
    "$PYTHON" "$WORK/send.py" >"$WORK/send.out" 2>&1
    for _ in $(seq 300); do [ "$(dunstctl count displayed)" -ge 1 ] && break; sleep 0.1; done
    dunstctl close-all
    for _ in $(seq 300); do [ "$(dunstctl count displayed)" = 0 ] && break; sleep 0.1; done
    dunstctl history >"$WORK/history.json"
    kill "$DPID" "$XPID" 2>/dev/null
    wait 2>/dev/null
    exit 0
    """
)


@pytest.mark.skipif(bool(_missing()), reason=f"needs Debian packages: {' '.join(_missing())}")
def test_a_name_with_markup_is_shown_as_typed_not_as_markup(tmp_path: Path):
    """dunst set to read markup (as GNOME always does) says so in its capabilities: a
    company called "<b>EVIL</b> & Co" in a reminder is shown as typed, never in bold
    (#28, class 8). A daemon that reads no markup gets the text as it is."""
    (tmp_path / "markup.dunstrc").write_text("[global]\n    markup = full\n")
    (tmp_path / "send.py").write_text(
        "from companion.ui.day.notifier import DbusNotifications\n"
        "print(DbusNotifications().notify('Thank-you note', 'Your note to <b>EVIL</b> & Co'))\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY")
    }
    env.update(
        WORK=str(tmp_path),
        PYTHON=sys.executable,
        DISPLAY=_free_display(7),
        HOME=str(tmp_path),
        PYTHONPATH=str(Path(__file__).resolve().parents[3]),
    )
    subprocess.run(
        [*PRIVATE_BUS, "bash", "-c", MARKUP_SCRIPT],
        env=env,
        timeout=60,
        check=True,
    )
    assert int((tmp_path / "send.out").read_text().split()[-1]) > 0  # dunst showed it
    (shown,) = _notices(tmp_path / "history.json")
    # dunst's message is markup: the name arrives escaped, to be drawn as plain text
    assert "&lt;b&gt;EVIL&lt;/b&gt; &amp; Co" in shown["message"], shown
    assert "<b>EVIL</b>" not in shown["message"]
