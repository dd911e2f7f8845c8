"""The pack's numbers in the windows: a user pack that changes one changes the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

SHORT_PITCH = (Path(__file__).parents[2] / "data" / "short-pitch.md").read_text(encoding="utf-8")

ONE_PAGER = (Path(__file__).parents[2] / "data" / "short-one-pager.md").read_text(encoding="utf-8")


@pytest.fixture
def short_pitch(data_dir):
    folder = data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / "pitch.md").write_text(SHORT_PITCH, encoding="utf-8")


@pytest.fixture
def about_page(short_pitch, qtbot, ctx, bus):
    from companion.ui.about.page import AboutPage

    widget = AboutPage(ctx, bus, monotonic=lambda: 100.0)
    qtbot.addWidget(widget)
    yield widget
    widget.shutdown()


def test_about_page_times_against_the_packs_budgets(about_page) -> None:
    page = about_page
    assert "## Who I am (5 s)" in page.editor.toPlainText()  # the template, from the pack
    page.editor.setPlainText(ONE_PAGER)
    page.refresh()
    table = page.panel.table
    assert [table.item(row, 3).text() for row in range(table.rowCount())] == [
        "5",
        "20",
        "10",
        "5",
        "5",
    ]
    assert "target 30-50 s" in page.panel.total_label.text()


def test_rehearsal_uses_the_packs_budgets(about_page) -> None:
    page = about_page
    page.editor.setPlainText(ONE_PAGER)
    page.rehearsal.start()
    bar = page.rehearse_bar
    assert [s.budget_seconds for s in bar.rehearsal.steps] == [5, 20, 10, 5, 5]
    assert bar.progress.maximum() == 50  # tenths of the first segment's 5 s
    bar.stop()


def test_the_planner_counts_against_the_packs_pick(qtbot, data_dir, ctx, bus) -> None:
    from companion.core.day import loops
    from companion.core.paths import shipped_content_dir
    from companion.core.selfcheck import planner
    from companion.ui.selfcheck.planner import PlannerPanel

    shipped = (shipped_content_dir() / "50-questions.md").read_text(encoding="utf-8")
    folder = data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / "q.md").write_text(shipped.replace("pick: 3-4", "pick: 1-2"), encoding="utf-8")
    loop_id = loops.create_loop(ctx.db, "Acme", "ML infra", starts_on="2026-12-02")
    panel = PlannerPanel(ctx, bus)
    qtbot.addWidget(panel)
    panel.refresh()
    assert "pick one or two questions" in panel.count_label.text()
    for text in ("Why now?", "Who decides?", "What next?"):
        planner.add_custom(ctx.db, loop_id, text, "peer", at=ctx.now())
    panel.refresh()
    assert panel.count_label.text() == "3 planned: more than two."
    assert "keep it to one or two" in panel.warnings_label.text()


LUNCH_ROUNDS = (Path(__file__).parents[2] / "data" / "lunch-rounds.md").read_text(encoding="utf-8")


def test_the_cue_card_times_a_round_by_the_pack(qtbot, data_dir, ctx, bus, day_service) -> None:
    from companion.ui.cue.window import CueCardWindow

    folder = data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / "rounds.md").write_text(LUNCH_ROUNDS, encoding="utf-8")
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    assert card.set_round("lunch")
    timebox = card.stack.currentWidget().timebox
    assert timebox.length.value() == 30
    schedule = timebox.schedule.text()
    assert "5 minutes to go: land it." in schedule and "Stop here." in schedule


# --- a pack that changes six numbers changes every word about them ------------------

# (shipped file, old text, new text): only the entries that SET the numbers change
SIX_NUMBERS = [
    ("20-pitch.md", "target: 60-90", "target: 45-70"),
    ("20-pitch.md", "seconds: 30", "seconds: 25"),  # the evidence segment's budget
    ("41-recovery.md", "silence_seconds: 20", "silence_seconds: 25"),
    ("13-after-loop.md", "within_hours: 1\n", "within_hours: 2\n"),  # the capture window
    ("13-after-loop.md", "within_hours: 24", "within_hours: 12"),  # the thank-you
    ("50-questions.md", "pick: 3-4", "pick: 2-3"),
]
# what the shipped numbers look like in words; none may be left anywhere
OLD_WORDS = re.compile(
    r"60-90|60–90|\b30 s\b|\b20 seconds\b|\b20 s of silence|silent for 20|\bthe hour\b"
    r"|\b24 ?h(?:ours?)?\b|three or four|\b3-4\b|\b3 or 4\b",
    re.I,
)
NEW_WORDS = ("45-70", "25 s", "Silent for 25 seconds", "within 2 hours", "12 hours", "two or three")


@pytest.fixture
def six_numbers(data_dir):
    from companion.core.paths import shipped_content_dir

    folder = data_dir / "content"
    folder.mkdir(exist_ok=True)
    texts: dict[str, str] = {}
    for name, old, new in SIX_NUMBERS:
        text = texts.get(name) or (shipped_content_dir() / name).read_text(encoding="utf-8")
        assert old in text, (name, old)
        texts[name] = text.replace(old, new, 1)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def visible_texts(root) -> list[str]:
    """Every string a user can see or hear of ``root`` and its children."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QGroupBox,
        QLabel,
        QLineEdit,
        QListWidget,
        QPlainTextEdit,
        QTabWidget,
        QTextEdit,
        QTreeWidget,
        QTreeWidgetItemIterator,
        QWidget,
    )

    seen: list[str] = []
    for w in [root, *root.findChildren(QWidget)]:
        seen += [w.toolTip(), w.accessibleName(), w.accessibleDescription(), w.windowTitle()]
        if isinstance(w, (QLabel, QAbstractButton, QLineEdit)):
            seen.append(w.text())
        if isinstance(w, QGroupBox):
            seen.append(w.title())
        if isinstance(w, (QPlainTextEdit, QTextEdit)):
            seen.append(w.toPlainText())
        if isinstance(w, QComboBox):
            seen += [w.itemText(i) for i in range(w.count())]
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                seen += [w.tabText(i), w.tabToolTip(i)]
        if isinstance(w, QListWidget):
            for i in range(w.count()):
                seen += [w.item(i).text(), w.item(i).toolTip()]
        if isinstance(w, QTreeWidget):
            it = QTreeWidgetItemIterator(w)
            while it.value():
                item = it.value()
                seen += [item.text(c) for c in range(w.columnCount())]
                seen += [item.toolTip(c) for c in range(w.columnCount())]
                it += 1
    return [s for s in seen if s]


def cli_texts(data_dir, capsys) -> list[str]:
    """The help of every command and the output of the ones that print the day or pitch."""
    from companion.cli import build_parser, main

    out: list[str] = []
    parser = build_parser()
    out.append(parser.format_help())
    stack = [parser]
    while stack:  # every sub-command's --help, at every depth
        for action in stack.pop()._actions:
            choices = getattr(action, "choices", None)
            for sub in choices.values() if isinstance(choices, dict) else ():
                if hasattr(sub, "format_help"):
                    out.append(sub.format_help())
                    stack.append(sub)
                    if hasattr(action, "_choices_actions"):
                        out += [a.help or "" for a in action._choices_actions]
    for argv in (
        ["today", "--at", "2026-12-01T12:00"],
        ["today", "--at", "2026-12-01T12:00", "--json"],
        ["about", "analyze"],
        ["content", "check"],
    ):
        main(["--data-dir", str(data_dir), *argv])
        captured = capsys.readouterr()
        out += [captured.out, captured.err]
    return out


def test_a_pack_that_changes_six_numbers_changes_every_word_about_them(
    day_service, six_numbers, qtbot, ctx, bus, clock, data_dir, main_window, open_page, capsys
):
    from companion.core.day.loops import add_round, create_loop, end_round
    from companion.ui.cue.window import CueCardWindow
    from companion.ui.pages import PAGES

    seen: list[str] = []
    win = main_window()  # no loop yet: the empty states
    for spec in PAGES:
        seen += visible_texts(open_page(win, spec.key))
    seen += visible_texts(win)
    win.close()

    # a loop whose last round ended ten minutes ago: the capture and the thank-you are due
    loop_id = create_loop(ctx.db, "Acme", "ML infra", starts_on="2026-12-01")
    first = add_round(ctx.db, loop_id, "design", scheduled_at=clock.now())
    clock.advance(minutes=55)
    end_round(ctx.db, first, clock.now())
    win = main_window()
    for spec in PAGES:
        page = open_page(win, spec.key)
        if hasattr(page, "refresh"):
            page.refresh()
        seen += visible_texts(page)
    selfcheck = win.page("selfcheck")
    selfcheck.show_planner(loop_id)
    seen += visible_texts(selfcheck)
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    for round_type in ctx.content.round_types():
        card.set_round(round_type.id)
        seen += visible_texts(card.stack.currentWidget())
    seen += cli_texts(data_dir, capsys)

    everything = "\n".join(seen)
    old = sorted({m.group(0) for m in OLD_WORDS.finditer(everything)})
    assert old == [], [line for line in seen if OLD_WORDS.search(line)][:12]
    missing = [word for word in NEW_WORDS if word.lower() not in everything.lower()]
    assert missing == []
    # the old Today tip put the guide's morning read-aloud on the evening before
    assert "The evening before, you read it aloud" not in everything


def test_the_planner_shows_how_to_choose_and_how_each_round_closes(qtbot, ctx, bus, content):
    from companion.core.day import loops
    from companion.ui.selfcheck.planner import PlannerPanel

    loops.create_loop(ctx.db, "Acme", "ML infra", starts_on="2026-12-02")
    panel = PlannerPanel(ctx, bus)
    qtbot.addWidget(panel)
    panel.refresh()
    assert panel.intro_label.text() == " ".join(content.section("questions").intro.split())
    closing = panel.closing_label.text()
    assert "great chat, thanks" in closing and "notes" in closing  # why a specific line
    assert "[the topic you discussed]" in closing and "{topic}" not in closing
