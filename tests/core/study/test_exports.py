"""Study-list exports stay valid and re-import cleanly whatever the text holds."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries as journal
from companion.core.storage.store import open_memory_store
from companion.core.study import exports
from companion.core.study.facts import topic_facts
from companion.core.text import topic_key

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
NASTY = [
    '=HYPERLINK("http://x","y")',
    "+1+2",
    "-3",
    "@SUM(A1)",
    "\tindented",
    "\rcarriage",
    "＝full width",
    "# not a comment",
    'say "hi"\tthere\nnext line',
    "naïve 東京 🙂 \u202e rtl",
]


def _fill(db, topics, details=("d",), companies=("Acme",)):
    for n, topic in enumerate(topics):
        loop = create_loop(db, companies[n % len(companies)] or "X")
        rid = add_round(db, loop, "design review")
        journal.add_flub(db, loop, rid, topic, details[n % len(details)], 1 + n % 3, at=NOW)


def _rows(db):
    return exports.study_rows(db, NOW)


def parse_csv(text):
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline="")))


def parse_anki(text):
    lines = text.split("\n")
    headers = {}
    while lines and lines[0].startswith("#"):
        key, _, value = lines.pop(0)[1:].partition(":")
        headers[key] = value
    body = "\n".join(lines)
    records = list(csv.reader(io.StringIO(body, newline=""), delimiter="\t", quotechar='"'))
    return headers, records


def test_csv_cells_never_start_a_formula(db):
    _fill(db, NASTY, details=NASTY, companies=NASTY)
    rows = parse_csv(exports.render_csv(_rows(db)))
    assert rows[0] == exports.CSV_COLUMNS
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r", "＝")), cell
    topics = {r[1] for r in rows[1:]}
    assert '\'=HYPERLINK("http://x","y")' in topics and "'-3" in topics


def test_anki_file_has_headers_and_one_basic_card_per_topic(db):
    _fill(db, NASTY, details=NASTY, companies=["Acme Robotics", "Müller & Søn"])
    text = exports.render_anki(_rows(db))
    headers, records = parse_anki(text)
    assert headers == {
        "separator": "tab",
        "html": "false",
        "deck": exports.ANKI_DECK,
        "notetype": "Basic",
        "columns": "Front\tBack\tTags",
        "tags column": "3",
    }
    assert len(records) == len(NASTY)
    assert all(len(r) == 3 for r in records)
    fronts = sorted(r[0] for r in records)
    assert all(front.endswith("?") for front in fronts)
    for topic in NASTY:  # each topic's words open its question
        assert any(front.startswith(exports.topic_words(topic)) for front in fronts), topic
    tags = records[0][2].split(" ")
    assert "interview-companion" in tags and "round::design_review" in tags
    assert any(t.startswith("company::") for t in tags)
    assert all(" " not in t for t in tags)
    # no card line may start with '#', which Anki would read as a comment
    for line in text.split("\n")[6:]:
        assert not line.startswith("#")


def test_markdown_is_a_checklist_one_line_per_topic(db):
    _fill(db, ["Burst *load*", "multi\nline [topic]"])
    text = exports.render_markdown(_rows(db), NOW)
    items = [line for line in text.splitlines() if line.startswith("- [ ] ")]
    assert len(items) == 2
    assert r"Burst \*load\*" in text and r"multi line \[topic\]" in text


def test_markdown_keeps_parentheses_plain(db, content):
    from companion.core.study.ranking import GuideIndex

    _fill(db, ["metrics"], details=["said GPU utilisation 100% (on decode)"])
    text = exports.render_markdown(exports.study_rows(db, NOW, GuideIndex(content)), NOW)
    assert "(on decode)" in text and "\\(" not in text and "\\)" not in text


def test_the_metrics_flub_links_to_the_trap_that_names_sm_and_dram_active(db, content):
    from companion.core.study.ranking import GuideIndex

    _fill(db, ["metrics"], details=["said GPU utilisation 100%"])
    (row,) = exports.study_rows(db, NOW, GuideIndex(content))
    assert row.item.guide.section_id == "traps"
    assert "SM-active" in row.item.guide.item and "DRAM-active" in row.item.guide.item


def test_anki_cards_ask_a_question_and_answer_it(db, content):
    from companion.core.selfcheck import quiz
    from companion.core.study.ranking import GuideIndex

    _fill(db, ["edge-cases", "metrics"], details=["", "said GPU utilisation 100%"])
    question = next(q for q in content.quiz() if q.id == "day-of-timebox")
    quiz.record_mark(db, question, "missed", NOW)
    guide = GuideIndex(content)
    rows = exports.study_rows(db, NOW, guide)
    _h, records = parse_anki(exports.render_anki(rows, answers=guide.quiz_answers()))
    cards = {front: back for front, back, _tags in records}
    assert all(front.endswith("?") for front in cards)
    assert "edge-cases" not in cards and "metrics" not in cards  # no bare slug on a front
    metrics = next(f for f in cards if f.startswith("metrics: “said GPU utilisation 100%”"))
    assert "DRAM-active" in cards[metrics]
    edge = next(f for f in cards if f.startswith("edge cases"))
    assert edge.endswith("?")
    assert cards[question.question].startswith(question.answer)


def test_json_follows_its_documented_schema(db, content):
    from companion.core.study.ranking import GuideIndex

    _fill(db, ["GPU utilization", "Zebra"])
    data = json.loads(exports.render_json(exports.study_rows(db, NOW, GuideIndex(content)), NOW))
    assert data["format"] == "interview-companion-study-list" and data["version"] == 1
    keys = {
        "rank",
        "key",
        "topic",
        "sources",
        "times",
        "last_seen",
        "worst",
        "score",
        "companies",
        "round_types",
        "details",
        "guide",
    }
    for item in data["items"]:
        assert set(item) == keys
    by_topic = {i["topic"]: i for i in data["items"]}
    assert by_topic["GPU utilization"]["guide"]["section_id"] == "traps"
    assert by_topic["Zebra"]["guide"] is None


@pytest.mark.parametrize("fmt", exports.FORMATS)
def test_empty_journal_exports_are_valid(db, tmp_path, fmt):
    out = tmp_path / f"s.{fmt}"
    assert exports.export_study_list(db, fmt, out, NOW) == 0
    text = out.read_text(encoding="utf-8")
    if fmt == "csv":
        assert parse_csv(text) == [exports.CSV_COLUMNS]
    elif fmt == "anki":
        assert parse_anki(text)[1] == []
    elif fmt == "json":
        assert json.loads(text)["items"] == []
    else:
        assert "Nothing to study" in text


@pytest.mark.parametrize("fmt", exports.FORMATS)
def test_exports_are_atomic_and_private(db, tmp_path, fmt, monkeypatch):
    _fill(db, ["Heaps"])
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "s.out"
    out.write_text("previous export")
    os.chmod(out, 0o644)
    exports.export_study_list(db, fmt, out, NOW)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert "Heaps" in out.read_text(encoding="utf-8")
    assert [p.name for p in folder.iterdir()] == ["s.out"]  # no temp file left

    def boom(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    before = out.read_text(encoding="utf-8")
    with pytest.raises(OSError):
        exports.export_study_list(db, fmt, out, NOW)
    assert out.read_text(encoding="utf-8") == before  # the old file is untouched


def test_unknown_format_is_refused(db, tmp_path):
    with pytest.raises(ValueError, match="md, csv, anki, json"):
        exports.export_study_list(db, "xlsx", tmp_path / "x", NOW)


def test_100kb_fields_export(db):
    big = 'x\t"y"\n' * 20_000
    _fill(db, ["Big"], details=[big])
    rows = _rows(db)
    cell = parse_csv(exports.render_csv(rows))[1][7]  # a spreadsheet would cut it silently
    assert len(cell) == exports.SPREADSHEET_CELL and cell.endswith(exports.CUT)
    assert big.strip().startswith(cell.removesuffix(exports.CUT))
    assert json.loads(exports.render_json(rows, NOW))["items"][0]["details"] == [big.strip()]
    _h, records = parse_anki(exports.render_anki(rows))
    assert len(records) == 1 and len(records[0]) == 3 and big.strip() in records[0][1]


# --- properties ---------------------------------------------------------------------

text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=1,
    max_size=40,
).filter(lambda s: topic_key(s) != "" and s.strip() != "")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    topics=st.lists(text, min_size=0, max_size=6, unique_by=topic_key),
    detail=text,
    company=text,
)
def test_property_every_export_parses_back(topics, detail, company):
    store = open_memory_store()
    db = store.db
    _fill(db, topics, details=[detail], companies=[company])
    rows = _rows(db)
    # CSV through the csv module: same number of rows, the cells as written (plus the ')
    parsed = parse_csv(exports.render_csv(rows))
    assert len(parsed) == len(topics) + 1
    for row, got in zip(rows, parsed[1:]):
        assert got[1] == exports.csv_safe(row.item.topic)
        assert got[7] == exports.csv_safe("\n".join(row.detail.details))
    # JSON through json
    data = json.loads(exports.render_json(rows, NOW))
    assert [i["topic"] for i in data["items"]] == [r.item.topic for r in rows]
    assert all(i["details"] == [detail.replace("\x00", "").strip()] for i in data["items"])
    # Anki: the right number of cards with three fields each, the front as written
    _headers, records = parse_anki(exports.render_anki(rows))
    assert len(records) == len(topics)
    assert all(len(r) == 3 for r in records)
    expected = [exports.anki_front(r).replace("\r\n", "\n").replace("\r", "\n") for r in rows]
    assert [r[0] for r in records] == expected
    assert all(r[0].endswith("?") for r in records)
    # Markdown: one checklist line per topic
    md = exports.render_markdown(rows, NOW)
    assert sum(line.startswith("- [ ] ") for line in md.splitlines()) == len(topics)
    store.close()


def test_stored_nul_and_control_characters_never_reach_an_export(db):
    """Rows stored before the import door stripped control characters still export
    cleanly: no NUL or other C0 control in any format (tab/newline only where quoted)."""
    _fill(db, ["Cach\x00ing\x07"], details=("de\x00tail\x1b",), companies=("Ac\x00me",))
    rows = _rows(db)
    for fmt in exports.FORMATS:
        text = exports.render(fmt, rows, NOW)
        assert "\x00" not in text and "\x07" not in text and "\x1b" not in text, fmt
    assert parse_csv(exports.render_csv(rows))[1][1] == "Caching"


@pytest.mark.parametrize(
    "text",
    ["＋1+1", "－1", "＠SUM(A1)", "＝1", "\tcmd", "\rcmd", "=1", "+1", "-1", "@A1"],
)
def test_csv_escapes_every_formula_start_including_full_width_and_a_tab_or_cr(text):
    """Each start a spreadsheet may evaluate (full-width ＋－＠, a leading tab or CR) is
    pinned one by one: leaving any out of the rule fails here."""
    cell = exports.csv_safe(text)
    assert cell.startswith("'"), repr(cell)
    assert cell[1:] == exports.plain(text)


def test_csv_leaves_an_ordinary_cell_alone():
    assert exports.csv_safe("consistent hashing") == "consistent hashing"
    assert exports.csv_safe("a+b") == "a+b"


def test_markdown_names_rounds_for_people_and_the_data_formats_keep_ids(db, content, tmp_path):
    """The Markdown checklist said "in design, ml-infra-deep-dive-interview": type ids."""
    from companion.core.study.ranking import GuideIndex

    loop = create_loop(db, "Northwind")
    journal.add_flub(db, loop, add_round(db, loop, "design"), "backpressure", "", 2, at=NOW)
    rid = add_round(db, loop, "ml-infra-deep-dive-interview")
    db.execute("UPDATE rounds SET type_label = 'ML infra deep dive interview' WHERE id = ?", [rid])
    journal.add_flub(db, loop, rid, "backpressure", "", 2, at=NOW)
    guide = GuideIndex(content)
    exports.export_study_list(db, "md", tmp_path / "s.md", NOW, guide=guide)
    text = (tmp_path / "s.md").read_text(encoding="utf-8")
    assert "in System design, ML infra deep dive interview)" in text, text
    exports.export_study_list(db, "json", tmp_path / "s.json", NOW, guide=guide)
    (topic,) = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["items"]
    assert topic["round_types"] == ["design", "ml-infra-deep-dive-interview"]


def test_a_topic_from_every_loop_names_a_few_companies_and_counts_the_rest(db):
    """The companies cell grew by one a loop (98,000 characters at 10,000 loops), past
    the 32,767 a spreadsheet cell holds; the pane and the Markdown named them all."""
    companies = [f"Company {n:02d} " + "x" * 1_000 for n in range(60)]
    _fill(db, ["Caching"] * 60, companies=companies)
    rows = _rows(db)
    assert len(rows) == 1 and len(rows[0].detail.companies) == 60
    at = next(f for f in topic_facts(rows[0].item, rows[0].detail) if f.startswith("at "))
    assert at.endswith(" and 50 more companies") and at.count("Company") == 10
    cell = parse_csv(exports.render_csv(rows))[1][5]
    shown = cell.count("Company ")
    assert len(cell) <= exports.SPREADSHEET_CELL and 0 < shown < 60
    assert cell.endswith(f"; and {60 - shown} more")
    _h, records = parse_anki(exports.render_anki(rows))
    assert records[0][2].count("company::") == 10
    markdown = exports.render_markdown(rows, NOW)
    assert "and 50 more companies" in markdown and len(markdown) < 15_000
    assert (
        json.loads(exports.render_json(rows, NOW))["items"][0]["companies"]
        == rows[0].detail.companies
    )
