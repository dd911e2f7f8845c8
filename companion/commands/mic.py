"""`companion mic check|list`: try the microphone without the window.

``check`` records a few seconds from the input device through QtMultimedia, keeps
nothing, closes the device, and prints the device, peak and RMS levels, seconds of
speech and a verdict; the exit status is 0 only when speech was heard.
"""

from __future__ import annotations

import os
import time

from companion.commands.common import CommandError, say
from companion.core.sigint import deferred_sigint

MIN_SECONDS, MAX_SECONDS = 1.0, 60.0
START_GRACE = 10.0  # seconds an audio server may take before the first samples arrive


def register(parser) -> None:
    inner = parser.add_subparsers(dest="mic_command", metavar="ACTION", required=True)
    check = inner.add_parser("check", help="record N seconds (kept nowhere) and give a verdict")
    check.add_argument(
        "--seconds", type=float, default=5.0, metavar="N", help="seconds to listen (default 5)"
    )
    check.add_argument(
        "--device", metavar="NAME", help="input device id or description (default: the system's)"
    )
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.set_defaults(func=run_check)
    devices = inner.add_parser("list", help="list the input devices")
    devices.add_argument("--json", action="store_true", help="print the list as JSON")
    devices.set_defaults(func=run_list)


def _app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_LOGGING_RULES", "qt.multimedia.ffmpeg.info=false")
    with deferred_sigint():  # a Ctrl+C inside PySide6's import broke it (ImportError)
        from PySide6.QtCore import QCoreApplication

        # seam: voice
        from companion.ui.voice.listener import quiet_pulse_messages

        quiet_pulse_messages()
        return QCoreApplication.instance() or QCoreApplication(["companion"])


def run_list(args, ctx) -> int:
    # seam: voice
    from companion.ui.voice.listener import AudioUnavailable, input_devices, no_device_reason

    _app()
    try:
        devices = input_devices()
    except AudioUnavailable as exc:
        raise CommandError(f"mic list: {exc}") from None
    if args.json:
        import json

        say(
            json.dumps(
                [{"id": i, "description": d, "default": df} for i, d, df in devices], indent=2
            ),
            data=True,
        )
    else:
        for ident, description, default in devices:
            say(f"{'*' if default else ' '} {description}  ({ident})")
    if not devices:
        raise CommandError(f"mic list: no input device found: {no_device_reason()}")
    return 0


def check(seconds: float, device: str | None):
    """Record and judge; returns a CheckResult. Needs a Q(Core)Application."""
    from PySide6.QtCore import QTimer

    # seam: voice
    from companion.core.voice import check as verdicts
    from companion.ui.voice.listener import MicListener  # its start() says when audio is missing

    app = _app()

    listener = MicListener(device=device)
    errors: list[str] = []
    listener.error.connect(errors.append)
    if not listener.start():
        message = errors[-1] if errors else "the microphone did not open."
        if listener.failure == "refused":
            return verdicts.CheckResult(verdicts.REFUSED, message, device=listener.device_name)
        if not verdicts.sound_server_running():
            return verdicts.no_server()
        return verdicts.CheckResult(verdicts.NO_DEVICE, message)
    started = time.monotonic()
    timer = QTimer()
    timer.setInterval(50)

    def poll() -> None:
        waited = time.monotonic() - started
        if listener.seconds >= seconds or errors or waited > seconds + START_GRACE:
            timer.stop()
            app.quit()

    timer.timeout.connect(poll)
    timer.start()
    app.exec()
    name = listener.device_name
    vad, meter = listener.vad, listener.meter
    heard_seconds = listener.seconds
    listener.stop()
    listener.deleteLater()
    if errors:  # the listener's words are the card's: no round goes on in a check
        message = errors[-1].replace("; the round goes on.", ".")
        return verdicts.CheckResult(verdicts.REFUSED, message, device=name)
    if heard_seconds <= 0:
        return verdicts.refused(name, f"no audio arrived in {seconds + START_GRACE:.0f} s.")
    return verdicts.judge(name, meter.levels(), vad.speech_seconds, heard_seconds)


def run_check(args, ctx) -> int:
    if not MIN_SECONDS <= args.seconds <= MAX_SECONDS:
        raise CommandError(
            f"mic: --seconds {args.seconds:g} is outside {MIN_SECONDS:g}-{MAX_SECONDS:g}.",
            exit_code=2,
        )
    if not args.json:
        say(f"listening for {args.seconds:g} s: say a sentence...", err=True)
    result = check(args.seconds, args.device)
    if args.json:
        import json

        say(json.dumps(result.as_dict(), indent=2), data=True)
    else:
        if result.device:
            say(f"device: {result.device}")
        if result.peak_dbfs is not None:
            say(f"peak: {result.peak_dbfs:.1f} dBFS, RMS: {result.rms_dbfs:.1f} dBFS")
            say(f"speech: {result.speech_seconds:.1f} s of {result.seconds:.1f} s")
        say(f"verdict: {result.verdict}: {result.message}")
    return 0 if result.passed else 1
