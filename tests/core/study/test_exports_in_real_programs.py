"""The study-list exports opened by the programs they are meant for: Anki's own library
imports the .txt, and LibreOffice Calc opens the CSV without running a single formula."""

from __future__ import annotations

import datetime as dt
import html
import re
import shutil
import subprocess
import zipfile

import pytest

from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries as journal
from companion.core.storage.store import open_memory_store
from companion.core.study import exports

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
TOPICS = [
    ("=1+1", '=HYPERLINK("http://example.com","x")'),
    ("+SUM(1,2)", "-2+3"),
    ("@cmd", "\tstarts with a tab"),
    ('Quotes "and" commas, here', "line one\nline two"),
    ("Ünïcødé 名前 🙂", "\rstarts with a carriage return"),
]


@pytest.fixture
def rows():
    store = open_memory_store()
    loop = create_loop(store.db, '=HYPERLINK("http://x") Corp')
    rid = add_round(store.db, loop, "system design")
    for topic, detail in TOPICS:
        journal.add_flub(store.db, loop, rid, topic, detail, 3, at=NOW)
    return exports.study_rows(store.db, NOW)


def test_anki_imports_one_basic_card_per_topic(tmp_path, rows):
    collection = pytest.importorskip("anki.collection")
    from anki.import_export_pb2 import ImportCsvRequest

    path = tmp_path / "study.txt"
    path.write_text(exports.render_anki(rows), encoding="utf-8")
    col = collection.Collection(str(tmp_path / "collection.anki2"))
    try:
        meta = col.get_csv_metadata(path=str(path), delimiter=None)
        assert list(meta.column_labels) == ["Front", "Back", "Tags"]
        assert meta.tags_column == 3 and not meta.is_html
        result = col.import_csv(ImportCsvRequest(path=str(path), metadata=meta))
        assert len(result.log.new) == len(TOPICS)
        assert not result.log.conflicting and not result.log.empty_first_field
        notes = [col.get_note(nid) for nid in col.find_notes("")]
        fronts = {note.fields[0] for note in notes}
        assert any(f.startswith("=1+1: ") for f in fronts)
        assert any(f.startswith("Ünïcødé 名前 🙂: ") for f in fronts)
        for note in notes:
            assert note.note_type()["name"] == "Basic"
            assert any(tag.startswith("company::") for tag in note.tags)
            assert "round::system_design" in note.tags or any(
                t.startswith("round::") for t in note.tags
            )
            deck = col.decks.name(col.get_card(note.card_ids()[0]).did)
            assert deck == exports.ANKI_DECK
        multi = next(n for n in notes if n.fields[0].startswith("Quotes"))
        assert "line one<br>line two" in multi.fields[1]  # one field, newline kept
    finally:
        col.close()


def test_anki_fronts_are_questions_and_backs_their_answers(tmp_path, content):
    """Opened with Anki's own library: a question on every front (never a bare slug);
    the back holds the answer and its "Say:" line."""
    collection = pytest.importorskip("anki.collection")
    from anki.import_export_pb2 import ImportCsvRequest

    from companion.core.selfcheck import quiz
    from companion.core.study.ranking import GuideIndex

    store = open_memory_store()
    loop = create_loop(store.db, "Acme")
    rid = add_round(store.db, loop, "design")
    for topic, detail in [
        ("cost", ""),
        ("metrics", "said GPU utilisation 100%"),
        ("edge-cases", ""),
    ]:
        journal.add_flub(store.db, loop, rid, topic, detail, 2, at=NOW)
    asked = next(q for q in content.quiz() if q.id == "day-of-utilization")
    quiz.record_mark(store.db, asked, "missed", NOW)
    path = tmp_path / "study.txt"
    guide = GuideIndex(content)
    assert exports.export_study_list(store.db, "anki", path, NOW, guide=guide) == 4
    col = collection.Collection(str(tmp_path / "collection.anki2"))
    try:
        meta = col.get_csv_metadata(path=str(path), delimiter=None)
        col.import_csv(ImportCsvRequest(path=str(path), metadata=meta))
        cards = {
            html.unescape(n.fields[0]): html.unescape(n.fields[1]).replace("<br>", "\n")
            for n in (col.get_note(nid) for nid in col.find_notes(""))
        }
    finally:
        col.close()
        store.close()
    assert len(cards) == 4
    assert all(front.endswith("?") and " " in front for front in cards), list(cards)
    assert not {"cost", "metrics", "edge-cases"} & set(cards)
    metrics = next(f for f in cards if f.startswith("metrics: "))
    assert "said GPU utilisation 100%" in metrics
    assert "SM-active" in cards[metrics] and "DRAM-active" in cards[metrics]
    cost = next(f for f in cards if f.startswith("cost: "))
    assert "\nSay: " in cards[cost]  # the guide item's line to say
    assert cards[asked.question].startswith(asked.answer)


# field sep 44 (,), text delimiter 34 ("), UTF-8 (76), from line 1, ..., and token 13:
# evaluate formulas, as a user opening the file would have it
CALC_IMPORT = "CSV:44,34,76,1,,1033,false,true,false,false,false,-1,true"


def _open_in_calc(soffice: str, tmp_path, *csv_paths) -> list[tuple[str, str]]:
    """Each CSV opened in Calc as a user would and saved as xlsx: (sheet, shared strings)
    for each. One LibreOffice start converts them all (a start takes several seconds)."""
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--headless",
            f"--infilter={CALC_IMPORT}",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(tmp_path),
            *(str(path) for path in csv_paths),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    books = []
    for csv_path in csv_paths:
        xlsx = csv_path.with_suffix(".xlsx")
        assert xlsx.exists(), f"LibreOffice did not convert {csv_path.name}"
        with zipfile.ZipFile(xlsx) as book:
            sheet = book.read("xl/worksheets/sheet1.xml").decode("utf-8")
            shared = html.unescape(book.read("xl/sharedStrings.xml").decode("utf-8"))
        books.append((sheet, shared))
    return books


@pytest.mark.system
def test_libreoffice_opens_the_csv_as_text_not_formulas(tmp_path, rows):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
    control = tmp_path / "control.csv"
    control.write_text("a,b\n=1+1,x\n", encoding="utf-8")
    path = tmp_path / "study.csv"
    path.write_text(exports.render_csv(rows), encoding="utf-8", newline="")
    (control_sheet, _), (sheet, shared) = _open_in_calc(soffice, tmp_path, control, path)
    assert "<f" in control_sheet  # an unprotected cell does run: the check below can fail
    assert "<f" not in sheet  # no cell of the export became a formula
    assert "'=1+1" in shared and "'+SUM(1,2)" in shared  # the text survived as text


@pytest.mark.system
def test_libreoffice_keeps_the_bounded_cells_whole(tmp_path):
    """A topic from 60 loops of long company names, and a 120,000-character note: each
    cell arrives in Calc as written (a cell past 32,767 characters was cut there)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
    store = open_memory_store()
    for n in range(60):
        loop = create_loop(store.db, f"Company {n:02d} " + "x" * 1_000)
        rid = add_round(store.db, loop, "design")
        journal.add_flub(store.db, loop, rid, "Caching", "y" * 120_000 if n == 0 else "", 2, at=NOW)
    path = tmp_path / "study.csv"
    path.write_text(exports.render_csv(exports.study_rows(store.db, NOW)), "utf-8", newline="")
    store.close()
    ((_sheet, shared),) = _open_in_calc(soffice, tmp_path, path)
    companies = next(s for s in re.findall(r"<t[^>]*>([^<]*)</t>", shared) if "Company" in s)
    assert companies.endswith(f"; and {60 - companies.count('Company ')} more")
    assert ("y" * 32_000 + exports.CUT) in shared
