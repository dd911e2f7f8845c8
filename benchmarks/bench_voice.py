"""Voice benchmark: the voice-activity detector's accuracy on spoken takes and the CPU
cost of listening.

Takes are made with espeak-ng at 120, 160 and 200 words per minute, with silences
inserted by sox and white noise mixed in at 20 dB SNR (benchmarks/voice_takes.py); the
truth is each clean clip's first and last sound. Figures:

- boundaries: the worst distance between a clip's first/last sound and the nearest
  detected speech start/end (target 150 ms);
- rate: words per minute of speech measured from the take (``measured_wpm``, gaps under
  0.5 s count as speaking) against the rate espeak really spoke at, its words over the
  clips' sound time (target within 15%). espeak's ``-s`` is approximate: the delivered
  rate is given in the note beside the nominal one;
- the 20-second nudge: when a 22 s silence was first reported as 20 s long, after the
  speech really stopped (target 20 +- 0.5 s), with the audio fed in 20 ms chunks;
- pure noise at four levels: seconds reported as speech (target 0);
- the cost of listening: process CPU time of the detector and level meter per second of
  16 kHz audio in 20 ms chunks, as a percentage of one core (target 2%);
- the same on the cue card, whole process: a card with a running round and the silence
  nudge listening (a real QAudioSource on a private PulseAudio's virtual microphone that
  hears speech played in real time) against the same card with the nudge off, in
  alternating child processes; the difference is the cost of listening (target 2% of a
  core). Without pulseaudio the row says why and has no target.

The recognizer's figures (benchmarks/voice_hearing.py; five-segment pitch takes at
130, 160 and 190 wpm, 20 dB SNR): worst segment boundary error of `about rehearse`
(target 1.5 s), a left-out segment reported skipped in every take, the worst segment
rate error (10%), the card's delay in naming the segment spoken, fillers precision and
recall (reported), following's CPU per second of audio, and on the card (real
PulseAudio, the pitch played into the virtual mic) following vs the idle card: CPU
(adds <= 10% of a core), resident memory (<= +20 MiB; the note says which part grew
by how much, benchmarks/memory_parts.py), Start to recognizer ready (1 s).

`about rehearse`, the whole command on a 50 s pitch take, peak resident memory and CPU
per second of audio (each child's own peak and CPU, ``child_usage``, median of 3): the
take at 22.05 kHz (espeak's rate) and at 44.1 kHz (a recorder's), the one-pager given as
a file (``--input``) and the saved one (which opens the journal read-only and reads it
through the bare connection).
Targets: <= 40 MiB and <= 0.1 CPU s per audio s.

The hearing corpus (benchmarks/voice_corpus.py, ``--corpus-draws N``, default 0: off):
every case built once and converted with sox's random dither N times; the confusion
table, another text's segments heard, boundaries, take wpm, WER, CPU, and the live
follower's longest wrong name (``--corpus-only`` runs nothing else).

Usage: ``python benchmarks/bench_voice.py [--pairs N] [--seconds S] [--corpus-draws N]
[--rehearse-only]``. Needs espeak-ng
and sox; the card figure also needs pulseaudio and pulseaudio-utils.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import child_usage  # noqa: E402
import memory_parts  # noqa: E402
import pulse_server  # noqa: E402
import voice_takes as vt  # noqa: E402
from verdict import verdict  # noqa: E402

RATES = (120, 160, 200)
CPU_TARGET_PERCENT = 2.0
FOLLOW_CPU_TARGET = 10.0  # voice-following on the card, over the idle card
FOLLOW_MIB_TARGET = 20  # issue 65: following adds at most 20 MiB (was 60, an older round's goal)


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


def _boundary_error(take, spans) -> float:
    starts = [s.start for s in spans]
    ends = [s.end for s in spans]
    worst = 0.0
    for start, end in take.truth:
        worst = max(worst, min(abs(t - start) for t in starts), min(abs(t - end) for t in ends))
    return worst


def _listening_cost(folder: Path) -> tuple[float, float]:
    """(percent of one core, seconds of audio) for the detector + level meter at 16 kHz."""
    from companion.core.voice.levels import LevelMeter
    from companion.core.voice.take import read_wav
    from companion.core.voice.vad import VoiceActivityDetector

    take = vt.build(folder, "cost", 160, [*vt.PARAGRAPHS, 5.0, *vt.PARAGRAPHS])
    resampled = folder / "cost-16k.wav"
    vt._run("sox", str(take.path), "-r", "16000", str(resampled))
    audio = read_wav(resampled)
    step = audio.sample_rate // 50
    chunks = [audio.samples[i : i + step] for i in range(0, len(audio.samples), step)]
    costs = []
    for _ in range(5):
        vad = VoiceActivityDetector(audio.sample_rate)
        meter = LevelMeter()
        started = time.process_time()
        for chunk in chunks:
            vad.feed(chunk)
            meter.feed(chunk)
        costs.append(time.process_time() - started)
    return 100.0 * statistics.median(costs) / audio.seconds, audio.seconds


def _rss_mib() -> float:
    """This process's resident memory now, MiB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _card_child(mode: str, seconds: float) -> None:
    """In a child process: a cue card with a running coding round, listening or not;
    prints the process CPU seconds over ``seconds`` after a warm-up, as JSON."""
    import resource

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from companion.core.context import AppContext
    from companion.core.voice import nudge as rules
    from companion.ui.bus import AppBus
    from companion.ui.cue.window import CueCardWindow

    app = QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory(prefix="bench-voice-card-") as tmp:
        ctx = AppContext(Path(tmp))
        rules.set_opted_in(ctx.settings, "coding", mode == "listen")
        from companion.ui.session import Session

        bus = AppBus()
        session = Session(ctx, bus)  # the day service the card follows, as the app makes it
        if mode in ("follow", "follow-idle"):
            import datetime as dt

            from companion.core.about.store import save_text

            save_text(ctx.db, vt.pitch_page(), dt.datetime.now())
            ctx.settings.set("voice.follow_pitch", mode == "follow")
        card = CueCardWindow(ctx, bus, session.day)
        card.set_round("coding")
        card.show_card()
        result: dict = {"rss0": _rss_mib(), "parts0": memory_parts.resident()}
        began = time.perf_counter()
        card.toggle_round()  # the round opens: following (when on) loads the recognizer
        result["open_seconds"] = time.perf_counter() - began
        follower = card.follow.follower
        ready = follower.ready_at if follower is not None else None
        result["ready_seconds"] = None if ready is None else ready - began
        seen = result["seen"] = []
        card.follow.segment_changed.connect(
            lambda seg: seen.append([seg, round(mic().seconds, 2) if mic() else None])
        )

        def mic():
            return card.follow.listener if mode.startswith("follow") else card.voice.listener

        def cpu() -> float:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        def begin() -> None:
            result["cpu0"], result["t0"] = cpu(), time.monotonic()
            listener = mic()
            result["audio0"] = listener.seconds if listener else 0.0
            QTimer.singleShot(int(seconds * 1000), end)

        def end() -> None:
            listener = mic()
            result["cpu"] = cpu() - result.pop("cpu0")
            result["wall"] = time.monotonic() - result.pop("t0")
            result["audio"] = (listener.seconds if listener else 0.0) - result.pop("audio0")
            result["mic_open"] = listener is not None and listener.is_open
            result["rss"] = _rss_mib()
            result["parts"] = memory_parts.resident()
            result["qt_multimedia"] = "PySide6.QtMultimedia" in sys.modules
            view = card.follow.view
            result["segment"] = view.segment_id if view is not None else None
            app.quit()

        QTimer.singleShot(3000, begin)  # the stream starts and the card settles first
        app.exec()
        card.voice.stop()
        card.follow.stop()
        card.close()
        ctx.close()
    print(json.dumps(result))


def _median_growth(outs: list[dict]) -> dict[str, float]:
    """Each memory part's median growth over the children's runs (Start to the end), MiB."""
    grown = [memory_parts.growth(o["parts0"], o["parts"]) for o in outs]
    return {
        p: statistics.median(g.get(p, 0.0) for g in grown) for p in {k for g in grown for k in g}
    }


def _card_cost(folder: Path, pairs: int, seconds: float) -> dict:
    return _card_runs(folder, pairs, seconds, ("idle", "listen"))[0]


def _card_runs(folder: Path, pairs: int, seconds: float, modes: tuple[str, str]) -> list[dict]:
    """Alternating child cards in ``modes`` (baseline first) on a private PulseAudio whose
    microphone hears the pitch played in real time: the CPU row, and for pitch following
    the memory and time-to-ready rows."""
    server = pulse_server.launch(folder / "pulse")
    if isinstance(server, str):
        return [
            _row(
                f"voice: {modes[1]} on the cue card (whole process, real microphone stream)",
                None,
                None,
                "%",
                "-",
                None,
                note=f"card {modes[1]} cost not measured: {server}",
            )
        ]
    base, mode_on = modes
    try:
        if mode_on == "follow":
            import voice_hearing as vh

            layout = vh.layout(vt.PITCH)
        else:
            layout = [*vt.PARAGRAPHS, 3.0, *vt.PARAGRAPHS]
        take = vt.build(folder, f"card-{mode_on}", 160, layout, snr_db=None)
        env = {**os.environ, "PULSE_SERVER": server.address, "QT_QPA_PLATFORM": "offscreen"}
        env.setdefault("QT_LOGGING_RULES", "qt.multimedia.ffmpeg.info=false")
        costs: dict[str, list[float]] = {base: [], mode_on: []}
        outs: dict[str, list[dict]] = {base: [], mode_on: []}
        heard = []
        for _ in range(pairs):
            for mode in modes:
                player = server.play(take.path) if mode == mode_on else None
                done = subprocess.run(
                    [sys.executable, __file__, "--child", mode, "--seconds", str(seconds)],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=seconds + 60,
                )
                if player is not None:
                    player.kill()
                    player.wait(timeout=10)
                if done.returncode != 0:
                    raise RuntimeError(f"card child ({mode}) failed: {done.stderr[-500:]}")
                out = json.loads(done.stdout.strip().splitlines()[-1])
                outs[mode].append(out)
                if mode == mode_on:
                    if not out["mic_open"] or out["audio"] < seconds * 0.8:
                        raise RuntimeError(f"the card did not listen: {out}")
                    heard.append(out["audio"])
                costs[mode].append(100.0 * out["cpu"] / out["wall"])
    finally:
        server.stop()
    listen = statistics.median(costs[mode_on])
    idle = statistics.median(costs[base])
    if mode_on == "listen":
        return [
            _row(
                "voice: cue card listening vs idle, CPU of the process",
                listen,
                idle,
                "%",
                f"listening adds <= {CPU_TARGET_PERCENT:g}% of a core",
                listen - idle <= CPU_TARGET_PERCENT,
                note=(
                    f"cue card, running round, offscreen; {pairs} alternating pairs of "
                    f"{seconds:g} s; listening adds {listen - idle:.2f}% of a core "
                    "(16 kHz from PulseAudio)"
                ),
            )
        ]
    rss_on = statistics.median(o["rss"] for o in outs[mode_on])
    rss_base = statistics.median(o["rss"] for o in outs[base])
    ready_on = statistics.median(o["ready_seconds"] for o in outs[mode_on])
    open_on = statistics.median(o["open_seconds"] for o in outs[mode_on])
    open_base = statistics.median(o["open_seconds"] for o in outs[base])
    segments = sorted({str(o["segment"]) for o in outs[mode_on]})
    multimedia = (
        "QtMultimedia imported"
        if any(o.get("qt_multimedia") for o in outs[mode_on])
        else "no QtMultimedia"
    )
    parts = {mode: _median_growth(outs[mode]) for mode in modes}
    return [
        _row(
            "hearing: cue card following the pitch vs the idle card, CPU of the process",
            listen,
            idle,
            "%",
            f"following adds <= {FOLLOW_CPU_TARGET:g}% of a core",
            listen - idle <= FOLLOW_CPU_TARGET,
            note=(
                f"a running round in its opening minutes, offscreen, the pitch played into "
                f"the virtual mic; {pairs} alternating pairs of {seconds:g} s; following "
                f"adds {listen - idle:.2f}% of a core; segment reached: {', '.join(segments)}"
            ),
        ),
        _row(
            "hearing: memory of the card following vs the idle card (resident)",
            rss_on,
            rss_base,
            "MiB",
            f"<= +{FOLLOW_MIB_TARGET} MiB",
            rss_on - rss_base <= FOLLOW_MIB_TARGET,
            note=(
                f"following adds {rss_on - rss_base:.1f} MiB; by part (MiB, medians): "
                f"{memory_parts.added(parts[mode_on], parts[base])}"
            ),
        ),
        _row(
            "hearing: round opening (Start pressed) to recognizer ready",
            ready_on,
            None,
            "s",
            "<= 1 s",
            ready_on <= 1.0,
            note=(
                "pocketsphinx imported, the pitch's model built; Start pressed to the mic "
                f"open ({multimedia}) {open_on:.2f} s vs {open_base:.2f} s for "
                "Start with following off"
            ),
        ),
    ]


def run(pairs: int = 2, card_seconds: float = 8.0) -> list[dict]:
    reason = vt.missing_tools()
    if reason:
        raise RuntimeError(f"cannot make spoken takes: {reason}")
    from companion.core.voice.take import analyse, read_wav
    from companion.core.voice.vad import VoiceActivityDetector

    rows: list[dict] = []
    p = vt.PARAGRAPHS
    with tempfile.TemporaryDirectory(prefix="bench-voice-") as tmp:
        folder = Path(tmp)
        worst = 0.0
        for wpm in RATES:
            take = vt.build(folder, f"w{wpm}", wpm, [1.0, p[0], 3.0, p[1], 2.5, p[2], 1.0])
            result = analyse(read_wav(take.path), take.words)
            worst = max(worst, _boundary_error(take, result.spans))
            measured, delivered = result.measured_wpm or 0.0, take.delivered_wpm
            rows.append(
                _row(
                    f"voice: rate at espeak -s {wpm}, 20 dB SNR (measured vs delivered)",
                    measured,
                    delivered,
                    "wpm",
                    "within 15%",
                    abs(measured - delivered) <= 0.15 * delivered,
                    note=f"espeak -s {wpm} delivered {delivered:.0f} wpm ({take.words} words)",
                )
            )
        rows.insert(
            0,
            _row(
                "voice: worst speech/silence boundary error (3 rates, 20 dB SNR)",
                worst * 1000,
                None,
                "ms",
                "<= 150 ms",
                worst <= 0.150,
            ),
        )

        take = vt.build(folder, "long", 160, [p[0], 22.0, p[1]])
        audio = read_wav(take.path)
        vad = VoiceActivityDetector(audio.sample_rate)
        step = audio.sample_rate // 50
        noticed = None
        for i in range(0, len(audio.samples), step):
            vad.feed(audio.samples[i : i + step])
            if noticed is None and vad.heard_speech and vad.silence_seconds >= 20:
                noticed = vad.now
        after = (noticed - take.truth[0][1]) if noticed is not None else float("nan")
        rows.append(
            _row(
                "voice: a 22 s silence reported as 20 s, after the last word",
                after,
                20.0,
                "s",
                "20 +- 0.5 s",
                noticed is not None and abs(after - 20.0) <= 0.5,
            )
        )

        heard = 0.0
        for level in (0.001, 0.01, 0.05, 0.2):
            noise = vt.pure_noise(folder, f"noise{level}", 10, level)
            heard += analyse(read_wav(noise)).speaking_seconds
        rows.append(
            _row(
                "voice: speech heard in 40 s of pure noise (-60 to -14 dBFS)",
                heard,
                None,
                "s",
                "0 s",
                heard == 0.0,
            )
        )

        percent, seconds = _listening_cost(folder)
        rows.append(
            _row(
                "voice: listening cost, CPU per second of 16 kHz audio",
                percent,
                None,
                "%",
                f"<= {CPU_TARGET_PERCENT:g}% of a core",
                percent <= CPU_TARGET_PERCENT,
                note=f"detector + level meter over {seconds:.0f} s of audio in 20 ms chunks",
            )
        )
        rows.append(_card_cost(folder, pairs, card_seconds))
        rows += hearing_rows(folder, pairs, card_seconds)
        rows += rehearse_rows(folder)
    return rows


REHEARSE_MIB_TARGET = 40  # issue 65: `about rehearse` peaks at most 40 MiB
REHEARSE_CPU_TARGET = 0.1  # and uses at most 0.1 CPU s per second of audio


def _child_usage(cmd: list[str]) -> tuple[float, float]:
    """(peak resident MiB, CPU s) of the command, its own (``child_usage``)."""
    used = child_usage.run(cmd)
    if used.code not in (0, 1):  # 1: no speech heard, not a failure here
        raise RuntimeError(f"{' '.join(cmd[-6:])} failed: {used.output.strip()[-300:]}")
    return used.peak_mib, used.cpu


def rehearse_rows(folder: Path, runs: int = 3) -> list[dict]:
    """`about rehearse` as a user runs it: peak memory and CPU per audio second."""
    import datetime as dt

    from companion.core.about.store import save_text
    from companion.core.context import AppContext

    layout: list = [0.5]
    for _id, _title, text in vt.PITCH:
        layout += [text, 1.0]
    take = vt.build(folder, "rehearse", 150, layout)
    high = folder / "rehearse-44k.wav"
    subprocess.run(["sox", str(take.path), "-r", "44100", str(high)], check=True)
    page = folder / "rehearse.md"
    page.write_text(vt.pitch_page(), encoding="utf-8")
    home = folder / "rehearse-home"
    ctx = AppContext(home)
    save_text(ctx.db, vt.pitch_page(), dt.datetime.now().astimezone(), reason="save")
    ctx.close()
    rows = []
    for label, wav in (("22.05 kHz", take.path), ("44.1 kHz", high)):
        for source, extra in (("--input FILE", ["--input", str(page)]), ("saved", [])):
            cmd = [sys.executable, "-c", child_usage.APP, "--data-dir", str(home), "about",
                   "rehearse", "--audio", str(wav), *extra]  # fmt: skip
            usage = [_child_usage(cmd) for _ in range(runs)]
            mib = statistics.median(u[0] for u in usage)
            cpu = statistics.median(u[1] for u in usage) / take.seconds
            what = f"`about rehearse`, {take.seconds:.0f} s take at {label}, one-pager {source}"
            rows.append(_row(f"{what}: peak memory", mib, None, "MiB",
                             f"<= {REHEARSE_MIB_TARGET} MiB", mib <= REHEARSE_MIB_TARGET))  # fmt: skip
            rows.append(_row(f"{what}: CPU per audio second", cpu, None, "CPU s/s",
                             f"<= {REHEARSE_CPU_TARGET}", cpu <= REHEARSE_CPU_TARGET,
                             note=f"{cpu:.3f} CPU s per audio s"))  # fmt: skip
    return rows


def hearing_rows(folder: Path, pairs: int, card_seconds: float) -> list[dict]:
    """The recognizer's figures (benchmarks/voice_hearing.py) and its cost on the card."""
    import voice_hearing as vh

    rows = vh.accuracy(folder) + vh.following(folder) + vh.fillers(folder)
    percent, seconds = vh.recognition_cost(folder)
    rows.append(
        _row(
            "hearing: following cost, CPU per second of 16 kHz audio (in-process)",
            percent,
            None,
            "%",
            f"<= {FOLLOW_CPU_TARGET:g}% of a core",
            percent <= FOLLOW_CPU_TARGET,
            note=f"recognizer + aligner + delivery line over {seconds:.0f} s in 0.1 s chunks",
        )
    )
    rows += _card_runs(folder, pairs, max(card_seconds, 20.0), ("follow-idle", "follow"))
    return rows


def corpus_rows(draws: int) -> list[dict]:
    """The hearing corpus (benchmarks/voice_corpus.py) as rows, its per-case lines printed."""
    import voice_corpus as vc
    import voice_hearing as vh

    with tempfile.TemporaryDirectory() as tmp:
        lines, f = vc.run(Path(tmp), draws)
        wrong, notes = vc.follow_wrong(Path(tmp), draws)
        filler_rows = vh.fillers(Path(tmp), draws, vc.redraw)
    c, n = f["confusion"], f["confusion_5db"]
    table = (
        f"said: heard {c['said/heard']}, skipped {c['said/skipped']}; not said: heard "
        f"{c['unsaid/heard']}, skipped {c['unsaid/skipped']} (5 dB apart: said heard "
        f"{n['said/heard']}, skipped {n['said/skipped']}; not said heard {n['unsaid/heard']})"
    )
    errors = c["said/skipped"] + c["unsaid/heard"]
    return [
        _row("corpus: heard/skipped errors, every draw (clean..10 dB, human)", errors, None,
             "segments", "0", errors == 0, note=table),
        _row("corpus: segments heard in takes of another text", f["other_text_heard"], None,
             "segments", "0", f["other_text_heard"] == 0),
        _row("corpus: worst boundary error (off-script, swap, repeat, skip, rates, human)",
             f["worst_boundary_s"], None, "s", "<= 1.5 s", f["worst_boundary_s"] <= 1.5,
             note=f"median {f['median_boundary_s']:.2f} s"),
        _row("corpus: worst take wpm error vs the words said", f["worst_take_wpm_error_pct"],
             None, "%", "<= 10%", (f["worst_take_wpm_error_pct"] or 0) <= 10,
             note=f"median {f['median_take_wpm_error_pct']:.1f}%; not judged (mostly off "
                  f"the script): {len(f['take_wpm_not_judged'])} takes"),
        _row("corpus: WER of the transcript (every case)", f["wer_pct"], None, "%",
             "reported", None),
        _row("corpus: recording analysis CPU per second of audio (two passes)",
             f["cpu_pct_of_core"], None, "%", "reported", None),
        _row("corpus: live follower's longest wrong segment shown", wrong, None, "s",
             "<= 0.3 s", wrong <= 0.3, note="; ".join(notes)),
        # without the recorded voice the corpus is espeak-ng alone: a row that misses says so
        _row("corpus: takes of real human speech (asterisk-core-sounds-en-wav)",
             f["human_takes"], None, "takes", ">= 3", f["human_takes"] >= 3,
             note=f"{vc.ALLISON}" if f["human_takes"] else
                  f"left out: {vc.ALLISON} is missing (apt install asterisk-core-sounds-en-wav)"),
        *filler_rows,
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--child", choices=["idle", "listen", "follow", "follow-idle"], help=argparse.SUPPRESS
    )
    parser.add_argument("--corpus-draws", type=int, default=0)
    parser.add_argument("--corpus-only", action="store_true")
    parser.add_argument(
        "--rehearse-only", action="store_true", help="only `about rehearse`'s memory and CPU"
    )
    args = parser.parse_args()
    if args.child:
        _card_child(args.child, args.seconds)
        return 0
    if args.rehearse_only:
        with tempfile.TemporaryDirectory(prefix="bench-rehearse-") as tmp:
            rows = rehearse_rows(Path(tmp))
    else:
        rows = [] if args.corpus_only else run(args.pairs, args.seconds)
    if args.corpus_draws > 0:
        rows += corpus_rows(args.corpus_draws)
    width = max(len(r["figure"]) for r in rows)
    print(f"{'figure':<{width}}  {'app':>10}  {'baseline':>10}  {'target':<20} met")
    for r in rows:
        app = "-" if r["app_value"] is None else f"{r['app_value']:.2f}"
        base = "" if r["baseline_value"] is None else f"{r['baseline_value']:.2f}"
        met = verdict(r["met"])
        print(
            f"{r['figure']:<{width}}  {app:>10}  {base:>10}  {r['target']:<20} {met} ({r['unit']})"
        )
    for r in rows:
        if r.get("note"):
            print(f"  {r['figure']}: {r['note']}")
    return 0 if all(r["met"] is not False for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
