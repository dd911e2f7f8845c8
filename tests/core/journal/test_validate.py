"""The quick check of plain loops gives exactly the careful check's rows, and hands
anything else to the careful check (which names the place).

"Plain" is a claim about a file's bytes (companion.core.text.json_plain): the quick path
trusts it and does not search strings again. These tests make the claim only of the
bytes a real file would hold for the loop, never of a loop no such file can give."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.core import text as field_text
from companion.core.journal import validate
from companion.core.journal.validate import CheckedJournal, JournalImportError

DEFAULT = "2026-12-01T09:00:00+00:00"

texts = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["", " ", "a\x07b", "x\ud800", "tab\tnew\nline", "\x7f"]),
    st.none(),
    st.integers(-2, 4),
    st.booleans(),
    st.floats(allow_nan=False, max_value=3, min_value=1),
    st.lists(st.integers(), max_size=1),
)
stamps = st.one_of(
    texts,
    st.sampled_from(
        [
            "2026-11-30",
            "2026-11-30T10:00:00+00:00",
            "1969-12-31T23:00:00+00:00",
            "2201-01-01",
            "0001-01-01",
            "yesterday",
            " 2026-11-30",
        ]
    ),
)


def _maybe(draw, obj: dict, key: str, values) -> None:
    if draw(st.booleans()):
        obj[key] = draw(values)


@st.composite
def loops(draw) -> dict:
    loop: dict = {}
    for key in ("company", "role", "status", "notes"):
        _maybe(draw, loop, key, st.one_of(st.sampled_from(["Acme", " Acme "]), texts))
    for key in ("starts_on", "ends_on", "created_at"):
        _maybe(draw, loop, key, stamps)
    refs = draw(st.lists(st.one_of(st.integers(0, 3), st.just(True), st.none()), max_size=3))
    rounds = []
    for ref in refs:
        r = {"ref": ref}
        for key in ("type", "interviewer_role", "interviewer_name", "notes"):
            _maybe(draw, r, key, texts)
        for key in ("scheduled_at", "started_at", "ended_at"):
            _maybe(draw, r, key, stamps)
        rounds.append(r)
    if draw(st.booleans()):
        loop["rounds"] = draw(st.sampled_from([rounds, None, "nope", [*rounds, 3]]))
    round_refs = st.one_of(st.none(), st.integers(0, 4), st.just(False), st.just(1.0))
    for name, (_table, fields, optional) in validate.ENTRY_KINDS.items():
        entries = []
        for _ in range(draw(st.integers(0, 2))):
            e: dict = {}
            _maybe(draw, e, "round", round_refs)
            for key in (*fields, *optional):
                if key == "severity":
                    _maybe(draw, e, key, st.one_of(st.integers(0, 4), st.just(2.0), texts))
                elif key.endswith("_at"):
                    _maybe(draw, e, key, stamps)
                else:
                    _maybe(draw, e, key, st.one_of(st.sampled_from(["Paxos", "q"]), texts))
            entries.append(e)
        _maybe(draw, loop, name, st.sampled_from([entries, None, {}]))
    asked_them = [
        {"round": draw(round_refs), "text": draw(texts), "audience": draw(texts)}
        for _ in range(draw(st.integers(0, 1)))
    ]
    _maybe(draw, loop, "asked_them", st.just(asked_them))
    ty = {"to_whom": draw(texts), "draft": draw(texts), "sent_at": draw(stamps)}
    _maybe(draw, loop, "thank_you", st.sampled_from([ty, None, "x"]))
    return loop


def _rows(journal: CheckedJournal) -> tuple:
    return (journal.loops, journal.rounds, journal.entries, journal.asked_them, journal.thank_yous)


def _careful(loop: dict):
    journal = CheckedJournal(default_stamp=DEFAULT)
    try:
        journal._add_checked(0, loop)
    except JournalImportError as exc:
        return str(exc)
    return _rows(journal)


def _file_bytes(loop: dict) -> bytes:
    """The bytes a journal file holds for ``loop``, as the export writes them (UTF-8, not
    escaped); a lone surrogate can only be written as its escape."""
    try:
        return json.dumps(loop, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(loop).encode("ascii")


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(loops(), st.booleans())
# found at random before the ci profile: plain=True claimed of a loop whose file (it holds
# "\u001b") json_plain says is not plain, so the quick path took an ESC as a company
@example(loop={"company": "\x1b"}, plain=True)
@example(loop={"company": "\x08"}, plain=True)  # the same, found again by the flake hunt
@example(loop={"company": "A\x9b\ufeff"}, plain=True)  # C1 and BOM: plain, and kept
def test_a_loop_checked_quickly_gives_the_careful_checks_rows(loop, plain):
    plain = plain and field_text.json_plain(_file_bytes(loop))
    careful = _careful(json.loads(json.dumps(loop)))
    quick = CheckedJournal(default_stamp=DEFAULT, plain_text=plain)
    taken = quick._add_plain(json.loads(json.dumps(loop)))
    if taken:
        assert _rows(quick) == careful
    else:
        assert _rows(quick) == ([], [], {name: [] for name in validate.ENTRY_KINDS}, [], [])
    # whichever path takes it, add_loop gives what the careful check gives
    both = CheckedJournal(default_stamp=DEFAULT, plain_text=plain)
    try:
        both.add_loop(0, json.loads(json.dumps(loop)))
    except JournalImportError as exc:
        assert str(exc) == careful
    else:
        assert _rows(both) == careful


def test_an_exported_loop_takes_the_quick_path():
    loop = {
        "company": "Acme",
        "created_at": "2026-11-30T10:00:00+00:00",
        "rounds": [{"ref": 1, "type": "design", "started_at": "2026-11-30T10:00:00+00:00"}],
        "flubs": [{"round": 1, "topic": "Paxos", "severity": 3, "created_at": DEFAULT}],
        "thank_you": {"to_whom": "Dana", "draft": "Thanks", "sent_at": None},
    }
    journal = CheckedJournal(default_stamp=DEFAULT)
    assert journal._add_plain(loop)
    assert journal.entries["flubs"] == [(0, 1, "Paxos", "", 3, DEFAULT, None, True)]


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        (b'{"a": "plain text, \\"quoted\\" and\\nnew lines"}', True),
        (b'{"a": "no escapes at all"}', True),
        (b'{"a": "a bell \\u0007"}', False),
        (b'{"a": "\\u00e9 is fine but looked at"}', False),
        (b'{"a": "back\\bspace"}', False),
        (b'{"a": "form\\ffeed"}', False),
        (b'{"a": "raw DEL \x7f"}', False),
    ],
)
def test_json_plain_sees_every_way_a_character_to_strip_can_come_in(raw, plain):
    assert field_text.json_plain(raw) is plain
    if plain:  # and a plain file really holds none
        assert not field_text.UNUSUAL.search(json.loads(raw)["a"])


def test_a_control_character_in_a_file_is_still_stripped_and_counted(tmp_path):
    doc = {
        "format": validate.JOURNAL_FORMAT,
        "version": 1,
        "exported_at": DEFAULT,
        "loops": [{"company": "Ac\x07me", "created_at": DEFAULT}],
    }
    path = tmp_path / "j.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    checked = validate.read_journal(path, dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    assert checked.loops[0][0] == "Acme"
    assert checked.stripped == 1


def test_a_company_name_past_the_text_limit_is_refused_by_name(tmp_path):
    """A 5 MB company name came in whole (the app's own fields stop at MAX_TEXT); refused
    with its place, by the quick path and the careful one alike, and by create_loop."""
    from companion.core.day.loops import create_loop
    from companion.core.storage.store import open_store
    from companion.core.text import MAX_TEXT

    path = tmp_path / "big-name.json"
    doc = {"format": "interview-companion-journal", "version": 1}
    doc["loops"] = [{"company": "A" * (MAX_TEXT + 1), "role": "SRE", "rounds": []}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(JournalImportError, match=r"loops\[0\]\.company.*the limit is 200,000"):
        validate.read_journal(path, dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    store = open_store(tmp_path / "companion.sqlite3")
    with pytest.raises(ValueError, match="The company name is 200,001 characters"):
        create_loop(store.db, "A" * (MAX_TEXT + 1))
    assert store.db["loops"].count == 0
    store.close()
