"""Checklist actions: the core declares each ``link:`` name once, the UI has one handler
per name, and adding an action is its declaration and its handler (nothing else)."""

from __future__ import annotations

import pytest

from companion.core.content.checklist_actions import CHECKLIST_ACTIONS
from companion.core.day import checklist as cl
from companion.ui.checklist.actions import HANDLERS

pytestmark = pytest.mark.gui


def test_every_declared_action_has_a_handler() -> None:
    missing = sorted(set(CHECKLIST_ACTIONS) - set(HANDLERS))
    assert not missing, f"declared in the core with no @handles in ui/checklist: {missing}"


def test_every_handler_has_a_declaration() -> None:
    undeclared = sorted(set(HANDLERS) - set(CHECKLIST_ACTIONS))
    assert not undeclared, f"handled in ui/checklist, not declared in the core: {undeclared}"


def test_each_action_gets_a_button_with_its_declared_label(qtbot, ctx, bus) -> None:
    """A list holding every declared action shows one button for each, with the words
    the core declares (nothing flagged, no do-not-disturb service offered)."""
    from companion.ui.checklist.page import PhaseGroup

    items = tuple(cl.ChecklistItem(key=f"k-{name}", text=name, link=name) for name in HANDLERS)
    phase_list = cl.PhaseList("morning-of", "Morning of", "", items)
    group = PhaseGroup(ctx, bus, phase_list, cl.Scope(0, "2026-12-01"))
    qtbot.addWidget(group)
    shown = {item.link: group.link_buttons[item.key].text() for item in items}
    assert shown == {name: action.label for name, action in CHECKLIST_ACTIONS.items()}


def test_a_click_runs_the_handler_of_its_name(qtbot, ctx, bus) -> None:
    """The page dispatches through the table: the study-list button opens the study page,
    the about-me button the About page (each its own handler, not a neighbour's)."""
    from companion.ui.checklist.page import PhaseGroup

    items = tuple(
        cl.ChecklistItem(key=f"k-{name}", text=name, link=name)
        for name in ("study-list", "about-me")
    )
    group = PhaseGroup(ctx, bus, cl.PhaseList("morning-of", "M", "", items), cl.Scope(0, "d"))
    qtbot.addWidget(group)
    opened: list[str] = []
    bus.open_page.connect(opened.append)
    group.link_buttons["k-about-me"].click()
    group.link_buttons["k-study-list"].click()
    assert opened == ["about", "study"]
