"""The Checklist page: the day-of lists grouped by phase, with progress, reset and new day.

:class:`PhaseGroup` is also used by the Today page to bring up the current phase.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import DAY_KINDS, Change
from companion.core.day.checklist import (
    DERIVED_LINKS,
    LINK_LABELS,
    day_checked,
    day_loops,
    new_day,
    past_midnight,
    phase_lists,
    progress,
    reset,
    scope_for,
    set_checked,
    step_now,
)
from companion.core.day.schedule import clock_text
from companion.ui.checklist.actions import Opening, button_text, open_action
from companion.ui.checklist.actions import open_link as open_link  # Today's pause button
from companion.ui.widgets.opening import ask
from companion.ui.widgets.plain_text import plain_tip
from companion.ui.widgets.type_scale import type_role
from companion.ui.widgets.vertical_scroll import VerticalScroll


class PhaseGroup(QGroupBox):
    """One phase's checkable list with its progress; ticks are saved at once."""

    toggled = Signal()

    def __init__(self, ctx, bus, phase_list, scope, *, dnd=None, parent=None):
        super().__init__(parent)

        self.ctx = ctx
        self.bus = bus
        self.phase_list = phase_list
        self.scope = scope
        self.dnd = dnd
        self.capture_round_id = 0
        self.dnd_round_id = 0
        self.boxes: dict[str, object] = {}
        self.link_buttons: dict[str, QPushButton] = {}
        self.why_labels: dict[str, QLabel] = {}
        self.rows: dict[str, list[QWidget]] = {}  # an item's widgets, to fold and mark
        self.when_labels: dict[str, QLabel] = {}
        self.steps_start = None  # the round's start: one step at a time (steps_for)
        self.folds = False
        self.step_key = ""  # the before-round step due now, marked
        self.setObjectName(f"phase-{phase_list.phase}")
        self.setAccessibleName(phase_list.title)

        layout = QVBoxLayout(self)
        head = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setAccessibleName(f"{phase_list.title} progress")
        self.progress.setMaximum(max(1, len(phase_list.items)))
        self.progress.setTextVisible(True)
        self.progress.setFixedWidth(160)
        self.reset_button = QPushButton("Reset")
        self.reset_button.setAccessibleName(f"Reset {phase_list.title}")
        self.reset_button.setToolTip("Untick every item of this list")
        self.reset_button.clicked.connect(self.reset)
        head.addWidget(self.progress)
        head.addStretch(1)
        head.addWidget(self.reset_button)
        layout.addLayout(head)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        layout.addWidget(self.note)
        self.intro = None
        if phase_list.intro:
            self.intro = QLabel(phase_list.intro)
            self.intro.setWordWrap(True)
            layout.addWidget(self.intro)
        if not phase_list.items:
            layout.addWidget(QLabel("No items in this list. Add some in a content file."))

        grid = QGridLayout()
        from PySide6.QtWidgets import QCheckBox

        grid.setColumnStretch(0, 0)
        grid.setColumnStretch(1, 1)
        for row, item in enumerate(phase_list.items):
            # the text sits in a wrapping label beside the box, so long items never force
            # the page wider than the window; a click on the label ticks the box
            box = QCheckBox()
            box.setAccessibleName(item.text)
            text = _ClickLabel(item.text, box)
            cell = QVBoxLayout()
            cell.setSpacing(0)
            cell.addWidget(text)
            # a tick that follows the day says so: while the day holds it, a click cannot
            # untick it
            follows = DERIVED_LINKS.get(item.link)
            tip = "\n".join(t for t in (item.why, follows and f"Ticks itself once {follows}.") if t)
            if tip:
                for widget in (box, text):
                    widget.setToolTip(plain_tip(tip))
                box.setAccessibleDescription(tip)
            if item.why:
                # the reason shows under the item: no mouse needed to read it
                why = _ClickLabel(item.why, box)
                why.setObjectName("checklistWhy")
                font = why.font()
                font.setItalic(True)
                why.setFont(font)
                why.setAccessibleName(f"Why: {item.why}")
                self.why_labels[item.key] = why
                cell.addWidget(why)
            box.toggled.connect(lambda on, key=item.key: self._toggled(key, on))
            self.boxes[item.key] = box
            self.rows[item.key] = [box, text, *([self.why_labels[item.key]] if item.why else [])]
            grid.addWidget(box, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addLayout(cell, row, 1)
            if item.minutes_before:
                which = "the first round" if item.first_round_only else "each round"
                when = QLabel(f"{item.minutes_before} min before {which}")
                when.setAccessibleName(f"{item.minutes_before} minutes before {which}")
                grid.addWidget(when, row, 2)
                self.when_labels[item.key] = when
                self.rows[item.key].append(when)
            if item.link in LINK_LABELS:
                button = QPushButton(LINK_LABELS[item.link])
                button.setAccessibleName(f"{LINK_LABELS[item.link]}: {item.text}")
                button.clicked.connect(lambda _=False, link=item.link: self._open(link))
                self.link_buttons[item.key] = button
                self.rows[item.key].append(button)
                grid.addWidget(button, row, 3)
        layout.addLayout(grid)
        self.fold_button = QPushButton()
        self.fold_button.setCheckable(True)
        self.fold_button.toggled.connect(lambda _on: self._show_step())
        self.fold_button.hide()
        fold_row = QHBoxLayout()
        fold_row.addWidget(self.fold_button)
        fold_row.addStretch(1)
        layout.addLayout(fold_row)
        if any(item.link in DERIVED_LINKS for item in phase_list.items):
            # ticks that follow the day (a round written down, the thank-you marked sent)
            # change with no click here: neither page redraws its list for a day change
            bus.changed.connect(self._on_change)
        self.refresh()

    def _on_change(self, change) -> None:
        if change.touches(*DAY_KINDS):
            self.refresh()

    def set_scope(self, scope, note: str = "") -> None:
        self.note.setText(note)
        self.note.setVisible(bool(note))
        if scope == self.scope and self.steps_start is None:
            return  # the day's ticks: ticks change only through refresh()
        self.scope = scope
        self.refresh()

    def refresh(self) -> None:
        checked = day_checked(self.ctx.db, self.scope, self.phase_list.items, self.ctx.now())
        for key, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(key in checked)
            box.blockSignals(False)
        done, total = progress(self.phase_list.items, checked)
        self.progress.setValue(done)
        self.progress.setFormat(f"{done} of {total} done")
        self.setTitle(self.phase_list.title)
        self._refresh_links()
        if self.steps_start is not None:
            self.step_key = step_now(
                self.phase_list.items, self.steps_start, self.ctx.now(), checked
            )
        self._show_step()

    def steps_for(self, start, *, fold: bool = True) -> None:
        """One step at a time before the round at ``start``: the step due now is marked
        (and, with ``fold``, the only one shown; the rest fold behind a button)."""
        self.steps_start, self.folds = start, fold
        self.refresh()

    def _show_step(self) -> None:
        """Mark the step due now; fold the others (and the intro) unless unfolded."""
        key = self.step_key
        folded = self.folds and bool(key) and not self.fold_button.isChecked()
        for item in self.phase_list.items:
            now = item.key == key
            for widget in self.rows.get(item.key, ()):
                widget.setVisible(now or not folded)
            when = self.when_labels.get(item.key)
            if when is not None:
                which = "the first round" if item.first_round_only else "each round"
                when.setText("\u25b6 now" if now else f"{item.minutes_before} min before {which}")
            text = self.rows[item.key][1] if item.key in self.rows else None
            if text is not None:
                font = text.font()
                font.setBold(now)
                text.setFont(font)
        if self.intro is not None:
            self.intro.setVisible(not folded)
        others = len(self.phase_list.items) - 1
        self.fold_button.setVisible(self.folds and bool(key) and others > 0)
        self.fold_button.setText(
            "Hide the other steps"
            if self.fold_button.isChecked()
            else f"Show all {others + 1} steps"
        )

    def _refresh_links(self) -> None:
        for item in self.phase_list.items:
            button = self.link_buttons.get(item.key)
            if button is None:
                continue
            words = button_text(item.link, self.dnd, self.ctx.db)
            button.setText(words or LINK_LABELS[item.link])

    def _toggled(self, key: str, on: bool) -> None:
        set_checked(self.ctx.db, self.scope, key, on, self.ctx.now())
        self.refresh()
        self.toggled.emit()
        self._announce()

    def reset(self) -> None:
        reset(self.ctx.db, self.scope, [item.key for item in self.phase_list.items])
        self.refresh()
        self.toggled.emit()
        self._announce()

    def _announce(self) -> None:
        """The ticks changed here (this list is already redrawn: its own echo is skipped)."""

        self.bus.announce(Change.of("checklist", origin=self))

    def _open(self, link: str) -> None:
        opened = open_action(
            link,
            Opening(
                self.bus,
                self.dnd,
                self,
                self.ctx.db,
                self.ctx.now,
                round_to_quiet=self.dnd_round_id,
                round_to_capture=self.capture_round_id,
            ),
        )
        passed = getattr(opened, "passed", None)  # a check passed (the mic's) ticks its item
        if passed is not None:
            for item in self.phase_list.items:
                if item.link == link and item.key in self.boxes:
                    passed.connect(lambda box=self.boxes[item.key]: box.setChecked(True))
        self._refresh_links()


class _ClickLabel(QLabel):
    """An item's text: wraps, and ticks its box when clicked."""

    def __init__(self, text: str, box, parent=None):
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._box = box

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if event.button() == Qt.MouseButton.LeftButton:
            self._box.toggle()
            self._box.setFocus()
        super().mousePressEvent(event)


class ChecklistPage(QWidget):
    """All four lists for the current loop and interview day."""

    def __init__(self, ctx, bus, parent=None, *, day):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service: this page renders its view
        self.groups: dict[str, PhaseGroup] = {}
        self.view = None
        outer = QVBoxLayout(self)
        head = QHBoxLayout()
        self.heading = QLabel("Checklist")
        type_role(self.heading, "pageTitle")
        self.heading.setAccessibleName("Checklist")
        head.addWidget(self.heading, 1)
        self.new_day_button = QPushButton("&New day")
        self.new_day_button.setToolTip("Untick every list of this interview day and start afresh")
        self.new_day_button.clicked.connect(self.new_day)
        head.addWidget(self.new_day_button)
        outer.addLayout(head)
        self.subtitle = QLabel()
        self.subtitle.setWordWrap(True)
        self.subtitle.setTextFormat(Qt.TextFormat.PlainText)  # a company name is not HTML
        outer.addWidget(self.subtitle)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        scroll = VerticalScroll(self.body, "Checklists, scrollable", tab_stop=True)
        outer.addWidget(scroll, 1)
        self._built = False
        self.redraws = 0  # how often the page redrew (benchmarks/bench_redraws.py)
        self.dialog = None  # the question open now (asked without a nested event loop)
        bus.changed.connect(self._on_change)
        bus.day_changed.connect(self._apply)
        QTimer.singleShot(0, self._build)

    def _build(self) -> None:
        if self._built:
            return
        self._built = True

        dnd = self.day.dnd  # the session's, handed down with the day
        view = self._view()

        lists = phase_lists(self.ctx.content)
        if not any(lst.items for lst in lists):
            empty = QLabel(
                "No checklists were found in the content folder. The shipped lists live in "
                "content/1*.md; a file of kind 'checklist' in your own content folder adds one."
            )
            empty.setWordWrap(True)
            self.body_layout.addWidget(empty)
        for lst in lists:
            group = PhaseGroup(self.ctx, self.bus, lst, scope_for(lst.phase, view), dnd=dnd)
            self.groups[lst.phase] = group
            self.body_layout.addWidget(group)
        self.body_layout.addStretch(1)
        dnd.changed.connect(lambda: [g._refresh_links() for g in self.groups.values()])
        self._apply(view)

    def _view(self):
        """The day service's view (the one every page shows)."""
        self.view = self.day.view or self.day.refresh()
        return self.view

    def refresh(self) -> None:
        if not self._built:
            return
        self._apply(self._view())
        self._external_change()  # ticks and flag counts as they are now

    def on_shown(self) -> None:
        self.refresh()

    def _external_change(self, but=None) -> None:
        if self._built:
            self.redraws += 1
            for group in self.groups.values():
                if group is not but:
                    group.refresh()

    def _on_change(self, change) -> None:
        """Ticks made elsewhere (or on one of this page's lists: the others redraw), and
        the flagged-answer count its links show."""
        if not self._built or change.is_from(self):
            return
        if change.touches("checklist"):
            self._external_change(but=change.origin)
        elif change.touches("quiz"):
            self.redraws += 1
            for group in self.groups.values():
                group._refresh_links()

    def _apply(self, view) -> None:
        if not self._built or view is None:
            return

        self.view = view
        self.redraws += 1
        now = view.now
        day = f"{view.day.strftime('%A')} {view.day.day} {view.day.strftime('%B')}"
        if view.loop is None:
            self.subtitle.setText(
                f"Lists for {day}. No interview loop yet: add one (and its rounds) on the "
                "Today page, and the lists follow its schedule."
            )
        else:
            names = " + ".join(lp.company for lp in day_loops(view)) or view.loop.company
            self.subtitle.setText(f"{names}: lists for {day}.")
        current = "before-round" if view.phase == "in-round" else view.phase
        for phase, group in self.groups.items():
            note = ""
            if phase == "before-round":
                target = view.focus
                # the step due now marked while its list is the moment's (not folded here)
                running = view.phase != "before-round" or target is None
                group.steps_start = None if running else target.starts_at
                if target is not None and target.starts_at is not None:
                    note = f"For the {target.title} at {clock_text(target.starts_at, now)}."
                elif target is not None:
                    note = f"For the {target.title}."
                group.dnd_round_id = target.id if target else 0
            if phase == "night-before" and past_midnight(view):
                line, why = self.ctx.content.sleep_line()
                late = f"Past {self.day.rules.night_from:%H:%M}"  # the pack's night switch
                note = f"{late}: {line[:1].lower()}{line[1:]}. {why}".strip() if line else ""
            if phase == "after-loop" and view.after_loop_id:
                # the loop most recently over, while another loop's round may come next
                last = view.after_loop_last
                group.capture_round_id = last.id if last is not None else 0
                if view.after_loop is not None and len(view.loops) > 1:
                    note = f"For the loop with {view.after_loop.company}."
            group.set_scope(scope_for(phase, view), note)
            title = group.phase_list.title
            group.setTitle(f"{title} — now" if phase == current else title)

    def new_day(self) -> None:

        view = self.view or self._view()
        day, loop_id = view.day.isoformat(), view.loop_id  # the day asked about, kept
        self.dialog = ask(
            self,
            "New day",
            f"Untick every list for {day} and start afresh?",
            lambda: self._new_day(loop_id, day),
        )

    def _new_day(self, loop_id: int, day: str) -> None:
        new_day(self.ctx.db, loop_id, day)

        self.bus.announce(Change.of("checklist", origin=self))  # every list redraws below
        self.refresh()
