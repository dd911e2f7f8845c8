"""The card's Stories fold: shown in the pack's card rounds only, the hotkey steps it
through question types, and U marks the selected story told in the running round."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from companion.core.about import store as about_store
from companion.core.day import loops
from companion.core.stories.rounds import used_stories

pytestmark = pytest.mark.gui

BANK = """## Story: Cut GPU cost
Tags: ownership, impact
Situation: The bill doubled.
Result: Spend fell 40%.

## Story: The schema fight
Tags: conflict
Situation: Two teams disagreed.
Result: We shipped one schema in 2 weeks.
"""


@pytest.fixture
def card(ctx, bus, day_service, qtbot, db, clock):
    from companion.ui.cue.window import CueCardWindow

    about_store.save_text(db, BANK, clock.now(), doc="stories")
    widget = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(widget)
    return widget


def _titles(card):
    fold = card.stories.fold
    return [fold.list.item(i).text().split("\n")[0] for i in range(fold.list.count())]


def test_fold_shows_in_hiring_manager_rounds_only(card):
    card.set_round("coding")
    assert not card.stories.fold.isVisibleTo(card)
    card.set_round("hiring-manager")
    assert card.stories.fold.isVisibleTo(card)
    assert card.stories.fold.header.text().startswith("\u25b8 Stories (2")


def test_the_hotkey_opens_the_fold_and_steps_through_question_types(card):
    card.set_round("hiring-manager")
    assert card.show_stories()
    fold = card.stories.fold
    assert fold.is_open
    # the pitch answers it: the fold points there and lists no story
    assert "Tell me about yourself" in fold.filter.text()
    assert _titles(card) == [] and not fold.list.isVisibleTo(card)
    assert fold.empty.isVisibleTo(card)
    assert fold.empty.text() == "Your pitch answers this: 60-90 seconds, not a story."
    card.show_stories()  # the next question type: a conflict
    assert "conflict" in fold.filter.text()
    assert _titles(card) == ["The schema fight"]
    first = fold.list.item(0).text()
    assert "\n   S: Two teams disagreed." in first and "\n   R: We shipped" in first


def test_u_marks_the_story_told_in_the_running_round(card, db, clock):
    loops.create_loop(db, "Acme", starts_on=clock.now().date().isoformat())
    card.set_round("hiring-manager")
    card.toggle_round()
    round_id = card.state.round_id
    card.show_stories()
    card.show_stories()  # the conflict question: the schema fight
    QTest.keyClick(card, Qt.Key.Key_U)
    assert used_stories(db, round_id) == {"the-schema-fight"}
    assert card.stories.fold.list.item(0).text().startswith("\u2713 The schema fight")
    QTest.keyClick(card, Qt.Key.Key_U)  # again: unmarked
    assert used_stories(db, round_id) == frozenset()


def test_without_a_running_round_nothing_is_marked(card, db):
    card.set_round("peer")
    card.show_stories()
    assert card.stories.toggle_used("cut-gpu-cost") is None
    assert db.execute("SELECT COUNT(*) FROM story_use").fetchone()[0] == 0


def test_opened_with_no_stories_it_shows_the_hint_alone(ctx, bus, day_service, qtbot):
    """An empty bank opened by its header showed a blank list box above the hint."""
    from companion.ui.cue.window import CueCardWindow

    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    card.set_round("hiring-manager")
    fold = card.stories.fold
    fold.header.click()  # opened by hand, not by the hotkey
    assert fold.is_open
    assert fold.empty.isVisibleTo(card) and "No stories yet" in fold.empty.text()
    assert not fold.list.isVisibleTo(card) and not fold.filter.isVisibleTo(card)
