"""The microphone check's verdict, from what a few seconds of input sounded like."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from companion.core.voice.levels import Levels

HEARD = "heard speech"
TOO_QUIET = "too quiet"
CLIPPING = "clipping"
NO_DEVICE = "no input device"
REFUSED = "access refused"
VERDICTS = (HEARD, TOO_QUIET, CLIPPING, NO_DEVICE, REFUSED)

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


def no_device(wanted: str | None = None) -> CheckResult:
    if wanted:
        return CheckResult(NO_DEVICE, f"no input device matches {wanted!r}.")
    return CheckResult(NO_DEVICE, "no input device found: plug in a microphone.")


def refused(device: str, why: str) -> CheckResult:
    return CheckResult(REFUSED, f"could not open {device}: {why}", device=device)
