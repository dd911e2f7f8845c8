"""The microphone check's verdict, from what a few seconds of input sounded like."""

from __future__ import annotations

import glob
import os
from dataclasses import asdict, dataclass

from companion.core.platform.files import runtime_dir
from companion.core.voice.levels import Levels

HEARD = "heard speech"
TOO_QUIET = "too quiet"
CLIPPING = "clipping"
NO_DEVICE = "no input device"
REFUSED = "access refused"
MUTED = "muted"
NO_SERVER = "no sound server"
VERDICTS = (HEARD, TOO_QUIET, CLIPPING, NO_DEVICE, REFUSED, MUTED, NO_SERVER)
MUTED_PEAK_DBFS = -100.0  # a live microphone always hears its own hiss; this is zeros

MIN_SPEECH_SECONDS = 0.5  # a sentence said, not a cough
QUIET_PEAK_DBFS = -30.0  # speech that never got louder than this is hard to hear on a call
CLIP_FRACTION = 0.001  # one sample in a thousand pinned at full scale


@dataclass(frozen=True)
class CheckResult:
    verdict: str
    message: str
    device: str | None = None
    seconds: float = 0.0  # of audio analysed
    peak_dbfs: float | None = None
    rms_dbfs: float | None = None
    speech_seconds: float = 0.0
    clipped_fraction: float = 0.0

    @property
    def passed(self) -> bool:
        return self.verdict == HEARD

    def as_dict(self) -> dict:
        out = asdict(self)
        out["passed"] = self.passed
        for key in ("peak_dbfs", "rms_dbfs", "seconds", "speech_seconds"):
            if out[key] is not None:
                out[key] = round(out[key], 2)
        out["clipped_fraction"] = round(out["clipped_fraction"], 5)
        return out


def judge(device: str, levels: Levels, speech_seconds: float, seconds: float) -> CheckResult:
    """The verdict for a recording that did happen (no-device and refusal come earlier)."""
    figures = dict(
        device=device,
        seconds=seconds,
        peak_dbfs=levels.peak_dbfs,
        rms_dbfs=levels.rms_dbfs,
        speech_seconds=speech_seconds,
        clipped_fraction=levels.clipped_fraction,
    )
    if seconds > 0 and levels.peak_dbfs <= MUTED_PEAK_DBFS:
        return CheckResult(
            MUTED,
            "the input sends pure digital silence (no hiss at all): it is muted, its "
            "volume is at zero, or nothing feeds it; unmute it in the sound settings.",
            **figures,
        )
    if levels.clipped_fraction >= CLIP_FRACTION:
        return CheckResult(
            CLIPPING, "the input clips: lower the input volume or move back from the mic.",
            **figures,
        )  # fmt: skip
    if speech_seconds >= MIN_SPEECH_SECONDS and levels.peak_dbfs >= QUIET_PEAK_DBFS:
        return CheckResult(HEARD, f"heard {speech_seconds:.1f} s of speech.", **figures)
    if speech_seconds >= MIN_SPEECH_SECONDS:
        return CheckResult(
            TOO_QUIET,
            f"speech peaked at {levels.peak_dbfs:.0f} dBFS: raise the input volume or move closer.",
            **figures,
        )
    return CheckResult(
        TOO_QUIET,
        "no speech heard: say a sentence, and check the input is not muted.",
        **figures,
    )


def level_words(peak_dbfs: float, heard: bool = False) -> str:
    """The live level bar's words for the last chunk's peak: muted, quiet, or its level;
    ``heard``: whether speech has been heard since the microphone opened."""
    if peak_dbfs <= MUTED_PEAK_DBFS:
        return "muted: no sound at all; unmute the input in the sound settings"
    said = "; speech heard" if heard else ""
    if peak_dbfs < QUIET_PEAK_DBFS:
        return f"quiet (peak {peak_dbfs:.0f} dBFS){said or ': say a few words'}"
    return f"level: peak {peak_dbfs:.0f} dBFS{said or '; no speech heard yet'}"


def closed_words(why: str = "", env=None) -> str:
    """The level bar's words when the microphone did not open: no sound server, else
    ``why`` (the listener's sentence: no device, refused), else that it did not open."""
    if not sound_server_running(env):
        return "no level: no sound server (PulseAudio or PipeWire) is running"
    return f"no level: {why.rstrip('.')}" if why else "no level: the microphone did not open"


def sound_server_running(env=None) -> bool:
    """Whether a sound server (PulseAudio, or PipeWire's pulse or native socket) is there
    to ask for devices: its socket in the runtime folder, or PULSE_SERVER set."""
    env = os.environ if env is None else env
    server = env.get("PULSE_SERVER", "")
    if server:  # "unix:/path" or "/path": that socket; "tcp:host" and the like: trust it
        path = server.removeprefix("unix:")
        return os.path.exists(path) if path.startswith("/") else True
    if env.get("PULSE_RUNTIME_PATH"):
        return os.path.exists(os.path.join(env["PULSE_RUNTIME_PATH"], "native"))
    if not env.get("XDG_RUNTIME_DIR") and env.get("HOME"):
        # no runtime folder (root, a bare ssh or cron session): libpulse keeps its socket
        # under ~/.config/pulse/<machine-id>-runtime, a link to /tmp/pulse-*
        pattern = os.path.join(env["HOME"], ".config", "pulse", "*-runtime", "native")
        if glob.glob(pattern):
            return True
    runtime = env.get("XDG_RUNTIME_DIR") or runtime_dir()
    return any(
        os.path.exists(os.path.join(runtime, name)) for name in ("pulse/native", "pipewire-0")
    )


def no_server() -> CheckResult:
    return CheckResult(
        NO_SERVER,
        "no sound server is running (PulseAudio or PipeWire): start it, or log in to a "
        "desktop session; no microphone can be found without one.",
    )


def refused(device: str, why: str) -> CheckResult:
    return CheckResult(REFUSED, f"could not open {device}: {why}", device=device)
