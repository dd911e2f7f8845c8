"""What one child process used: wall time, CPU time and its own peak memory.

The peak is the child's VmHWM, which a prelude (``PEAK``) writes to stderr at exit. The
rusage ``ru_maxrss`` that ``wait4`` returns is no use here: Linux keeps the larger of the
child's peak and the resident size of the process it was forked from, through ``exec``
(and Python's subprocess forks with vfork), so a child of a 200 MiB benchmark read as
200 MiB.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PEAK = (
    "import atexit, sys\n"
    "def _peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            sys.stderr.write('PEAK_KIB ' + line.split()[1] + '\\n')\n"
    "atexit.register(_peak)\n"
)
#: ``python -c APP ARGS`` runs ``companion ARGS`` with the prelude
APP = PEAK + "from companion.cli import main\nsys.argv[0] = 'companion'\nsys.exit(main())\n"


@dataclass(frozen=True)
class Usage:
    wall: float  # seconds
    cpu: float  # user + system seconds
    peak_mib: float
    code: int  # exit code
    output: str  # stderr, and stdout unless it was sent elsewhere


def run(argv: list[str], *, keep_stdout: bool = True) -> Usage:
    """Run ``argv`` (a ``python -c`` with ``PEAK`` or ``APP`` at its start) from the
    repository, with the repository on its path. ``keep_stdout=False`` discards a large
    standard output instead of keeping it in ``output``."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryFile("w+") as out:
        stdout = out if keep_stdout else subprocess.DEVNULL
        started = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=stdout, stderr=out)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        out.seek(0)
        text = out.read()
    kib = [int(ln.split()[1]) for ln in text.splitlines() if ln.startswith("PEAK_KIB ")]
    code = os.waitstatus_to_exitcode(status)
    if not kib:
        raise RuntimeError(f"{' '.join(argv[-6:])} exited {code} without its peak: {text[-300:]}")
    return Usage(wall, usage.ru_utime + usage.ru_stime, kib[-1] / 1024, code, text)
