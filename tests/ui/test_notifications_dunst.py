"""Reminders reach a real notification daemon: the app, started on the Journal page (the
Today page never opened), sends the 10-minute reminder to dunst over D-Bus exactly once.

Everything runs in a child shell under ``dbus-run-session`` with its own Xvfb, so the
test never touches the session it was started from.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = [pytest.mark.gui, pytest.mark.slow]

NEEDED = {"Xvfb": "xvfb", "dunst": "dunst", "dunstctl": "dunst", "dbus-run-session": "dbus-daemon"}

SCRIPT = textwrap.dedent(
    """
    set -u
    export XDG_RUNTIME_DIR="$WORK/runtime"; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
    Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
    XPID=$!
    for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${DISPLAY#:}" ] && break; sleep 0.1; done
    dunst -config /dev/null >"$WORK/dunst.log" 2>&1 &
    DPID=$!
    for _ in $(seq 50); do dunstctl count >/dev/null 2>&1 && break; sleep 0.1; done
    "$PYTHON" -m companion --data-dir "$WORK/data" --page journal >"$WORK/app.out" 2>"$WORK/app.err" &
    APID=$!
    sleep "$WAIT"
    dunstctl close-all; sleep 0.5
    dunstctl history >"$WORK/history.json"
    kill "$APID"; wait "$APID" 2>/dev/null
    kill "$DPID" "$XPID" 2>/dev/null
    wait 2>/dev/null
    exit 0
    """
)


def _missing() -> list[str]:
    return sorted({pkg for cmd, pkg in NEEDED.items() if shutil.which(cmd) is None})


@pytest.mark.skipif(bool(_missing()), reason=f"needs Debian packages: {' '.join(_missing())}")
def test_the_ten_minute_reminder_reaches_dunst_once(tmp_path: Path):
    import json

    from companion.core.context import AppContext
    from companion.core.day.loops import add_round, create_loop

    data = tmp_path / "data"
    ctx = AppContext(data)
    now = dt.datetime.now().astimezone()
    start = now + dt.timedelta(minutes=10, seconds=6)
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=start.date().isoformat())
    add_round(ctx.db, loop, "coding", scheduled_at=start)
    ctx.close()

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY")
    }
    env.update(
        WORK=str(tmp_path),
        PYTHON=sys.executable,
        DISPLAY=f":{90 + os.getpid() % 500}",
        QT_QPA_PLATFORM="xcb",
        WAIT="14",
        HOME=str(tmp_path),
    )
    subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SCRIPT],
        env=env,
        timeout=90,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    history = json.loads((tmp_path / "history.json").read_text())
    summaries = [n["summary"]["data"] for n in history["data"][0]]
    ten = [s for s in summaries if s.startswith("Coding round in 10 min")]
    app_err = (tmp_path / "app.err").read_text()
    assert ten == [ten[0]] if ten else False, (summaries, app_err)
    # the 15-minute step was missed while the app was closed: sent once, late, with its time
    assert sum(s.startswith("Coding round in 15 min") for s in summaries) == 1, summaries
    assert "Traceback" not in app_err, app_err
