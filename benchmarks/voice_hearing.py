"""The recognizer's figures for benchmarks/bench_voice.py: what a take said, segment by
segment, against the truth of espeak-ng takes of a five-segment pitch
(voice_takes.PITCH) at 130, 160 and 190 wpm with white noise at 20 dB SNR.

- boundaries: the worst distance between a segment's first/last sound in the clean
  clip and the start/end `companion about rehearse` reports (target 1.5 s);
- skips: a take per rate with "Current depth" left out; it must be reported skipped,
  and nothing else, in every one;
- rate: each heard segment's wpm against its words over its clip's sound time (target
  within 10%, the worst segment of every take);
- fillers: takes with "um" and "uh" spoken as their own clips between phrases; a filler
  found within 0.7 s of a true one is a hit: precision and recall, reported as they are
  (espeak-ng says "um" as /ʌm/; a person's take would be the better test);
- cost: recognizer + aligner + delivery line per second of 16 kHz audio fed in 0.1 s
  chunks (CPU of one core); time to ready and memory are measured on the card.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import voice_takes as vt

RATES = (130, 160, 190)
GAP = 0.8  # seconds between segments
FILLER_WINDOW = 0.7
FILLER_LAYOUT = (
    ["I am an infrastructure engineer with eight years running production systems,",
     "um", "and lately my focus has been serving large models."],
    ["At my last company we served forty thousand requests per second", "uh",
     "and hit a wall on tail latency. I owned the scheduler rewrite.", "um",
     "As a result the slowest requests went from eight hundred milliseconds to one "
     "hundred and twenty."],
    ["Lately I have been deep in batching for inference,", "uh", "for instance a queue "
     "that groups requests by length, which taught me that fairness matters more than "
     "peak throughput."],
    ["Your team owns the serving platform for every model in the company.", "um",
     "That is the problem I have been circling for two years, and I want it to be my "
     "main job."],
    ["That is the short version of my story.", "uh", "Which part would be most useful "
     "for you to go deeper on?"],
)  # fmt: skip


def _row(figure, app, base, unit, target, met, note=""):
    return {
        "figure": figure,
        "app_value": app,
        "baseline_value": base,
        "unit": unit,
        "ratio": (app / base) if (app is not None and base) else None,
        "target": target,
        "met": met,
        **({"note": note} if note else {}),
    }


def _hear(path: Path, pitch=vt.PITCH):
    from companion.core.content.plans import FALLBACK_PITCH
    from companion.core.voice.heard import hear
    from companion.core.voice.script import pitch_script
    from companion.core.voice.take import read_wav

    take = read_wav(path)
    script = pitch_script(vt.pitch_page(pitch), plan=FALLBACK_PITCH)
    return hear(
        take.samples, take.sample_rate, script, [(s.id, s.title) for s in FALLBACK_PITCH.segments]
    )


def layout(pitch) -> list:
    layout: list = [0.5]
    for _id, _title, text in pitch:
        layout += [text, GAP]
    layout[-1] = 0.5
    return layout


def accuracy(folder: Path) -> list[dict]:
    from companion.core.about.spoken import count_words

    worst_edge, worst_rate, detail = 0.0, 0.0, []
    skips_right, skip_takes = 0, 0
    for wpm in RATES:
        for name, pitch in (
            ("full", vt.PITCH),
            ("skip", tuple(p for p in vt.PITCH if p[0] != "depth")),
        ):
            take = vt.build(folder, f"{name}{wpm}", wpm, layout(pitch))
            result = _hear(take.path, pitch)
            by_id = {s.id: s for s in result.segments}
            edge = rate = 0.0
            for (seg_id, _t, text), (start, end) in zip(pitch, take.truth):
                seg = by_id[seg_id]
                if not seg.heard:
                    edge = float("inf")
                    continue
                edge = max(edge, abs(seg.start - start), abs(seg.end - end))
                truth_wpm = count_words(text) * 60.0 / (end - start)
                rate = max(rate, abs((seg.wpm or 0.0) - truth_wpm) / truth_wpm)
            worst_edge, worst_rate = max(worst_edge, edge), max(worst_rate, rate)
            detail.append(f"{name} {wpm}: edges {edge:.2f} s, rate {100 * rate:.1f}%")
            if name == "skip":
                skip_takes += 1
                skips_right += result.skipped == ["depth"]
    note = "; ".join(detail)
    return [
        _row(
            "hearing: worst segment boundary error (130/160/190 wpm, 20 dB SNR)",
            worst_edge,
            None,
            "s",
            "<= 1.5 s",
            worst_edge <= 1.5,
            note=f"6 takes of a 5-segment pitch, full and with 'depth' left out: {note}",
        ),
        _row(
            "hearing: takes with a segment left out that report it (and only it) skipped",
            float(skips_right),
            float(skip_takes),
            "takes",
            "every take",
            skips_right == skip_takes,
        ),
        _row(
            "hearing: worst segment rate error (wpm heard vs words over sound time)",
            100.0 * worst_rate,
            None,
            "%",
            "<= 10%",
            worst_rate <= 0.10,
        ),
    ]


def filler_takes(folder: Path, snr_db: float | None = 20.0):
    """(take, the middle of each true filler) at each rate: "um" and "uh" spoken as
    their own clips between phrases."""
    for wpm in RATES:
        parts: list = [0.5]
        is_filler: list[bool] = []
        for phrases in FILLER_LAYOUT:
            for part in phrases:
                parts += [part, 0.25]
                is_filler.append(part in ("um", "uh"))
            parts[-1] = GAP
        take = vt.build(folder, f"fill{wpm}-{snr_db}", wpm, parts, snr_db=snr_db)
        yield take, [(s + e) / 2 for (s, e), f in zip(take.truth, is_filler) if f]


def filler_figures(folder: Path, draws: int = 1, redraw=None) -> dict:
    """Precision and recall on the filler takes (20 dB, every rate, ``draws`` dither
    draws each through ``redraw(path, n)``), and fillers invented per minute in the
    filler-free pitch, clean and at 10 dB."""
    redraw = redraw or (lambda path, _n: path)
    hits = found = truth = 0
    for take, times in filler_takes(folder):
        for d in range(draws):
            heard = _hear(redraw(take.path, d)).filler_times
            truth += len(times)
            found += len(heard)
            hits += sum(1 for t in times if any(abs(t - h) <= FILLER_WINDOW for h in heard))
    invented = {}
    for snr in (None, 10.0):
        take = vt.build(folder, f"nofill-{snr}", 160, layout(vt.PITCH), snr_db=snr)
        count = sum(_hear(redraw(take.path, d)).fillers for d in range(draws))
        invented[snr] = count * 60.0 / (take.seconds * draws)
    return {
        "precision": hits / found if found else 0.0,
        "recall": hits / truth if truth else 0.0,
        "hits": hits,
        "found": found,
        "truth": truth,
        "invented_per_min_clean": invented[None],
        "invented_per_min_10db": invented[10.0],
    }


def fillers(folder: Path, draws: int = 1, redraw=None) -> list[dict]:
    f = filler_figures(folder, draws, redraw)
    note = (
        f"{f['truth']} fillers in 3 takes x {draws} draws (130/160/190 wpm, 20 dB SNR); "
        f"{f['found']} reported, {f['hits']} of them true; an um/uh counts only between "
        "pauses (core/voice/heard.py)"
    )
    return [
        _row("hearing: fillers, precision", 100 * f["precision"], None, "%", ">= 80%",
             f["precision"] >= 0.8, note),
        _row("hearing: fillers, recall", 100 * f["recall"], None, "%", ">= 80%",
             f["recall"] >= 0.8),
        _row("hearing: fillers invented per minute, filler-free pitch at 10 dB",
             f["invented_per_min_10db"], None, "/min", "<= 1", f["invented_per_min_10db"] <= 1,
             note=f"clean: {f['invented_per_min_clean']:.1f}/min"),
    ]  # fmt: skip


def following(folder: Path) -> list[dict]:
    """The live path (PitchFollow, as the card runs it) on the same takes: how long after
    a segment's first sound the card names it, and that it never names one left out."""
    from companion.core.content.plans import FALLBACK_PITCH
    from companion.core.voice.follow import PitchFollow
    from companion.core.voice.pcm import resample
    from companion.core.voice.script import pitch_script
    from companion.core.voice.take import read_wav

    first_worst, change_worst, wrong, detail = 0.0, 0.0, [], []
    for wpm in RATES:
        for name, pitch in (
            ("full", vt.PITCH),
            ("skip", tuple(p for p in vt.PITCH if p[0] != "depth")),
        ):
            take = vt.build(folder, f"{name}{wpm}", wpm, layout(pitch))
            audio = read_wav(take.path)
            samples = resample(audio.samples, audio.sample_rate)
            follow = PitchFollow(pitch_script(vt.pitch_page(pitch), plan=FALLBACK_PITCH), 150.0)
            named: dict[str, float] = {}
            order: list[str] = []
            for i in range(0, len(samples), 1600):
                view = follow.feed(samples[i : i + 1600])
                if view.segment_id and view.segment_id not in named:
                    named[view.segment_id] = follow.now
                    order.append(view.segment_id)
            if order != [p[0] for p in pitch]:
                wrong.append(f"{name} {wpm}: {order}")
            delays = [named.get(p[0], float("inf")) - t[0] for p, t in zip(pitch, take.truth)]
            first_worst = max(first_worst, delays[0])
            change_worst = max(change_worst, *delays[1:])
            detail.append(f"{name} {wpm}: first {delays[0]:.1f} s, changes {max(delays[1:]):.1f} s")
    note = "live decoding in 0.1 s chunks, same 6 takes; " + "; ".join(detail)
    note += (
        f"; WRONG ORDER: {wrong}"
        if wrong
        else "; every take in order, 'depth' never named when left out"
    )
    return [
        _row(
            "hearing: card moves to the next segment, worst delay after its first sound",
            change_worst,
            None,
            "s",
            "<= 1.5 s (as the boundaries)",
            change_worst <= 1.5 and not wrong,
            note=note,
        ),
        _row(
            "hearing: card names the first segment, worst delay after the first sound",
            first_worst,
            None,
            "s",
            "reported",
            None,
            note="the recognizer starts cold (its cepstral mean adapts over the first words); "
            "on the card it has heard the small talk before the pitch",
        ),
    ]


def recognition_cost(folder: Path) -> tuple[float, float]:
    """(percent of one core, seconds of audio) for following a take in 0.1 s chunks."""
    from companion.core.content.plans import FALLBACK_PITCH
    from companion.core.voice.follow import PitchFollow
    from companion.core.voice.pcm import resample
    from companion.core.voice.script import pitch_script
    from companion.core.voice.take import read_wav

    take = vt.build(folder, "follow-cost", 160, layout(vt.PITCH))
    audio = read_wav(take.path)
    samples = resample(audio.samples, audio.sample_rate)
    script = pitch_script(vt.pitch_page(), plan=FALLBACK_PITCH)
    chunks = [samples[i : i + 1600] for i in range(0, len(samples), 1600)]
    costs = []
    for _ in range(3):
        follow = PitchFollow(script, 150.0)
        started = time.process_time()
        for chunk in chunks:
            follow.feed(chunk)
        costs.append(time.process_time() - started)
    seconds = len(samples) / 16000
    return 100.0 * statistics.median(costs) / seconds, seconds
