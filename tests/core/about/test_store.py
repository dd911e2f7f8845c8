"""The one-pager's storage, revisions, autosave timing, rehearsal and the `about` CLI."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.about import store as about_store
from companion.core.about.autosave import AutosavePolicy, Autosaver
from companion.core.about.rehearsal import Rehearsal, Step


class Ticker:
    """A fake monotonic clock."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_nothing_saved_yet(db):
    assert about_store.load_document(db) is None
    assert about_store.load_text(db) == ""
    assert about_store.list_revisions(db) == []


def test_save_and_load_round_trip_including_empty_and_unicode(db, clock):
    about_store.save_text(db, "# Zoë — 10 ms ✓", clock.now())
    assert about_store.load_text(db) == "# Zoë — 10 ms ✓"
    about_store.save_text(db, "", clock.advance(seconds=1))
    assert about_store.load_document(db) == ""  # empty is a document, not "never saved"


def test_autosaves_coalesce_into_one_revision_every_two_minutes(db, clock):
    first = about_store.save_text(db, "a", clock.now())
    assert first is not None  # the very first save keeps a revision
    for n in range(10):
        assert about_store.save_text(db, "a" * (n + 2), clock.advance(seconds=5)) is None
    assert len(about_store.list_revisions(db)) == 1
    clock.advance(minutes=2)
    assert about_store.save_text(db, "later", clock.now()) is not None
    revisions = about_store.list_revisions(db)
    assert [r.id for r in revisions] == sorted((r.id for r in revisions), reverse=True)
    assert about_store.revision_text(db, revisions[0].id) == "later"
    assert about_store.load_text(db) == "later"


def test_explicit_save_always_keeps_a_revision_but_never_a_duplicate(db, clock):
    about_store.save_text(db, "one", clock.now(), reason="save")
    about_store.save_text(db, "two", clock.advance(seconds=1), reason="save")
    about_store.save_text(db, "two", clock.advance(seconds=1), reason="save")
    revisions = about_store.list_revisions(db)
    assert [about_store.revision_text(db, r.id) for r in revisions] == ["two", "one"]
    assert revisions[0].reason == "save" and revisions[0].words == 1


def test_snapshot_keeps_text_before_replacement(db, clock):
    about_store.save_text(db, "mine", clock.now(), reason="save")
    assert about_store.snapshot(db, "mine", clock.now(), "import") is None  # same as newest
    assert about_store.snapshot(db, "mine, edited", clock.now(), "import") is not None
    assert about_store.list_revisions(db)[0].reason == "import"
    with pytest.raises(KeyError):
        about_store.revision_text(db, 999)


def test_revisions_are_pruned(db, clock, monkeypatch):
    monkeypatch.setattr(about_store, "KEEP_REVISIONS", 5)
    for n in range(12):
        about_store.save_text(db, f"v{n}", clock.advance(seconds=1), reason="save")
    texts = [about_store.revision_text(db, r.id) for r in about_store.list_revisions(db)]
    assert texts == ["v11", "v10", "v9", "v8", "v7"]


def test_words_per_minute_default_set_and_bounds(db):
    assert about_store.words_per_minute(db) == 140
    assert about_store.set_words_per_minute(db, 163.44) == 163.4
    assert about_store.words_per_minute(db) == 163.4
    with pytest.raises(ValueError, match="outside"):
        about_store.set_words_per_minute(db, 20)
    assert about_store.words_per_minute(db) == 163.4


def test_rehearsal_results_are_kept(db, clock):
    assert about_store.last_rehearsal(db) is None
    rehearsal = Rehearsal((Step("identity", "Who I am", 10), Step("evidence", "Evidence", 30)))
    rehearsal.start(0.0)
    assert rehearsal.current.id == "identity"
    assert rehearsal.elapsed_in_current(4.0) == 4.0
    assert rehearsal.advance(12.0).id == "evidence"
    assert rehearsal.advance(37.0) is None
    assert rehearsal.finished
    results = rehearsal.results()
    assert [(r.id, r.seconds, r.delta_seconds) for r in results] == [
        ("identity", 12.0, 2.0),
        ("evidence", 25.0, -5.0),
    ]
    about_store.save_rehearsal(db, clock.now(), results)
    record = about_store.last_rehearsal(db)
    assert record.total_seconds == 37.0
    assert [s.seconds for s in record.segments] == [12.0, 25.0]


def test_rehearsal_stopped_early_keeps_spoken_segments_only():
    rehearsal = Rehearsal()
    rehearsal.start(0.0)
    rehearsal.advance(9.0)
    rehearsal.finish(20.0)
    assert rehearsal.finished and not rehearsal.running
    assert [(r.id, r.seconds) for r in rehearsal.results()] == [
        ("identity", 9.0),
        ("evidence", 11.0),
    ]
    assert rehearsal.elapsed_in_current(99.0) == 0.0  # finished: nothing runs on
    with pytest.raises(ValueError):
        Rehearsal(())


def test_autosave_policy_idle_and_max_delay():
    policy = AutosavePolicy(idle=0.4, max_delay=0.75)
    assert not policy.due(0.0) and not policy.dirty
    policy.changed(0.0)
    assert not policy.due(0.3)
    assert policy.due(0.4)
    policy.saved()
    # continuous typing every 0.1 s: the idle rule never fires, the max delay does
    policy.changed(10.0)
    t = 10.0
    while not policy.due(t):
        t += 0.1
        policy.changed(t)
    assert t == pytest.approx(10.8, abs=0.11)


@given(gaps=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=80))
def test_unsaved_typing_never_gets_older_than_a_second(gaps):
    """Ticking every 0.1 s, whatever the typing rhythm, no keystroke waits > 1 s unsaved."""
    policy = AutosavePolicy()
    keystrokes = []
    t = 0.0
    for gap in gaps:
        t += gap
        keystrokes.append(t)
    saved_until = -1.0
    tick = 0.0
    pending: list[float] = []
    index = 0
    while tick <= keystrokes[-1] + 2.0:
        while index < len(keystrokes) and keystrokes[index] <= tick:
            policy.changed(keystrokes[index])
            pending.append(keystrokes[index])
            index += 1
        if policy.due(tick):
            policy.saved()
            assert all(tick - k <= 1.0 for k in pending)
            saved_until = tick
            pending = []
        tick = round(tick + 0.1, 10)
    assert not pending and saved_until >= keystrokes[-1]


def test_autosaver_saves_when_due_and_reports_failures(db, clock):
    ticker = Ticker()
    text = {"value": "draft"}
    saver = Autosaver(db, lambda: text["value"], wall_clock=clock.now, monotonic=ticker)
    assert not saver.tick()
    saver.touch()
    ticker.t += 0.2
    assert not saver.tick()
    ticker.t += 0.3
    assert saver.tick()
    assert about_store.load_text(db) == "draft" and not saver.dirty

    text["value"] = "second"
    saver.touch()
    db.conn.execute("DROP TABLE about_document")  # a broken store: the write must fail
    ticker.t += 1
    assert not saver.tick()
    assert "Could not save" in saver.last_error
    assert saver.dirty  # still dirty, so it is retried


# -- the `companion about` command ------------------------------------------------------


def cli(*argv: str) -> int:
    from companion.cli import main

    return main(["about", *argv])


SAMPLE = """# Sam
## Who I am
I build storage systems.
## Three projects
### Cache
- p99 from 800 ms to 120 ms
### Docs
- wrote them
"""


def test_cli_analyze_file(data_dir, tmp_path, capsys):
    path = tmp_path / "me.md"
    path.write_text(SAMPLE, encoding="utf-8")
    assert cli("analyze", str(path)) == 0
    out = capsys.readouterr().out
    assert "Who I am" in out and "whole pitch" in out
    assert "projects lacking a number:" in out and "Docs" in out


def test_cli_analyze_json_with_rate(data_dir, tmp_path, capsys):
    path = tmp_path / "me.md"
    path.write_text(SAMPLE, encoding="utf-8")
    assert cli("analyze", str(path), "--json", "--wpm", "120") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["words_per_minute"] == 120
    assert data["segments"][0]["words"] == 4
    assert data["segments"][0]["seconds"] == 2.0
    assert data["projects_lacking_numbers"] == ["Docs"]


def test_cli_analyze_saved_one_pager_and_stored_rate(ctx, capsys):
    about_store.save_text(ctx.db, SAMPLE, ctx.now())
    about_store.set_words_per_minute(ctx.db, 100)
    assert cli("analyze") == 0
    out = capsys.readouterr().out
    assert "the saved one-pager" in out and "100 words per minute" in out


def test_cli_analyze_errors_are_messages_not_tracebacks(data_dir, tmp_path, capsys):
    assert cli("analyze") == 1
    assert "no one-pager saved yet" in capsys.readouterr().err
    assert cli("analyze", str(tmp_path / "nope.md")) == 1
    assert "does not exist" in capsys.readouterr().err
    assert cli("analyze", "--wpm", "5", str(tmp_path)) == 1
    assert "outside" in capsys.readouterr().err
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"## Who I am\nhi \xff there\n")
    assert cli("analyze", str(bad)) == 0
    err = capsys.readouterr().err
    assert "not valid UTF-8" in err and "line 2, column 4" in err


def test_cli_export_markdown_and_html(ctx, tmp_path, capsys):
    about_store.save_text(ctx.db, SAMPLE + "\n<script>x</script>", ctx.now())
    assert cli("export", "--format", "md", "-o", str(tmp_path / "a.md")) == 0
    assert (tmp_path / "a.md").read_text(encoding="utf-8").startswith("# Sam")
    assert cli("export", "-o", str(tmp_path / "a.html")) == 0
    page = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "<h1>Sam</h1>" in page and "&lt;script&gt;" in page and "<script" not in page
    assert "wrote" in capsys.readouterr().out


def test_cli_export_errors(ctx, tmp_path, capsys):
    assert cli("export", "-o", str(tmp_path / "a.md")) == 1
    assert "no one-pager saved yet" in capsys.readouterr().err
    about_store.save_text(ctx.db, "   \n", ctx.now())
    assert cli("export", "-o", str(tmp_path / "a.md")) == 1
    assert "empty" in capsys.readouterr().err
    # usage errors exit 2, as the README's exit statuses say (#28.11)
    assert cli("export", "-o", str(tmp_path / "a.docx")) == 2
    assert "Cannot tell the format" in capsys.readouterr().err
    assert cli("export", "-o", str(tmp_path / "no" / "a.md")) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli("export", "--format", "md", "-o", str(tmp_path)) == 2
    assert "is a folder" in capsys.readouterr().err


def test_store_survives_reopen(data_dir, clock):
    from companion.core.context import AppContext

    first = AppContext(data_dir, clock=clock)
    about_store.save_text(first.db, "kept", clock.now())
    first.close()
    second = AppContext(data_dir, clock=clock)
    try:
        assert about_store.load_text(second.db) == "kept"
        conn = sqlite3.connect(second.db_path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    finally:
        second.close()
