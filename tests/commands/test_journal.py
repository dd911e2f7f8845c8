"""`companion journal import` of files whose text breaks the field rule
(companion.core.text), written as JSON escapes a real file can hold: each is refused in
one line naming the place, or imported the way the careful check would, and a refused
file leaves the journal byte for byte as it was."""

from __future__ import annotations

import json
import sqlite3

import pytest
from demo_journal import companion_with_demo

from companion.cli import main

HEAD = '"format": "interview-companion-journal", "version": 1'


def _journal_bytes(data_dir) -> bytes:
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return (data_dir / "companion.sqlite3").read_bytes()


def _companies(data_dir) -> list[str]:
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    try:
        return [row[0] for row in conn.execute("SELECT company FROM loops ORDER BY id")]
    finally:
        conn.close()


@pytest.fixture
def journal(tmp_path, capsys):
    data_dir = tmp_path / "data"
    assert companion_with_demo(["--data-dir", str(data_dir), "demo", "--loops", "2"]) == 0
    capsys.readouterr()
    return data_dir


def _import(journal, tmp_path, body: bytes) -> int:
    src = tmp_path / "in.json"
    src.write_bytes(body)
    return main(["--data-dir", str(journal), "journal", "import", str(src)])


@pytest.mark.parametrize(
    ("rest", "place"),
    [
        # ESC is stripped and the company is left empty (the file is not plain: its
        # strings are searched)
        (r'"loops": [{"company": "\u001b"}]', "loops[0].company: is empty."),
        (r'"loops": [{"company": "\u0000\b\f\u007f"}]', "loops[0].company: is empty."),
        (
            r'"loops": [{"company": "A\ud800"}]',
            "loops[0].company: holds a lone surrogate (U+D800) at position 1.",
        ),
        (r'"loops": [], "unfiled": []', "unfiled: must be an object or null."),
        (r'"loops": [], "stories": {"rounds": {}}', "stories.rounds: must be a list."),
        (r'"loops": [], "review": {"cards": {}}', "review.cards: must be a list."),
        (
            r'"loops": [{"company": "A", "x\udc00": 1}]',
            "loops[0]: a key holds a lone surrogate (U+DC00) at position 1.",
        ),
        (
            r'"loops": [], "\ud800": 1',
            "journal: a key holds a lone surrogate (U+D800) at position 0.",
        ),
        (
            r'"loops": [], "stories": {"document": "x\udfff"}',
            "stories.document: holds a lone surrogate (U+DFFF) at position 1.",
        ),
    ],
)
def test_text_the_field_rule_refuses_is_named_in_one_line(journal, tmp_path, capsys, rest, place):
    before = _journal_bytes(journal)
    assert _import(journal, tmp_path, f"{{{HEAD}, {rest}}}".encode()) == 1
    err = capsys.readouterr().err
    assert err == f"companion: {tmp_path / 'in.json'}: {place} Nothing was imported.\n"
    assert _journal_bytes(journal) == before


@pytest.mark.parametrize(
    ("body", "company", "removed"),
    [
        (rb'"A\u001bcme"', "Acme", 1),  # C0 controls are stripped and counted
        (rb'"A\u009bcme"', "A\x9bcme", 0),  # C1 controls are kept, escaped or raw
        ('"A\u009bcme"'.encode(), "A\x9bcme", 0),
        ('"\ufeffAcme"'.encode(), "\ufeffAcme", 0),  # a BOM inside a string is kept
        (rb'"Acme \ud83d\ude00"', "Acme \U0001f600", 0),  # a surrogate pair is one character
    ],
)
def test_text_the_field_rule_keeps_is_imported_as_the_careful_check_gives_it(
    journal, tmp_path, capsys, body, company, removed
):
    assert (
        _import(journal, tmp_path, b'{%s, "loops": [{"company": %s}]}' % (HEAD.encode(), body)) == 0
    )
    out, err = capsys.readouterr()
    assert "Imported 1 loop " in out
    assert err == (
        f"Removed {removed} control character{'' if removed == 1 else 's'}.\n" if removed else ""
    )
    assert _companies(journal)[-1] == company


def test_a_file_that_starts_with_a_bom_is_read(journal, tmp_path, capsys):
    """RFC 8259 lets a reader ignore a BOM; Windows editors write one."""
    body = b'\xef\xbb\xbf{%s, "loops": [{"company": "Bom Inc"}]}' % HEAD.encode()
    assert _import(journal, tmp_path, body) == 0
    assert "Imported 1 loop " in capsys.readouterr().out
    assert _companies(journal)[-1] == "Bom Inc"


# --- the fifth hardening pass: strict JSON in unknown keys, takes in range, control
# characters out of the story bank and review cards, an extra file name, counts

FILE_HEAD = '"format": "interview-companion-journal", "version": 1, "loops": []'


def _take(**figures) -> str:
    return json.dumps({"at": "2026-12-01T10:00:00+00:00", **figures})


@pytest.mark.parametrize(
    "tail, said",
    [
        ('"x": "\\ud800"', "lone surrogate (U+D800)"),
        ('"x": {"y": ["\\udc00"]}', "lone surrogate (U+DC00)"),
        ('"x": 1e400', "1e400 is too large"),
        ('"x": [-1e400]', "-1e400 is too large"),
        (f'"rehearsal_takes": [{_take(seconds=-5)}]', "seconds: should be from 0 to 1800, not -5"),
        (f'"rehearsal_takes": [{_take(seconds=1e308)}]', "should be from 0 to 1800, not 1e+308"),
        (f'"rehearsal_takes": [{_take(answer_seconds=-1e308)}]', "answer_seconds: should be"),
        (f'"rehearsal_takes": [{_take(measured_wpm=1e300)}]', "measured_wpm: should be"),
        (f'"rehearsal_takes": [{_take(off_script_share=2)}]', "from 0 to 1, not 2"),
    ],
)
def test_a_value_out_of_range_is_refused_in_one_line(data_dir, tmp_path, capsys, tail, said):
    assert companion_with_demo(["--data-dir", str(data_dir), "demo", "--loops", "1"]) == 0
    before = _journal_bytes(data_dir)
    path = tmp_path / "in.json"
    path.write_text("{" + FILE_HEAD + ", " + tail + "}")
    capsys.readouterr()
    assert main(["--data-dir", str(data_dir), "journal", "import", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err
    assert _journal_bytes(data_dir) == before


def test_takes_in_range_are_kept_with_negative_levels(data_dir, tmp_path, capsys):
    path = tmp_path / "in.json"
    take = _take(seconds=61.5, peak_dbfs=-3.2, snr_db=-4.0, fillers=2)
    path.write_text("{" + FILE_HEAD + f', "rehearsal_takes": [{take}]' + "}")
    assert main(["--data-dir", str(data_dir), "journal", "import", str(path)]) == 0
    assert "1 rehearsal take" in capsys.readouterr().out


def test_stories_and_review_titles_lose_their_control_characters(data_dir, tmp_path, capsys):
    bad = "Acme\u001b]0;pwned\u0007\u001b[2J"
    review = {
        "cards": [{"kind": "topic", "id": "t", "title": bad, "created_at": "2026-12-01T10:00:00Z"}],
        "log": [
            {"kind": "topic", "id": "t", "rating": "good", "reviewed_at": at, "source": "study"}
            for at in ("2026-12-01T10:00:00Z", "2026-12-01T10:00:00Z", "2026-12-02T10:00:00Z")
        ],
    }
    path = tmp_path / "in.json"
    path.write_text(
        json.dumps(
            {"format": "interview-companion-journal", "version": 1, "loops": [], "review": review}
        )
    )
    assert main(["--data-dir", str(data_dir), "journal", "import", str(path)]) == 0
    captured = capsys.readouterr()
    assert "Imported 0 loops, 0 entries and 3 reviews" in captured.out
    assert "Removed 3 control characters" in captured.err + captured.out
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    title = conn.execute("SELECT title FROM review_cards").fetchone()[0]
    conn.close()
    assert title == "Acme]0;pwned[2J"


def test_export_refuses_a_second_file_name(data_dir, tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["--data-dir", str(data_dir), "journal", "export", "-o", str(a), str(b)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{b} is one file too many" in err
    assert not a.exists() and not b.exists()


def test_the_story_bank_loses_its_control_characters(data_dir, tmp_path, capsys):
    document = "## Story: Outage\x1b]52;c;ZWNobyBoaQ==\x07\n\nWe fixed it.\n"
    path = tmp_path / "in.json"
    path.write_text(
        json.dumps(
            {
                "format": "interview-companion-journal",
                "version": 1,
                "loops": [],
                "stories": {"document": document, "rounds": []},
            }
        )
    )
    assert main(["--data-dir", str(data_dir), "journal", "import", str(path)]) == 0
    assert "Removed 2 control characters" in capsys.readouterr().err
    assert main(["--data-dir", str(data_dir), "stories", "check"]) in (0, 1)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
