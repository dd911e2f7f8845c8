"""The check of a journal file's fields: the field rule holds whatever the file's bytes.

"Plain" is a claim about a file's bytes (companion.core.text.json_plain): the check
trusts it and does not search each string again, so the claim must never be made of
bytes that spell a character the field rule strips or refuses."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from companion.core import text as field_text
from companion.core.journal import validate
from companion.core.journal.validate import JournalImportError

DEFAULT = "2026-12-01T09:00:00+00:00"


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
    with its place, as create_loop refuses it."""
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
