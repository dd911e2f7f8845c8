"""What a checklist item's ``link:`` may open, declared once.

A content file names an action on an item (``link: mic-check``); the loader accepts
only the names here, the Checklist page labels its button with ``label`` and runs the
UI's one handler of that name (companion/ui/checklist/actions.py, a test pairs them).
Adding an action is one line here and one handler there.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChecklistAction:
    name: str  # the ``link:`` value
    label: str  # the item's button, and its accessible name before the item's text
    ticks_when: str = ""  # an item whose tick follows the day: what ticks it


CHECKLIST_ACTIONS = {
    action.name: action
    for action in (
        ChecklistAction("about-me", "Open About me"),
        ChecklistAction("flagged-quiz", "Show flagged answers"),
        ChecklistAction("review-list", "Review before the loop"),
        ChecklistAction("dnd", "Do not disturb"),
        ChecklistAction(
            "journal-capture", "Write it down", "every round of the day is written down"
        ),
        ChecklistAction(
            "thank-you", "Open journal", "the thank-you note is marked sent in the Journal"
        ),
        ChecklistAction("study-list", "Open study list"),
        ChecklistAction("mic-check", "Check mic and camera"),
        ChecklistAction("one-answer", "Offer one answer"),
    )
}
