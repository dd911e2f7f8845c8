"""Four processes opening one new data folder at once (the first start racing a
status-bar `companion today`): the journal is created once, in one transaction the others
wait for; none fails with 'table "_sqlite_migrations" already exists'."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

OPEN = (
    "import sys, time\n"
    "from companion.core.storage.store import open_store\n"
    "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
    "store = open_store(sys.argv[1])\n"
    "print(store.schema_version())\n"
)


def test_four_processes_create_one_new_journal_together(tmp_path):
    import time

    env = dict(os.environ, PYTHONPATH=str(REPO))
    for round_no in range(3):
        db = tmp_path / f"data{round_no}" / "companion.sqlite3"
        start = str(time.time() + 3)  # all four past their imports, then at once
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN, str(db), start],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
        for _out, err, code in results:
            assert code == 0 and "already exists" not in err, err[-2000:]
        assert len({out for out, _, _ in results}) == 1  # one schema, the same for all
