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


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TARGETS))
def test_target_runs_under_atheris(tmp_path, name):
    """A hundred inputs through libFuzzer: the target starts, runs, and finds nothing
    in its seeds' neighbourhood (the exit status and the run count say so)."""
    pytest.importorskip("atheris")
    runs = 100
    done = subprocess.run(
        [
            sys.executable,
            str(RUNNER),
            "--child",
            name,
            str(tmp_path),
            str(HERE / "corpus" / name),
            f"-runs={runs}",
            "-timeout=10",
            f"-max_len={TARGETS[name].max_len}",
            f"-artifact_prefix={tmp_path}/",
            "-seed=1",
        ],
        capture_output=True,
        text=True,
        errors="replace",
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(rf"Done {runs} runs", done.stderr), done.stderr[-3000:]


def test_the_readme_says_what_each_target_promises():
    readme = (HERE.parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Fuzzing every door (`make fuzz`)", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \|", section, flags=re.M)
    assert rows == list(TARGETS)
