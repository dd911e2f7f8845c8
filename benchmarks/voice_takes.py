"""Spoken takes for the voice figures, made with espeak-ng and sox (shared by
benchmarks/bench_voice.py and tests/core/test_voice_vad.py).

A take is clips of synthetic speech with silences of known length between them, and
optionally white noise mixed in at a given signal-to-noise ratio. The truth (where each
clip's sound really starts and ends) is read from the clean clip with a plain amplitude
threshold, independent of the detector under test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

RATE = 22050  # espeak-ng's output rate
TRUTH_THRESHOLD = 300  # |sample| above this (about -40 dBFS) is sound, in the clean clip

PARAGRAPHS = (
    "I am a backend engineer with six years of experience in payments. At my last "
    "company I rebuilt the settlement pipeline, which cut the nightly batch from six "
    "hours to forty minutes.",
    "I moved the fraud checks to streaming, so analysts saw fresh numbers within a "
    "minute. Before that I worked on search, where I reduced the median latency by "
    "thirty percent.",
    "I am looking for a team where I can own a system end to end and mentor newer engineers.",
)

# A whole pitch in the shipped pack's five segments (for the recognizer's figures):
# about 140 words; "I have been" comes back in two segments, a repeated phrase
PITCH = (
    ("identity", "Who I am", "I am an infrastructure engineer with eight years running "
     "production systems, and lately my focus has been serving large models."),
    ("evidence", "Strongest evidence", "At my last company we served forty thousand "
     "requests per second and hit a wall on tail latency. I owned the scheduler rewrite. "
     "As a result the slowest requests went from eight hundred milliseconds to one hundred "
     "and twenty."),
    ("depth", "Current depth", "Lately I have been deep in batching for inference, for "
     "instance a queue that groups requests by length, which taught me that fairness "
     "matters more than peak throughput."),
    ("why-role", "Why this role", "Your team owns the serving platform for every model in "
     "the company. That is the problem I have been circling for two years, and I want it "
     "to be my main job."),
    ("hand-back", "Hand back", "That is the short version of my story. Which part would "
     "be most useful for you to go deeper on?"),
)  # fmt: skip


# The same pitch told in other words (what the guide asks for: structure, not recital):
# each segment keeps a few of its key words and says the rest its own way
PARAPHRASE = (
    ("identity", "Who I am", "So, I work on infrastructure. For about eight years I have "
     "kept production systems running, and these days I mostly serve large models."),
    ("evidence", "Strongest evidence", "At my last company we handled forty thousand "
     "requests every second, and tail latency became the wall. I took over the scheduler "
     "rewrite, and the slowest requests dropped from eight hundred milliseconds to about "
     "one hundred and twenty."),
    ("depth", "Current depth", "Right now I am deep into batching for inference: a queue "
     "that sorts requests by their length. What it taught me is that fairness beats peak "
     "throughput."),
    ("why-role", "Why this role", "Your team runs the serving platform behind every model "
     "here. I have been circling that exact problem for two years, and I would like it to "
     "be my main job."),
    ("hand-back", "Hand back", "Anyway, that is my story in short. Which part should we go "
     "deeper on?"),
)  # fmt: skip


# The same pitch retold: few of the script's key words, the same structure (a hand-back
# handed back as a question in other words, the evidence's figures in other sentences).
RETOLD = (
    ("identity", "Who I am", "Hi, thanks for having me. I build the machinery that keeps "
     "big services up, eight years of it now, and these days that means hosting large "
     "models."),
    ("evidence", "Strongest evidence", "The thing I am proudest of: my previous employer "
     "took forty thousand calls a second and the worst responses were far too slow. I "
     "redesigned how work got scheduled, and the slow ones fell from eight hundred "
     "milliseconds to one hundred and twenty."),
    ("depth", "Current depth", "What I am learning now is how to group work for inference "
     "so the machines stay busy, sorting it by size, and I found that treating everyone "
     "evenly counts for more than raw speed."),
    ("why-role", "Why this role", "Your group runs the platform every model here depends "
     "on. That is the exact problem I keep coming back to, and I would love for it to be "
     "my whole job."),
    ("hand-back", "Hand back", "So that's me in brief. Where would you like me to go into "
     "more detail?"),
)  # fmt: skip


def pitch_page(pitch=PITCH) -> str:
    """The one-pager of ``pitch``: one heading per segment, its text below."""
    parts = ["# About me", ""]
    for _id, title, text in pitch:
        parts += [f"## {title}", "", text, ""]
    return "\n".join(parts)


def missing_tools() -> str | None:
    """Why takes cannot be made here, or None."""
    missing = [tool for tool in ("espeak-ng", "sox") if shutil.which(tool) is None]
    return f"{' and '.join(missing)} not installed" if missing else None


def _run(*cmd: str) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True)
    return done.stderr


def speak(text: str, wpm: int, out: Path, voice: str | None = None) -> Path:
    _run("espeak-ng", *(("-v", voice) if voice else ()), "-s", str(wpm), "-w", str(out), text)
    return out


def silence(seconds: float, out: Path, replayable: bool = False) -> Path:
    """``seconds`` of silence: sox's dither in its last bit, drawn at random unless
    ``replayable`` (-R: the same every run)."""
    _run("sox", *(("-R",) if replayable else ()), "-n", "-r", str(RATE), "-c", "1", "-b", "16",
         str(out), "trim", "0", f"{seconds}")  # fmt: skip
    return out


def rms(path: Path) -> float:
    """sox's RMS amplitude (full scale = 1)."""
    match = re.search(r"RMS\s+amplitude:\s+([0-9.]+)", _run("sox", str(path), "-n", "stat"))
    if not match:
        raise RuntimeError(f"sox stat gave no RMS for {path}")
    return float(match.group(1))


def duration(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def sound_bounds(path: Path) -> tuple[float, float]:
    """First and last moment the clean clip is louder than TRUTH_THRESHOLD."""
    with wave.open(str(path), "rb") as wav:
        rate = wav.getframerate()
        samples = array("h", wav.readframes(wav.getnframes()))
    loud = [i for i, x in enumerate(samples) if abs(x) > TRUTH_THRESHOLD]
    return loud[0] / rate, (loud[-1] + 1) / rate


@dataclass(frozen=True)
class BuiltTake:
    path: Path
    truth: tuple[tuple[float, float], ...]  # where speech really is, in seconds
    words: int
    seconds: float
    speech_rms: float

    @property
    def delivered_wpm(self) -> float:
        """espeak's real rate: words over the clips' sound time (first to last sound of
        each clip, its own pauses between sentences included)."""
        return self.words * 60.0 / sum(end - start for start, end in self.truth)


def build(
    folder: Path,
    name: str,
    wpm: int,
    layout: list[str | tuple[str] | float],
    *,
    snr_db: float | None = 20.0,
    noise_like: float | None = None,
    voice: str | None = None,
    replayable: bool = False,
) -> BuiltTake:
    """``layout`` mixes texts (spoken at ``wpm``, in espeak-ng's ``voice``), one-text tuples
    (spoken and cut to their sound, so they run into what is around them) and silences
    (seconds), in order.
    With ``snr_db``, white noise is mixed in at that ratio to the speech's RMS.
    ``replayable``: the silences' dither the same every run, so the take is (the clips are)."""
    from companion.core.about.spoken import count_words

    folder.mkdir(parents=True, exist_ok=True)
    parts: list[Path] = []
    truth: list[tuple[float, float]] = []
    clean_clips: list[Path] = []
    at = 0.0
    words = 0
    for i, item in enumerate(layout):
        if isinstance(item, tuple):  # (text,): spoken and cut to its sound, run into its neighbours
            whole = speak(item[0], wpm, folder / f"{name}-{i}-whole.wav", voice)
            start, end = sound_bounds(whole)
            clip = folder / f"{name}-{i}.wav"
            _run("sox", str(whole), str(clip), "trim", f"{start}", f"={end}")
            truth.append((at, at + duration(clip)))
            words += count_words(item[0])
            clean_clips.append(clip)
        elif isinstance(item, str):
            clip = speak(item, wpm, folder / f"{name}-{i}.wav", voice)
            start, end = sound_bounds(clip)
            truth.append((at + start, at + end))
            words += count_words(item)
            clean_clips.append(clip)
        else:
            clip = silence(item, folder / f"{name}-{i}.wav", replayable)
        parts.append(clip)
        at += duration(clip)
    clean = folder / f"{name}-clean.wav"
    if len(parts) == 1:
        shutil.copyfile(parts[0], clean)
    else:
        _run("sox", *map(str, parts), str(clean))
    speech_rms = noise_like or (
        sum(rms(c) for c in clean_clips) / len(clean_clips) if clean_clips else 0.1
    )
    if snr_db is None:
        return BuiltTake(clean, tuple(truth), words, duration(clean), speech_rms)
    noise = folder / f"{name}-noise.wav"
    # -R: the same noise every run (sox seeds it from the clock otherwise: one draw in a few
    # put a 0.24 s burst at a clip's edge at 120 wpm), so a test or figure can be rerun
    _run("sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(noise),
         "synth", f"{at}", "whitenoise", "vol", "0.5")  # fmt: skip
    gain = speech_rms / 10 ** (snr_db / 20) / rms(noise)
    out = folder / f"{name}.wav"
    _run("sox", "-m", "-v", "1", str(clean), "-v", f"{gain:.6f}", str(noise), str(out))
    return BuiltTake(out, tuple(truth), words, duration(out), speech_rms)


def pure_noise(folder: Path, name: str, seconds: float, level: float) -> Path:
    """White noise alone at RMS ``level`` (full scale = 1)."""
    folder.mkdir(parents=True, exist_ok=True)
    raw = folder / f"{name}-raw.wav"
    _run("sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(raw),
         "synth", f"{seconds}", "whitenoise", "vol", "0.5")  # fmt: skip
    out = folder / f"{name}.wav"
    _run("sox", "-v", f"{level / rms(raw):.6f}", str(raw), str(out))
    return out


# Another person's pitch, none of PITCH's key phrases: a take of it must hear no segment
OTHER_TEXT = (
    "Good morning. I trained as a nurse and spent ten years on a children's ward in a "
    "busy city hospital. Last spring I led the move to a new building over one weekend, "
    "with every patient safe and every bed ready by Monday. I am now studying to teach, "
    "because I love watching a student finally understand something hard. I would like "
    "to hear what your school expects from a new teacher in the first year."
)
