"""The fuzz targets stay working (the fuzz run itself is `make fuzz`, not `make test`):
every seed of the committed corpus and every input the fuzzer found (``regressions/``,
each fixed) goes through its target here, in-process; and each target runs a hundred
inputs under atheris in a subprocess, so the harness itself cannot rot unseen."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz.targets import TARGETS

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "run.py"


def _cases(folder: str) -> list:
    cases = []
    for name in TARGETS:
        for path in sorted((HERE / folder / name).glob("*")):
            marks = [pytest.mark.gui] if name == "onepager_pdf" else []
            cases.append(pytest.param(name, path, id=f"{name}/{path.name}", marks=marks))
    return cases


def _run(request, name: str, path: Path) -> None:
    if name == "onepager_pdf":  # a QApplication first: the target must not make a lesser one
        request.getfixturevalue("qapp")
    TARGETS[name].run(path.read_bytes())


def test_every_target_has_seeds_and_every_seed_folder_a_target():
    folders = {p.name for p in (HERE / "corpus").iterdir() if p.is_dir()}
    assert folders == set(TARGETS)
    for name in TARGETS:
        seeds = list((HERE / "corpus" / name).iterdir())
        assert seeds, name
        assert all(p.stat().st_size <= TARGETS[name].max_len for p in seeds), name


@pytest.mark.parametrize(("name", "path"), _cases("corpus"))
def test_seed_keeps_the_contract(request, name, path):
    _run(request, name, path)


@pytest.mark.parametrize(("name", "path"), _cases("regressions"))
def test_finding_stays_fixed(request, name, path):
    _run(request, name, path)


def test_a_broken_contract_is_a_finding(tmp_path):
    """The oracle can fail: an error of several lines is not ours to show."""
    from fuzz.targets import ContractBroken, one_line

    with pytest.raises(ContractBroken):
        one_line(ValueError("first line\nsecond line"))
    one_line(ValueError("one line"))


# One process instruments the imports once (the costly part: a few seconds of CPU), then
# forks a child per target that runs ``run.py``'s own child (its seeds, then libFuzzer):
# the same harness ``make fuzz`` starts, without paying the instrumentation eleven times.
# No Qt before the forks: the PDF target makes its QGuiApplication in its own child.
SMOKE = """
import os, shutil, sys
sys.path.insert(0, sys.argv[1])
import atheris, run
with atheris.instrument_imports(include=run.INSTRUMENT):
    import targets
out, runs = sys.argv[2], sys.argv[3]
for name in sys.argv[4:]:
    work = os.path.join(out, name)
    shutil.rmtree(work, ignore_errors=True)
    os.mkdir(work)
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        log = os.open(work + ".log", os.O_WRONLY | os.O_CREAT, 0o600)
        os.dup2(log, 1); os.dup2(log, 2)
        # libFuzzer ends the child with exit(), past Python's atexit: the target's scratch
        # files go in the test's folder, not in a /dev/shm folder left behind
        scratch = os.path.join(work, "scratch")
        os.mkdir(scratch)
        targets._Scratch._dir = targets.Path(scratch)
        args = [work, os.path.join(run.CORPUS, name), "-runs=" + runs, "-timeout=10",
                "-max_len=%d" % targets.TARGETS[name].max_len,
                "-artifact_prefix=" + work + "/", "-seed=1"]
        sys.argv = [run.__file__, "--child", name, *args]
        try:
            run.child(name, args)
        finally:
            os._exit(70)  # libFuzzer exits by itself when done: reaching here is a failure
    _, status = os.waitpid(pid, 0)
    with open(work + ".status", "w") as f:
        f.write(str(os.waitstatus_to_exitcode(status)))
"""
SMOKE_RUNS = 100


@pytest.fixture(scope="module")
def atheris_smoke(tmp_path_factory):
    """Every target's hundred inputs through libFuzzer, run once for the whole run (the
    first xdist worker to ask runs it under a lock, the others read its results): a
    folder with ``<target>.log`` and ``<target>.status`` (the child's exit code)."""
    pytest.importorskip("atheris")
    import fcntl

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    out = shared / "atheris-smoke"
    with open(shared / "atheris-smoke.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "done").exists():
            out.mkdir(exist_ok=True)
            done = subprocess.run(
                [sys.executable, "-c", SMOKE, str(HERE), str(out), str(SMOKE_RUNS), *TARGETS],
                capture_output=True,
                text=True,
                errors="replace",
                env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
                timeout=600,
            )
            assert done.returncode == 0, done.stderr[-3000:]
            (out / "done").touch()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TARGETS))
def test_target_runs_under_atheris(atheris_smoke, name):
    """A hundred inputs through libFuzzer: the target starts, runs, and finds nothing
    in its seeds' neighbourhood (the exit status and the run count say so)."""
    log = (atheris_smoke / f"{name}.log").read_text(errors="replace")
    status = (atheris_smoke / f"{name}.status").read_text()
    assert status == "0", log[-3000:]
    assert re.search(rf"Done {SMOKE_RUNS} runs", log), log[-3000:]


def test_the_readme_says_what_each_target_promises():
    readme = (HERE.parent.parent / "docs" / "development.md").read_text(encoding="utf-8")
    section = readme.split("### Fuzzing every door (`make fuzz`)", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \|", section, flags=re.M)
    assert rows == list(TARGETS)


def test_make_fuzz_leaves_no_scratch_folder_behind(tmp_path, monkeypatch):
    """libFuzzer ends a child with exit(), past Python's atexit, so each run of `make
    fuzz` left a /dev/shm/companion-fuzz-* folder; the parent now makes the child's
    scratch folder and removes it. The child here is a target's scratch file written,
    then an exit past atexit, as libFuzzer's."""
    monkeypatch.syspath_prepend(str(HERE))
    import run

    monkeypatch.setattr(run, "WORK", tmp_path / "work")
    monkeypatch.setattr(run, "FINDINGS", tmp_path / "findings")
    said = tmp_path / "scratch-file"
    script = tmp_path / "child.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "import targets\n"
        f"open({str(said)!r}, 'w').write(str(targets._Scratch.file('x', b'1')))\n"
        "os._exit(0)\n"
    )
    child = tmp_path / "child"  # run.py's "python": this script, whatever it is asked
    child.write_text(f"#!/bin/sh\nexec {sys.executable} {script}\n")
    child.chmod(0o700)
    result = run.run_target(next(iter(TARGETS)), 5, python=str(child))
    assert result["findings"] == []
    scratch = Path(said.read_text()).parent
    assert scratch.name.startswith("companion-fuzz-") and not scratch.exists()
