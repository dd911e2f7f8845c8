"""One fuzz target per door: each takes the bytes of one input and calls the function the
app calls, with the documented contract as the oracle. A target returns when the door
gave a result or refused the input with our own one-line error; anything else (another
exception, a broken promise about the result) raises, and the fuzzer records the input.
The time bound (1 s an input) and the memory bound are the fuzzer's (``run.py``).

Imported by ``run.py`` inside atheris' instrumentation, and by the ordinary suite
(``test_fuzz_targets.py``), which replays the seed corpus and every finding through them.
"""

from __future__ import annotations

import argparse
import atexit
import datetime as dt
import json
import os
import re
import shutil
import sqlite3
import tempfile
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.commands import INT64_MAX, whole_number
from companion.commands.common import CommandError, parse_moment
from companion.core import hotkeys, paths, setting_homes
from companion.core.about import export as about_export
from companion.core.about import pitch
from companion.core.about.importing import decode_bytes
from companion.core.about.render import RenderRefused, SafeRenderer, split_sections, strip_markers
from companion.core.content import fields as content_fields
from companion.core.content.items import ContentError
from companion.core.content.loader import load_content
from companion.core.content.stories import story_pack
from companion.core.day import dates
from companion.core.day.invitation import import_invitation
from companion.core.day.rules import day_rules
from companion.core.dnd import controller as dnd_controller
from companion.core.dnd import record as dnd_record
from companion.core.dnd.base import CommandResult
from companion.core.journal.importer import import_checked
from companion.core.journal.validate import JournalImportError, read_journal
from companion.core.prefs import Prefs
from companion.core.review.cards import parse_utc
from companion.core.storage import store as store_module
from companion.core.storage.database import JournalDatabase
from companion.core.stories.check import analyze_bank
from companion.core.text import for_terminal
from companion.core.timeutil import parse_stored
from companion.core.voice.rehearsal import segment_takes
from companion.core.voice.take import WavError, analyse, read_wav

NOW = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC)


class ContractBroken(AssertionError):
    """The door answered, but not as documented (a finding, like an exception)."""


def one_line(exc: BaseException) -> None:
    """Our own errors are one line that says something."""
    message = str(exc)
    if not message.strip() or "\n" in message or "Traceback" in message:
        raise ContractBroken(f"{type(exc).__name__} is not one line: {message!r}") from exc


def text_of(data: bytes) -> str:
    """Bytes as the text a command line or a text field would hand over."""
    return data.decode("utf-8", "replace")


# what must never reach a terminal raw: C0 but tab and newline, DEL and C1, the bidi
# overrides and isolates, lone surrogates (an ESC sets the title, OSC 52 the clipboard)
_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
TERMINALS = ("utf-8", "ascii", "latin-1")  # PYTHONIOENCODING=ascii, a latin-1 terminal


def printed(text: str) -> None:
    """``text`` as a command prints it (core/text.for_terminal, what `say` writes) on a
    UTF-8, an ASCII and a latin-1 terminal: nothing in :data:`_RAW_CONTROL` raw, text the
    terminal's encoding holds (no UnicodeEncodeError), and as JSON the same text back."""
    for encoding in TERMINALS:
        shown = for_terminal(text, encoding)
        if _RAW_CONTROL.search(shown):
            raise ContractBroken(f"raw control on a {encoding} terminal: {shown[:200]!r}")
        shown.encode(encoding)  # a UnicodeEncodeError is the finding
        as_json = for_terminal(json.dumps(text, ensure_ascii=False), encoding, data=True)
        if json.loads(as_json) != text:
            raise ContractBroken(f"JSON output does not parse back on {encoding}: {text!r}")


def printed_rows(db) -> None:
    """Every text the journal holds, as a command would print it (:func:`printed`)."""
    tables = [r[0] for r in db.execute("select name from sqlite_master where type = 'table'")]
    for table in tables:
        for row in db.execute(f'select * from "{table}"'):
            for value in row:
                if isinstance(value, str):
                    printed(value)


def scratch_parent() -> str | None:
    """Where scratch folders go: /dev/shm where there is one (see :class:`_Scratch`)."""
    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


class _Scratch:
    """One private folder per process, for the files a door reads from disk (in memory,
    /dev/shm, where there is one: a write to a busy disk cost more than the door)."""

    _dir: Path | None = None

    @classmethod
    def _root(cls) -> Path:
        if cls._dir is None and os.environ.get("FUZZ_SCRATCH"):
            # under `make fuzz` libFuzzer ends the process with exit(), past atexit: the
            # parent made this folder and removes it (run.py)
            cls._dir = Path(os.environ["FUZZ_SCRATCH"])
        if cls._dir is None:
            cls._dir = Path(tempfile.mkdtemp(prefix="companion-fuzz-", dir=scratch_parent()))
            atexit.register(shutil.rmtree, cls._dir, True)
        return cls._dir

    @classmethod
    def file(cls, name: str, data: bytes) -> Path:
        path = cls._root() / name
        path.write_bytes(data)
        return path

    @classmethod
    def folder(cls, name: str) -> Path:
        path = cls._root() / name
        path.mkdir(exist_ok=True)
        return path


class _Shipped:
    """The shipped content, loaded once (the packs the doors read their numbers from)."""

    _content = None
    _rules = None

    @classmethod
    def content(cls):
        if cls._content is None:
            cls._content, errors = load_content([paths.shipped_content_dir()])
            assert not errors, errors
        return cls._content

    @classmethod
    def rules(cls):
        """The day's rules from the shipped packs, as the app reads them once."""
        if cls._rules is None:
            cls._rules = day_rules(cls.content())
        return cls._rules


class _Journal:
    """A fresh journal per input: the migrated schema, copied from one template."""

    _template: sqlite3.Connection | None = None

    @classmethod
    def fresh(cls):
        if cls._template is None:
            cls._template = store_module.open_memory_store().conn
        conn = sqlite3.connect(":memory:", isolation_level=None)
        cls._template.backup(conn)
        db = JournalDatabase(conn)
        db.execute("PRAGMA foreign_keys = ON")
        return db


class _Renderers:
    """One renderer for the preview and one for the exports, reused as the pages do."""

    preview = SafeRenderer()
    export = SafeRenderer()


# --- journal JSON import ------------------------------------------------------------------


def journal_import(data: bytes) -> None:
    """``companion journal import FILE``: the file is checked whole (JournalImportError,
    one line, naming the file), then added in one transaction; the same file imported
    again adds nothing; what it holds prints safely on any terminal (:func:`printed`)."""
    path = _Scratch.file("journal.json", data)
    try:
        doc = read_journal(path, NOW)
    except JournalImportError as exc:
        one_line(exc)
        return
    db = _Journal.fresh()
    try:
        with db.atomic():
            first = import_checked(db, doc)
        again = read_journal(path, NOW)
        with db.atomic():
            second = import_checked(db, again)
        printed_rows(db)  # stories, review cards, loops: what `stories`, `review` print
    except JournalImportError as exc:
        one_line(exc)
        printed(str(exc))
        return
    finally:
        db.conn.close()
    if second.loops_added or second.entries_added:
        raise ContractBroken(f"a second import added more: {first} then {second}")


# --- .ics import --------------------------------------------------------------------------


def ics_import(data: bytes) -> None:
    """``companion schedule import FILE.ics``: a loop with rounds, or a ValueError of one
    message a line (each event not imported and the notes, then the verdict naming the
    file: the command prints them so); the same file imported twice changes nothing."""
    path = _Scratch.file("invite.ics", data)
    rules = _Shipped.rules()
    db = _Journal.fresh()
    try:
        try:
            import_invitation(db, path, rules)
            printed_rows(db)  # the SUMMARY, the interviewer: what `today`, `debrief` print
        except ValueError as exc:
            _lines_naming(exc, path)
            return
        before = _rows(db)
        import_invitation(db, path, rules)
        if _rows(db) != before:
            raise ContractBroken(f"a second import changed the journal: {before} then {_rows(db)}")
    finally:
        db.conn.close()


def _rows(db) -> list:
    """The loops and rounds as stored (a re-import must leave every field as it was)."""
    return [db.execute(f"select * from {t} order by id").fetchall() for t in ("loops", "rounds")]


def _lines_naming(exc: ValueError, path: Path) -> None:
    """Each line one message (an event's refusal, a note such as 'Line 3: ... all-day'),
    the last the verdict naming the file."""
    lines = str(exc).split("\n")
    for line in lines:
        one_line(ValueError(line))
        printed(line)
    if not lines[-1].startswith(str(path)):
        raise ContractBroken(f"the last line does not name the file: {lines[-1]!r}")


# --- the one-pager ------------------------------------------------------------------------


def _one_pager_text(data: bytes, name: str) -> str | None:
    try:
        result = decode_bytes(data, name)
    except ValueError as exc:
        one_line(exc)
        return None
    for problem in result.problems:
        if "\n" in problem:
            raise ContractBroken(f"an import problem is not one line: {problem!r}")
    return result.text


def one_pager(data: bytes) -> None:
    """An imported one-pager: the preview HTML (no script, image or javascript: link),
    ``about analyze`` (report and JSON figures) and the HTML export page. The preview and
    the export may refuse text too deep or too heavy to render (RenderRefused, one line:
    the page shows it, the export writes nothing)."""
    text = _one_pager_text(data, "about-me.md")
    if text is None:
        return
    try:
        html = _Renderers.preview.render(text).lower()
    except RenderRefused as exc:
        one_line(exc)
    else:
        if "<script" in html or "<img" in html or 'href="javascript' in html:
            raise ContractBroken(f"unsafe HTML in the preview: {html[:200]!r}")
    split_sections(text)
    strip_markers(text)
    result = pitch.analyze(text, 150, _Shipped.content().pitch_plan())
    pitch.format_report(result)
    if result.total_seconds < 0 or any(s.seconds < 0 for s in result.segments):
        raise ContractBroken("negative speaking time")
    json.dumps([s.seconds for s in result.segments] + [result.total_seconds], allow_nan=False)
    try:
        about_export.html_document(text, _Renderers.export)
    except RenderRefused as exc:
        one_line(exc)


_QT_APP = None


def one_pager_pdf(data: bytes) -> None:
    """``about export -o FILE.pdf``: refused before layout when too long or too deeply
    nested (a one-line reason) or too heavy to render (RenderRefused, one line), else
    laid out on the page by Qt."""
    global _QT_APP
    text = _one_pager_text(data, "about-me.md")
    if text is None or not text.strip():
        return
    problem = about_export.pdf_size_problem(text)
    if problem is not None:
        if "\n" in problem:
            raise ContractBroken(f"the refusal is not one line: {problem!r}")
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    from companion.ui.about.export import build_document, page_count

    _QT_APP = QGuiApplication.instance() or QGuiApplication(["companion-fuzz"])
    try:
        body = _Renderers.export.render(text)
    except RenderRefused as exc:
        one_line(exc)
        return
    doc, layout = build_document(body, "a4")
    if page_count(doc, layout) < 1:
        raise ContractBroken("a laid-out one-pager has no page")


# --- stories ------------------------------------------------------------------------------


def stories(data: bytes) -> None:
    """``companion stories check FILE``: every story with its seconds and tags, gaps and
    warnings; errors with a line inside the text; all of it printable (:func:`printed`)."""
    text = _one_pager_text(data, "stories.md")
    if text is None:
        return
    pack = story_pack(_Shipped.content())
    analysis = analyze_bank(text, pack, 150)
    printed(json.dumps(analysis.as_json(), allow_nan=False, ensure_ascii=False))
    for line in analysis.gap_lines(pack):
        printed(line)
    lines = text.count("\n") + 1
    for error in analysis.errors:
        if not 1 <= error.line <= lines or "\n" in error.message:
            raise ContractBroken(f"error at line {error.line} of {lines}: {error.message!r}")
        printed(error.message)


# --- voice takes --------------------------------------------------------------------------


def wav_take(data: bytes) -> None:
    """``companion about rehearse TAKE.wav``: a take and its figures, or a one-line
    WavError naming the file. The analysis also runs on the raw bytes as a short buffer
    (what the recorder hands over), with segment marks cut from it."""
    path = _Scratch.file("take.wav", data)
    try:
        take = read_wav(path)
    except WavError as exc:
        one_line(exc)
        if str(path) not in str(exc):
            raise ContractBroken(f"the message does not name the file: {exc}") from None
    else:
        _figures(analyse(take, 120))
    samples = array("h", data[: len(data) // 2 * 2])
    rate = 8000 + (data[0] if data else 0) * 100
    from companion.core.voice.take import Take

    analysis = analyse(Take(samples, rate), len(data) % 300)
    _figures(analysis)
    end = analysis.seconds
    marks = [("opening", "Opening", 0.0), ("middle", "Middle", end / 3), ("end", "End", end / 2)]
    segment_takes(analysis.spans, marks, end, {"opening": 10, "middle": 20})


def _figures(result) -> None:
    figures = [
        result.seconds,
        result.speaking_seconds,
        result.answer_seconds,
        result.levels.peak_dbfs,
        result.levels.rms_dbfs,
    ]
    if result.measured_wpm is not None:
        figures.append(result.measured_wpm)
    if any(f != f for f in figures):  # NaN: the JSON report could not say it
        raise ContractBroken(f"NaN among the take's figures: {figures}")
    for pause in result.pauses:
        if pause.length <= 0:
            raise ContractBroken(f"a pause of {pause.length} s")


# --- content packs ------------------------------------------------------------------------


def content_pack(data: bytes) -> None:
    """A user's content file beside the shipped packs (``companion content check``): it
    loads or is reported (file and line, one line); what loads gives the day's numbers
    (rules, pitch plan, stories pack) without an exception."""
    folder = _Scratch.folder("content")
    (folder / "90-mine.md").write_bytes(data)
    content, errors = load_content([paths.shipped_content_dir(), folder])
    for error in errors:
        if not isinstance(error, ContentError) or "\n" in str(error.message):
            raise ContractBroken(f"a content error is not one line: {error!r}")
    day_rules(content)
    content.pitch_plan()
    content.planner_rules()
    content.quiz()
    content.round_defaults()
    story_pack(content)
    content.silence_nudge()
    for phase in ("night-before", "morning-of", "before-round", "after-loop"):
        content.reminder_text(phase)


def reuse_shipped_sections() -> None:
    """For the fuzzer's own process only (``run.py``): the shipped files parse to the same
    frozen sections every time, so they are read once; the user's file, the field checks,
    the references and the numbers still run for every input. (Not used by the suite,
    which must not change a module other tests use.)"""
    import companion.core.content.loader as content_module

    shipped = paths.shipped_content_dir()
    read = content_module.load_file
    cache: dict[Path, object] = {}

    def load_file(path: Path):
        if path.parent != shipped:
            return read(path)
        if path not in cache:
            cache[path] = read(path)
        return cache[path]

    content_module.load_file = load_file


# --- prefs.json and the do-not-disturb record ---------------------------------------------


def prefs_file(data: bytes) -> None:
    """prefs.json as found at start-up: read (a problem is one line naming the file),
    every value the app reads from it survives, and a save writes what was kept."""
    folder = _Scratch.folder("prefs")
    for old in folder.iterdir():
        old.unlink()
    path = folder / "prefs.json"
    path.write_bytes(data)
    prefs = Prefs(path)
    if prefs.problem and ("\n" in prefs.problem or str(path) not in prefs.problem):
        raise ContractBroken(f"the prefs problem is not one line naming the file: {prefs.problem}")
    hotkeys.bindings_in_force(prefs)
    dnd_controller.dnd_options(prefs)
    for key in (s.key for s in setting_homes.SETTINGS if s.home == setting_homes.PREFS):
        prefs.get(key)
    error = prefs.save()
    if error is not None:
        raise ContractBroken(f"saving prefs failed: {error}")
    if Prefs(path).problem:
        raise ContractBroken("the saved prefs cannot be read back")


@dataclass
class _Ctx:
    data_dir: Path
    prefs: Prefs


def _runner(argv: list[str]) -> CommandResult:
    """A desktop that answers every command (no process is started)."""
    answers = {"is-paused": "false\n", "mode": "default\n", "get": "true\n"}
    return CommandResult(0, answers.get(argv[-1] if argv else "", "\n"), "")


def dnd_record_file(data: bytes) -> None:
    """The do-not-disturb record left by an earlier run: ``dnd status`` and the start-up
    restore read it and answer with a message; nothing raises."""
    folder = _Scratch.folder("dnd")
    path = dnd_record.record_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    hold = dnd_record.load(path)
    if hold is not None and hold.damaged and "\n" in hold.problem:
        raise ContractBroken(f"the problem is not one line: {hold.problem!r}")
    prefs = Prefs(_Scratch.folder("dnd-prefs") / "prefs.json")
    for name in ("gnome", "dunst", "mako", "macos"):
        adapter = dnd_controller.adapter_named(name, run=_runner)
        control = dnd_controller.DndController(adapter, path, run=_runner, clock=lambda: NOW)
        control.status()
    ctx = _Ctx(folder, prefs)
    dnd_controller.restore_on_quit(ctx, run=_runner)
    path.write_bytes(data)
    dnd_controller.restore_after_crash(ctx, run=_runner)


# --- hotkeys ------------------------------------------------------------------------------


def hotkeys_set(data: bytes) -> None:
    """``companion hotkeys set ACTION KEYS`` (first line: the action, the rest: the keys
    as typed): the canonical keys, or a one-line HotkeyError; a binding that is taken is
    shown, saved and read back the same."""
    action, _, keys = text_of(data).partition("\n")
    if not action.strip():
        action = hotkeys.ACTION_NAMES[len(data) % len(hotkeys.ACTION_NAMES)]
    prefs = Prefs(_Scratch.folder("hotkeys") / "absent.json")
    try:
        combo = hotkeys.rebind(prefs, action, keys)
    except hotkeys.HotkeyError as exc:
        one_line(exc)
        return
    if combo:
        parsed = hotkeys.parse_combo(combo)
        if str(parsed) != combo or hotkeys.normalise(hotkeys.shown(combo)) != combo:
            raise ContractBroken(f"{keys!r} -> {combo!r} does not read back the same")
        if parsed.keysym <= 0:
            raise ContractBroken(f"{combo!r} has no key code")
        parsed.portal_trigger()
    if hotkeys.bindings_in_force(prefs).keys.get(action, "") != combo:
        raise ContractBroken(f"{action} bound to {combo!r} is not in force")


# --- dates and durations ------------------------------------------------------------------


_CHECKS: list[Callable[[str], str | None]] = [
    content_fields.whole(0, 600, "minutes"),
    content_fields.number(0, 10, "seconds", above_zero=True),
    content_fields.whole_or_range(1, 60, "minutes"),
    content_fields.range_of(1, 600, "seconds"),
]


def dates_and_durations(data: bytes) -> None:
    """``--at`` (``today``, ``review``), the date and time fields (a day or None), stored
    times (an aware datetime or None), the content's numbers and ranges (None or a
    one-line problem) and integer options (a number in bounds or a one-line usage error):
    every line of the input through each."""
    today = NOW.date()
    current = NOW.replace(tzinfo=None)
    for line in text_of(data).splitlines() or [""]:
        try:
            moment = parse_moment(line)
        except CommandError as exc:
            one_line(exc)
        else:
            if moment.tzinfo is None:
                raise ContractBroken(f"--at {line!r} gave a naive time")
            moment.isoformat(timespec="seconds")
        for parsed in (parse_stored(line), parse_utc(line)):
            if parsed is not None and parsed.tzinfo is None:
                raise ContractBroken(f"{line!r} was read as a naive time")
        day = dates.parse_day(line, today)
        if day is not None and not isinstance(day, dt.date):
            raise ContractBroken(f"parse_day({line!r}) -> {day!r}")
        dates.parse_day_time(line, today, current)
        content_fields.parse_range(line)
        _whole_number(line)
        for check in _CHECKS:
            problem = check(line)
            if problem is not None and "\n" in problem:
                raise ContractBroken(f"the problem is not one line: {problem!r}")


_TAKE_ID = whole_number(1, INT64_MAX, "a take id")


def _whole_number(line: str) -> None:
    """The one parser of every integer option: a number in its bounds (what SQLite
    holds), or a one-line usage error; never an OverflowError at the journal."""
    try:
        value = _TAKE_ID(line)
    except argparse.ArgumentTypeError as exc:
        one_line(exc)
    else:
        if not 1 <= value <= INT64_MAX:
            raise ContractBroken(f"{line!r} gave {value}, out of its bounds")


@dataclass(frozen=True)
class Target:
    name: str
    run: Callable[[bytes], None]
    max_len: int  # the longest input the fuzzer makes (the doors' own limits are larger)


TARGETS = {
    t.name: t
    for t in (
        Target("journal", journal_import, 16384),
        Target("ics", ics_import, 16384),
        Target("onepager", one_pager, 16384),
        Target("onepager_pdf", one_pager_pdf, 4096),
        Target("stories", stories, 16384),
        Target("wav", wav_take, 8192),
        Target("content", content_pack, 8192),
        Target("prefs", prefs_file, 4096),
        Target("dnd", dnd_record_file, 2048),
        Target("hotkeys", hotkeys_set, 256),
        Target("dates", dates_and_durations, 1024),
    )
}
