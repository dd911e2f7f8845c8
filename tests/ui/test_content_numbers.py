"""The pack's numbers in the windows: a user pack that changes one changes the page."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

SHORT_PITCH = (Path(__file__).parents[1] / "data" / "short-pitch.md").read_text(encoding="utf-8")

ONE_PAGER = (Path(__file__).parents[1] / "data" / "short-one-pager.md").read_text(encoding="utf-8")


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
    page.start_rehearsal()
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


LUNCH_ROUNDS = (Path(__file__).parents[1] / "data" / "lunch-rounds.md").read_text(encoding="utf-8")


def test_the_cue_card_times_a_round_by_the_pack(qtbot, data_dir, ctx, bus) -> None:
    from companion.ui.cue.window import CueCardWindow

    folder = data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / "rounds.md").write_text(LUNCH_ROUNDS, encoding="utf-8")
    card = CueCardWindow(ctx, bus)
    qtbot.addWidget(card)
    assert card.set_round("lunch")
    timebox = card.stack.currentWidget().timebox
    assert timebox.length.value() == 30
    schedule = timebox.schedule.text()
    assert "5 minutes to go: land it." in schedule and "Stop here." in schedule
