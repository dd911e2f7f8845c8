"""Expected topics in the round dialog, and the debrief after a saved capture: the
surprises go to the study list and the debrief shows the recall, also in the Journal."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from companion.core.content.stories import story_pack
from companion.core.day.loops import create_loop, end_round, start_round
from companion.core.stories.rounds import load_expected, save_expected

pytestmark = pytest.mark.gui

TYPES = [("hiring-manager", "Hiring manager"), ("coding", "Coding")]


def test_round_dialog_prefills_follows_the_type_and_keeps_an_edit(qtbot, ctx, clock):
    from companion.ui.stories.expected import dialog_topics
    from companion.ui.widgets.loop_dialogs import RoundDialog

    dialog = RoundDialog(TYPES, clock.now(), **dialog_topics(ctx))
    qtbot.addWidget(dialog)
    assert dialog.topics.text().startswith("identity, conflict")  # hiring manager first
    dialog.type.setCurrentIndex(1)  # coding: no behavioural question, an empty study list
    assert dialog.topics.text() == ", ".join(story_pack(ctx.content).round_topics["coding"])
    dialog.topics.selectAll()  # typed over the prefill
    qtbot.keyClicks(dialog.topics, "kv cache, #retries")
    dialog.type.setCurrentIndex(0)
    assert dialog.expected_topics() == ["kv cache", "retries"]  # an edit stays


def test_round_dialog_shows_a_rounds_own_topics(qtbot, ctx, clock):
    from companion.core.day.loops import add_round, get_round
    from companion.ui.stories.expected import dialog_topics, save_dialog_topics
    from companion.ui.widgets.loop_dialogs import RoundDialog

    rid = add_round(ctx.db, create_loop(ctx.db, "Acme"), "coding")
    save_expected(ctx.db, rid, ["sharding"])
    dialog = RoundDialog(
        TYPES, None, get_round(ctx.db, rid), **dialog_topics(ctx, get_round(ctx.db, rid))
    )
    qtbot.addWidget(dialog)
    assert dialog.topics.text() == "sharding"
    dialog.topics.setText("sharding, raft")
    save_dialog_topics(ctx, rid, dialog)
    assert load_expected(ctx.db, rid) == ["sharding", "raft"]
    assert "expected_topics" not in dialog.values()  # the round's own fields only


@pytest.fixture
def hm_round(ctx, clock):
    loop = create_loop(ctx.db, "Acme", starts_on=clock.now().date().isoformat())
    rid = start_round(
        ctx.db, "hiring-manager", clock.now() - dt.timedelta(minutes=40), loop_id=loop
    )
    end_round(ctx.db, rid, clock.now() - dt.timedelta(minutes=2))
    save_expected(ctx.db, rid, ["conflict", "failure"])
    return loop, rid


def test_saved_capture_shows_the_debrief_and_feeds_the_study_list(qtbot, ctx, bus, hm_round):
    from companion.core.study.ranking import study_list
    from companion.ui.journal.capture import CaptureDialog
    from companion.ui.stories.session import StoriesSession

    loop, rid = hm_round
    stories = StoriesSession(ctx, bus, bus, show_debrief=True)
    dialog = CaptureDialog(ctx, bus, rid)
    qtbot.addWidget(dialog)
    dialog.captured.connect(stories.captured)
    for line in ("Tell me about a disagreement #conflict", "Why are you leaving? #motivation"):
        qtbot.keyClicks(dialog.asked.entry, line)
        qtbot.keyClick(dialog.asked.entry, Qt.Key.Key_Return)
    assert dialog.save()
    assert stories.dialog is not None
    text = stories.dialog.box.text.text()
    qtbot.addWidget(stories.dialog)
    assert "Prep recall for Acme: 50%" in text
    assert "expected and asked: conflict" in text
    assert "asked, not expected: motivation" in text
    assert "expected, not asked: failure" in text
    assert [i.topic for i in study_list(ctx.db, ctx.now())][0] == "motivation"


def test_journal_shows_the_loops_recall(qtbot, ctx, bus, day_service, hm_round):
    from companion.core.journal.entries import add_asked
    from companion.ui.journal.page import JournalPage

    loop, rid = hm_round
    add_asked(ctx.db, loop, rid, "A disagreement?", "conflict")
    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    page.on_shown()
    assert page.debrief.isVisibleTo(page)
    text = page.debrief.text.text()
    assert "Prep recall for Acme: 100%" in text and "Across loops: ▸Acme 100%" in text
