"""QtMultimedia (PySide6-Addons) is imported only where a microphone opens, and the
recognizer (pocketsphinx) only when listening starts: neither the start-up path nor any
page or the cue card pays for them until then."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui
REPO = Path(__file__).resolve().parents[3]

CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from companion.selftest import run_self_test

    assert run_self_test() == 0  # content, store, the main window's first paint
    at_start = "PySide6.QtMultimedia" in sys.modules

    from PySide6.QtWidgets import QApplication

    from companion.core.context import AppContext
    from companion.ui.bus import AppBus
    from companion.ui.cue.window import CueCardWindow
    from companion.ui.mainwindow import MainWindow
    from companion.ui.pages import PAGES

    ctx = AppContext(Path(sys.argv[1]))
    bus = AppBus()
    from companion.ui.session import Session

    sessions = []
    window = MainWindow(ctx, bus, day=lambda: sessions[0].day)
    session = Session(ctx, bus, window=window)  # the day service, as the app makes it
    sessions.append(session)
    window.show()
    for spec in PAGES:
        window.show_page(spec.key)
        QApplication.processEvents()
    card = CueCardWindow(ctx, bus, session.day)
    card.show_card()
    QApplication.processEvents()
    print(at_start, "PySide6.QtMultimedia" in sys.modules, "pocketsphinx" in sys.modules)
    card.close()
    window.close()
    ctx.close()
    """
)


def test_start_up_and_every_page_import_no_qtmultimedia(tmp_path):
    from app_child import run_child

    done = run_child(CHILD, str(tmp_path / "data"), home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    at_start, after_pages, recognizer = done.stdout.split()[-3:]
    assert at_start == "False", "the start-up path imported QtMultimedia"
    assert after_pages == "False", "a page or the cue card imported QtMultimedia"
    assert recognizer == "False", "the recognizer was imported before listening started"


def test_opening_audio_prints_no_ffmpeg_banner(tmp_path):
    """QtMultimedia says "Using Qt multimedia with FFmpeg version ..." on stderr at its
    first audio start; the app's stderr is kept for real problems."""
    try:
        import PySide6.QtMultimedia  # noqa: F401
    except ImportError as exc:  # `.ci/run` installs it
        pytest.skip(f"QtMultimedia does not load (Debian package libpulse0): {exc}")
    child = textwrap.dedent(
        """
        from PySide6.QtWidgets import QApplication

        app = QApplication([])
        from companion.ui.voice.listener import input_devices

        input_devices()
        """
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    env.pop("QT_LOGGING_RULES", None)
    done = subprocess.run(
        [sys.executable, "-c", child],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "FFmpeg" not in done.stderr


def test_no_audio_server_leaves_no_pulseaudio_line_on_stderr_for_the_card(tmp_path):
    """The card's silence nudge with no audio server printed Qt's 'PulseAudioService:
    pa_context_connect() failed' on stderr: only `companion mic` kept it off. Opening
    the input devices the way the card does says it in the app's words instead."""
    probe = (
        "from PySide6.QtCore import QCoreApplication\n"
        "app = QCoreApplication([])\n"
        "from companion.ui.voice.listener import input_devices, no_device_reason\n"
        "print(input_devices(), no_device_reason())\n"
    )
    env = dict(os.environ, PULSE_SERVER=f"unix:{tmp_path}/none", QT_QPA_PLATFORM="offscreen")
    env.pop("PIPEWIRE_REMOTE", None)
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "no audio server answered" in done.stdout
    assert "PulseAudioService" not in done.stderr and "pa_context" not in done.stderr
