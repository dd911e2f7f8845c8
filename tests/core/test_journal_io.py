"""Whole-journal JSON export/import, and the export/journal/demo commands."""

from __future__ import annotations

import datetime as dt
import json
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.day.loops import add_round, create_loop, end_round, start_round
from companion.core.journal import entries as journal
from companion.core.journal import files as journal_io
from companion.core.journal import thankyou as journal_thankyou
from companion.core.storage.store import open_memory_store
from companion.core.study import ranking as studylist

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def _strip(doc):
    doc = dict(doc)
    doc.pop("exported_at")
    return doc


def _sample(db):
    loop = create_loop(db, "Acme", "SRE", starts_on="2026-11-30", notes="loop notes\twith tab")
    rid = start_round(
        db, "design", NOW - dt.timedelta(hours=2), loop_id=loop, interviewer_role="peer"
    )
    end_round(db, rid, NOW - dt.timedelta(hours=1))
    journal.add_asked(db, loop, rid, 'Design "X"\nnow', "design", at=NOW)
    fid = journal.add_flub(db, loop, rid, "Burst load", "no 429s", 3, at=NOW)
    journal.add_went_well(db, loop, rid, "Rapport 🙂", at=NOW)
    journal.add_weak_topic(db, "Paxos", loop_id=loop, at=NOW)
    journal_thankyou.save_thank_you(db, loop, to_whom="Dana", draft="Thanks!", sent_at=NOW)
    loose = start_round(db, "coding", NOW)
    journal.add_asked(db, None, loose, "LRU cache", at=NOW)
    item = next(i for i in studylist.study_list(db, NOW, include_quiz=False) if i.key == "paxos")
    studylist.mark_studied(db, item, NOW)
    from companion.core.selfcheck import planner

    planner.record_asked(db, loop, "What does success look like?", "hiring-manager", rid, NOW)
    return loop, fid


def test_round_trip_is_exact(db, tmp_path):
    _sample(db)
    out = tmp_path / "journal.json"
    assert journal_io.export_journal(db, out, NOW) == 1
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    original = json.loads(out.read_text(encoding="utf-8"))
    assert original["loops"][0]["asked_them"][0]["text"] == "What does success look like?"
    fresh = open_memory_store().db
    report = journal_io.import_journal(fresh, out)
    assert report.loops_added == 1 and report.asked_them_skipped == 0
    again = journal_io.journal_dict(fresh, NOW)
    assert _strip(again) == _strip(original)


def test_importing_twice_adds_nothing(db, tmp_path):
    _sample(db)
    out = tmp_path / "journal.json"
    journal_io.export_journal(db, out, NOW)
    before = journal_io.journal_dict(db, NOW)
    report = journal_io.import_journal(db, out)
    assert report.loops_added == 0 and report.loops_skipped == 1 and report.entries_added == 0
    assert journal_io.journal_dict(db, NOW) == before


def test_empty_journal_round_trips(db, tmp_path):
    out = tmp_path / "j.json"
    journal_io.export_journal(db, out, NOW)
    fresh = open_memory_store().db
    journal_io.import_journal(fresh, out)
    assert _strip(journal_io.journal_dict(fresh, NOW)) == _strip(journal_io.journal_dict(db, NOW))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other"), "not an Interview Companion journal"),
        (lambda d: d.update(version=99), "version 99"),
        (
            lambda d: d["loops"][0]["flubs"][0].update(severity=7),
            r"loops\[0\]\.flubs\[0\]\.severity",
        ),
        (lambda d: d["loops"][0].update(company=""), r"loops\[0\]\.company: is empty"),
        (lambda d: d["loops"][0]["asked"][0].update(round=42), r"asked\[0\]\.round"),
        (lambda d: d["loops"][0]["rounds"][0].update(ended_at="yesterday"), "ISO 8601"),
        (lambda d: d["loops"][0].update(flubs="nope"), "must be a list"),
    ],
)
def test_bad_files_change_nothing_and_say_where(db, tmp_path, mutate, message):
    _sample(db)
    doc = journal_io.journal_dict(db, NOW)
    mutate(doc)
    target = open_memory_store().db
    create_loop(target, "Existing")
    before = journal_io.journal_dict(target, NOW)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(journal_io.JournalImportError, match=message):
        journal_io.import_journal(target, bad)
    assert journal_io.journal_dict(target, NOW) == before


def test_unreadable_files_are_explained(db, tmp_path):
    with pytest.raises(journal_io.JournalImportError, match="does not exist"):
        journal_io.import_journal(db, tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    with pytest.raises(journal_io.JournalImportError, match="line 1"):
        journal_io.import_journal(db, broken)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(journal_io.JournalImportError, match="not UTF-8"):
        journal_io.import_journal(db, binary)


field_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30
).map(str.strip)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    company=field_text.filter(bool),
    notes=field_text,
    question=field_text.filter(bool),
    topic=field_text.filter(bool),
    detail=field_text,
)
def test_property_journal_json_round_trips(company, notes, question, topic, detail):
    src = open_memory_store().db
    loop = create_loop(src, company, notes=notes)
    rid = add_round(src, loop, "design", interviewer_name=notes)
    journal.add_asked(src, loop, rid, question, topic, at=NOW)
    journal.add_flub(src, loop, rid, topic, detail, at=NOW)
    journal_thankyou.save_thank_you(src, loop, to_whom=notes, draft=detail)
    doc = json.loads(json.dumps(journal_io.journal_dict(src, NOW), ensure_ascii=False))
    dst = open_memory_store().db
    journal_io.import_journal_data(dst, doc)
    assert _strip(journal_io.journal_dict(dst, NOW)) == _strip(doc)


# --- commands ---------------------------------------------------------------------------


def _cli(argv):
    from companion.cli import main

    return main(argv)


def test_demo_export_and_journal_commands(data_dir, tmp_path, capsys):
    assert _cli(["--data-dir", str(data_dir), "demo", "--loops", "12"]) == 0
    assert "Added 12 loop(s)" in capsys.readouterr().out
    for fmt in ("md", "csv", "anki", "json"):
        out = tmp_path / f"study.{fmt}"
        assert (
            _cli(
                [
                    "--data-dir",
                    str(data_dir),
                    "export",
                    "study-list",
                    "--format",
                    fmt,
                    "-o",
                    str(out),
                ]
            )
            == 0
        )
        assert out.stat().st_size > 0
    dump = tmp_path / "journal.json"
    assert (
        _cli(
            ["--data-dir", str(data_dir), "journal", "export", "--format", "json", "-o", str(dump)]
        )
        == 0
    )
    other = tmp_path / "other"
    assert _cli(["--data-dir", str(other), "journal", "import", "--format", "json", str(dump)]) == 0
    assert "Imported 12 loop(s)" in capsys.readouterr().out


def test_commands_fail_with_a_message_not_a_traceback(data_dir, tmp_path, capsys):
    assert (
        _cli(
            [
                "--data-dir",
                str(data_dir),
                "export",
                "study-list",
                "-o",
                str(tmp_path / "no" / "x.md"),
            ]
        )
        == 2
    )
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert _cli(["--data-dir", str(data_dir), "journal", "import", str(bad)]) == 1
    assert "Nothing was imported" in capsys.readouterr().err
    assert _cli(["--data-dir", str(data_dir), "demo", "--loops", "-1"]) == 2
