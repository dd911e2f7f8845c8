"""`companion about rehearse --audio FILE.wav`: time a recorded take of the one-pager.

Registered by companion/commands/about.py. The take is analysed on this machine (the
voice-activity detector and the pocketsphinx recognizer in companion/core/voice, which
knows the one-pager's segments) and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from companion.commands.about_source import source_text
from companion.commands.about_takes import keep
from companion.commands.common import (
    CommandError,
    open_journal,  # the one-pager's read opens it
    say,
)
from companion.commands.stdio import STDIN_NAME, is_stdio, named, stdin_file
from companion.core.about.pitch import analyze
from companion.core.about.spoken import count_words
from companion.core.voice.heard import RATE_OFF_SCRIPT, SegmentHeard, TakeHeard, hear
from companion.core.voice.levels import snr_db
from companion.core.voice.pcm import resample
from companion.core.voice.recognizer import SAMPLE_RATE, RecognizerError
from companion.core.voice.script import pitch_script
from companion.core.voice.take import WavError, analyse, read_wav

JUDGE_SNR_DB = (
    10.0  # under this (measured: 5 dB white noise reads 8) rate and fillers are not given
)


def add_parser(inner) -> None:
    rehearse = inner.add_parser(
        "rehearse",
        help="time a recorded take: speaking time, pauses, rate, verdict against the pitch's "
        "target, and what it said: each segment heard or skipped, fillers, the transcript",
    )
    rehearse.add_argument(
        "--audio",
        type=Path,
        required=True,
        metavar="FILE",
        help="the take, a 16-bit PCM WAV; - for standard input",
    )
    rehearse.add_argument(
        "--input",
        type=Path,
        metavar="FILE",
        help="the Markdown one-pager read aloud (default: saved one); - for standard input",
    )
    rehearse.add_argument("--json", action="store_true", help="print the figures as JSON")
    rehearse.add_argument(
        "--keep", action="store_true", help="keep the take's figures (never its audio)"
    )
    rehearse.set_defaults(func=run_rehearse)


def verdict(answer_seconds: float, heard: bool, target: tuple[float, float]) -> str:
    """The answer, first word to last, against the pack's whole-pitch ``target``."""
    low, high = target
    if not heard:
        return "no speech heard"
    if answer_seconds < low:
        return f"short: under {low:.0f} s"
    if answer_seconds > high:
        return f"long: over {high:.0f} s"
    return f"within {low:.0f}-{high:.0f} s"


def _read_take(path: Path):
    """The take at ``path``; ``-``: standard input (`sox -d -t wav - | companion ...`)."""
    if not is_stdio(path):
        try:
            return read_wav(path)
        except WavError as exc:
            raise CommandError(f"about: {exc}") from None
    with stdin_file("take", "take.wav") as copy:
        try:
            return read_wav(copy)
        except WavError as exc:
            raise CommandError(f"about: {named(str(exc), copy)}") from None


def run_rehearse(args, ctx) -> int:
    import dataclasses

    if is_stdio(args.audio) and is_stdio(args.input):
        raise CommandError("about: standard input (-) can be read once: --audio or --input", 2)
    take = _read_take(args.audio)
    if getattr(args, "keep", False):  # --keep writes: open the journal writable before
        open_journal(ctx)  # read-only (a store once open stays as it is)
    text, where = source_text(ctx, args.input)
    if text is None:
        return 1
    pitch = analyze(text, plan=ctx.content.pitch_plan())
    words = pitch.total_words or count_words(text)
    snr = snr_db(take.samples, take.sample_rate)
    judged = snr is None or snr >= JUDGE_SNR_DB
    result = analyse(take)
    heard = bool(result.spans)
    # the recognizer's rate from here on, the recorder's let go: at 44.1 kHz a take is
    # 5 MiB a minute, held through the decoding beside 40 MiB in all
    audio = resample(take.samples, take.sample_rate, SAMPLE_RATE) if heard else None
    del take
    heard_take = _hear(audio, text, ctx) if audio is not None else None
    # the rate is what was said (recognized words, off the script too), not the one-pager
    said = heard_take.words_said if heard_take is not None and heard_take.transcript else None
    # mostly off the script: the recognizer's count of words it does not know is no count
    share = heard_take.off_script_share if said is not None else None
    off_script = share is not None and not heard_take.rate_judged
    if judged:
        result = dataclasses.replace(
            result, words=0 if off_script else said if said is not None else words
        )
    figures = {
        "audio": STDIN_NAME if is_stdio(args.audio) else str(args.audio),
        "source": where,
        "seconds": round(result.seconds, 2),
        "speaking_seconds": round(result.speaking_seconds, 2),
        "answer_seconds": round(result.answer_seconds, 2),
        "first_word": None if result.first_word is None else round(result.first_word, 2),
        "pauses": [[round(p.start, 2), round(p.length, 2)] for p in result.pauses],
        "words": words,
        "words_said": said,
        "rate_from": None
        if off_script
        else "words said"
        if said is not None
        else "the one-pager's words",
        "off_script_share": None if share is None else round(share, 2),
        "measured_wpm": None if result.measured_wpm is None else round(result.measured_wpm, 1),
        "snr_db": None if snr is None else round(snr, 1),
        "judged": judged,
        "peak_dbfs": round(result.levels.peak_dbfs, 1),
        "rms_dbfs": round(result.levels.rms_dbfs, 1),
        "verdict": verdict(result.answer_seconds, heard, pitch.target),
        **_heard_json(heard_take, ctx),
    }
    if not judged:  # too noisy: no figure rather than a wrong one
        figures["fillers"] = None
        for seg in figures["segments"]:
            seg["wpm"] = None

    if getattr(args, "keep", False) and heard:
        figures["kept"] = keep(ctx, result, figures)
    if args.json:
        import json

        say(json.dumps(figures, indent=2), data=True)
    else:
        say(f"{figures['audio']} ({where}, {words} words):")
        if not heard:
            say("  no speech heard in the take: check the recording's level.")
        else:
            say(
                f"  answer {figures['answer_seconds']:.1f} s from the first word to the last; "
                f"speaking {figures['speaking_seconds']:.1f} s"
            )
            if not judged:
                say(
                    f"  rate and fillers: too noisy to judge (signal-to-noise {snr:.0f} dB, "
                    f"under {JUDGE_SNR_DB:.0f} dB)"
                )
            elif off_script:
                say(
                    f"  rate: not judged ({100 * share:.0f} % of the words heard are off the "
                    f"one-pager, over {100 * RATE_OFF_SCRIPT:.0f} %: the recognizer splits "
                    "words it does not know)"
                )
            else:
                say(f"  rate: {figures['measured_wpm']:.0f} words per minute of speech")
            if result.pauses:
                listed = ", ".join(f"{p.length:.1f} s at {p.start:.1f} s" for p in result.pauses)
                say(f"  pauses over 2 s: {listed}")
            else:
                say("  no pauses over 2 s")
        say(f"  verdict: {figures['verdict']}")
        if heard_take is not None:
            _print_heard(heard_take, judged)
        if "kept" in figures:
            say(
                f"  kept as take {figures['kept']}: its figures, never its audio "
                "(companion about takes lists them)"
            )
        elif getattr(args, "keep", False):
            say("  nothing kept: no speech heard")
    return 0 if heard else 1


def _hear(audio, text: str, ctx):
    """What ``audio`` (the take at 16 kHz) said, segment by segment
    (companion/core/voice/heard.py); None, with one line on stderr, when the recognizer
    cannot run (the timing still stands)."""

    plan = ctx.content.pitch_plan()
    ids = [(s.id, s.title) for s in plan.segments]
    script = pitch_script(text, plan=plan)
    if not script:  # no segment headings with text: nothing to align to
        missing = tuple(SegmentHeard(i, t, False, None, None, 0, 0.0) for i, t in ids)
        return TakeHeard(missing, 0, "", None)
    try:
        return hear(audio, SAMPLE_RATE, script, ids)
    except RecognizerError as exc:
        say(f"companion: about: not recognized: {exc}", err=True)
        return None


def _heard_json(heard_take, ctx) -> dict:
    if heard_take is None:
        ids = [s.id for s in ctx.content.pitch_plan().segments]
        return {"segments": [], "skipped": ids, "fillers": 0, "transcript": ""}
    return {
        "segments": [s.as_json() for s in heard_take.segments],
        "skipped": heard_take.skipped,
        "fillers": heard_take.fillers,
        "evidence_spoke_number": heard_take.evidence_number,
        "order": [
            {"id": i, "start": round(a, 2), "end": round(b, 2)} for i, a, b in heard_take.order
        ],
        "repeated": heard_take.repeated,
        "out_of_order": heard_take.out_of_order,
        "off_script": [o.as_json() for o in heard_take.off_script],
        "transcript": heard_take.transcript,
    }


def _print_heard(heard_take, judged: bool = True) -> None:
    say("  segments heard:")
    for seg in heard_take.segments:
        if not seg.heard:
            say(f"    {seg.title}: skipped")
            continue
        rate = f", {seg.wpm:.0f} wpm" if seg.wpm is not None and judged else ""
        say(
            f"    {seg.title}: {seg.start:.1f}-{seg.end:.1f} s, {seg.words_heard} words heard{rate}"
        )
    if heard_take.order:
        titles = {s.id: s.title for s in heard_take.segments}
        say(
            "  in the order spoken: "
            + ", ".join(titles.get(i, i) for i, _a, _b in heard_take.order)
        )
    for seg_id in heard_take.out_of_order:
        say(f"  {titles.get(seg_id, seg_id)}: said before a segment the script puts first")
    for seg_id in heard_take.repeated:
        say(f"  {titles.get(seg_id, seg_id)}: said more than once")
    for stretch in heard_take.off_script:
        say(
            f"  off the script {stretch.start:.1f}-{stretch.end:.1f} s: {stretch.as_json()['words']}"
        )
    if heard_take.evidence_number is False:
        say("  the evidence segment spoke no number")
    if judged:
        say(f"  fillers (um, uh): {heard_take.fillers}")
    say(f"  heard: {heard_take.transcript}")
