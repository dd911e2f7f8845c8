"""The "Questions to ask" tab: plan three or four questions for a loop, each for the right person.

Left: the content's questions grouped by the audience they suit (Enter or double-click
adds the selected one). Right: the loop's plan, with its audience, asked state and the
planner's warnings inline, and a field for a question of the user's own.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from companion.core.changes import Change
from companion.core.content.audiences import AUDIENCES
from companion.core.day.invite_people import interviewers_by_role
from companion.core.day.loops import current_loop, list_loops, list_rounds
from companion.core.selfcheck.planner import (
    PlannerError,
    add_suggestion,
    check_plan,
    get_planned,
    mark_asked,
    plan_rule,
    remove_planned,
    set_audience,
    suggestions,
    text_key,
    unmark_asked,
)
from companion.core.selfcheck.planner import add_custom as add
from companion.core.selfcheck.planner import plan as load_plan
from companion.ui.bus import AppBus
from companion.ui.selfcheck.no_loops import NoLoopsNotice
from companion.ui.selfcheck.plan_box import PlanBox
from companion.ui.selfcheck.suggested_box import SuggestedQuestions
from companion.ui.widgets.columns import Columns

AUDIENCE_ORDER = AUDIENCES


class PlannerPanel(QWidget):
    def __init__(self, ctx, bus: AppBus, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.setAccessibleName("Questions to ask planner")
        self._suggestions = []
        self._day_loop = 0  # the loop the day service shows (Today's), 0 for none
        self._loaded = False
        self.redraws = 0  # how often the tab redrew (benchmarks/bench_redraws.py)

        self.empty = NoLoopsNotice(ctx.content.planner_rules().count_text)
        self.empty.journal_wanted.connect(lambda: self.bus.open_page.emit("journal"))
        self.planner = self._planner()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.planner)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)
        self.bus.changed.connect(self._on_change)
        self.bus.day_changed.connect(self._follow_day)

    def _planner(self) -> QWidget:
        """The loop, the rule and how to choose above the two parts: the suggested
        questions and the plan (side by side, stacked when the window is narrow)."""
        self.loop_combo = QComboBox()
        self.loop_combo.setAccessibleName("Loop")
        self.loop_combo.currentIndexChanged.connect(lambda _i: self._refresh_plan())
        loop_label = QLabel("&Loop:")
        loop_label.setBuddy(self.loop_combo)
        self.rule_label = QLabel()
        self.rule_label.setAccessibleName("Rule")
        self.intro_label = QLabel()  # the questions section's introduction
        self.intro_label.setAccessibleName("How to choose")
        for label in (self.rule_label, self.intro_label):
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)  # pack text: never HTML
        top = QHBoxLayout()
        top.addWidget(loop_label)
        top.addWidget(self.loop_combo, 1)
        self.suggested = SuggestedQuestions(AUDIENCE_ORDER)
        self.suggested.add_wanted.connect(self.add_selected)
        self.your_plan = self._plan_box()
        self.columns = Columns(self.suggested, self.your_plan)  # stacked when narrow
        planner = QWidget()
        planner_layout = QVBoxLayout(planner)
        planner_layout.setContentsMargins(0, 0, 0, 0)
        planner_layout.addLayout(top)
        planner_layout.addWidget(self.rule_label)
        planner_layout.addWidget(self.intro_label)
        planner_layout.addWidget(self.columns, 1)
        return planner

    def _plan_box(self) -> PlanBox:
        box = PlanBox(AUDIENCE_ORDER)
        box.audience_chosen.connect(self.change_audience)
        box.asked_toggled.connect(self.toggle_asked)
        box.remove_wanted.connect(self.remove_selected)
        box.custom_wanted.connect(self.add_custom)
        # the plan's labels, read by the tests of the pack's numbers (tests/ui/about)
        self.count_label, self.warnings_label = box.count_label, box.warnings_label
        self.closing_label = box.closing_label
        return box

    # data ----------------------------------------------------------------------------

    def ensure_loaded(self) -> None:
        if not self._loaded:
            self.refresh()

    def _on_change(self, change) -> None:
        """The loops it lists and the plans it shows, changed elsewhere (its own edits
        are drawn where they are made); a tab never opened loads when it is."""
        if self._loaded and not change.is_from(self) and change.touches("loop", "plan", "content"):
            self.refresh()

    def _follow_day(self, view) -> None:
        """The day service's loop: a loop it sees that this tab does not list (written by
        another process, a test pack, a day that began) reloads the tab, so it never says
        "No interview loops yet" beside a Today showing one."""
        self._day_loop = view.loop_id
        if self._loaded and view.loop_id and self.loop_combo.findData(view.loop_id) < 0:
            self.refresh()

    def refresh(self) -> None:
        """Reload loops and the plan, keeping the chosen loop and selection."""
        self.redraws += 1

        self._loaded = True
        loops = list_loops(self.ctx.db)
        if not loops:
            self.stack.setCurrentWidget(self.empty)
            return
        self.stack.setCurrentWidget(self.planner)
        chosen = self.loop_id()
        if chosen is None and self._day_loop:
            chosen = self._day_loop
        if chosen is None:
            current = current_loop(self.ctx.db, self.ctx.now().date())
            chosen = current.id if current else loops[0].id
        self.loop_combo.blockSignals(True)
        self.loop_combo.clear()
        for loop in loops:
            self.loop_combo.addItem(loop.label, loop.id)
        self.loop_combo.setCurrentIndex(max(self.loop_combo.findData(chosen), 0))
        self.loop_combo.blockSignals(False)
        content = self.ctx.content
        self._suggestions = suggestions(content)
        self.rule_label.setText(plan_rule(content))
        intro = content.planner_rules().intro
        self.intro_label.setText(intro)
        self.intro_label.setVisible(bool(intro))
        self.your_plan.show_closing(*content.closing_line())
        self._refresh_plan()

    def loop_id(self) -> int | None:
        data = self.loop_combo.currentData()
        return int(data) if data is not None else None

    def select_loop(self, loop_id: int) -> None:
        index = self.loop_combo.findData(loop_id)
        if index >= 0:
            self.loop_combo.setCurrentIndex(index)

    def _refresh_plan(self, select: int | None = None) -> None:
        loop_id = self.loop_id()
        if loop_id is None:
            return
        planned = load_plan(self.ctx.db, loop_id)
        people = interviewers_by_role(list_rounds(self.ctx.db, loop_id))  # "Priya Raman"
        self.suggested.render(self._suggestions, {text_key(p.text): p for p in planned}, people)
        rules = self.ctx.content.planner_rules()
        warnings = check_plan(self.ctx.db, loop_id, rules)  # the pack's count, not the default
        self.your_plan.render(planned, warnings, rules, select)

    # actions -------------------------------------------------------------------------

    def _changed(self, select: int | None = None) -> None:
        self.your_plan.refuse("")
        self.redraws += 1
        self._refresh_plan(select=select)  # its warnings use the pack's count

        self.bus.announce(Change.of("plan", ids=[self.loop_id() or 0], origin=self))

    def add_selected(self) -> None:
        text = self.suggested.selected_text()
        loop_id = self.loop_id()
        if loop_id is None:
            return
        if not text:
            self.your_plan.refuse("Select a question in the list first (arrow keys, then Enter).")
            return
        suggestion = next(s for s in self._suggestions if s.text == text)
        try:
            plan_id, _ = add_suggestion(
                self.ctx.db, loop_id, suggestion, self.suggested.audience(), at=self.ctx.now()
            )
        except PlannerError as exc:
            self.your_plan.refuse(str(exc))
            return
        self._changed(select=plan_id)

    def add_custom(self) -> None:
        loop_id = self.loop_id()
        if loop_id is None:
            return
        text, audience = self.your_plan.custom_question()
        try:
            plan_id, _ = add(self.ctx.db, loop_id, text, audience, at=self.ctx.now())
        except PlannerError as exc:
            self.your_plan.refuse(str(exc))  # the typed text stays in the field
            return
        self.your_plan.custom_edit.clear()
        self._changed(select=plan_id)

    def change_audience(self) -> None:
        plan_id = self.your_plan.selected_id()
        if plan_id is None:
            return
        set_audience(self.ctx.db, plan_id, self.your_plan.audience())
        self._changed(select=plan_id)

    def toggle_asked(self) -> None:
        plan_id = self.your_plan.selected_id()
        if plan_id is None:
            return
        planned = get_planned(self.ctx.db, plan_id)
        if planned is None:
            return
        if planned.asked:
            unmark_asked(self.ctx.db, plan_id)
        else:
            mark_asked(self.ctx.db, plan_id, None, self.ctx.now())
        self._changed(select=plan_id)

    def remove_selected(self) -> None:
        plan_id = self.your_plan.selected_id()
        if plan_id is None:
            return
        following = self.your_plan.following_id()
        remove_planned(self.ctx.db, plan_id)
        self._changed(select=following)
