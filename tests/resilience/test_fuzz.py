"""Fuzzing with hypothesis: content files, Markdown, journal fields, imported files, prefs
and CLI arguments. Bad input may be refused with a clear error, never a traceback.

COMPANION_SOAK=1 (``make soak``) runs many more examples per property.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import string
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SOAK = bool(os.environ.get("COMPANION_SOAK"))
FUZZ = settings(
    max_examples=3000 if SOAK else 120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,  # no .hypothesis folder in the source tree
)

# content files ------------------------------------------------------------------------

KEYS = ["id", "kind", "title", "order", "phase", "audience", "intro", "Bad", "x y"]
VALUES = ["pitch", "checklist", "night-before", "quiz", "rounds", "Hello", "12", "-3", '"q"', ""]

meta_line = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", st.sampled_from(KEYS), st.sampled_from(VALUES)),
    st.text(max_size=30).map(lambda s: s.replace("\n", " ")),
)
body_line = st.one_of(
    st.builds(lambda t: f"- {t}", st.text(max_size=30)),
    st.builds(
        lambda k, v: f"  {k}: {v}",
        st.sampled_from(["answer", "see", "set", "x"]),
        st.text(max_size=20),
    ),
    st.text(max_size=40),
    st.just(""),
    st.just("\t- tabbed"),
)


@st.composite
def content_documents(draw) -> str:
    if draw(st.booleans()):
        return draw(st.text(max_size=400))
    head = draw(st.lists(meta_line, max_size=6))
    body = draw(st.lists(body_line, max_size=12))
    close = draw(st.sampled_from(["---", "", " --- "]))
    return "\n".join(["---", *head, close, *body])


@FUZZ
@given(content_documents())
def test_parse_section_raises_only_content_parse_error(text):
    from companion.core.content.loader import ContentParseError, parse_section

    try:
        section = parse_section(text)
    except ContentParseError as exc:
        assert exc.line >= 1 and exc.message
    else:
        assert section.id and section.kind and section.title


@FUZZ
@given(
    st.lists(st.one_of(content_documents().map(str.encode), st.binary(max_size=300)), max_size=5)
)
def test_load_content_never_raises(files):
    from companion.core.content.loader import load_content

    with tempfile.TemporaryDirectory() as tmp:
        for n, data in enumerate(files):
            (Path(tmp) / f"file{n}.md").write_bytes(data)
        content, errors = load_content([Path(tmp)])
        loaded = {section.source for section in content.sections.values()}
        reported = {error.path for error in errors}
        for n in range(len(files)):
            path = Path(tmp) / f"file{n}.md"
            assert path in loaded or path in reported, f"{path.name} vanished silently"


# Markdown and the one-pager ------------------------------------------------------------

markdown_text = st.one_of(
    st.text(max_size=600),
    st.lists(
        st.sampled_from(
            [
                "# Title {identity}",
                "## Why me {why}",
                "![x](https://example.com/a.png)",
                '<img src="http://evil.example/t.gif">',
                "<script>alert(1)</script>",
                "[link](javascript:alert(1))",
                "| a | b |\n|---|---|\n| 1 | 2 |",
                "- item\n  - nested",
                "```\ncode\n```",
                "plain words here",
                "{",
                "#",
                "* * *",
            ]
        )
        | st.text(max_size=40),
        max_size=15,
    ).map("\n".join),
)


@FUZZ
@given(markdown_text)
def test_markdown_rendering_is_safe_and_never_raises(text):
    import companion.core.about.render as about_render

    html = about_render.SafeRenderer().render(text).lower()
    assert "<script" not in html and "<img" not in html
    assert 'href="javascript' not in html


@FUZZ
@given(markdown_text, st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_pitch_analysis_never_raises(text, wpm):
    import companion.core.about.pitch as pitch

    outline = pitch.pitch_outline(text, wpm)
    for segment in outline:
        assert segment.estimated_seconds >= 0
    pitch.analyze(text, wpm)


@FUZZ
@given(st.binary(max_size=2000))
def test_imported_one_pager_bytes_give_text_or_a_clear_error(data):
    import companion.core.about.importing as about_import

    try:
        result = about_import.decode_bytes(data, "cv.md")
    except ValueError as exc:
        assert "cv.md" in str(exc)
    else:
        assert "\x00" not in result.text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["version", "loops", "rounds", "company", "id", "notes", "x"])
            | st.text(max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@FUZZ
@given(json_values)
def test_imported_journal_documents_give_a_clear_error(data):
    import companion.core.journal.files as journal_io
    from companion.core.storage.store import open_memory_store

    store = open_memory_store()
    try:
        journal_io.import_journal_data(store.db, data)
    except journal_io.JournalImportError as exc:
        assert str(exc)
    finally:
        store.close()


# journal fields -------------------------------------------------------------------------


@FUZZ
@given(st.text(max_size=200), st.text(max_size=200), st.text(max_size=2000))
def test_journal_fields_round_trip_or_are_refused(company, role, notes):
    from companion.core.day import loops
    from companion.core.storage.store import open_memory_store

    store = open_memory_store()
    try:
        try:
            loop_id = loops.create_loop(store.db, company, role, notes=notes)
        except ValueError as exc:
            assert not company.strip() and "company" in str(exc)
            return
        loop = loops.get_loop(store.db, loop_id)
        assert (loop.company, loop.role, loop.notes) == (company.strip(), role.strip(), notes)
        round_id = loops.add_round(store.db, loop_id, role or "coding", interviewer_name=notes)
        assert loops.get_round(store.db, round_id).interviewer_name == notes
    finally:
        store.close()


# prefs ----------------------------------------------------------------------------------


@FUZZ
@given(st.one_of(st.binary(max_size=300), json_values.map(lambda v: json.dumps(v).encode())))
def test_prefs_file_with_junk_never_raises(data):
    from companion.core.prefs import Prefs

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "prefs.json"
        path.write_bytes(data)
        prefs = Prefs(path)
        if prefs.problem:
            assert str(path) in prefs.problem
        prefs.get("main.page")
        prefs.set("main.page", "today")
        assert prefs.save() is None
        assert Prefs(path).get("main.page") == "today"


# CLI arguments -------------------------------------------------------------------------

CLI_WORDS = [
    "--help",
    "-h",
    "--version",
    "--data-dir",
    "--page",
    "doctor",
    "content",
    "check",
    "about",
    "analyze",
    "export",
    "study-list",
    "--format",
    "-f",
    "md",
    "csv",
    "json",
    "html",
    "-o",
    "--output",
    "out.txt",
    "journal",
    "import",
    "-i",
    "cue",
    "--list",
    "demo",
    "--loops",
    "2",
    "0",
    "-1",
    "--seed",
    "--json",
    "--wpm",
    "missing.md",
    "",
    "-",
    "--",
]
# free text without path separators or "~": relative names only, inside a scratch folder
free_word = st.text(
    alphabet=string.ascii_letters + string.digits + "-_=. ,:;'\"éß\u200b", max_size=12
).filter(lambda s: not s.isdigit() or len(s) < 3)


@FUZZ
@given(st.lists(st.sampled_from(CLI_WORDS) | free_word, max_size=7))
def test_cli_arguments_never_give_a_traceback(tmp_path, monkeypatch, argv):
    import companion.cli
    import companion.selftest
    from companion.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home-data"))
    monkeypatch.setattr(companion.cli, "run_gui", lambda args, ctx: 0)  # never open a window
    monkeypatch.setattr(companion.selftest, "run_self_test", lambda: 0)
    import companion.commands.cue as cue
    import companion.ui.about.export as about_export_ui

    monkeypatch.setattr(cue, "_run_gui", lambda *a, **kw: 0, raising=False)
    monkeypatch.setattr(about_export_ui, "export_pdf", lambda *a, **kw: None)

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code
    assert "Traceback" not in err.getvalue(), f"{argv!r}:\n{err.getvalue()}"
    assert code is None or isinstance(code, int | str), argv
