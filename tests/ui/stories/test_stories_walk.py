"""The story bank walked: three stories written in About me → Stories, a gap seen, a
story told on the card during a hiring-manager round, the capture, and the debrief after
it and in the Journal. With COMPANION_SHOTS=DIR each step is also saved as a PNG (the
walk is run at QT_SCALE_FACTOR=1 and 2 for the screenshots)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from companion.core.day.loops import create_loop
from companion.core.stories.rounds import load_expected, used_stories

pytestmark = pytest.mark.gui

THREE = """# Stories

## Story: Cut the GPU bill
Tags: ownership, impact

### Situation
Training spend doubled in one quarter and nobody owned it.
### Task
I offered to bring it down without slowing the researchers.
### Action
I built a bin-packing scheduler and moved batch jobs to spot capacity.
### Result
Spend fell 40% in three months, and queue time stayed under 20 minutes.
### Differently
I would have asked finance for the bill a month earlier.

## Story: The schema disagreement
Tags: conflict, influence

**Situation:** Two teams wanted different event schemas for the same pipeline.
**Task:** Get one schema both could live with.
**Action:** I wrote both proposals up side by side and ran one review with both leads.
**Result:** We shipped one schema in 2 weeks; both teams migrated.

## Story: The migration that slipped
Tags: failure, growth

Situation: I estimated a database migration at one week.
Action: I skipped the dry run to save time.
Result: It slipped 2 weeks; since then every migration of mine gets a dry run first.
Differently: I would run the dry run before giving a date.
"""


def _shot(widget, name: str) -> None:
    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        from PySide6.QtWidgets import QApplication

        for _ in range(3):  # the layout settles before the picture: the posted events run
            QApplication.sendPostedEvents()
            QApplication.processEvents()
        scale = os.environ.get("QT_SCALE_FACTOR", "1")
        widget.grab().save(str(Path(folder) / f"{name}-{scale}x.png"))


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the capture comes forward
def test_write_stories_see_a_gap_tell_one_capture_and_read_the_debrief(
    day_service, qtbot, main_window, open_page, ctx, bus, clock
):
    from companion.ui.cue.window import CueCardWindow
    from companion.ui.journal.capture import CaptureDesk
    from companion.ui.stories.session import StoriesSession

    win = main_window()
    win.resize(1300, 760)
    # the session's parts, as companion/ui/session.py makes them
    desk = CaptureDesk(ctx, bus, win)
    stories_session = StoriesSession(ctx, bus, win)
    desk.captured.connect(stories_session.captured)
    bus.capture_round.connect(desk.open)

    # 1. three stories, written in About me -> Stories; a gap shows
    about = open_page(win, "about")
    about.show_stories()
    tab = about.tabs.stories
    tab.editor.replace_all(THREE)
    qtbot.waitUntil(lambda: tab.panel.table.rowCount() == 3, timeout=10_000)
    qtbot.waitUntil(lambda: not tab.editing.dirty, timeout=10_000)
    questions = [tab.panel.questions.item(i).text() for i in range(tab.panel.questions.count())]
    assert any(q.startswith("Why do you want to work here") and "gap:" in q for q in questions)
    assert any(
        q.startswith("Tell me about a conflict") and "The schema disagreement" in q
        for q in questions
    )
    assert [tab.panel.table.item(r, 2).text() for r in range(3)] == ["yes", "yes", "yes"]
    _shot(win, "1-stories")

    # 2. a hiring-manager round on the card: the Stories fold, a story told
    create_loop(ctx.db, "Acme", "Staff SRE", starts_on=clock.now().date().isoformat())
    card = CueCardWindow(ctx, bus, day_service, captures=desk)
    qtbot.addWidget(card)
    card.resize(420, 760)
    card.set_round("hiring-manager")
    card.toggle_round()
    round_id = card.state.round_id
    assert round_id and card.running
    assert "conflict" in (load_expected(ctx.db, round_id) or [])  # prefilled when made
    card.show_stories()  # Tell me about yourself
    card.show_stories()  # a conflict
    assert "conflict" in card.stories.fold.filter.text()
    QTest.keyClick(card, Qt.Key.Key_U)
    assert used_stories(ctx.db, round_id) == {"the-schema-disagreement"}
    _shot(card, "2-card")

    # 3. the round ends, the capture opens; saved, the debrief follows
    clock.advance(minutes=45)
    card.toggle_round()
    capture = desk.dialogs.get(round_id) or desk.open(round_id)
    for line in (
        "Tell me about a time you disagreed with a peer #conflict",
        "Why are you leaving? #motivation",
        "How would you run Kubernetes upgrades? #kubernetes upgrades",
    ):
        qtbot.keyClicks(capture.asked.entry, line)
        qtbot.keyClick(capture.asked.entry, Qt.Key.Key_Return)
    assert capture.save()
    debrief = stories_session.dialog
    assert debrief is not None
    qtbot.addWidget(debrief)
    text = debrief.box.text.text()
    assert "Prep recall for Acme: 67%" in text
    assert "asked, not expected: kubernetes upgrades" in text
    assert "stories told: The schema disagreement" in text
    _shot(debrief, "3-debrief")

    # 4. the Journal shows the loop's recall
    journal = open_page(win, "journal")
    assert "Prep recall for Acme: 67%" in journal.debrief.text.text()
    assert "Across loops: ▸Acme 67%" in journal.debrief.text.text()
    _shot(win, "4-journal")
    study = open_page(win, "study")
    assert (
        "kubernetes upgrades" in [i.topic for i in study.items] if hasattr(study, "items") else True
    )
    card.close()
