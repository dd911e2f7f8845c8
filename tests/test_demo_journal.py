"""The demo generator: a realistic vocabulary (thousands of topics, long-tailed), dates
spread over years, notes of realistic length, deterministic for a seed, and a search
index as complete as the triggers would have made it."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter

import demo_journal as demo
import pytest

from companion.core.day.loops import create_loop
from companion.core.journal import search
from companion.core.storage.store import open_store

TODAY = dt.date(2026, 12, 1)


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """3,000 loops, generated once for the module."""
    store = open_store(tmp_path_factory.mktemp("demo") / "companion.sqlite3")
    summary = demo.generate(store.db, 3_000, seed=5, today=TODAY)
    yield store.db, summary
    store.close()


@pytest.fixture
def db(tmp_path):
    store = open_store(tmp_path / "companion.sqlite3")
    yield store.db
    store.close()


def _topics(db, table: str) -> Counter:
    return Counter(dict(db.execute(f"SELECT topic, COUNT(*) FROM {table} GROUP BY topic")))


def test_the_vocabulary_has_thousands_of_distinct_topics():
    topics = {t for v in demo.vocabulary().values() for t in v.topics}
    assert len(topics) >= 3_000
    assert len({t.casefold() for t in topics}) == len(topics)  # distinct as topic keys too
    assert {"consistent hashing", "burst load", "heaps", "LRU cache"} <= topics


def test_a_big_journal_uses_thousands_of_topics(big):
    db, summary = big
    asked = _topics(db, "asked")
    assert summary.loops == 3_000 and summary.rounds >= 3 * 3_000
    assert len(asked) >= 1_500
    assert summary.topics >= 1_000  # distinct flub and weak topics
    assert summary.topics == len(
        {
            k
            for (k,) in db.execute(
                "SELECT topic_key FROM flubs UNION SELECT topic_key FROM weak_topics"
            )
        }
    )


def test_topic_frequency_is_long_tailed(big):
    db, _ = big
    counts = sorted(_topics(db, "asked").values(), reverse=True)
    total = sum(counts)
    # a few topics come up again and again ...
    assert counts[0] >= 20 * statistics.median(counts)
    assert sum(counts[:10]) >= 0.2 * total
    # ... and most come up once or twice
    assert sum(1 for c in counts if c <= 2) >= 0.4 * len(counts)
    # roughly Zipf: the 10th topic about a tenth as frequent as the first (generously)
    assert 3 <= counts[0] / counts[9] <= 30


def test_dates_spread_over_years_and_end_before_today(big):
    db, _ = big
    first, last = (
        dt.date.fromisoformat(d)
        for d in db.execute("SELECT MIN(starts_on), MAX(starts_on) FROM loops").fetchone()
    )
    assert last < TODAY and (TODAY - last).days <= 3
    assert (last - first).days >= 5 * 365
    years = {
        y for (y,) in db.execute("SELECT DISTINCT substr(starts_on, 1, 4) FROM loops").fetchall()
    }
    assert len(years) >= 6
    # ids grow with time, as in a journal kept day by day (search ranks the newest rows)
    by_id = [d for (d,) in db.execute("SELECT starts_on FROM loops ORDER BY id")]
    assert by_id == sorted(by_id)
    days = [d[:10] for (d,) in db.execute("SELECT started_at FROM rounds ORDER BY id")]
    assert days == sorted(days)


def test_a_short_demo_stays_recent(db):
    demo.generate(db, 20, seed=7, today=TODAY)
    first = db.execute("SELECT MIN(starts_on) FROM loops").fetchone()[0]
    assert (TODAY - dt.date.fromisoformat(first)).days <= 70


def test_old_flubs_are_mostly_studied_and_recent_ones_not(big):
    db, _ = big
    recent, old = (
        db.execute(
            "SELECT AVG(studied_at IS NULL) FROM flubs WHERE created_at "
            + ("> ?" if i == 0 else "< ?"),
            [str(TODAY - dt.timedelta(days=30 if i == 0 else 365))],
        ).fetchone()[0]
        for i in range(2)
    )
    assert recent > 0.3 and old < 0.2


def test_notes_have_realistic_length(big):
    db, _ = big
    for table in ("rounds", "loops"):
        share, words = db.execute(
            f"SELECT AVG(notes != ''), AVG(CASE WHEN notes != '' THEN "
            f"length(notes) - length(replace(notes, ' ', '')) + 1 END) FROM {table}"
        ).fetchone()
        assert 0.3 <= share <= 0.7, table
        assert 15 <= words <= 120, table
    drafts = [d for (d,) in db.execute("SELECT draft FROM thank_yous LIMIT 200")]
    assert statistics.median(len(d.split()) for d in drafts) >= 15
    details = [d for (d,) in db.execute("SELECT detail FROM flubs LIMIT 200")]
    assert statistics.median(len(d.split()) for d in details) >= 6


def test_companies_are_long_tailed_too(big):
    db, _ = big
    counts = sorted(
        (c for (c,) in db.execute("SELECT COUNT(*) FROM loops GROUP BY company")), reverse=True
    )
    assert len(counts) >= 200
    assert counts[0] >= 10 * counts[len(counts) // 2]


def test_same_seed_same_journal_other_seed_other_journal(tmp_path):
    def dump(name: str, seed: int) -> list:
        store = open_store(tmp_path / name / "companion.sqlite3")
        demo.generate(store.db, 40, seed=seed, today=TODAY)
        rows = [
            store.db.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
            for t in ("loops", "rounds", "asked", "flubs", "went_well", "weak_topics")
        ]
        store.close()
        return rows

    assert dump("a", 3) == dump("b", 3)
    assert dump("c", 3) != dump("d", 4)


def _triggers(db) -> list:
    return sorted(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))


def test_the_search_index_is_complete_and_the_triggers_are_back(db):
    create_loop(db, "Existing Co")  # ids continue after existing rows
    triggers = _triggers(db)
    assert len(triggers) >= 3 * 7
    demo.generate(db, 300, seed=2, today=TODAY)
    demo.generate(db, 50, seed=3, today=TODAY)  # twice: appends
    assert _triggers(db) == triggers
    sources = sum(
        db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("loops", "rounds", "asked", "flubs", "went_well", "weak_topics", "thank_yous")
    )
    assert db.execute("SELECT COUNT(*) FROM journal_fts").fetchone()[0] == sources
    assert db.execute("SELECT COUNT(*) FROM loops").fetchone()[0] == 351
    assert search.search(db, "consistent hashing")
    # what the triggers index after a demo is still indexed
    create_loop(db, "Zyzzyva Quokka")
    assert [h.company for h in search.search(db, "zyzzyva")] == ["Zyzzyva Quokka"]


def test_negative_loops_are_refused(db):
    with pytest.raises(ValueError, match="negative"):
        demo.generate(db, -1)


# --- the command: refuses the user's own data ----------------------------------------


def test_the_app_itself_has_no_demo_command(capsys):
    import importlib.util

    from companion.cli import main

    with pytest.raises(SystemExit) as usage:  # argparse's own exit
        main(["demo", "--loops", "1"])
    assert usage.value.code == 2
    assert "invalid choice: 'demo'" in capsys.readouterr().err
    assert importlib.util.find_spec("companion.core.journal.demo") is None


def test_the_default_data_folder_is_refused_unless_forced(monkeypatch, capsys):
    from companion.core.paths import default_data_dir

    monkeypatch.delenv("COMPANION_HOME", raising=False)
    folder = default_data_dir()
    assert demo.companion_with_demo(["demo", "--loops", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the default data folder" in err and "--force" in err
    assert not folder.exists()  # refused before anything was made
    assert demo.companion_with_demo(["demo", "--loops", "1", "--force"]) == 0
    assert (folder / "companion.sqlite3").is_file()


def test_a_folder_with_loops_of_your_own_is_refused_unless_forced(data_dir, capsys):
    store = open_store(data_dir / "companion.sqlite3")
    create_loop(store.db, "Real Startup Inc")
    store.close()
    assert demo.companion_with_demo(["demo", "--loops", "2"]) == 2
    assert "holds loops of your own (at Real Startup Inc)" in capsys.readouterr().err
    assert _loops(data_dir) == 1
    assert demo.companion_with_demo(["demo", "--loops", "2", "--force"]) == 0
    assert _loops(data_dir) == 3


def test_a_folder_the_generator_filled_takes_more(data_dir):
    assert demo.companion_with_demo(["--data-dir", str(data_dir), "demo", "--loops", "3"]) == 0
    assert demo.companion_with_demo(["demo", "--loops", "2", "--seed", "9"]) == 0
    assert _loops(data_dir) == 5


def _loops(folder) -> int:
    store = open_store(folder / "companion.sqlite3")
    try:
        return store.db.execute("SELECT COUNT(*) FROM loops").fetchone()[0]
    finally:
        store.close()
