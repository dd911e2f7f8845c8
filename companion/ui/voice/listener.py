"""MicListener: the microphone feeding the Qt-free voice-activity detector. On Linux the
default microphone comes from the sound server through libpulse (pulse_capture); a named
device, and macOS and Windows, through a QAudioSource.

Signals say when speech starts, how long the silence has lasted (on the audio's own
clock), the levels of each chunk, when the microphone opens and closes, and what went
wrong (no device, refused, unplugged) as one sentence. Nothing is recorded or written
unless a caller asks for the samples with ``keep_samples``.
"""

from __future__ import annotations

import sys
import time
from array import array

from PySide6.QtCore import QObject, QTimer, Signal

from companion.core.platform import pulse_capture
from companion.core.voice.check import sound_server_running
from companion.core.voice.levels import LevelMeter
from companion.core.voice.pcm import to_int16_mono
from companion.core.voice.vad import VoiceActivityDetector

SAMPLE_RATE = 16000
SILENCE_STEP = 0.1  # silent_for is emitted each time the silence grows by this much
PUMP_MS = 100  # how often the microphone's buffer is read
BUFFER_SECONDS = 0.5
STALL_SECONDS = 3.0  # an open device that sends nothing this long has gone away
# this long of pure digital silence from the start: the input is muted. Only before the
# first sound: a noise gate (PipeWire's noise suppression) sends zeros between words too
MUTED_SECONDS = 1.5
MUTED_LEVEL = 1  # |sample| at most this (a dither's last bit) is no sound at all
FIRST_DATA_SECONDS = 10.0  # audio servers may take a few seconds to start a stream
NO_SERVER_WORDS = (
    "no sound server is running (PulseAudio or PipeWire): start it, or log in to a desktop session."
)
NO_INPUT_WORDS = "no input device found: plug in a microphone."


_PULSE_NOISE = ("PulseAudioService:", "pa_context_connect")
_previous_handler = None
_pulse_failures: list[str] = []  # Qt's PulseAudio lines kept off stderr, for the reason


def muted_words(name: str) -> str:
    """The card's line for a muted input (MicListener.muted)."""
    return f"the microphone{f' {name}' if name else ''} is muted: unmute it in the sound settings."


def no_device_reason() -> str:
    """Why no input device is listed, in the app's words: no audio server answered (Qt
    said so in a line kept off stderr), or the server has no microphone."""
    if _pulse_failures:
        return (
            "no audio server answered (PulseAudio or PipeWire is not running here, "
            "or PULSE_SERVER points at none)"
        )
    return "the audio server lists no microphone (plug one in, or enable it in the sound settings)"


def quiet_pulse_messages() -> None:
    """Keep Qt's own PulseAudio lines ("PulseAudioService: pa_context_connect() failed")
    off stderr: the check and the card say what is wrong in their own words. Every other
    Qt message goes where it went before. Installed once."""
    global _previous_handler
    if _previous_handler is not None:
        return

    from PySide6.QtCore import qInstallMessageHandler

    def handler(mode, context, message):
        if any(noise in message for noise in _PULSE_NOISE):
            _pulse_failures.append(message)
            return
        if callable(_previous_handler):
            _previous_handler(mode, context, message)
        else:
            print(message, file=sys.stderr)

    _previous_handler = qInstallMessageHandler(handler) or True


class AudioUnavailable(RuntimeError):
    """QtMultimedia (PySide6-Addons) is not installed, or cannot load: no audio at all."""


def audio_missing(exc: ImportError) -> str:
    """One line for a QtMultimedia that did not import: not installed, or installed but
    missing a system library (libpulse.so.0 where no audio server was ever installed)."""
    if exc.name and exc.name.startswith("PySide6.QtMultimedia") or "No module" in str(exc):
        return "audio needs PySide6-Addons (QtMultimedia), which is not installed"
    return f"audio needs QtMultimedia, which is installed but could not load: {exc}"


def input_devices() -> list[tuple[str, str, bool]]:
    """(id, description, is_default) of each input device the audio server offers;
    :class:`AudioUnavailable` without QtMultimedia (the one guarded import: third-party)."""
    try:
        from PySide6.QtMultimedia import QMediaDevices
    except ImportError as exc:
        raise AudioUnavailable(audio_missing(exc)) from None

    default = QMediaDevices.defaultAudioInput()
    default_id = bytes(default.id().data()).decode(errors="replace") if not default.isNull() else ""
    out = []
    for device in QMediaDevices.audioInputs():
        ident = bytes(device.id().data()).decode(errors="replace")
        out.append((ident, device.description(), ident == default_id))
    return out


def _find_device(name: str | None):
    from PySide6.QtMultimedia import QMediaDevices

    if not name:
        device = QMediaDevices.defaultAudioInput()
        if device.isNull():
            inputs = QMediaDevices.audioInputs()
            return inputs[0] if inputs else None
        return device
    wanted = name.casefold()
    for device in QMediaDevices.audioInputs():
        ident = bytes(device.id().data()).decode(errors="replace")
        if wanted in (ident.casefold(), device.description().casefold()):
            return device
    for device in QMediaDevices.audioInputs():
        ident = bytes(device.id().data()).decode(errors="replace")
        if wanted in ident.casefold() or wanted in device.description().casefold():
            return device
    return None


def microphone_refused() -> bool:
    """The platform's microphone permission says no (macOS; always granted on Linux)."""
    try:
        from PySide6.QtCore import QCoreApplication, QMicrophonePermission, Qt
    except ImportError:
        return False
    app = QCoreApplication.instance()
    if app is None:
        return False
    return app.checkPermission(QMicrophonePermission()) == Qt.PermissionStatus.Denied


class _QtInput:
    """A started QAudioSource: read what it holds, its error by name, close."""

    def __init__(self, source, io):
        self.source, self.io = source, io

    def read(self) -> bytes:
        return bytes(self.io.readAll().data())

    def failure(self) -> str | None:
        err = self.source.error()
        return err.name if err != err.NoError else None

    def close(self) -> None:
        self.source.stop()
        self.source.deleteLater()


class _PulseInput:
    """A PulseCapture behind the same three calls (core/platform/pulse_capture.py)."""

    def __init__(self, capture: pulse_capture.PulseCapture):
        self.capture = capture

    def read(self) -> bytes:
        return self.capture.take()

    def failure(self) -> str | None:
        return self.capture.failure

    def close(self) -> None:
        self.capture.close()


class MicListener(QObject):
    speech_started = Signal(float)  # audio seconds since the mic opened
    speech_ended = Signal(float)
    silent_for = Signal(float)  # seconds without speech, growing in SILENCE_STEP steps
    levels = Signal(float, float)  # peak and RMS dBFS of the last chunk
    chunk = Signal(object, int)  # each chunk's int16 mono samples (array) and sample rate
    opened = Signal(str)  # the device's description
    closed = Signal()
    error = Signal(str)  # one sentence for the user
    muted = Signal(bool)  # pure digital silence for MUTED_SECONDS (True), sound again (False)

    def __init__(
        self,
        parent=None,
        *,
        device: str | None = None,
        keep_samples: bool = False,
        measure_levels: bool = True,
    ):
        """``measure_levels=False`` (the nudge) skips the level meter and ``levels``."""
        super().__init__(parent)
        self._measure = measure_levels
        self._wanted = device
        self._keep = keep_samples
        self._input: _QtInput | _PulseInput | None = None
        self._device = None  # the QAudioDevice (the Qt path), for the unplug watch
        self._format = ("Int16", 1)
        self.device_name = ""
        self.vad: VoiceActivityDetector | None = None
        self.meter = LevelMeter()
        self.samples = array("h")
        self._last_silence_step = -1
        self._zeros = 0.0  # seconds of pure digital silence since opening
        self._sounded = False  # any sound since opening
        self._muted = False
        self._pump = QTimer(self)
        self._pump.setInterval(PUMP_MS)
        self._pump.timeout.connect(self._read)
        self._watch = QTimer(self)
        self._watch.setInterval(500)
        self._watch.timeout.connect(self._check_state)
        self._devices = None
        self.failure: str | None = None
        self._last_data = 0.0  # monotonic time of the last chunk (0: none yet)
        self._opened_at = 0.0  # "no device" or "refused" when start() failed

    @property
    def is_open(self) -> bool:
        return self._input is not None

    @property
    def seconds(self) -> float:
        return self.vad.now if self.vad else 0.0

    def start(self) -> bool:
        """Open the microphone; False (and ``error`` emitted) when it cannot be opened.
        On Linux the default microphone is read from the sound server directly
        (core/platform/pulse_capture.py): QtMultimedia's FFmpeg backend is most of the
        card's memory (docs/performance.md); a named device, and every other platform,
        go through QtMultimedia."""
        if self._input is not None:
            return True
        if not self._wanted and pulse_capture.available():
            return self._start_pulse()
        return self._start_qt()

    def _start_pulse(self) -> bool:
        try:
            capture = pulse_capture.PulseCapture()
        except pulse_capture.CaptureError as exc:
            self.failure = "no device"
            if exc.kind == "no server":
                self.error.emit(NO_SERVER_WORDS)
            elif exc.kind == "no source":
                self.error.emit(NO_INPUT_WORDS)
            else:
                self.error.emit(f"could not open the microphone ({exc}): it may be in use.")
            return False
        self._began(_PulseInput(capture), capture.device_name, ("Int16", 1), SAMPLE_RATE)
        return True

    def _start_qt(self) -> bool:
        try:
            from PySide6.QtMultimedia import QAudioFormat, QAudioSource, QMediaDevices
        except ImportError as exc:  # not installed, or its libpulse is missing
            self.failure = "no device"
            self.error.emit(audio_missing(exc) + ".")
            return False
        if microphone_refused():
            self.failure = "refused"
            self.error.emit("microphone access is refused: allow it in the system settings.")
            return False
        device = _find_device(self._wanted)
        if device is None:
            self.failure = "no device"
            if self._wanted:
                self.error.emit(f"no input device matches {self._wanted!r}.")
            elif not sound_server_running():
                self.error.emit(NO_SERVER_WORDS)
            else:
                self.error.emit(NO_INPUT_WORDS)
            return False
        fmt = QAudioFormat()
        fmt.setSampleRate(SAMPLE_RATE)
        fmt.setChannelCount(1)
        fmt.setSampleFormat(QAudioFormat.SampleFormat.Int16)
        if not device.isFormatSupported(fmt):
            fmt = device.preferredFormat()
        source = QAudioSource(device, fmt, self)
        source.setBufferSize(int(fmt.bytesForDuration(int(BUFFER_SECONDS * 1_000_000))))
        io = source.start()
        if io is None or source.error() != source.error().NoError:
            why = source.error().name if source.error() else "it did not start"
            source.deleteLater()
            self.failure = "refused"
            self.error.emit(
                f"could not open {device.description()} ({why}): it may be in use or refused."
            )
            return False
        self._device = device
        self._devices = QMediaDevices(self)
        self._devices.audioInputsChanged.connect(self._inputs_changed)
        self._began(
            _QtInput(source, io),
            device.description(),
            (fmt.sampleFormat().name, max(1, fmt.channelCount())),
            fmt.sampleRate(),
        )
        return True

    def _began(self, opened, name: str, fmt: tuple[str, int], rate: int) -> None:
        """A fresh detector and meter for an input that opened, and the reading begins."""
        self._input = opened
        self.device_name = name
        self._format = fmt
        self.vad = VoiceActivityDetector(max(8000, rate))
        self.meter = LevelMeter()
        self.samples = array("h")
        self._last_silence_step = -1
        self._zeros, self._sounded, self._muted = 0.0, False, False
        self._last_data = 0.0
        self._opened_at = time.monotonic()
        # read on a timer, not on every readyRead (one per 10 ms period): ten wake-ups a
        # second instead of a hundred; the source buffers half a second
        self._pump.start()
        self._watch.start()
        self.opened.emit(self.device_name)

    def stop(self) -> None:
        """Close the microphone (idempotent), after reading what it still holds."""
        if self._input is not None:
            self._read()
        self._pump.stop()
        self._watch.stop()
        if self._devices is not None:
            self._devices.audioInputsChanged.disconnect(self._inputs_changed)
            self._devices.deleteLater()
            self._devices = None
        opened, self._input = self._input, None
        if opened is None:
            return
        opened.close()
        if self.vad is not None:
            for event in self.vad.finish():
                if event.kind == "end":
                    self.speech_ended.emit(event.time)
        self.closed.emit()

    def _read(self) -> None:
        if self._input is None:
            return
        data = self._input.read()
        if data:
            self._last_data = time.monotonic()
            self.feed(to_int16_mono(data, *self._format))

    def feed(self, samples: array) -> None:
        """Analyse samples as if the microphone had delivered them (the read path)."""
        if self.vad is None or not samples:
            return
        if self._keep:
            self.samples.extend(samples)
        self.chunk.emit(samples, self.vad.sample_rate)
        self._watch_muted(samples)
        if self._measure:
            chunk = self.meter.feed(samples)
            self.levels.emit(chunk.peak_dbfs, chunk.rms_dbfs)
        for event in self.vad.feed(samples):
            if event.kind == "start":
                self._last_silence_step = -1
                self.speech_started.emit(event.time)
            else:
                self.speech_ended.emit(event.time)
        if not self.vad.speaking:
            silence = self.vad.silence_seconds
            step = int(silence / SILENCE_STEP)
            if step != self._last_silence_step:
                self._last_silence_step = step
                self.silent_for.emit(silence)

    def _watch_muted(self, samples: array) -> None:
        """A muted input sends zeros (a live one hears its own hiss): said after
        MUTED_SECONDS from the start, not left to look like a silent speaker (the card
        said nothing for 14 s)."""
        if self._sounded or not samples:
            return
        if max(samples) <= MUTED_LEVEL and min(samples) >= -MUTED_LEVEL:
            self._zeros += len(samples) / self.vad.sample_rate
            if not self._muted and self._zeros >= MUTED_SECONDS:
                self._muted = True
                self.muted.emit(True)
            return
        self._sounded = True
        if self._muted:
            self._muted = False
            self.muted.emit(False)

    def _check_state(self) -> None:
        """Errors and stalls: Qt does not always report a device that went away (an audio
        server may keep the stream open on nothing), so no data for a while counts too."""
        if self._input is None:
            return
        why = self._input.failure()
        name = self.device_name
        if why:
            self.stop()
            self.error.emit(f"the microphone {name} stopped ({why}); the round goes on.")
        elif self._stalled():
            self.stop()
            self.error.emit(
                f"the microphone {name} stopped sending sound (unplugged?); the round goes on."
            )

    def _stalled(self) -> bool:
        now = time.monotonic()
        if self._last_data:
            return now - self._last_data > STALL_SECONDS
        return now - self._opened_at > FIRST_DATA_SECONDS

    def _inputs_changed(self) -> None:
        from PySide6.QtMultimedia import QMediaDevices

        if self._device is None:
            return
        ids = {bytes(d.id().data()) for d in QMediaDevices.audioInputs()}
        if bytes(self._device.id().data()) not in ids:
            name = self.device_name
            self.stop()
            self.error.emit(f"the microphone {name} was unplugged; the round goes on.")
