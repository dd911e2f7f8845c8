"""A microphone the test feeds: the real MicListener (its detector, its signals, the
samples it keeps) with no device behind it. The test hands it a WAV's samples in the
pump's 100 ms chunks, so the audio clock is the file's own clock however loaded the
machine: no real-time player to fall behind, no frames to drop. The audio path itself
(PulseAudio, QAudioSource) is checked by the tests that play into a real server."""

from __future__ import annotations

import wave
from array import array
from pathlib import Path

from companion.core.voice.vad import VoiceActivityDetector
from companion.ui.voice.listener import PUMP_MS, MicListener


class FedMic(MicListener):
    """``start()`` opens nothing; ``feed_to()`` delivers samples up to an audio time."""

    def __init__(self, parent=None, *, rate: int = 16000, **kwargs):
        super().__init__(parent, **kwargs)
        self.rate = rate
        self.fed_open = False
        self.fed = 0  # samples fed since start()

    def start(self) -> bool:
        self.vad = VoiceActivityDetector(self.rate)
        self.samples = array("h")
        self._last_silence_step = -1
        self.fed_open = True
        self.fed = 0
        self.opened.emit("fed")
        return True

    def stop(self) -> None:
        if not self.fed_open:
            return
        self.fed_open = False
        for event in self.vad.finish():  # as the device's stop() does
            if event.kind == "end":
                self.speech_ended.emit(event.time)
        self.closed.emit()

    @property
    def is_open(self) -> bool:
        return self.fed_open

    def feed(self, samples: array) -> None:
        self.fed += len(samples)
        super().feed(samples)

    def feed_to(self, samples: array, seconds: float) -> None:
        """Feed ``samples`` (from where the feeding stopped) up to audio second
        ``seconds``, a pump's chunk at a time; past their end, silence."""
        chunk = self.rate * PUMP_MS // 1000
        end = round(seconds * self.rate)
        while self.fed_open and self.fed < end:
            part = samples[self.fed : min(end, self.fed + chunk)]
            if len(part) < min(chunk, end - self.fed):
                part = part + array("h", [0] * (min(chunk, end - self.fed) - len(part)))
            self.feed(part)


def factory(made: list, rate: int = 16000, **kwargs):
    """A listener factory (the seams of the card's nudge strip and the take recorder)
    that makes FedMics and appends each to ``made``."""

    def make(parent):
        mic = FedMic(parent, rate=rate, **kwargs)
        made.append(mic)
        return mic

    return make


def wav_samples(path: Path, rate: int = 16000) -> tuple[array, int]:
    """A 16-bit mono WAV's samples at ``rate`` (the device path's 16 kHz), resampled by
    sox with -R: the same samples at every run (sox dithers at random without it)."""
    import subprocess

    converted = path.with_name(f"{path.stem}-{rate}.wav")
    subprocess.run(
        ["sox", "-R", str(path), "-r", str(rate), "-b", "16", "-c", "1", str(converted)],
        check=True,
        capture_output=True,
    )
    with wave.open(str(converted), "rb") as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1, path
        samples = array("h", wav.readframes(wav.getnframes()))
        return samples, wav.getframerate()
