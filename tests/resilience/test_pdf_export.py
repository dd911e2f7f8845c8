"""The PDF export writes like every other export: through a fresh private temp file (a
link, FIFO or folder planted at the old predictable name ``.NAME.tmp`` is never used),
only a complete PDF replaces the target (a file-size limit or a full disk is an error,
with nothing left behind), a one-pager too long to lay out is refused before the slow
part, and usage errors exit 2 as the README says."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PITCH = REPO / "resources" / "templates" / "about-me.md"
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX files")


def export(tmp_path: Path, *argv: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [*prefix, sys.executable, "-m", "companion", "--data-dir", str(tmp_path / "data")]
        + ["about", "export", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,  # the old code blocked forever on a FIFO at the temp name
    )


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: "), proc.stderr
    return lines[0]


@pytest.fixture
def out(tmp_path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.fixture(autouse=True)
def permissive_umask():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_symlink_at_the_old_temp_name_is_not_followed(tmp_path, out):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    os.chmod(victim, 0o644)
    (out / ".p.pdf.tmp").symlink_to(victim)
    proc = export(tmp_path, "--input", str(PITCH), "-o", str(out / "p.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert victim.read_text() == "precious"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert (out / "p.pdf").read_bytes().startswith(b"%PDF-")
    assert stat.S_IMODE((out / "p.pdf").stat().st_mode) == 0o600


def test_a_fifo_at_the_old_temp_name_neither_hangs_nor_is_used(tmp_path, out):
    os.mkfifo(out / ".p.pdf.tmp")
    proc = export(tmp_path, "--input", str(PITCH), "-o", str(out / "p.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.lstat(out / ".p.pdf.tmp").st_mode)
    assert (out / "p.pdf").read_bytes().startswith(b"%PDF-")


def test_a_folder_at_the_old_temp_name_is_not_renamed_into_place(tmp_path, out):
    (out / ".p.pdf.tmp").mkdir()
    proc = export(tmp_path, "--input", str(PITCH), "-o", str(out / "p.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert (out / ".p.pdf.tmp").is_dir()
    assert (out / "p.pdf").is_file() and (out / "p.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.skipif(not shutil.which("prlimit"), reason="needs prlimit (util-linux)")
def test_a_truncated_pdf_is_an_error_and_leaves_nothing(tmp_path, out):
    target = out / "p.pdf"
    target.write_bytes(b"%PDF- the old export")
    proc = export(
        tmp_path,
        "--input",
        str(PITCH),
        "-o",
        str(target),
        prefix=("prlimit", "--fsize=2000", "--"),
    )
    assert proc.returncode == 1, proc.stderr
    assert "cannot write" in one_line(proc)
    assert target.read_bytes() == b"%PDF- the old export"  # the old file is untouched
    assert sorted(p.name for p in out.iterdir()) == ["p.pdf"]  # no temp file left


def test_a_one_pager_too_long_to_lay_out_is_refused_before_rendering(tmp_path, out):
    """9.5 MB is within the import limit (10 MB) but about 5,000 PDF pages: the old
    code was still laying it out after two minutes."""
    big = tmp_path / "big.md"
    chunk = PITCH.read_text(encoding="utf-8") + "\n\n"
    big.write_text(chunk * (9_500_000 // len(chunk)), encoding="utf-8")
    proc = export(tmp_path, "--input", str(big), "-o", str(out / "big.pdf"))
    assert proc.returncode == 1
    line = one_line(proc)
    assert "200,000" in line and "HTML or Markdown" in line
    assert list(out.iterdir()) == []


def test_a_one_pager_nested_too_deeply_to_lay_out_is_refused_before_rendering(tmp_path, out):
    """100,000 '>' then a word (100 KB, far under the size limit): every quote narrows
    the column, and the old code was still laying it out after two minutes."""
    deep = tmp_path / "deep.md"
    deep.write_text(">" * 100_000 + " x\n", encoding="utf-8")
    proc = export(tmp_path, "--input", str(deep), "-o", str(out / "deep.pdf"))
    assert proc.returncode == 1
    line = one_line(proc)
    assert "100000 levels deep" in line and "HTML or Markdown" in line
    assert list(out.iterdir()) == []


def test_nesting_depth_counts_quotes_and_list_items_only():
    from companion.core.about.export import nesting_depth, pdf_size_problem

    assert nesting_depth(PITCH.read_text(encoding="utf-8")) <= 2
    assert nesting_depth("> > > x\n>>y") == 3
    assert nesting_depth("- a\n    - b\n        - c\n") == 2
    assert nesting_depth("    indented code\n" + " " * 80 + "ascii art\n") == 0
    assert pdf_size_problem("> " * 5 + "fine") is None
    assert "6 levels deep" in pdf_size_problem(">" * 6 + " too deep")


@pytest.mark.parametrize("target", ["", ".", "{tmp}", "{out}"])
def test_usage_errors_exit_2(tmp_path, out, target):
    target = target.format(tmp=tmp_path, out=out)
    proc = export(tmp_path, "--input", str(PITCH), "-o", target)
    assert proc.returncode == 2, proc.stderr
    one_line(proc)
    assert list(out.iterdir()) == []
