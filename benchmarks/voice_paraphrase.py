"""Paraphrase figures (issue 65): the pitch told in other words against the script, each
take built once (espeak-ng, white noise without ``sox -R``) and heard in several dither
draws (voice_corpus.redraw, sox's random dither).

Cases: voice_takes.PARAPHRASE (a few key words kept) and voice_takes.RETOLD (few key
words: a hand-back in other words, the evidence's figures in other sentences) at 160 wpm,
20 and 10 dB, and in espeak-ng's en-us+f3 voice; RETOLD with "Current depth" left out
(the skip must be caught); another text (no segment may be heard); the script itself
(every segment heard). Figures: segments said in other words that were heard, hand-backs
heard, skips caught, another text's segments heard, CPU seconds of `hear` per audio second.
``--naming``: how late the card names the segment after a skip or a swap instead;
``--fillers``: filler recall run in and isolated, and fillers invented a minute
(``--more``: in other voices, noise and rates too).

Run it against another checkout (last round's method, side by side) by putting that
checkout first on the path: ``PYTHONPATH=/path/to/old python benchmarks/voice_paraphrase.py``.
"""

from __future__ import annotations

import time
from pathlib import Path

import voice_takes as vt


def cases():
    """(name, pitch as spoken, snr, voice)."""
    retold_skip = [p for p in vt.RETOLD if p[0] != "depth"]
    other = [("x", "x", vt.OTHER_TEXT)]
    return [
        ("paraphrase 20 dB", list(vt.PARAPHRASE), 20.0, None),
        ("paraphrase 10 dB", list(vt.PARAPHRASE), 10.0, None),
        ("paraphrase f3", list(vt.PARAPHRASE), 20.0, "en-us+f3"),
        ("retold 20 dB", list(vt.RETOLD), 20.0, None),
        ("retold 10 dB", list(vt.RETOLD), 10.0, None),
        ("retold f3", list(vt.RETOLD), 20.0, "en-us+f3"),
        ("retold skip", retold_skip, 20.0, None),
        ("other 20 dB", other, 20.0, None),
        ("other 10 dB", other, 10.0, None),
        ("script 20 dB", list(vt.PITCH), 20.0, None),
    ]


def run(folder: Path, draws: int) -> dict:
    import voice_corpus as vc
    from voice_hearing import layout

    told = told_heard = hand = hand_heard = skips = caught = other = 0
    script_said = script_heard = 0
    cpu = audio = 0.0
    lines = []
    page = vt.pitch_page()
    for name, pitch, snr, voice in cases():
        take = vt.build(folder, name.replace(" ", "-"), 160, layout(pitch), snr_db=snr, voice=voice)
        said = {p[0] for p in pitch}
        answers = []
        for d in range(draws):
            started = time.process_time()
            result, _secs, seconds = vc._hear(vc.redraw(take.path, d), page)
            cpu, audio = cpu + time.process_time() - started, audio + seconds
            heard = {s.id for s in result.segments if s.heard}
            answers.append(" ".join(sorted(heard)) or "-")
            if name.startswith("other"):
                other += len(heard)
            elif name.startswith("script"):
                script_said, script_heard = script_said + len(said), script_heard + len(heard)
            else:
                told, told_heard = told + len(said), told_heard + len(said & heard)
                hand, hand_heard = hand + 1, hand_heard + ("hand-back" in heard)
                if "depth" not in said:
                    skips, caught = skips + 1, caught + ("depth" not in heard)
        lines.append(f"{name:<18} {' | '.join(answers)}")
        print(lines[-1], flush=True)
    return {
        "told_heard": f"{told_heard} of {told}",
        "hand_backs_heard": f"{hand_heard} of {hand}",
        "skips_caught": f"{caught} of {skips}",
        "other_text_segments_heard": other,
        "script_segments_heard": f"{script_heard} of {script_said}",
        "hear_cpu_s_per_audio_s": round(cpu / audio, 3) if audio else None,
    }


def naming(folder: Path, draws: int) -> dict:
    """The live follower (PitchFollow, 0.1 s chunks) on takes with a skip and a swap at
    20 dB, and the swap in two other voices, at 10 dB and at 130 and 190 wpm: how long
    after its first sound the card names each segment that follows a skip or a swap (the
    segment the card must jump to), worst over the dither draws."""
    import voice_corpus as vc
    from voice_hearing import layout

    from companion.core.content.plans import FALLBACK_PITCH
    from companion.core.voice.follow import PitchFollow
    from companion.core.voice.script import pitch_script
    from companion.core.voice.take import read_wav

    P = {p[0]: p for p in vt.PITCH}
    skip = [p for p in vt.PITCH if p[0] != "depth"]
    swap = [P["identity"], P["depth"], P["evidence"], *vt.PITCH[3:]]
    takes = {  # the take, the segments it must jump to, wpm, snr, voice
        "skip": (skip, ["why-role"], 160, 20.0, None),
        "swap": (swap, ["depth", "evidence"], 160, 20.0, None),
        # the swap as other people say it (the two above are what the target is read on)
        "swap f3": (swap, ["depth", "evidence"], 160, 20.0, "en-us+f3"),
        "swap m3": (swap, ["depth", "evidence"], 160, 20.0, "en-us+m3"),
        "swap 10 dB": (swap, ["depth", "evidence"], 160, 10.0, None),
        "swap 130 wpm": (swap, ["depth", "evidence"], 130, 20.0, None),
        "swap 190 wpm": (swap, ["depth", "evidence"], 190, 20.0, None),
    }
    script = pitch_script(vt.pitch_page(), plan=FALLBACK_PITCH)
    out = {}
    for name, (pitch, jumps, wpm, snr, voice) in takes.items():
        label = f"n-{name.replace(' ', '-')}"
        take = vt.build(folder, label, wpm, layout(pitch), snr_db=snr, voice=voice)
        starts = {p[0]: t[0] for p, t in zip(pitch, take.truth)}
        late = dict.fromkeys(jumps, 0.0)
        for d in range(draws):
            audio = read_wav(vc.redraw(take.path, d))
            follow, named = PitchFollow(script, 150.0), {}
            for i in range(0, len(audio.samples), 1600):
                view = follow.feed(audio.samples[i : i + 1600])
                if view.segment_id and follow.now >= starts.get(view.segment_id, 0.0):
                    named.setdefault(view.segment_id, follow.now)
            for seg in jumps:
                late[seg] = max(late[seg], named.get(seg, take.seconds) - starts[seg])
        out[name] = {seg: round(v, 1) for seg, v in late.items()}
    return out


def filler_takes(folder: Path, run_in: bool, wpm=160, snr_db=20.0, voice=None, tag=""):
    """(take, the middle of each true filler) at ``wpm`` and ``snr_db`` in espeak-ng's
    ``voice``: voice_hearing's filler layout, each "um" and "uh" its own clip between
    phrases with 0.25 s pauses, or (``run_in``) every part of a segment cut to its sound and
    run into the next."""
    from voice_hearing import FILLER_LAYOUT, GAP

    parts: list = [0.5]
    is_filler: list[bool] = []
    for phrases in FILLER_LAYOUT:
        for part in phrases:
            parts += [(part,)] if run_in else [part, 0.25]
            is_filler.append(part in ("um", "uh"))
        if run_in:
            parts.append(GAP)
        else:
            parts[-1] = GAP
    name = f"fill-{'run' if run_in else 'iso'}{tag}"
    take = vt.build(folder, name, wpm, parts, snr_db=snr_db, voice=voice)
    return take, [(a + b) / 2 for (a, b), f in zip(take.truth, is_filler) if f]


# (tag, wpm, snr_db, voice) of the --fillers --more takes: the run-in take and the
# filler-free ones in other conditions, where the margins of heard.py's rules are thin
MORE = (("10dB", 160, 10.0, None), ("f3", 160, 20.0, "en-us+f3"),
        ("m3-140wpm", 140, 20.0, "en-us+m3"), ("190wpm", 190, 20.0, None))  # fmt: skip


def _invented_real_voice(folder: Path, draws: int) -> float | str:
    """Fillers a minute on voice_corpus's takes of a real voice (the asterisk prompts,
    which say no um or uh): read against their own page, with a segment left out, and
    against the espeak pitch's script; or why there are none."""
    import voice_corpus as vc

    if not vc.ALLISON.is_dir():
        return "not measured: apt install asterisk-core-sounds-en-wav"
    own = vt.pitch_page([(i, t, ". ".join(x for _f, x in ps) + ".") for i, t, ps in vc.HUMAN])
    count = minutes = 0.0
    for name, segs, page in (("own", vc.HUMAN, own), ("skip", vc.HUMAN[::2], own),
                             ("other", vc.HUMAN, vt.pitch_page())):  # fmt: skip
        take = vc._human_take(folder / f"real-{name}", segs)
        for d in range(draws):
            result, _cpu, seconds = vc._hear(vc.redraw(take.path, d), page)
            count, minutes = count + result.fillers, minutes + seconds / 60
    return round(count / minutes, 2)


def fillers(folder: Path, draws: int, more: bool = False) -> dict:
    """Filler recall run in and isolated (a hit: within voice_hearing.FILLER_WINDOW of a
    true one), and fillers invented a minute on filler-free takes: paraphrased, retold,
    off the script (another text) and the script, at 20 dB, and a real voice (the
    asterisk prompts, where installed). ``more``: also the run-in
    recall and the invented fillers (paraphrased, retold, another text) in MORE's
    conditions (the filler-free ones at 10 dB and in en-us+f3 only)."""
    import voice_corpus as vc
    from voice_hearing import FILLER_WINDOW, layout

    def recall(take, times):
        hits = found = 0
        for d in range(draws):
            result, _s, _l = vc._hear(vc.redraw(take.path, d), vt.pitch_page())
            heard = result.filler_times
            found += len(heard)
            hits += sum(1 for t in times if any(abs(t - h) <= FILLER_WINDOW for h in heard))
        return f"{hits} of {len(times) * draws}", found

    def invented(take):
        count = sum(
            vc._hear(vc.redraw(take.path, d), vt.pitch_page())[0].fillers for d in range(draws)
        )
        return round(count * 60.0 / (take.seconds * draws), 2)

    out: dict = {}
    for run_in in (False, True):
        kind = "run_in" if run_in else "isolated"
        out[f"{kind}_recall"], out[f"{kind}_reported"] = recall(*filler_takes(folder, run_in))
    free = {"paraphrase": vt.PARAPHRASE, "retold": vt.RETOLD, "script": vt.PITCH,
            "other": [("x", "x", vt.OTHER_TEXT)]}  # fmt: skip
    for name, pitch in free.items():
        take = vt.build(folder, f"free-{name}", 160, layout(list(pitch)))
        out[f"invented_per_min_{name}"] = invented(take)
    out["invented_per_min_real_voice"] = _invented_real_voice(folder, draws)
    if not more:
        return out
    for tag, wpm, snr, voice in MORE:
        takes = filler_takes(folder, True, wpm, snr, voice, f"-{tag}")
        out[f"run_in_recall_{tag}"], out[f"run_in_reported_{tag}"] = recall(*takes)
    for tag, wpm, snr, voice in MORE[:2]:
        for name in ("paraphrase", "retold", "other"):
            pitch = layout(list(free[name]))
            take = vt.build(folder, f"free-{name}-{tag}", wpm, pitch, snr_db=snr, voice=voice)
            out[f"invented_per_min_{name}_{tag}"] = invented(take)
    return out


if __name__ == "__main__":
    import argparse
    import json
    import sys
    import tempfile

    sys.path.insert(1, str(Path(__file__).resolve().parent))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=3)
    parser.add_argument("--naming", action="store_true", help="the card's naming delays only")
    parser.add_argument("--fillers", action="store_true", help="the filler figures only")
    parser.add_argument(
        "--more", action="store_true", help="with --fillers: other voices, noise and rates too"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.fillers:
            print(json.dumps(fillers(Path(tmp), args.draws, args.more), indent=2))
        else:
            work = naming if args.naming else run
            print(json.dumps(work(Path(tmp), args.draws), indent=2))
