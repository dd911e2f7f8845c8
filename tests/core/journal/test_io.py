"""Whole-journal JSON export/import, and the export and journal commands (and the demo generator's)."""

from __future__ import annotations

import datetime as dt
import json
import stat

import pytest
from demo_journal import companion_with_demo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.day.loops import add_round, create_loop, end_round, start_round
from companion.core.journal import entries as journal
from companion.core.journal import files as journal_io
from companion.core.journal import thankyou as journal_thankyou
from companion.core.journal import validate as journal_validate
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


# control characters are stripped at the door (see test_import_strips_control_characters)
field_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30).map(
    str.strip
)


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
    assert companion_with_demo(["--data-dir", str(data_dir), "demo", "--loops", "12"]) == 0
    assert "Added 12 loops" in capsys.readouterr().out
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
    assert "Imported 12 loops" in capsys.readouterr().out


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
    assert companion_with_demo(["--data-dir", str(data_dir), "demo", "--loops", "-1"]) == 2


# --- imported data the app cannot show ------------------------------------------------


def _doc(**extra):
    doc = {"format": "interview-companion-journal", "version": 1, "loops": []}
    doc.update(extra)
    return doc


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 2])
def test_version_must_be_exactly_the_integer_1(version):
    with pytest.raises(journal_io.JournalImportError, match="version"):
        journal_validate.parse_journal(_doc(version=version))


@pytest.mark.parametrize(
    "stamp", ["0001-01-01T00:00:00", "9999-12-31T23:59:59", "1969-12-31T00:00:00+00:00"]
)
def test_dates_outside_a_sane_range_are_refused(stamp):
    loop = {
        "company": "Acme",
        "created_at": "2026-01-01T00:00:00",
        "rounds": [{"ref": 1, "type": "design", "ended_at": stamp}],
    }
    with pytest.raises(journal_io.JournalImportError, match=r"loops\[0\]\.rounds\[0\]\.ended_at"):
        journal_validate.parse_journal(_doc(loops=[loop]))


def test_a_stored_year_1_round_does_not_break_what_shows_it():
    from companion.core.timeutil import parse_stored

    assert parse_stored("0001-01-01T00:00:00") is None
    assert parse_stored("9999-12-31T23:59:59+00:00") is None
    assert parse_stored("2026-01-01T10:00:00") is not None


def test_import_strips_control_characters():
    db = open_memory_store().db
    loop = {"company": "Ac\x00me\x07", "created_at": "2026-01-01T00:00:00", "notes": "a\tb\nc"}
    report = journal_io.import_journal_data(db, _doc(loops=[loop]))
    assert report.control_chars_removed == 2
    assert db.execute("SELECT company, notes FROM loops").fetchone() == ("Acme", "a\tb\nc")


def test_lone_surrogates_are_refused_with_their_place():
    loop = {"company": "\ud800", "created_at": "2026-01-01T00:00:00"}
    with pytest.raises(journal_io.JournalImportError, match=r"loops\[0\]\.company.*surrogate"):
        journal_validate.parse_journal(_doc(loops=[loop]))


def test_duplicate_keys_are_refused():
    text = '{"format": "interview-companion-journal", "version": 1, "loops": [], "loops": []}'
    with pytest.raises(journal_io.JournalImportError, match="twice"):
        journal_validate.load_json(text)


def test_importing_unfiled_rows_twice_adds_nothing():
    unfiled = {
        "rounds": [
            {"ref": 1, "type": "design", "started_at": "2026-01-01T10:00:00"},
            {"ref": 2, "type": "design", "started_at": "2026-01-01T10:00:00"},
        ],
        "flubs": [
            {
                "round": 1,
                "topic": "Caching",
                "detail": "x",
                "severity": 2,
                "created_at": "2026-01-01T10:05:00",
            },
            {
                "round": 2,
                "topic": "Caching",
                "detail": "x",
                "severity": 2,
                "created_at": "2026-01-01T10:05:00",
            },
        ],
        "went_well": [{"text": "Calm", "created_at": "2026-01-01T10:06:00"}],
        "weak_topics": [{"topic": "Queues", "created_at": "2026-01-01T10:07:00"}],
        "asked": [{"question": "Why?", "created_at": "2026-01-01T10:08:00"}],
    }
    db = open_memory_store().db
    first = journal_io.import_journal_data(db, _doc(unfiled=unfiled))
    assert first.entries_added == 5  # entries; the two identical rounds are both added too
    counts = {
        t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("rounds", "flubs", "went_well", "weak_topics", "asked")
    }
    for _ in range(2):
        again = journal_io.import_journal_data(db, _doc(unfiled=unfiled))
        assert again.entries_added == 0
    assert counts == {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in counts}
    assert counts["rounds"] == 2 and counts["flubs"] == 2


# --- streaming export -------------------------------------------------------------------


def test_streamed_export_is_byte_identical_to_the_whole_dict(tmp_path):
    from demo_journal import generate

    db = open_memory_store().db
    generate(db, 25, seed=3, today=NOW.date())
    loop = create_loop(db, "Unfiled holder")
    journal.add_flub(db, None, None, "Orphan", "no loop", at=NOW)
    assert loop
    out = tmp_path / "j.json"
    assert journal_io.export_journal(db, out, NOW) == 26
    expected = (
        json.dumps(journal_io.journal_dict(db, NOW), ensure_ascii=False, separators=(",", ":"))
        + "\n"
    )
    assert out.read_text(encoding="utf-8") == expected


def test_streamed_export_parses_to_the_whole_dict_whatever_the_text(tmp_path):
    from companion.core.selfcheck import planner

    db = open_memory_store().db
    loop = create_loop(db, 'Ac"me \\ \u00e9\u2028 \U0001f600', notes="tab\there\nnew\x7f")
    rid = add_round(db, loop, "design", interviewer_name="</script>")
    add_round(db, loop, "coding")
    journal.add_flub(db, loop, rid, "Caching \u0000?", "x\x01y", 3, at=NOW)
    journal_thankyou.save_thank_you(db, loop, to_whom="Ana", draft="Thanks \U0001f44d")
    other = create_loop(db, "Other")
    journal.add_went_well(db, other, rid, "points at another loop's round", at=NOW)
    planner.record_asked(db, loop, "What does success look like?", "peer", rid, NOW)
    out = tmp_path / "j.json"
    journal_io.export_journal(db, out, NOW)
    assert json.loads(out.read_text(encoding="utf-8")) == journal_io.journal_dict(db, NOW)


def test_export_memory_stays_flat_as_the_journal_grows(tmp_path):
    """Peak Python allocations while exporting 2,000 loops are not 4x those for 500."""
    import tracemalloc

    from demo_journal import generate

    peaks = []
    for loops in (500, 2000):
        db = open_memory_store().db
        generate(db, loops, seed=1, today=NOW.date())
        tracemalloc.start()
        journal_io.export_journal(db, tmp_path / f"{loops}.json", NOW)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < peaks[0] * 1.5, peaks


# --- rows without their time (#28.7) ---------------------------------------------------


def _undated_doc():
    return _doc(
        loops=[
            {"company": "Acme", "role": "SRE", "rounds": [{"ref": 1, "type": "design"}]},
            {"company": "Acme", "role": "SWE"},  # another loop of the same company
            {
                "company": "Initech",
                "flubs": [{"topic": "Caching", "detail": "no TTL"}],
                "asked": [{"question": "Why Redis?"}],
            },
        ],
        unfiled={
            "flubs": [{"topic": "Queues", "detail": "backpressure"}],
            "went_well": [{"text": "Calm"}],
        },
        study_marks=[{"topic": "Paxos"}],
    )


def _counts(db):
    tables = ("loops", "rounds", "flubs", "asked", "went_well", "study_marks")
    return {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}


def test_rows_without_their_time_are_imported_once_whenever_the_import_runs():
    """A loop or unfiled entry without created_at, or a study mark without studied_at,
    used to get the clock's time, so each import keyed it anew and added it again."""
    db = open_memory_store().db
    first = journal_io.import_journal_data(db, _undated_doc(), now=NOW)
    assert first.loops_added == 3
    counts = _counts(db)
    assert counts == {
        "loops": 3,
        "rounds": 1,
        "flubs": 2,
        "asked": 1,
        "went_well": 1,
        "study_marks": 1,
    }
    for later in (NOW + dt.timedelta(seconds=1), NOW + dt.timedelta(days=3)):
        again = journal_io.import_journal_data(db, _undated_doc(), now=later)
        assert (again.loops_added, again.entries_added) == (0, 0)
        assert again.loops_skipped == 3
    assert _counts(db) == counts


def test_a_missing_time_becomes_the_files_export_time_else_now():
    db = open_memory_store().db
    doc = _undated_doc()
    doc["exported_at"] = "2026-11-20T08:00:00+00:00"
    journal_io.import_journal_data(db, doc, now=NOW)
    assert {r[0] for r in db.execute("SELECT created_at FROM loops")} == {doc["exported_at"]}
    other = open_memory_store().db
    journal_io.import_journal_data(other, _undated_doc(), now=NOW)
    assert db.execute("SELECT studied_at FROM study_marks").fetchone()[0] == doc["exported_at"]
    assert other.execute("SELECT studied_at FROM study_marks").fetchone()[0] == (
        "2026-12-01T09:00:00+00:00"
    )


def test_a_dated_loop_is_still_keyed_by_company_and_time():
    db = open_memory_store().db
    loop = {"company": "Acme", "created_at": "2026-01-01T00:00:00", "notes": "first"}
    journal_io.import_journal_data(db, _doc(loops=[loop]), now=NOW)
    edited = dict(loop, notes="edited since")
    report = journal_io.import_journal_data(db, _doc(loops=[edited]), now=NOW)
    assert report.loops_skipped == 1 and report.loops_added == 0


# --- reading the file: strict JSON, the format first -----------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"format": "interview-companion-journal", "version": 1, "loops": [{"company": "A"}] x',
            "line 1",
        ),
        (
            '{"format": "interview-companion-journal", "version": 1, "loops": [{"company": "A"} {}]}',
            "line 1",
        ),
        ('{"format": "interview-companion-journal", "version": 1, "loops": []} []', "Extra"),
        ('{"format": "interview-companion-journal", "version": 1, "loops": [3]}', "loops.0."),
        ('{"format": "interview-companion-journal", "version": 1, "version": 1}', "twice"),
        ('{"format": "other", "version": 1, "loops": [{"company": ""}]}', "not an Interview"),
        ('{"format": "interview-companion-journal", "version": 1, "loops": [NaN]}', "NaN"),
        ('{"loops": [{"company": ""}], "format": "x", "version": 1}', "not an Interview"),
    ],
)
def test_a_file_that_breaks_strict_json_or_the_format_is_refused_by_what(tmp_path, text, message):
    path = tmp_path / "j.json"
    path.write_text(text)
    with pytest.raises(journal_io.JournalImportError, match=message):
        journal_validate.read_journal(path)


def test_loops_before_the_format_are_read_too(tmp_path):
    doc = _undated_doc()
    reordered = {"loops": doc.pop("loops"), **doc}
    path = tmp_path / "j.json"
    path.write_text(json.dumps(reordered))
    checked = journal_validate.read_journal(path, NOW)
    assert [row[0] for row in checked.loops] == ["Acme", "Acme", "Initech"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # "it nests too deeply"
        '{"format": "interview-companion-journal", "format": "x"}',  # a key twice
        '{"format": "interview-companion-journal", "version": NaN}',
        '{"format": "interview-companion-journal", "version": 1, "loops": [{"company": 5}]}',
    ],
)
def test_a_refused_file_is_told_in_whole_sentences(data_dir, tmp_path, capsys, text):
    """The walk: "…appears twice in one object Nothing was imported." (no full stop)."""
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert _cli(["--data-dir", str(data_dir), "journal", "import", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.endswith(". Nothing was imported."), err


def test_an_import_leaves_the_cycle_collector_on_whether_or_not_the_file_is_good(tmp_path):
    """The collector is paused while a file is read and its rows inserted; an import that
    left it off would let every later cycle in the app pile up."""
    import gc

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_undated_doc()))
    bad.write_text(json.dumps(_doc(loops=[{"company": 5}])))
    db = open_memory_store().db
    assert journal_io.import_journal(db, good, NOW).loops_added == 3
    assert gc.isenabled()
    with pytest.raises(journal_io.JournalImportError, match=r"loops\[0\]\.company"):
        journal_io.import_journal(db, bad, NOW)
    assert gc.isenabled()
