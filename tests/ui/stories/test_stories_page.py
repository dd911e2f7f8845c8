"""About me → Stories: the bank in the one-pager's editor with autosave and History, the
side panel's timing, numbers and gaps, From projects, and shortcuts that stay unambiguous."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from companion.core.about import store as about_store

pytestmark = pytest.mark.gui


@pytest.fixture
def page(about_page):
    return about_page(1300)


ONE = "## Story: Schema fight\nTags: conflict\nResult: we agreed.\n"


def test_stories_tab_edits_saves_and_times_the_bank(page, qtbot, ctx, ticker):
    page.show_stories()
    stories = page.tabs.stories
    assert stories is not None and page.tabs.currentWidget() is stories
    stories.editor.selectAll()
    qtbot.keyClicks(stories.editor, "x")
    stories.editor.replace_all(ONE)
    ticker.t += 1.0
    qtbot.waitUntil(lambda: not stories.editing.dirty, timeout=10_000)
    assert about_store.load_document(ctx.db, doc="stories") == ONE
    assert about_store.load_document(ctx.db) is None  # the one-pager is untouched
    qtbot.waitUntil(lambda: stories.panel.table.item(0, 0).text() == "Schema fight", timeout=10_000)
    assert stories.panel.table.rowCount() == 1
    assert stories.panel.table.item(0, 2).text() == "no number"
    gaps = [stories.panel.questions.item(i).text() for i in range(stories.panel.questions.count())]
    assert any("gap:" in g and "Why are you leaving" in g for g in gaps)
    assert any("conflict" in g and "→ Schema fight" in g for g in gaps)


def test_ctrl_s_saves_the_tab_that_is_shown(page, qtbot, ctx):
    page.show_stories()
    page.tabs.stories.editor.replace_all(ONE)
    qtbot.keyClick(page.tabs.stories.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert about_store.list_revisions(ctx.db, doc="stories")
    assert not about_store.list_revisions(ctx.db)
    page.tabs.setCurrentIndex(0)
    assert page.save_action.isEnabled()


def test_from_projects_adds_a_story_per_project(page, qtbot, ctx):
    about_store.save_text(
        ctx.db,
        "## Three projects\n\n### Scheduler\n\n- Result: queue time from 3 h to 20 min\n\n"
        "### Cache\n\nHit rate from 60% to 92%.\n\n### Tooling\n",
        ctx.now(),
    )
    page.show_stories()
    page.tabs.stories.from_projects()
    titles = [
        page.tabs.stories.panel.table.item(r, 0).text()
        for r in range(page.tabs.stories.panel.table.rowCount())
    ]
    assert titles == ["Scheduler", "Cache", "Tooling"]
    page.tabs.stories.from_projects()
    assert page.tabs.stories.panel.table.rowCount() == 3


def test_the_summary_counts_one_story_and_a_short_bank_in_seconds(page, qtbot, ticker):
    """The walk: the template read "1 stories, about 0 min told in all" (13 s)."""
    page.show_stories()
    stories = page.tabs.stories
    stories.editor.replace_all(ONE)
    ticker.t += 1.0
    qtbot.waitUntil(lambda: stories.panel.table.rowCount() == 1, timeout=10_000)
    summary = stories.panel.summary.text()
    assert summary.startswith("1 story, about ") and " s told in all" in summary, summary
    # the budget in the pack's words, as the template and the guide say it ("2 minutes")
    assert "each about 2 minutes." in summary and "(s)" not in summary, summary
    two = ONE + ONE.replace("Schema fight", "Pager storm")
    stories.editor.replace_all(two * 20)  # 40 stories: minutes now
    ticker.t += 1.0
    qtbot.waitUntil(lambda: stories.panel.table.rowCount() == 40, timeout=10_000)
    assert stories.panel.summary.text().startswith("40 stories, about "), summary


def test_the_preview_shows_each_labelled_part_as_its_own_paragraph(page, qtbot):
    page.show_stories()
    stories = page.tabs.stories
    stories.editor.replace_all("## Story: Cache\nTags: impact\nSituation: slow\nTask: fix it\n")
    qtbot.waitUntil(lambda: "Task: fix it" in stories.preview.toPlainText(), timeout=10_000)
    lines = [line for line in stories.preview.toPlainText().splitlines() if line.strip()]
    assert "Situation: slow" in lines and "Task: fix it" in lines, lines


def test_the_stories_intro_says_on_the_page_what_is_ours(page, ctx):
    """The one place saying the behavioural questions and limits are ours was never shown."""
    page.show_stories()
    intro = page.tabs.stories.panel.intro
    assert intro.isVisibleTo(page.tabs.stories)
    assert intro.text() == " ".join(ctx.content.section("stories").intro.split())
    assert "are ours" in intro.text() and "12 stories" in intro.text()


def test_tell_me_about_yourself_points_at_the_pitch(page, qtbot):
    page.show_stories()
    panel = page.tabs.stories.panel
    rows = [panel.questions.item(i).text() for i in range(panel.questions.count())]
    about = next(r for r in rows if r.startswith("Tell me about yourself"))
    assert about.endswith("→ Your pitch answers this: 60-90 seconds, not a story.")


def test_a_bank_too_long_to_time_pauses_the_panel_and_keeps_every_character(page, ctx):
    """The Stories tab's own pause (the cycle it shares with the one-pager): the panel and
    the preview say so, the whole text is saved, and a short bank is timed again."""
    from companion.core.about.importing import LIVE_LIMIT_CHARS

    page.show_stories()
    stories = page.tabs.stories
    big = ONE * (LIVE_LIMIT_CHARS // len(ONE) + 2)
    stories.editor.setPlainText(big)
    stories.refresh()
    assert stories.analysis is None and stories.panel.table.rowCount() == 0
    assert "pause above" in stories.panel.summary.text()
    assert stories.preview.toPlainText().startswith("Preview and timing pause above")
    assert stories.editing.save_now()
    assert about_store.load_document(ctx.db, doc="stories") == big
    stories.editor.setPlainText(ONE)
    stories.refresh()
    assert stories.panel.table.rowCount() == 1


def test_a_save_the_journal_refuses_says_not_saved_and_keeps_the_typing(page, qtbot, ctx, bus):
    page.show_stories()
    stories = page.tabs.stories
    with qtbot.waitSignal(bus.changed, check_params_cb=lambda c: c.touches("stories")):
        assert stories.editing.save_now()
    ctx.db.conn.execute("DROP TABLE stories_document")  # a broken store: the write must fail
    stories.editor.moveCursor(stories.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(stories.editor, "typed after")
    assert not stories.editing.save_now()
    assert stories.status.text() != "Saved" and "Your text is still in the editor" in (
        stories.notice.text()
    )
    assert stories.editor.toPlainText().endswith("typed after") and stories.editing.dirty
