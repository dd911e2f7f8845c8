"""The top of Today: the headline (the day's loops) and the countdown to the next
round. Parts of the Today page, drawn from the day service's view."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from companion.core.day.clock import countdown_changes_in
from companion.core.day.round_state import local_time
from companion.core.day.schedule import clock_text, countdown_text
from companion.ui.widgets.type_scale import type_role


def day_loops(view) -> list:
    """The day's open loops in the order their rounds come (``DayView.open_loops``):
    those with a round on the day the view is about, or something still open (the
    after-loop list, a thank-you); a loop booked for next week is not today's."""
    on_day = {
        d.round.loop_id
        for d in view.rounds
        if d.starts_at is not None and local_time(d.starts_at, view.now).date() == view.day
    }
    met = {d.round.loop_id for d in view.rounds if d.state in ("ended", "captured")}
    loops = [
        lp
        for lp in view.open_loops()
        if lp.id in on_day
        or lp.id == view.after_loop_id
        or (lp.id in met and view.thank_you_open(lp.id))
    ]
    return loops or ([view.loop] if view.loop is not None else [])


class Headline(QLabel):
    """ "Today · Acme · SRE": the loop picked, else the day's loops in the order their
    rounds come."""

    def __init__(self, parent=None):
        super().__init__("Today", parent)
        type_role(self, "pageTitle")
        self.setTextFormat(Qt.TextFormat.PlainText)  # a company name is not HTML
        self.setAccessibleName("Today")

    def render(self, view, picked) -> None:
        """``picked``: the loop chosen in the loop list, None for all loops."""
        loops = day_loops(view)
        one = picked or (loops[0] if len(loops) == 1 else None)
        if one is not None:
            title = one.company + (f" · {one.role}" if one.role else "")
        else:  # every loop of the day, in the order their rounds come
            title = " + ".join(lp.company for lp in loops[:3])
        self.setText(f"Today · {title}" if title else "Today")


class Countdown(QLabel):
    """The countdown line: "Next: Coding round at 10:00, in 25 min"."""

    def __init__(self, parent=None):
        super().__init__("Loading today's plan…", parent)
        self.setObjectName("countdown")
        self.setAccessibleName("Countdown to the next round")
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.setFont(font)
        self.setWordWrap(True)

    def render(self, view, now) -> dt.timedelta | None:
        """Say where ``view`` stands at ``now``; how long until the words change (by
        the rule the card follows too), None if they never do."""
        # with no loop the page title and the steps below say it all: no third heading
        self.setVisible(view.loop is not None)
        if view.loop is None:
            text = ""
        elif view.current is not None:
            nxt = (
                f" Next: {view.next.title} {countdown_text(view.next.starts_at - now)}."
                if view.next
                else ""
            )
            text = f"In the {view.current.title} now.{nxt}"
        elif view.next is not None:
            text = (
                f"Next: {view.next.title} at {clock_text(view.next.starts_at, now)}, "
                f"{countdown_text(view.next.starts_at - now)}"
            )
        elif view.rounds:
            text = "No more rounds scheduled in this loop."
        else:
            text = "No rounds scheduled yet: add them below."
        if text != self.text():
            self.setText(text)
        return countdown_changes_in(view.next.starts_at - now) if view.next is not None else None
