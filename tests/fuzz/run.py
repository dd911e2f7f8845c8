"""`make fuzz`: every target of ``targets.py`` under atheris (libFuzzer) for FUZZ_SECONDS
each (default 60), from the committed seed corpus ``corpus/<target>/``.

One line per target: executions, coverage (instrumented edges reached), findings. A
finding is an input that raised (anything but the door's own one-line error), took more
than FUZZ_TIMEOUT seconds (default 1), or grew the process past FUZZ_RSS_MB (default
2048); its input is written to ``findings/<target>-<kind>-<sha1>``. An input past the
time bound is timed again in a plain process, in CPU seconds: the instrumentation makes
Python-Markdown and icalendar several times slower, and the machine may be loaded, so one
the door itself handles within the bound is only counted (``not findings``) and left in
``.work/``. After a finding the
target goes on for the rest of its time (from the corpus grown so far), so one known
problem does not hide the next. Exit status 1 when anything was found.

    python tests/fuzz/run.py [TARGET ...]          # the parent: runs each target in turn
    python tests/fuzz/run.py --child TARGET ARGS   # one libFuzzer run (used by the parent)

The grown corpus is kept in ``.work/<target>/`` (not committed) for the next run.

An input stuck in native code (a regular expression backtracking, a C library) does not
come back to Python, so atheris cannot raise its timeout: after another second it ends the
process with SIGALRM and writes no input. The child therefore keeps the input it is
running in ``.work/<target>.current``, and the parent files that as the finding
(``findings/<target>-native-<sha1>``) when the child dies without writing one
(``-hang-`` when it had to be killed, ``HANG_GRACE`` seconds past its time).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
FINDINGS = HERE / "findings"
WORK = HERE / ".work"
# what atheris instruments: our code and the parsers it hands input to
INSTRUMENT = ["companion", "markdown", "icalendar"]
MAX_RESTARTS = 20
SEED_HANG_SECONDS = 60  # a seed still running then hangs (libFuzzer then bounds each to 1 s)
HANG_GRACE = 120  # seconds past its time before a child that does not end is killed


def child(name: str, libfuzzer_args: list[str]) -> None:
    """One libFuzzer run of target ``name`` (this process is started by :func:`main`)."""
    import atheris

    sys.path.insert(0, str(HERE))
    with atheris.instrument_imports(include=INSTRUMENT):
        import targets

        target = targets.TARGETS[name]
        targets.reuse_shipped_sections()
        keep = os.environ.get("FUZZ_CURRENT")
        run = _keeping(target.run, keep) if keep else target.run
        # the seeds once inside the block: modules the doors import lazily get instrumented.
        # No time bound here but a hang's: SIGALRM's default ends the process (see the module)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        for seed in sorted((CORPUS / name).glob("*")):
            signal.alarm(SEED_HANG_SECONDS)
            try:
                run(seed.read_bytes())
            except Exception:  # noqa: BLE001 - the fuzzer finds it again and records it
                pass
        signal.alarm(0)
    atheris.Setup([sys.argv[0], *libfuzzer_args], run)
    atheris.Fuzz()


def _keeping(run, path: str):
    """``run``, which first writes its input to ``path`` (see the module)."""
    current = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)

    def kept(data: bytes) -> None:
        os.ftruncate(current, 0)
        os.pwrite(current, data, 0)
        run(data)

    return kept


def _stats(stderr: str) -> tuple[int, int]:
    """(executions, coverage) from a libFuzzer log."""
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", stderr)
    if not runs:
        runs = re.findall(r"^#(\d+)\s", stderr, re.MULTILINE)
    cov = re.findall(r"\bcov: (\d+)", stderr)
    return (int(runs[-1]) if runs else 0), (int(cov[-1]) if cov else 0)


def _finding_lines(stderr: str) -> list[str]:
    """The lines that say what went wrong (the exception, or the timeout/memory note)."""
    keep = []
    for line in stderr.splitlines():
        if re.match(r"(=== Uncaught Python exception|\w+(Error|Broken|Exception)\b.*:|"
                    r"==\d+== ERROR|ALARM|Test unit written to)", line):  # fmt: skip
            keep.append(line.strip())
    return keep


def run_target(name: str, seconds: float, *, python: str = sys.executable) -> dict:
    """Fuzz ``name`` for ``seconds``; returns executions, coverage and the findings."""
    import targets

    target = targets.TARGETS[name]
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    FINDINGS.mkdir(exist_ok=True)
    timeout = os.environ.get("FUZZ_TIMEOUT", "1")
    rss = os.environ.get("FUZZ_RSS_MB", "2048")
    deadline = time.monotonic() + seconds
    executions = coverage = 0
    findings: list[Path] = []
    notes: list[str] = []
    slow: list[tuple[str, float]] = []  # timeouts only under instrumentation
    log = WORK / f"{name}.log"
    with log.open("w") as log_file:
        for _ in range(MAX_RESTARTS + 1):
            left = int(deadline - time.monotonic())
            if left < 1:
                break
            before = set(FINDINGS.glob(f"{name}-*"))
            args = [
                str(work),
                str(CORPUS / name),
                f"-max_total_time={left}",
                f"-timeout={timeout}",
                f"-rss_limit_mb={rss}",
                f"-max_len={target.max_len}",
                f"-artifact_prefix={FINDINGS}/{name}-",
                "-print_final_stats=1",
            ]
            current = WORK / f"{name}.current"
            current.unlink(missing_ok=True)
            # the child's scratch files: libFuzzer ends it past atexit, so it cannot
            # remove them itself (they were left in /dev/shm, one folder a run)
            scratch = tempfile.mkdtemp(prefix="companion-fuzz-", dir=targets.scratch_parent())
            env = {
                **os.environ,
                "QT_QPA_PLATFORM": "offscreen",
                "FUZZ_CURRENT": str(current),
                "FUZZ_SCRATCH": scratch,
            }
            try:
                done = subprocess.run(
                    [python, __file__, "--child", name, *args],
                    stdout=subprocess.PIPE,  # atheris prints the exception here
                    stderr=subprocess.STDOUT,
                    text=True,
                    errors="replace",
                    env=env,
                    timeout=left + HANG_GRACE,
                )
            except subprocess.TimeoutExpired as exc:  # killed: a hang no alarm ended
                out = exc.stdout or b""
                out = out.decode(errors="replace") if isinstance(out, bytes) else out
                done = subprocess.CompletedProcess(exc.cmd, -signal.SIGKILL, out)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            log_file.write(done.stdout)
            runs, cov = _stats(done.stdout)
            executions += runs
            coverage = max(coverage, cov)
            new = sorted(set(FINDINGS.glob(f"{name}-*")) - before)
            if not new and done.returncode != 0:  # died without writing the input
                kept = _died_with(name, current, done.returncode)
                if kept is None or kept in findings:  # nothing to go on from, or again
                    if kept is None:
                        findings.append(log)
                        notes.append(_death_note(done.returncode, log))
                    break
                new, lines = [kept], [_death_note(done.returncode, log)]
            elif not new:
                break
            else:
                lines = _finding_lines(done.stdout)
            real = []
            for path in new:
                cpu = _uninstrumented_cpu(name, path, python) if _is_slow(path) else None
                if cpu is not None and cpu < float(timeout):
                    slow.append((path.name, cpu))
                    path.replace(work.parent / path.name)  # kept in .work/ for a look
                else:
                    real.append(path)
            findings += real
            notes += lines if real else []
    return {
        "executions": executions,
        "coverage": coverage,
        "findings": findings,
        "notes": notes,
        "slow": slow,
    }


def _is_slow(path: Path) -> bool:
    return any(f"-{kind}-" in path.name for kind in ("timeout", "native"))


def _uninstrumented_cpu(name: str, path: Path, python: str) -> float | None:
    """The CPU seconds the target takes on ``path`` in a plain process (no coverage
    instrumentation, which makes Python-Markdown or icalendar several times slower, and
    no wall clock shared with a loaded machine), or None when it cannot say."""
    try:
        done = subprocess.run(
            [python, __file__, "--time", name, str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
            timeout=HANG_GRACE,
        )
        return float(done.stdout.split()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError):
        return None


def time_input(name: str, path: str) -> None:
    """Print the CPU time of target ``name`` on ``path``, once the seeds have run (what a
    door loads once is loaded; its one run, as a renderer's cache would hide a second)."""
    sys.path.insert(0, str(HERE))
    import targets

    target = targets.TARGETS[name]
    for seed in sorted((CORPUS / name).glob("*")):
        _quietly(target.run, seed.read_bytes())
    data = Path(path).read_bytes()
    start = time.process_time()
    try:
        target.run(data)
    except Exception:  # noqa: BLE001 - then no time clears it: inf
        print("inf")
        raise
    print(f"{time.process_time() - start:.3f}")


def _quietly(run, data: bytes) -> None:
    try:
        run(data)
    except Exception:  # noqa: BLE001 - the seeds warm the door; only the input counts
        pass


def _died_with(name: str, current: Path, code: int) -> Path | None:
    """The input a child died on (see the module), filed as a finding; None when unknown."""
    try:
        data = current.read_bytes()
    except OSError:
        return None
    kind = {-signal.SIGALRM: "native", -signal.SIGKILL: "hang"}.get(code, f"exit{code}")
    path = FINDINGS / f"{name}-{kind}-{hashlib.sha1(data).hexdigest()}"
    path.write_bytes(data)
    return path


def _death_note(code: int, log: Path) -> str:
    if code == -signal.SIGALRM:
        return (
            f"exit {code} (SIGALRM): an input ran past the time bound in native code, "
            f"e.g. a regular expression, or a seed hung; see {log}"
        )
    if code == -signal.SIGKILL:
        return f"killed {HANG_GRACE} s past its time: an input hung; see {log}"
    return f"exit {code} without an input from libFuzzer; see {log}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        child(argv[1], argv[2:])
        return 0
    if argv[:1] == ["--time"]:
        time_input(argv[1], argv[2])
        return 0
    sys.path.insert(0, str(HERE))
    from targets import TARGETS

    names = argv or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        print(f"fuzz: no target {', '.join(unknown)}; the targets: {', '.join(TARGETS)}")
        return 2
    seconds = float(os.environ.get("FUZZ_SECONDS", "60"))
    found = 0
    for name in names:
        result = run_target(name, seconds)
        count = len(result["findings"])
        found += count
        rate = result["executions"] / seconds if seconds else 0
        print(
            f"{name:13} {result['executions']:9,} executions ({rate:,.0f}/s)  "
            f"coverage {result['coverage']:5}  findings {count}",
            flush=True,
        )
        for path in result["findings"]:
            print(f"    {path.relative_to(HERE.parent.parent)}")
        for note in dict.fromkeys(result["notes"]):
            print(f"    {note[:160]}")
        if result["slow"]:
            worst = max(cpu for _name, cpu in result["slow"])
            print(
                f"    not findings: {len(result['slow'])} input(s) past the time bound only "
                f"under instrumentation, at most {worst:.2f} s of CPU without it "
                f"(tests/fuzz/.work/{name}-*)"
            )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
