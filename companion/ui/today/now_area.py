"""Today's "Now" area: what the phase of the day asks of the user, its buttons, and the
list of the moment (a checklist group). A part of :class:`companion.ui.today.page.TodayPage`
(a mixin over the page's widgets), drawn from the day service's view."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QPushButton

from companion.core.day.checklist import (
    PHASE_TITLES,
    for_moment,
    past_midnight,
    phase_list,
    scope_for,
)
from companion.core.day.clock import ends_text
from companion.core.day.schedule import clock_text
from companion.ui.today.call import call_link_row
from companion.ui.today.parts import clear as _clear

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


class NowArea:
    def _render_phase(self, view) -> None:
        # seam: after the first paint (the Checklist page's module: with the first render,
        # not with this module's import)
        from companion.ui.checklist.page import PhaseGroup, open_link

        now = view.now
        _clear(self.actions_row)
        _clear(self.phase_holder)
        self.phase_group = None
        self.round_line = None  # the running round whose line the countdown keeps current
        self.now_box.setVisible(view.loop is not None)
        if view.loop is None:
            return
        focus = view.focus
        soon = focus is not None and (
            focus.state == "running"
            or (focus.starts_at is not None and focus.starts_at - now <= CALL_SHOWN_WITHIN)
        )  # after the loop, next week's call link is not today's
        call = call_link_row(focus) if soon else None
        if call is not None:
            self.phase_holder.addWidget(call)
        if view.phase == "in-round":
            current = view.current
            press = self._round_press(view)
            self.now_box.setTitle("Now: in the round")
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
            self.now_label.setText(text)
            self._action("Open the &cue card", lambda: self.bus.show_cue_card.emit(current.type))
            if press == "start-now":
                self._action("&Start it now", lambda: self.start_round(current.id))
            finish = "Click again to &finish" if press == "armed" else "Round &finished"
            self._action(finish, lambda: self.finish_round(current.id))
            self._rerender_at_press_change(view)
            return
        if view.phase == "before-round":
            # seam: after the first paint
            from companion.ui.preflight.window import open_preflight

            nxt = view.next
            self.now_box.setTitle("Now: before the round")
            self.now_label.setText(
                f"{nxt.title} at {clock_text(nxt.starts_at, now)}. "
                "One step at a time: the step due now is below, the rest are folded."
            )
            self._action("Open the &cue card", lambda: self.bus.show_cue_card.emit(nxt.type))
            self._action("Pre&flight", lambda: open_preflight(self.ctx, self.bus, self.dnd, self))
            self._action("&Start it now", lambda: self.start_round(nxt.id))
        elif view.phase in PHASE_TITLES:
            self.now_box.setTitle(f"Now: {PHASE_TITLES[view.phase].lower()}")
            if view.phase == "after-loop":
                done = view.after_loop
                which = f" with {done.company}" if done is not None and len(view.loops) > 1 else ""
                self.now_label.setText(f"The loop{which} is done. Write it down while it is fresh.")
            elif past_midnight(view) and (sleep := self.ctx.content.sleep_line())[0]:
                first = f"First round: {view.next.title} at {clock_text(view.next.starts_at, now)}."
                self.now_label.setText(" ".join(p for p in (f"{sleep[0]}.", sleep[1], first) if p))
            else:
                self.now_label.setText(
                    f"First round: {view.next.title} at {clock_text(view.next.starts_at, now)}."
                )
        else:
            self.now_box.setTitle("Now")
            if view.phase == "between-rounds":
                self.now_label.setText(
                    f"Between rounds. Next: {view.next.title} at "
                    f"{clock_text(view.next.starts_at, now)}; its list comes up "
                    f"{int(self.day.rules.before_window.total_seconds() // 60)} minutes before."
                )
                self._action("Open the c&hecklists", lambda: self.bus.open_page.emit("checklist"))
            elif view.next is not None:
                self.now_label.setText(
                    "Nothing to tick right now. The lists come up by themselves: the evening "
                    "before, the morning of, and before each round. All lists are on the "
                    "Checklist page."
                )
                self._action("Open the c&hecklists", lambda: self.bus.open_page.emit("checklist"))
            else:
                self.now_label.setText(
                    "No upcoming round. Add the rounds with their start times below."
                )
            return
        phase = view.phase
        lst = for_moment(phase_list(self.ctx.content, phase), view)
        group = PhaseGroup(self.ctx, self.bus, lst, scope_for(phase, view), dnd=self.dnd)
        group.dnd_round_id = self._dnd_round_id()
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
