"""Today's "Now" box: what the phase of the day asks of the user, its buttons, and the
list of the moment (a checklist group). A part of :class:`companion.ui.today.page.TodayPage`
that owns its widgets and the round buttons' state, drawn from the day service's view."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from companion.core.cue.card import ARMED_FOR, Settle, round_press
from companion.core.day.checklist import (
    PHASE_TITLES,
    for_moment,
    past_midnight,
    phase_list,
    scope_for,
)
from companion.core.day.clock import ends_text, ends_text_changes_in
from companion.core.day.schedule import clock_text
from companion.ui.today.call import call_link_row
from companion.ui.today.redraw import clear as _clear

#: the next round's call link shows from a day before it (the night before, the morning)
CALL_SHOWN_WITHIN = dt.timedelta(hours=24)


def in_round_text(current, now, *, app_paused: bool = False) -> str:
    """The in-round line: when the round ends, or past that, by how much (at 10:47
    "ends about 10:35" read as a mistake). Notifications "come back" only when the app
    paused them itself: with nothing paused it said so all the same."""
    back = "notifications come back and " if app_paused else ""
    return (
        f"{current.title} — {ends_text(current.ends_at, now)}. "
        f"Mark it finished when it ends: {back}the capture opens."
    )


def app_paused(dnd) -> bool:
    """Whether the notifications are paused by the app itself (for a round)."""
    try:
        hold = dnd.hold
    except Exception:  # noqa: BLE001 - no desktop to ask: nothing the app paused
        return False
    return hold is not None and hold.holder == "app"


def dnd_round_id(view) -> int:
    """The round a pause is for: the current one, or the next within the hour."""
    if view is None:
        return 0
    if view.current is not None:
        return view.current.id
    if view.next is not None and view.next.starts_at - view.now <= dt.timedelta(hours=1):
        return view.next.id
    return 0


class NowArea(QGroupBox):
    """The "Now" box. ``redraw_wanted``: its buttons changed without a new view (a
    young round grew up, a first press of two was made): the page draws the view again."""

    redraw_wanted = Signal()

    def __init__(self, ctx, bus, day, dnd, parent=None):
        super().__init__("Now", parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service: rounds start and end through it
        self.dnd = dnd
        self.view = None
        self.phase_group = None
        self.round_line = None  # the running round whose "ends about" line is shown
        self.dialog = None  # the dialog open now (opened without a nested event loop)
        self._phase_key = None
        self._finish_armed: tuple[int, object] | None = None  # (round id, first press at)
        self._settle = None  # the now buttons ignore a click just after they change
        self.setAccessibleName("Now")
        layout = QVBoxLayout(self)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAccessibleName("What the day calls for now")
        layout.addWidget(self.label)
        self.actions_row = QHBoxLayout()
        layout.addLayout(self.actions_row)
        self.phase_holder = QVBoxLayout()
        layout.addLayout(self.phase_holder)

    def render(self, view) -> None:
        """Draw ``view``'s phase when what it shows changed; else the step due now."""
        self.view = view
        focus = view.focus
        key = (
            view.phase,
            focus.id if focus else 0,
            focus.state if focus else "",
            focus.link if focus else "",
            view.day,
            past_midnight(view),
            self._round_press(view),
        )
        if key != self._phase_key:
            self._phase_key = key
            self._render_phase(view)
            self._settle_buttons()
        elif self.phase_group is not None and view.phase == "before-round":
            self.phase_group.refresh()  # the step due now moves on with the clock

    def tick(self, now) -> dt.timedelta | None:
        """Keep the running round's "ends about 10:35" (then "was due to end at 10:35,
        12 min over") current; how long until its words change, None if they never do."""
        line = self.round_line
        if line is None or line.ends_at is None:
            return None
        words = in_round_text(line, now, app_paused=app_paused(self.dnd))
        if words != self.label.text():
            self.label.setText(words)
        return ends_text_changes_in(line.ends_at, now)

    def on_change(self, change) -> bool:
        """Ticks made elsewhere, or the flagged count its list links show: True when
        the list was drawn again."""
        group = self.phase_group
        if group is None or change.is_from(group):
            return False
        if change.touches("checklist"):
            group.refresh()
            return True
        if change.touches("quiz"):
            group._refresh_links()  # the Checklist page's own redraw of its links
            return True
        return False

    def _render_phase(self, view) -> None:
        # seam: after the first paint (the Checklist page's module: with the first render,
        # not with this module's import)
        from companion.ui.checklist.page import PhaseGroup, open_link

        _clear(self.actions_row)
        _clear(self.phase_holder)
        self.phase_group = None
        self.round_line = None  # the running round whose line the countdown keeps current
        self.setVisible(view.loop is not None)
        if view.loop is None:
            return
        call = self._call_row(view)
        if call is not None:
            self.phase_holder.addWidget(call)
        if view.phase == "in-round":
            self._render_in_round(view)
            return
        if view.phase == "before-round":
            self._render_before_round(view)
        elif view.phase in PHASE_TITLES:
            self._render_list_phase(view)
        else:
            self._render_between(view)
            return
        self._show_list(view, PhaseGroup, open_link)

    @staticmethod
    def _call_row(view):
        """The call link of the round the day is about, when it runs or starts within a
        day (after the loop, next week's call link is not today's)."""
        focus = view.focus
        soon = focus is not None and (
            focus.state == "running"
            or (focus.starts_at is not None and focus.starts_at - view.now <= CALL_SHOWN_WITHIN)
        )
        return call_link_row(focus) if soon else None

    def _render_in_round(self, view) -> None:
        now = view.now
        current = view.current
        press = self._round_press(view)
        self.setTitle("Now: in the round")
        text = in_round_text(current, now, app_paused=app_paused(self.dnd))
        if press == "start-now":
            text = (
                f"{current.title} was started by the clock at "
                f"{clock_text(current.starts_at, now)}. Press Start it now when it "
                "really begins: its timer counts from then."
            )
        elif press == "armed":
            text = f"{current.title} started only minutes ago: click again to finish it."
        else:
            self.round_line = current  # its words change as the end passes
        self.label.setText(text)
        self._action("Open the &cue card", lambda: self.bus.show_cue_card.emit(current.type))
        if press == "start-now":
            self._action("&Start it now", lambda: self.start_round(current.id))
        finish = "Click again to &finish" if press == "armed" else "Round &finished"
        self._action(finish, lambda: self.finish_round(current.id))
        self._rerender_at_press_change(view)

    def _render_before_round(self, view) -> None:
        # seam: after the first paint
        from companion.ui.preflight.window import open_preflight

        nxt = view.next
        self.setTitle("Now: before the round")
        self.label.setText(
            f"{nxt.title} at {clock_text(nxt.starts_at, view.now)}. "
            "One step at a time: the step due now is below, the rest are folded."
        )
        self._action("Open the &cue card", lambda: self.bus.show_cue_card.emit(nxt.type))
        self._action("Pre&flight", lambda: open_preflight(self.ctx, self.bus, self.dnd, self))
        self._action("&Start it now", lambda: self.start_round(nxt.id))

    def _render_list_phase(self, view) -> None:
        """The evening before, the morning of, after the loop: the phase's list below."""
        now = view.now
        self.setTitle(f"Now: {PHASE_TITLES[view.phase].lower()}")
        if view.phase == "after-loop":
            done = view.after_loop
            which = f" with {done.company}" if done is not None and len(view.loops) > 1 else ""
            self.label.setText(f"The loop{which} is done. Write it down while it is fresh.")
        elif past_midnight(view) and (sleep := self.ctx.content.sleep_line())[0]:
            first = f"First round: {view.next.title} at {clock_text(view.next.starts_at, now)}."
            self.label.setText(" ".join(p for p in (f"{sleep[0]}.", sleep[1], first) if p))
        else:
            self.label.setText(
                f"First round: {view.next.title} at {clock_text(view.next.starts_at, now)}."
            )

    def _render_between(self, view) -> None:
        """Between rounds, or nothing due: no list here, the way to the Checklist page."""
        self.setTitle("Now")
        if view.phase == "between-rounds":
            self.label.setText(
                f"Between rounds. Next: {view.next.title} at "
                f"{clock_text(view.next.starts_at, view.now)}; its list comes up "
                f"{int(self.day.rules.before_window.total_seconds() // 60)} minutes before."
            )
            self._action("Open the c&hecklists", lambda: self.bus.open_page.emit("checklist"))
        elif view.next is not None:
            self.label.setText(
                "Nothing to tick right now. The lists come up by themselves: the evening "
                "before, the morning of, and before each round. All lists are on the "
                "Checklist page."
            )
            self._action("Open the c&hecklists", lambda: self.bus.open_page.emit("checklist"))
        else:
            self.label.setText("No upcoming round. Add the rounds with their start times below.")

    def _show_list(self, view, make_group, open_link) -> None:
        """The phase's list (a checklist group, ``make_group``: the Checklist page's
        PhaseGroup); before a round, one step at a time."""
        phase = view.phase
        lst = for_moment(phase_list(self.ctx.content, phase), view)
        group = make_group(self.ctx, self.bus, lst, scope_for(phase, view), dnd=self.dnd)
        group.dnd_round_id = dnd_round_id(view)
        if phase == "before-round":
            group.steps_for(view.next.starts_at)  # one step at a time; the rest fold
            if not any(i.link == "dnd" for i in lst.items):
                # the pack's do-not-disturb item is a morning one: offered before every round
                self._action("Do not &disturb", lambda: self._pause_for(open_link, view.next.id))
        if phase == "after-loop" and view.after_loop_last is not None:
            group.capture_round_id = view.after_loop_last.id  # the loop that is over
        self.phase_group = group
        self.phase_holder.addWidget(group)

    def _pause_for(self, open_link, round_id: int) -> None:
        """Pause notifications for the round (the checklist's do-not-disturb link; its
        opener comes with the Checklist page's module, imported with the first render)."""
        self.dialog = open_link("dnd", self.bus, self.dnd, round_id=round_id, parent=self)

    def _action(self, text: str, slot) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(lambda _=False: self._press(slot))
        row = self.actions_row  # the buttons keep their size, on the left
        last = row.itemAt(row.count() - 1) if row.count() else None
        if last is not None and last.spacerItem() is not None:
            row.insertWidget(row.count() - 1, button)
        else:
            row.addWidget(button)
            row.addStretch(1)
        return button

    # the round's buttons ---------------------------------------------------------------

    def _settle_buttons(self) -> None:
        """The now buttons as drawn: a click just after they changed is ignored (the
        second click of a double click on "Round finished" must not start the next)."""
        row = self.actions_row
        texts = tuple(
            row.itemAt(i).widget().text() for i in range(row.count()) if row.itemAt(i).widget()
        )
        self._settle = (self._settle or Settle()).follow(texts, self.ctx.now())

    def _press(self, slot) -> None:
        if self._settle is not None and self._settle.ignores(self.ctx.now()):
            return
        self._settle = (self._settle or Settle()).press(self.ctx.now())
        slot()

    def _round_press(self, view) -> str:
        """What a press does to the running round (core/cue/card.py decides), "armed"
        once the first of two presses that end a young round was made."""
        current = view.current if view is not None else None
        if current is None:
            return ""
        now = self.ctx.now()
        press = round_press(current, now, self.ctx.content.round_defaults().take_over_within)
        armed = self._finish_armed
        if (
            press != "end"
            and armed is not None
            and armed[0] == current.id
            and dt.timedelta(0) <= now - armed[1] <= ARMED_FOR
        ):
            return "armed"
        return press

    def _rerender_at_press_change(self, view) -> None:
        """A young round's buttons change when it stops being young, or the second
        press's time runs out: draw them again then."""
        current = view.current
        now = self.ctx.now()
        moments = []
        if current.starts_at is not None:
            young = min(self.ctx.content.round_defaults().take_over_within, current.minutes)
            moments.append(current.starts_at + dt.timedelta(minutes=young))
        if self._finish_armed is not None:
            moments.append(self._finish_armed[1] + ARMED_FOR)
        future = [m for m in moments if m > now]
        if future:
            ms = int((min(future) - now).total_seconds() * 1000) + 50
            QTimer.singleShot(ms, self, self.redraw_wanted.emit)

    def finish_round(self, round_id: int) -> None:
        """End the round through the day service: once, wherever it is pressed. A round
        only minutes old ends at a second click (the card's rule, core/cue/card.py)."""
        press = self._round_press(self.view)
        current = self.view.current if self.view is not None else None
        if current is not None and current.id == round_id and press in ("start-now", "confirm-end"):
            self._finish_armed = (round_id, self.ctx.now())
            self.redraw_wanted.emit()
            return
        self._finish_armed = None
        self.day.end_round(round_id)

    def start_round(self, round_id: int) -> None:
        self.day.start_round(round_id=round_id)
