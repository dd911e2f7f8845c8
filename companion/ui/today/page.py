"""The Today page, first at start-up: the countdown to the next round, the phase the
day calls for now, reminders, do-not-disturb and the loop's schedule.

The page registry imports this module once the window has painted, so the day's core is
imported at the top; the schedule's editors load with the page's body (``_build``).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QGroupBox, QVBoxLayout, QWidget

from companion.core.day.loops import create_loop, list_loops
from companion.ui.dnd.switch import DndSwitch
from companion.ui.today.dnd_banner import DndBanner
from companion.ui.today.header import Countdown, Headline
from companion.ui.today.loop_picker import LoopPicker
from companion.ui.today.now_area import NowArea, dnd_round_id
from companion.ui.today.reminders import Reminders
from companion.ui.today.start_here import StartHere
from companion.ui.today.takeaways import takeaways_box
from companion.ui.widgets.opening import open_dialog
from companion.ui.widgets.tab_order import follow_layout
from companion.ui.widgets.vertical_scroll import VerticalScroll


class TodayPage(QWidget):
    def __init__(self, ctx, bus, parent=None, *, day):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service: this page renders its view
        self.view = None
        self._built = False
        self._stale = False
        self.redraws = 0  # how often the page redrew (benchmarks/bench_redraws.py)
        self.dialog = None  # the dialog open now (opened without a nested event loop)

        outer = QVBoxLayout(self)
        self.headline = Headline()
        outer.addWidget(self.headline)
        self.countdown = Countdown()
        outer.addWidget(self.countdown)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        scroll = VerticalScroll(self.body, "Today, scrollable", tab_stop=True)
        outer.addWidget(scroll, 1)
        # display only: the countdown line; the day itself ticks in the day service
        self.clock_timer = QTimer(self, singleShot=True)
        self.clock_timer.timeout.connect(self.update_countdown)
        # the data (and so the database) loads in on_shown: before the window's first
        # paint when it opens here on a journal (the plan at first sight), else after it

    # building ----------------------------------------------------------------------

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        self.dnd = self.day.dnd  # the session's, handed down with the day
        for part in (*self._day_parts(), *self._tool_parts()):
            self.body_layout.addWidget(part)
        self.body_layout.addStretch(1)
        self.bus.day_changed.connect(self.render)
        self.bus.changed.connect(self._on_change)
        self.dnd_switch.refresh()
        self.render(self.day.view or self.day.refresh())

    def _day_parts(self) -> list[QWidget]:
        """What the day says: the pause banner, the loops, the first steps, Now, the
        reminders."""
        self.dnd_banner = DndBanner(self.dnd)
        self.loops = LoopPicker()
        self.loops.chosen.connect(self.day.choose_loop)
        self.loops.add_wanted.connect(self.add_loop)
        self.start_here = StartHere(self.ctx.content.pitch_plan().target_text)
        self.start_here.about_wanted.connect(lambda: self.bus.open_page.emit("about"))
        self.now_box = NowArea(self.ctx, self.bus, self.day, self.dnd)
        self.now_box.redraw_wanted.connect(lambda: self.render(self.view))
        self.reminders_box = Reminders(self.bus)
        return [self.dnd_banner, self.loops, self.start_here, self.now_box, self.reminders_box]

    def _tool_parts(self) -> list[QWidget]:
        """What the user sets: do-not-disturb, the schedule, and the guide's takeaways."""
        # seam: after the first paint (the schedule's editors and the invitation import:
        # 54 modules, built with the page's body, not with the page)
        from companion.ui.today.schedule import ScheduleEditor

        self.dnd_switch = DndSwitch(self.dnd, round_id_for=lambda: dnd_round_id(self.view))
        self.schedule = ScheduleEditor(self.ctx, self.bus, self.day)
        self.schedule_box = _boxed("Schedule", self.schedule)
        self.schedule_box.setAccessibleName("Schedule")
        self.takeaways_box = takeaways_box(self.ctx.content)
        parts = [_boxed("Do not disturb", self.dnd_switch), self.schedule_box]
        return parts + ([self.takeaways_box] if self.takeaways_box is not None else [])

    # the day -----------------------------------------------------------------------

    def refresh(self) -> None:
        """Ask the service for the day now (it emits ``day_changed``, rendered below)."""
        if self._built:
            self.day.refresh()

    def on_shown(self) -> None:
        if self._built:
            self.render(self.day.view or self.day.refresh())
        else:
            self._build()

    def render(self, view) -> None:
        """Show ``view``; skipped while hidden (shown again from ``on_shown``)."""
        if not self._built or view is None:
            return
        self.view = view
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self.redraws += 1
        loops = list_loops(self.ctx.db)
        shown = self._shown_loop(view, loops)
        picked = self.day.shown_loop if self.day.shown_loop in [lp.id for lp in loops] else 0
        self.loops.render(loops, picked)
        self.start_here.setVisible(view.loop is None)
        self.schedule_box.setVisible(shown is not None)
        every = not picked and len(loops) > 1  # "All loops": one calendar of every loop
        self.schedule.set_loop(shown.id if shown else 0, view, every=every)
        title = "every loop" if every else shown.company if shown else ""
        self.schedule_box.setTitle(f"Schedule · {title}" if title else "Schedule")
        self.headline.render(view, shown if picked else None)
        self.now_box.render(view)
        self.reminders_box.render(view)
        self.dnd_banner.refresh()
        self.update_countdown()
        QTimer.singleShot(0, self._follow_layout)  # once the new rows are laid out

    def _follow_layout(self) -> None:
        """Tab goes down the page as it is drawn (buttons added later came last)."""
        follow_layout(self)

    def update_countdown(self) -> None:
        """The countdown line: once a minute, each second in the last minute; never while
        the page is hidden (it catches up when shown)."""
        view = self.view
        if view is None or not self.isVisible():
            self.clock_timer.stop()
            return
        now = self.ctx.now()
        # wake when the words change: the countdown's, the running round's "ends about"
        steps = [self.countdown.render(view, now), self.now_box.tick(now)]
        steps = [s for s in steps if s is not None]
        if not steps:
            self.clock_timer.stop()
            return
        self.clock_timer.start(max(200, math.ceil(min(steps).total_seconds() * 1000)))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale and self.view is not None:
            self.render(self.view)
        else:
            self.update_countdown()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.clock_timer.stop()

    def _on_change(self, change) -> None:
        """Ticks made elsewhere, or the flagged count its list links show; the rest of
        what this page shows comes with the day (``render``)."""
        if self._built and self.now_box.on_change(change):
            self.redraws += 1

    @property
    def phase_group(self):
        """The list of the moment in the Now box (None when the phase has none)."""
        return self.now_box.phase_group if self._built else None

    # actions -----------------------------------------------------------------------

    def finish_round(self, round_id: int) -> None:
        self.now_box.finish_round(round_id)

    def start_round(self, round_id: int) -> None:
        self.now_box.start_round(round_id)

    def _shown_loop(self, view, loops):
        """The loop whose schedule the page shows: the one picked, else the day's."""
        picked = next((lp for lp in loops if lp.id == self.day.shown_loop), None)
        return picked or view.loop

    def add_loop(self) -> None:
        # seam: after the first paint
        from companion.ui.widgets.loop_dialogs import LoopDialog

        dialog = LoopDialog(self.ctx.now().date(), self)
        self.dialog = open_dialog(dialog, lambda: self.create_loop(*dialog.values()))

    def create_loop(self, company: str, role: str, starts_on: str) -> int:
        loop_id = create_loop(self.ctx.db, company, role, starts_on=starts_on)
        self.day.choose_loop(loop_id, created=True, origin=self)  # the day renders it here
        self.schedule.add_button.setFocus()
        return loop_id

    def shutdown(self) -> None:
        """Called by the main window on close: put notifications back."""
        self.clock_timer.stop()
        if self._built:
            self.dnd.shutdown()


def _boxed(title: str, widget: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    QVBoxLayout(box).addWidget(widget)
    return box
