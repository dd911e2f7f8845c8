"""The Today page, first at start-up: the countdown to the next round, the phase the
day calls for now, reminders, do-not-disturb and the loop's schedule.

The module imports only Qt; the data and the heavier widgets load after the first paint.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

EMPTY_TEXT = (
    "<h3>No interview loop yet</h3>"
    "<p>Start here:</p><ol>"
    "<li><b>Add a loop</b>: the company and the first interview day.</li>"
    "<li><b>Add its rounds</b> with their start times, or import the calendar "
    "invitation (.ics).</li></ol>"
    "<p>Then this page counts down to each round and brings up the right list at the right "
    "time: the evening before, the morning of, and ten minutes before each round.</p>"
)
SLOW_EVERY = 15  # ticks (seconds) between reminder, journal and do-not-disturb checks
SENT_KEY = "today.reminders_sent"


def _clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()
        elif item.layout() is not None:
            _clear(item.layout())


class TodayPage(QWidget):
    def __init__(self, ctx, bus, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.view = None
        self.phase_group = None
        self._phase_key = None
        self._ticks = 0
        self._built = False
        self._chosen_loop = 0

        outer = QVBoxLayout(self)
        self.headline = QLabel("<h2>Today</h2>")
        self.headline.setAccessibleName("Today")
        outer.addWidget(self.headline)
        self.countdown = QLabel("Loading today's plan…")
        self.countdown.setObjectName("countdown")
        self.countdown.setAccessibleName("Countdown to the next round")
        font = self.countdown.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.countdown.setFont(font)
        self.countdown.setWordWrap(True)
        outer.addWidget(self.countdown)
        scroll = QScrollArea()
        scroll.setAccessibleName("Today, scrollable")  # a Tab stop: the keys scroll it
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        scroll.setWidget(self.body)
        outer.addWidget(scroll, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.tick)
        # the data (and so the database) loads in on_shown, which the main window calls
        # only after its first paint: start-up is measured against a bare Qt window

    # building ----------------------------------------------------------------------

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        from companion.ui.dnd_switch import DndSwitch, dnd_model
        from companion.ui.schedule_editor import ScheduleEditor

        layout = self.body_layout
        self.dnd = dnd_model(self.ctx, self.bus)

        self.dnd_banner = QLabel()
        self.dnd_banner.setWordWrap(True)
        self.dnd_banner.setObjectName("dndBanner")
        self.dnd_banner.setAccessibleName("Notifications paused")
        self.dnd_banner.setStyleSheet(
            "QLabel#dndBanner { background: palette(highlight); color: palette(highlighted-text);"
            " padding: 6px; border-radius: 4px; }"
        )
        self.dnd_banner.hide()
        layout.addWidget(self.dnd_banner)

        loops_row = QHBoxLayout()
        self.loop_label = QLabel("&Loop:")
        self.loop_combo = QComboBox()
        self.loop_combo.setAccessibleName("Interview loop")
        self.loop_label.setBuddy(self.loop_combo)
        self.loop_combo.activated.connect(self._loop_chosen)
        self.add_loop_button = QPushButton("Add a l&oop…")
        self.add_loop_button.clicked.connect(self.add_loop)
        loops_row.addWidget(self.loop_label)
        loops_row.addWidget(self.loop_combo, 1)
        loops_row.addWidget(self.add_loop_button)
        layout.addLayout(loops_row)

        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName("How to start")
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.empty)

        self.now_box = QGroupBox("Now")
        self.now_box.setAccessibleName("Now")
        now_layout = QVBoxLayout(self.now_box)
        self.now_label = QLabel()
        self.now_label.setWordWrap(True)
        self.now_label.setAccessibleName("What the day calls for now")
        now_layout.addWidget(self.now_label)
        self.actions_row = QHBoxLayout()
        now_layout.addLayout(self.actions_row)
        self.phase_holder = QVBoxLayout()
        now_layout.addLayout(self.phase_holder)
        layout.addWidget(self.now_box)

        self.reminders_box = QGroupBox("Reminders")
        self.reminders_box.setAccessibleName("Reminders")
        self.reminders_layout = QVBoxLayout(self.reminders_box)
        layout.addWidget(self.reminders_box)

        dnd_box = QGroupBox("Do not disturb")
        dnd_layout = QVBoxLayout(dnd_box)
        self.dnd_switch = DndSwitch(self.dnd, round_id_for=self._dnd_round_id)
        dnd_layout.addWidget(self.dnd_switch)
        layout.addWidget(dnd_box)

        self.schedule_box = QGroupBox("Schedule")
        self.schedule_box.setAccessibleName("Schedule")
        schedule_layout = QVBoxLayout(self.schedule_box)
        self.schedule = ScheduleEditor(self.ctx, self.bus)
        schedule_layout.addWidget(self.schedule)
        layout.addWidget(self.schedule_box)
        self.takeaways_box = self._takeaways_box()
        if self.takeaways_box is not None:
            layout.addWidget(self.takeaways_box)
        layout.addStretch(1)

        self.dnd.changed.connect(self._update_dnd_banner)
        self.bus.journal_changed.connect(self.refresh)
        self.bus.checklist_changed.connect(self._checklist_changed)
        self._chosen_loop = int(self.ctx.prefs.get("today.loop_id", 0) or 0)
        self.refresh()
        self.dnd_switch.refresh()
        self._update_dnd_banner()
        self.timer.start()

    def _takeaways_box(self) -> QGroupBox | None:
        """The guide's takeaways (content of kind ``summary``) as one compact card."""
        from html import escape

        sections = self.ctx.content.by_kind("summary")
        if not sections:
            return None
        box = QGroupBox(" · ".join(s.title for s in sections))
        box.setAccessibleName("Takeaways")
        items = "".join(f"<li>{escape(i.text)}</li>" for s in sections for i in s.items)
        text = QLabel(f"<ul style='margin-left:-20px'>{items}</ul>")
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setWordWrap(True)
        text.setAccessibleName("Takeaways")
        QVBoxLayout(box).addWidget(text)
        return box

    # data --------------------------------------------------------------------------

    def refresh(self) -> None:
        if not self._built:
            return
        from companion.core.loops import list_loops
        from companion.core.schedule import day_view

        view = day_view(self.ctx.db, self.ctx.content, self.ctx.now(), self._chosen_loop or None)
        self.view = view
        loops = list_loops(self.ctx.db)
        self.loop_combo.blockSignals(True)
        self.loop_combo.clear()
        for loop in loops:
            self.loop_combo.addItem(loop.label, loop.id)
        if view.loop is not None:
            self.loop_combo.setCurrentIndex(max(0, self.loop_combo.findData(view.loop.id)))
        self.loop_combo.blockSignals(False)
        for widget in (self.loop_label, self.loop_combo):
            widget.setVisible(bool(loops))
        self.empty.setVisible(view.loop is None)
        self.schedule_box.setVisible(view.loop is not None)
        self.schedule.set_loop(view.loop_id)
        if view.loop is not None:
            title = view.loop.company + (f" · {view.loop.role}" if view.loop.role else "")
            self.headline.setText(f"<h2>Today · {title}</h2>")
        else:
            self.headline.setText("<h2>Today</h2>")
        self._phase_key = None  # force the phase area to rebuild
        self.tick(force_slow=True)

    def on_shown(self) -> None:
        if self._built:
            self.refresh()
        else:
            self._build()  # refreshes at its end

    def tick(self, force_slow: bool = False) -> None:
        """Every second: the countdown and, when it changes, the phase; every
        SLOW_EVERY seconds also reminders, journal nudges and do-not-disturb."""
        if self.view is None:
            return
        from companion.core.schedule import before_window, situation

        now = self.ctx.now()
        sit = situation(self.view.rounds, now, self.view.lengths, before_window(self.view.before))
        self._update_countdown(sit, now)
        key = (sit.phase, sit.round.id if sit.round else 0, sit.day)
        if key != self._phase_key:
            self._phase_key = key
            self._render_phase(sit, now)
            force_slow = True
        self._ticks += 1
        if force_slow or self._ticks % SLOW_EVERY == 0:
            self._slow_checks(sit, now)

    def _update_countdown(self, sit, now) -> None:
        from companion.core.schedule import IN_ROUND, clock_text, countdown_text, round_title

        view = self.view
        if view.loop is None:
            self.countdown.setText("Add your interview loop to start the day.")
        elif sit.phase == IN_ROUND:
            nxt = (
                f" Next: {round_title(sit.next_round, view.titles)} {countdown_text(sit.starts_in)}."
                if sit.next_round
                else ""
            )
            self.countdown.setText(f"In the {round_title(sit.round, view.titles)} now.{nxt}")
        elif sit.next_round is not None:
            self.countdown.setText(
                f"Next: {round_title(sit.next_round, view.titles)} at "
                f"{clock_text(sit.next_round.scheduled, now)}, {countdown_text(sit.starts_in)}"
            )
        elif view.rounds:
            self.countdown.setText("No more rounds scheduled in this loop.")
        else:
            self.countdown.setText("No rounds scheduled yet: add them below.")

    # the phase area ------------------------------------------------------------------

    def _render_phase(self, sit, now) -> None:
        from companion.core.checklist import PHASE_TITLES, phase_list, scope_for
        from companion.core.schedule import IN_ROUND, clock_text, end_of, round_title
        from companion.ui.pages.checklist import PhaseGroup

        view = self.view
        _clear(self.actions_row)
        _clear(self.phase_holder)
        self.phase_group = None
        self.now_box.setVisible(view.loop is not None)
        if view.loop is None:
            return
        phase = "before-round" if sit.phase == IN_ROUND else sit.phase
        if sit.phase == IN_ROUND:
            ends = end_of(sit.round, view.lengths)
            self.now_box.setTitle("Now: in the round")
            self.now_label.setText(
                f"{round_title(sit.round, view.titles)} — ends about {clock_text(ends, now)}. "
                "Mark it finished when it ends: notifications come back and the capture opens."
            )
            self._action("Open the &cue card", lambda: self.bus.show_cue_card.emit(sit.round.type))
            self._action("Round &finished", lambda: self.finish_round(sit.round.id))
            return
        if sit.phase == "before-round":
            self.now_box.setTitle("Now: before the round")
            self.now_label.setText(
                f"{round_title(sit.round, view.titles)} at {clock_text(sit.round.scheduled, now)}. "
                f"{view.messages.get('before-round', '')}"
            )
            self._action("Read the &pitch aloud", lambda: self.bus.open_page.emit("about"))
            self._action("Speak one &answer aloud", self.bus.open_flagged_quiz.emit)
            self._action("Open the &cue card", lambda: self.bus.show_cue_card.emit(sit.round.type))
        elif sit.phase in PHASE_TITLES:
            self.now_box.setTitle(f"Now: {PHASE_TITLES[sit.phase].lower()}")
            if sit.phase == "after-loop":
                self.now_label.setText("The loop is done. Write it down while it is fresh.")
            else:
                self.now_label.setText(
                    f"First round: {round_title(sit.round, view.titles)} at "
                    f"{clock_text(sit.round.scheduled, now)}."
                )
        else:
            self.now_box.setTitle("Now")
            if sit.next_round is not None:
                self.now_label.setText(
                    "Nothing to tick right now. The lists come up by themselves: the evening "
                    "before, the morning of, and 15 minutes before each round. All lists are on "
                    "the Checklist page."
                )
                self._action("Open the c&hecklists", lambda: self.bus.open_page.emit("checklist"))
            else:
                self.now_label.setText(
                    "No upcoming round. Add the rounds with their start times below."
                )
            return
        lst = phase_list(self.ctx.content, phase)
        group = PhaseGroup(
            self.ctx, self.bus, lst, scope_for(phase, view.loop_id, sit), dnd=self.dnd
        )
        group.dnd_round_id = self._dnd_round_id()
        if sit.phase == "after-loop" and sit.round is not None:
            group.capture_round_id = sit.round.id
        self.phase_group = group
        self.phase_holder.addWidget(group)

    def _action(self, text: str, slot) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(lambda _=False: slot())
        self.actions_row.addWidget(button)
        return button

    def _checklist_changed(self) -> None:
        if self.phase_group is not None:
            self.phase_group.refresh()

    def _dnd_round_id(self) -> int:
        """The round a pause is for: the current one, or the next within the hour."""
        import datetime as dt

        from companion.core.schedule import IN_ROUND, before_window, situation

        if self.view is None:
            return 0
        now = self.ctx.now()
        sit = situation(self.view.rounds, now, self.view.lengths, before_window(self.view.before))
        if sit.phase in (IN_ROUND, "before-round"):
            return sit.round.id
        if sit.next_round is not None and sit.starts_in <= dt.timedelta(hours=1):
            return sit.next_round.id
        return 0

    # slow checks -------------------------------------------------------------------

    def _slow_checks(self, sit, now) -> None:
        self._render_reminders(now)
        self._send_reminders(now)
        self._restore_dnd_if_round_over(now)
        self._update_dnd_banner()

    def _journal_due(self, now):
        try:
            from companion.core.journal import captures_due, thank_yous_due
        except ImportError:
            return [], []
        try:
            content = self.ctx.content  # the pack's capture window and thank-you delay
            return (
                captures_due(self.ctx.db, now, content.capture_window),
                thank_yous_due(self.ctx.db, now, content.thank_you_after),
            )
        except Exception:  # noqa: BLE001 - a reminder must never break the Today page
            return [], []

    def _render_reminders(self, now) -> None:
        from companion.core.schedule import countdown_text

        captures, thanks = self._journal_due(now)
        _clear(self.reminders_layout)
        shown = 0
        for due in captures:
            left = countdown_text(due.deadline - now).removeprefix("in ")
            self._reminder_row(
                f"{due.company}: write down what was asked ({left} left in the hour).",
                "&Write it down",
                lambda _=False, rid=due.round_id: self.bus.capture_round.emit(rid),
            )
            shown += 1
        for due in thanks:
            if due.sent:
                continue
            when = (
                "now" if due.due_at <= now else f"by {due.due_at.astimezone(now.tzinfo):%a %H:%M}"
            )
            self._reminder_row(
                f"{due.company}: send the thank-you note {when}.",
                "Open &journal",
                lambda _=False: self.bus.open_page.emit("journal"),
            )
            shown += 1
        self.reminders_box.setVisible(shown > 0)

    def _reminder_row(self, text: str, button_text: str, slot) -> None:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(text)
        label.setWordWrap(True)
        button = QPushButton(button_text)
        button.setAccessibleName(f"{button_text.replace('&', '')}: {text}")
        button.clicked.connect(slot)
        layout.addWidget(label, 1)
        layout.addWidget(button)
        self.reminders_layout.addWidget(row)

    def _send_reminders(self, now) -> None:
        """Desktop notifications (through the tray), each one once."""
        from companion.core.schedule import due_reminders

        view = self.view
        due = [
            (r.key, r.title, r.message)
            for r in due_reminders(
                view.rounds,
                now,
                titles=view.titles,
                lengths=view.lengths,
                before=view.before,  # one reminder per offset of the pack
                messages=view.messages,
            )
        ]
        captures, _thanks = self._journal_due(now)
        due += [
            (
                f"capture:{c.round_id}",
                f"{c.company}: write it down",
                "Note every question you were asked while it is fresh.",
            )
            for c in captures
        ]
        if not due:
            return
        settings = self.ctx.settings
        sent = list(settings.get(SENT_KEY, []) or [])
        fresh = [item for item in due if item[0] not in sent]
        for key, title, message in fresh:
            self.bus.notify.emit(title, message)
            sent.append(key)
        if fresh:
            settings.set(SENT_KEY, sent[-200:])

    def _restore_dnd_if_round_over(self, now) -> None:
        from companion.core.loops import get_round
        from companion.core.schedule import is_over

        hold = self.dnd.hold
        if hold is None or hold.holder != "app" or not hold.round_id:
            return
        rnd = get_round(self.ctx.db, hold.round_id)
        if (rnd is None or is_over(rnd, now, self.view.lengths)) and self.dnd.set_on(False):
            self.bus.notify.emit("Round over", "Notifications are back on.")

    def _update_dnd_banner(self) -> None:
        if not self._built:
            return
        hold = self.dnd.hold
        if hold is None:
            self.dnd_banner.hide()
            return
        if hold.holder == "app" and hold.round_id:
            why = "until the round ends"
        elif hold.holder == "cli":
            why = "(turned on from the command line) until you switch it off"
        else:
            why = "until you switch it off"
        self.dnd_banner.setText(f"Desktop notifications are paused {why}.")
        self.dnd_banner.show()

    # actions -----------------------------------------------------------------------

    def finish_round(self, round_id: int) -> None:
        from companion.core.loops import end_round

        end_round(self.ctx.db, round_id, self.ctx.now())
        hold = self.dnd.hold
        if hold is not None and hold.holder == "app":
            self.dnd.set_on(False)
        self.bus.journal_changed.emit()
        self.bus.capture_round.emit(round_id)

    def _loop_chosen(self, index: int) -> None:
        self._chosen_loop = int(self.loop_combo.itemData(index) or 0)
        self.ctx.prefs.set("today.loop_id", self._chosen_loop)
        self.refresh()

    def add_loop(self) -> None:
        from companion.ui.schedule_editor import LoopDialog

        dialog = LoopDialog(self.ctx.now().date(), self)
        if dialog.exec() != LoopDialog.DialogCode.Accepted:
            return
        self.create_loop(*dialog.values())

    def create_loop(self, company: str, role: str, starts_on: str) -> int:
        from companion.core.loops import create_loop

        loop_id = create_loop(self.ctx.db, company, role, starts_on=starts_on)
        self._chosen_loop = loop_id
        self.ctx.prefs.set("today.loop_id", loop_id)
        self.bus.journal_changed.emit()  # refreshes this page too
        self.schedule.add_button.setFocus()
        return loop_id

    def shutdown(self) -> None:
        """Called by the main window on close: put notifications back."""
        self.timer.stop()
        if self._built:
            self.dnd.shutdown()
