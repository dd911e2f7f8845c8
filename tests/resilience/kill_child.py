"""Child process for test_kill_storm.py: write to the journal (and the about-me one-pager,
when that module exists) through the real storage code until killed.

Prints ``ready`` once the store is open, then after every commit a flushed line:
``J <loop_id> <round_id>`` for a journal transaction, ``A <n> <length>`` for a one-pager save.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path


def main(db_path: str, seed: str) -> None:
    from companion.core.about import store as about_store
    from companion.core.day import loops
    from companion.core.storage.store import open_store

    rng = random.Random(int(seed))
    store = open_store(Path(db_path))
    db = store.db
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        now = dt.datetime.now().astimezone()
        with db.atomic():
            loop_id = loops.create_loop(
                db, f"Company {seed}-{n}", "Engineer", notes="x" * rng.randrange(0, 3000)
            )
            round_id = loops.add_round(db, loop_id, "coding", interviewer_name=f"Interviewer {n}")
            loops.start_round(db, "coding", now, loop_id=loop_id, round_id=round_id)
            loops.end_round(db, round_id, now)
        print(f"J {loop_id} {round_id}", flush=True)
        if n % 2 == 0:
            body = f"rev {seed}-{n}\n" + "typing " * rng.randrange(0, 4000)
            about_store.save_text(
                db, body, now, reason=rng.choice(["autosave", "autosave", "save"])
            )
            print(f"A {seed}-{n} {len(body)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
