"""The hearing corpus for benchmarks/bench_voice.py (``--corpus``): takes with a known
truth, each converted to 16 kHz with sox's random dither several times (``--draws``),
against `about rehearse`'s hearing (companion/core/voice/heard.py).

Cases (espeak-ng, voice_takes.PITCH): the pitch in order at 160 wpm clean, 20, 10 and
5 dB white noise; "Current depth" left out at 20 and 10 dB; 130 and 190 wpm; two
segments swapped; one repeated; another person's text off the script at the start and in
the middle; a take of another text altogether. Real speech: a three-segment "pitch" of a
real person's voice glued with sox from the asterisk-core-sounds-en-wav prompts
(en_US_f_Allison, 8 kHz), read in order, with a segment left out, and against the
espeak pitch's script (another text). The prompts' words are written here by ear.

Figures: the heard/skipped confusion table over every segment of every draw (5 dB
takes apart: they are "too noisy to judge" and counted on their own), another text's
segments heard, boundary error, take wpm against the words said over the speech's
speaking time (a take mostly off the script gives no rate: listed as not judged), WER of the transcript, and CPU per second of audio.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import time
import wave
from array import array
from pathlib import Path

import voice_takes as vt

ALLISON = Path("/usr/share/asterisk/sounds/en_US_f_Allison")
HUMAN = (  # (id, title, [(prompt file, its words)])
    ("identity", "Who I am", [("hello-world", "hello world"),
                              ("something-terribly-wrong", "something is terribly wrong"),
                              ("tt-weasels", "weasels have eaten our phone system")]),
    ("evidence", "Strongest evidence", [("all-circuits-busy-now", "all circuits are busy now"),
                                        ("please-try-call-later", "please try your call again later")]),
    ("hand-back", "Hand back", [("pls-hold-while-try", "please hold while i try that extension"),
                                ("goodbye", "goodbye")]),
)  # fmt: skip
GAP = 0.8
VOICES = ("en-us+f3", "en-gb-scotland")  # espeak-ng's voices besides its default


def _run(*cmd):
    subprocess.run(cmd, capture_output=True, timeout=120, check=True)


def _draw(src: Path, out: Path) -> Path:
    """16 kHz 16-bit mono, with sox's dither drawn at random (no -R)."""
    _run("sox", str(src), "-r", "16000", "-b", "16", "-c", "1", str(out))
    return out


def redraw(path: Path, n: int) -> Path:
    """Draw ``n`` of a take: its own file, converted with a dither of its own."""
    return _draw(path, path.with_name(f"{path.stem}-d{n}.wav"))


def seeded_draw(path: Path, seed: int) -> Path:
    """A draw of a take that can be made again: converted to 16 kHz without dither (as
    floats), then TPDF dither of one bit drawn from ``random.Random(seed)``, as sox's."""
    raw = path.with_name(f"{path.stem}-f32.raw")
    _run("sox", str(path), "-r", "16000", "-c", "1", "-e", "floating-point", "-b", "32",
         "-t", "raw", str(raw))  # fmt: skip
    floats = array("f")
    floats.frombytes(raw.read_bytes())
    noise = random.Random(seed).random
    samples = array(
        "h", (max(-32768, min(32767, round(x * 32768 + noise() - noise()))) for x in floats)
    )
    out = path.with_name(f"{path.stem}-s{seed}.wav")
    with wave.open(str(out), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(samples.tobytes())
    return out


def _human_take(folder: Path, segments) -> vt.BuiltTake:
    folder.mkdir(parents=True, exist_ok=True)
    parts, truth, at, words = [], [], 0.0, 0
    lead = vt.silence(0.5, folder / "h-lead.wav")
    for n, (_id, _t, prompts) in enumerate(segments):
        seg = folder / f"h-seg{n}.wav"
        pieces = []
        for k, (name, text) in enumerate(prompts):
            p = folder / f"h-{n}-{k}.wav"
            _run("sox", str(ALLISON / f"{name}.wav"), "-r", str(vt.RATE), "-b", "16", str(p))
            pieces.append(str(p))
            pieces.append(str(vt.silence(0.3, folder / f"h-gap{n}-{k}.wav")))
            words += len(text.split())
        _run("sox", *pieces[:-1], str(seg))
        start, end = vt.sound_bounds(seg)
        parts += [seg, vt.silence(GAP, folder / f"h-sep{n}.wav")]
        truth.append((0.5 + at + start, 0.5 + at + end))
        at += vt.duration(seg) + GAP
    out = folder / "human.wav"
    _run("sox", str(lead), *map(str, parts), str(out))
    return vt.BuiltTake(out, tuple(truth), words, vt.duration(out), 0.1)


def _wer(ref: list[str], hyp: list[str]) -> tuple[int, int]:
    d = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, d[0] = d[0], i
        for j, h in enumerate(hyp, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (r != h))
    return d[len(hyp)], len(ref)


def _hear(path: Path, page: str):
    from companion.core.content.plans import FALLBACK_PITCH
    from companion.core.voice.heard import hear
    from companion.core.voice.script import pitch_script
    from companion.core.voice.take import read_wav

    take = read_wav(path)
    script = pitch_script(page, plan=FALLBACK_PITCH)
    ids = [(s.id, s.title) for s in FALLBACK_PITCH.segments if s.id in {x.id for x in script}]
    started = time.process_time()
    result = hear(take.samples, take.sample_rate, script, ids)
    return result, time.process_time() - started, take.seconds


def cases(folder: Path):
    """(name, take, truth ids in order spoken, page, said text, judged?) of every case."""
    from companion.core.voice.script import spoken_words

    P = {p[0]: p for p in vt.PITCH}
    off = ("x", "x", vt.OTHER_TEXT.split(". ")[1] + ".")
    page = vt.pitch_page()
    layout = __import__("voice_hearing").layout
    espeak = {
        "full": list(vt.PITCH),
        "skip": [p for p in vt.PITCH if p[0] != "depth"],
        "swap": [P["identity"], P["depth"], P["evidence"], P["why-role"], P["hand-back"]],
        "repeat": [P["identity"], P["evidence"], P["evidence"], *vt.PITCH[2:]],
        "offstart": [off, *vt.PITCH],
        "offmid": [*vt.PITCH[:2], off, *vt.PITCH[2:]],
        "other": [("x", "x", vt.OTHER_TEXT)],
        "paraphrase": list(vt.PARAPHRASE),
    }
    plan = [(n, 160, 20.0, None) for n in espeak]
    plan += [("full", 160, None, None), ("full", 160, 10.0, None), ("full", 160, 5.0, None),
             ("skip", 160, 10.0, None), ("full", 130, 20.0, None), ("full", 190, 20.0, None),
             ("paraphrase", 160, 10.0, None)]  # fmt: skip
    plan += [(n, 160, 20.0, v) for v in VOICES for n in ("full", "paraphrase")]
    for name, wpm, snr, voice in plan:
        pitch = espeak[name]
        take = vt.build(folder, f"c-{name}-{wpm}-{snr}-{voice}", wpm, layout(pitch),
                        snr_db=snr, voice=voice)  # fmt: skip
        said = [w for p in pitch for w in spoken_words(p[2])]
        yield (f"{name} {wpm} wpm {'clean' if snr is None else f'{snr:g} dB'}"
               f"{f' {voice}' if voice else ''}", take,
               [p[0] for p in pitch], page, said, snr != 5.0)  # fmt: skip
    if ALLISON.is_dir():
        human_page = vt.pitch_page(
            [(i, t, ". ".join(x for _f, x in ps) + ".") for i, t, ps in HUMAN]
        )
        for name, segs, pg in (("human", HUMAN, human_page), ("human skip", HUMAN[::2], human_page),
                               ("human vs espeak script", HUMAN, page)):  # fmt: skip
            take = _human_take(folder / name.replace(" ", "-"), segs)
            ids = [s[0] for s in segs] if pg is human_page else ["x"] * len(segs)
            said = [w for s in segs for _f, x in s[2] for w in spoken_words(x)]
            yield name, take, ids, pg, said, True


def off_stretches(ids, truth) -> list[tuple[float, float]]:
    """The truth's off-script stretches: consecutive segments not in the script, as one."""
    out: list[tuple[float, float]] = []
    last = None
    for n, (seg_id, (start, end)) in enumerate(zip(ids, truth)):
        if seg_id == "x":
            if last == n - 1:
                out[-1] = (out[-1][0], end)
            else:
                out.append((start, end))
            last = n
    return out


def boundary_error(result, ids, truth) -> float:
    """The worst edge error of the take: each segment said once against its heard start
    and end; each off-script stretch against the reported ones that overlap it, first
    start to last end (9.9 s when none does)."""
    by_id = {s.id: s for s in result.segments}
    edge = 0.0
    for seg_id, (start, end) in zip(ids, truth):
        if seg_id == "x" or ids.count(seg_id) > 1 or seg_id not in by_id:
            continue
        s = by_id[seg_id]
        if s.heard:
            edge = max(edge, abs(s.start - start), abs(s.end - end))
    for start, end in off_stretches(ids, truth):
        over = [o for o in result.off_script if min(o.end, end) > max(o.start, start)]
        if not over:
            edge = max(edge, 9.9)
        else:
            edge = max(edge, abs(over[0].start - start), abs(over[-1].end - end))
    return edge


def run(folder: Path, draws: int) -> tuple[list[str], dict]:
    """The table's lines and the summary figures."""
    lines, conf = [], {"said/heard": 0, "said/skipped": 0, "unsaid/heard": 0, "unsaid/skipped": 0}
    noisy = dict.fromkeys(conf, 0)
    worst_edge, edges, wpm_errs, wer_e, wer_n, cpu, audio, other_heard = (
        0.0,
        [],
        [],
        0,
        0,
        0.0,
        0.0,
        0,
    )
    unjudged: list[str] = []
    human = 0
    for name, take, ids, page, said, judged in cases(folder):
        human += name.startswith("human")
        answers, case_wpm, case_edge = set(), 0.0, 0.0
        for d in range(draws):
            path = redraw(take.path, d)
            result, secs, length = _hear(path, page)
            cpu, audio = cpu + secs, audio + length
            heard = {s.id for s in result.segments if s.heard}
            answers.add(tuple(sorted(heard)))
            table = conf if judged else noisy
            for seg in result.segments:
                key = ("said" if seg.id in ids else "unsaid") + (
                    "/heard" if seg.heard else "/skipped"
                )
                table[key] += 1
            if set(ids) == {"x"}:
                other_heard += len(heard)
            edge = boundary_error(result, ids, take.truth)
            edges.append(edge)
            case_edge = max(case_edge, edge)
            if judged:
                worst_edge = max(worst_edge, edge)
            from companion.core.voice.take import analyse, read_wav

            speaking = analyse(read_wav(path)).speaking_seconds
            if judged and speaking and result.words_said and not result.rate_judged:
                unjudged.append(f"{name} ({100 * result.off_script_share:.0f} % off the script)")
                case_wpm = None
            elif judged and speaking and result.words_said:
                truth_wpm = len(said) * 60 / speaking
                wpm_errs.append(abs(result.words_said * 60 / speaking - truth_wpm) / truth_wpm)
                case_wpm = max(case_wpm or 0.0, wpm_errs[-1])
            e, n = _wer(said, [w for w in result.transcript.split() if w not in ("um", "uh")])
            wer_e, wer_n = wer_e + e, wer_n + n
        lines.append(f"{name:<28} draws {draws}: heard {sorted(answers)[0] if len(answers) == 1 else sorted(answers)}"
                     f"{'' if len(answers) == 1 else '  UNSTABLE'}; edge {case_edge:.2f} s; "
                     f"take wpm {'not judged' if case_wpm is None else f'{100 * case_wpm:.1f}%'}")  # fmt: skip
        print(lines[-1], flush=True)
    return lines, {
        "confusion": conf,
        "confusion_5db": noisy,
        "other_text_heard": other_heard,
        "worst_boundary_s": worst_edge,
        "median_boundary_s": statistics.median(edges) if edges else None,
        "worst_take_wpm_error_pct": 100 * max(wpm_errs) if wpm_errs else None,
        "median_take_wpm_error_pct": 100 * statistics.median(wpm_errs) if wpm_errs else None,
        "take_wpm_not_judged": unjudged,  # mostly off the script (heard.RATE_OFF_SCRIPT)
        "wer_pct": 100 * wer_e / wer_n if wer_n else None,
        "cpu_pct_of_core": 100 * cpu / audio if audio else None,
        "human_takes": human,  # 0 when asterisk-core-sounds-en-wav is not installed
    }


if __name__ == "__main__":
    import argparse
    import json
    import sys
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lines, figures = run(Path(tmp), args.draws)
    print(json.dumps(figures, indent=2))


def follow_wrong(folder: Path, draws: int) -> tuple[float, list[str]]:
    """The live path (PitchFollow, 0.1 s chunks) on the in-order, swap, skip, paraphrase
    and off-script-middle takes at 20 dB and the in-order take at 10 dB, each dither draw:
    the longest stretch the card named a segment that is neither the one being spoken nor
    the script's one just before it (a lag is not a wrong name), and the worst delay in naming a
    segment after its first sound (a segment never named counts as the whole take)."""
    from companion.core.content.plans import FALLBACK_PITCH
    from companion.core.voice.follow import PitchFollow
    from companion.core.voice.script import pitch_script
    from companion.core.voice.take import read_wav

    layout = __import__("voice_hearing").layout
    P = {p[0]: p for p in vt.PITCH}
    off = ("x", "x", vt.OTHER_TEXT.split(". ")[1] + ".")
    takes = {
        "full": (list(vt.PITCH), 20.0),
        "swap": ([P["identity"], P["depth"], P["evidence"], P["why-role"], P["hand-back"]], 20.0),
        "skip": ([p for p in vt.PITCH if p[0] != "depth"], 20.0),
        "paraphrase": (list(vt.PARAPHRASE), 20.0),
        "offmid": ([*vt.PITCH[:2], off, *vt.PITCH[2:]], 20.0),
        "full 10 dB": (list(vt.PITCH), 10.0),
    }
    script = pitch_script(vt.pitch_page(), plan=FALLBACK_PITCH)
    worst, notes = 0.0, []
    for name, (pitch, snr) in takes.items():
        take = vt.build(folder, f"f-{name.replace(' ', '-')}", 160, layout(pitch), snr_db=snr)
        for d in range(draws):
            audio = read_wav(_draw(take.path, take.path.with_name(f"f-{name}-d{d}.wav")))
            follow = PitchFollow(script, 150.0)
            wrong_since, longest, named = None, 0.0, {}
            for i in range(0, len(audio.samples), 1600):
                view = follow.feed(audio.samples[i : i + 1600])
                now = follow.now
                named.setdefault(view.segment_id, now)
                k = sum(1 for start, _e in take.truth if start <= now)  # segments begun
                # the segment being spoken, or the last one of the script before it (also
                # across an off-script stretch: the card holds it, a lag)
                begun = [p[0] for p in pitch[:k]]
                ok = set(begun[-1:]) | set([i for i in begun[:-1] if i != "x"][-1:])
                if view.segment_id is not None and view.segment_id not in ok:
                    wrong_since = now if wrong_since is None else wrong_since
                    longest = max(longest, now - wrong_since + 0.1)
                else:
                    wrong_since = None
            worst = max(worst, longest)
            late = max(
                named.get(p[0], take.seconds) - t[0]
                for p, t in zip(pitch, take.truth)
                if p[0] != "x"
            )
            notes.append(f"{name} d{d}: {longest:.1f} s (named {late:.1f} s late at worst)")
    return worst, notes
