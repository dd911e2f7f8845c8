"""What a checklist item's button does: one handler per action the core declares
(companion/core/content/checklist_actions.py), in one table the page dispatches through.

Adding an action is its line in the core's declaration and one ``@handles`` function
here; tests/ui/checklist/test_actions.py fails when the two disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.core.review.queue import review_or_empty
from companion.core.selfcheck.quiz import first_review, flagged_ids
from companion.ui.voice.check_dialog import show_check
from companion.ui.widgets.opening import tell


@dataclass(frozen=True)
class Opening:
    """What a handler may use. A list knows two rounds: the one to come (do not disturb
    is kept on for it) and the one just over (its questions are written down)."""

    bus: Any
    dnd: Any = None  # the session's do-not-disturb service (None: not offered)
    parent: Any = None  # a message's parent widget
    db: Any = None
    now: Callable | None = None
    round_to_quiet: int = 0
    round_to_capture: int = 0


@dataclass(frozen=True)
class Handler:
    open: Callable[[Opening], Any]  # a click; may return the dialog it opened
    # the button's words as things stand (the flagged count, notifications held), or
    # None for the declared label
    text: Callable[[Any, Any], str | None] | None = None  # (dnd, db) -> words


HANDLERS: dict[str, Handler] = {}


def handles(name: str, *, text: Callable[[Any, Any], str | None] | None = None):
    """Register the decorated function as the handler of the action ``name``."""

    def register(open_: Callable[[Opening], Any]) -> Callable[[Opening], Any]:
        HANDLERS[name] = Handler(open_, text)
        return open_

    return register


def open_link(link: str, bus, dnd=None, *, round_id: int = 0, parent=None, db=None, now=None):
    """Open what a checklist item names, for the round ``round_id`` (the mic check
    returns its dialog, whose ``passed`` can tick the item)."""
    return open_action(
        link, Opening(bus, dnd, parent, db, now, round_to_quiet=round_id, round_to_capture=round_id)
    )


def open_action(link: str, opening: Opening):
    handler = HANDLERS.get(link)
    return handler.open(opening) if handler is not None else None


def button_text(link: str, dnd, db) -> str | None:
    """The words the action's button shows now; None: its declared label."""
    handler = HANDLERS.get(link)
    return handler.text(dnd, db) if handler is not None and handler.text else None


def offer_one_answer(db, bus) -> None:
    """The warm-up's one answer aloud: a flagged question if there is one, else the quiz
    offers any question (never the bare "Nothing is flagged")."""
    if flagged_count(db):
        bus.open_flagged_quiz.emit()
    else:
        bus.open_page.emit("selfcheck")


def flagged_count(db) -> int:
    try:
        return len(flagged_ids(db))
    except Exception:  # noqa: BLE001 - the quiz tables may not exist in an older copy
        return 0


def _flagged_text(_dnd, db) -> str | None:
    count = flagged_count(db)
    return f"Show flagged answers ({count})" if count else None


def _dnd_text(dnd, _db) -> str | None:
    if dnd is None:
        return None
    return "Turn notifications back on" if dnd.hold else "Do not disturb"


def _first_review(db, now) -> bool:
    try:
        return first_review(db, len(review_or_empty(db, now()).items))
    except Exception:  # noqa: BLE001 - the quiz tables may not exist in an older copy
        return False


# --- the handlers, one per declared action ---------------------------------------------


@handles("about-me")
def _about_me(act: Opening) -> None:
    act.bus.open_page.emit("about")


@handles("flagged-quiz", text=_flagged_text)
def _flagged_quiz(act: Opening) -> None:
    act.bus.open_flagged_quiz.emit()


@handles("one-answer", text=_flagged_text)  # nothing flagged: any question, its label says
def _one_answer(act: Opening) -> None:
    offer_one_answer(act.db, act.bus)


@handles("dnd", text=_dnd_text)
def _dnd(act: Opening):
    if act.dnd is None:
        return None
    status = act.dnd.status()
    if not status.automatic and status.hold is None:
        return tell(act.parent, "Do not disturb", status.text)  # no nested event loop
    act.dnd.set_on(status.hold is None, round_id=act.round_to_quiet)
    return None


@handles("journal-capture")
def _journal_capture(act: Opening) -> None:
    act.bus.capture_round.emit(act.round_to_capture)


@handles("thank-you")
def _thank_you(act: Opening) -> None:
    act.bus.open_page.emit("journal")


@handles("study-list")
def _study_list(act: Opening) -> None:
    act.bus.open_page.emit("study")


@handles("review-list")
def _review_list(act: Opening) -> None:
    if act.db is not None and act.now is not None and _first_review(act.db, act.now):
        act.bus.open_page.emit("selfcheck")  # a new user: the whole quiz is the first review
    else:
        act.bus.open_page.emit("study")
        act.bus.open_review.emit()


@handles("mic-check")
def _mic_check(act: Opening):
    return show_check(act.parent)
