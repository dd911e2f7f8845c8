"""The "Questions to ask" tab: plan three or four questions for a loop, each for the right person.

Left: the content's questions grouped by the audience they suit (Enter or double-click
adds the selected one). Right: the loop's plan, with its audience, asked state and the
planner's warnings inline, and a field for a question of the user's own.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import Change
from companion.core.content.plans import PlannerRules
from companion.core.day.invite_people import interviewers_by_role
from companion.core.day.loops import current_loop, list_loops, list_rounds
from companion.core.selfcheck.planner import (
    PlannerError,
    add_suggestion,
    audience_title,
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
from companion.ui.selfcheck.audience_combo import audience_combo
from companion.ui.selfcheck.no_loops import NoLoopsNotice
from companion.ui.selfcheck.suggested_box import SuggestedQuestions
from companion.ui.theme import status_color
from companion.ui.widgets.columns import Columns
from companion.ui.widgets.plain_text import plain_tip

AUDIENCE_ORDER = ("hiring-manager", "peer", "leadership")
ROLE = Qt.ItemDataRole.UserRole


class PlannerPanel(QWidget):
    def __init__(self, ctx, bus: AppBus, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.setAccessibleName("Questions to ask planner")
        self._suggestions = []

        self.empty = NoLoopsNotice(ctx.content.planner_rules().count_text)
        self.empty.journal_wanted.connect(lambda: self.bus.open_page.emit("journal"))

        # the planner ---------------------------------------------------------------
        self.planner = QWidget()
        self.loop_combo = QComboBox()
        self.loop_combo.setAccessibleName("Loop")
        loop_label = QLabel("&Loop:")
        loop_label.setBuddy(self.loop_combo)
        self.rule_label = QLabel()
        self.rule_label.setWordWrap(True)
        self.rule_label.setAccessibleName("Rule")
        self.intro_label = QLabel()  # the questions section's introduction
        self.intro_label.setWordWrap(True)
        self.intro_label.setAccessibleName("How to choose")
        self.closing_label = QLabel()  # how each round ends, with why
        self.closing_label.setObjectName("plannerClosing")
        self.closing_label.setWordWrap(True)
        self.closing_label.setAccessibleName("Closing line")
        top = QHBoxLayout()
        top.addWidget(loop_label)
        top.addWidget(self.loop_combo, 1)

        self.suggested = SuggestedQuestions(AUDIENCE_ORDER)
        self.suggested.add_wanted.connect(self.add_selected)

        # the plan
        self.plan_list = QListWidget()
        self.plan_list.setAccessibleName("Planned questions")
        self.plan_list.setWordWrap(True)
        self.count_label = QLabel()
        self.count_label.setAccessibleName("Plan size")
        self.plan_audience = audience_combo(
            "Audience of the selected planned question", AUDIENCE_ORDER
        )
        plan_audience_label = QLabel("Au&dience:")
        plan_audience_label.setBuddy(self.plan_audience)
        self.asked_button = QPushButton("Mark as&ked")
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setAccessibleName("Remove the selected question from the plan")
        plan_row = QHBoxLayout()
        plan_row.addWidget(plan_audience_label)
        plan_row.addWidget(self.plan_audience)
        plan_row.addStretch(1)
        plan_row.addWidget(self.asked_button)
        plan_row.addWidget(self.remove_button)
        self.warnings_label = QLabel()
        self.warnings_label.setObjectName("planWarnings")
        self.warnings_label.setWordWrap(True)
        self.warnings_label.setAccessibleName("Plan warnings")
        self.warnings_label.setStyleSheet(f"color: {status_color('warn').name()};")
        for label in (
            self.rule_label,
            self.intro_label,
            self.closing_label,
            self.count_label,
            self.warnings_label,
        ):
            label.setTextFormat(Qt.TextFormat.PlainText)  # pack text: never HTML
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName("Problem")
        self.error_label.setStyleSheet(f"color: {status_color('bad').name()};")
        self.custom_edit = QLineEdit()
        self.custom_edit.setPlaceholderText("Type a question of your own…")
        self.custom_edit.setAccessibleName("Your own question")
        custom_label = QLabel("Y&our own question (the audience you choose):")
        custom_label.setBuddy(self.custom_edit)
        self.custom_audience = audience_combo("Audience for your own question", AUDIENCE_ORDER)
        self.custom_button = QPushButton("Add &question")
        custom_row = QHBoxLayout()
        custom_row.addWidget(self.custom_edit, 1)
        custom_row.addWidget(self.custom_audience)
        custom_row.addWidget(self.custom_button)
        right_box = QGroupBox("Your plan")
        right = QVBoxLayout(right_box)
        right.addWidget(self.count_label)
        right.addWidget(self.plan_list, 1)
        right.addLayout(plan_row)
        right.addWidget(self.warnings_label)
        right.addSpacing(6)
        right.addWidget(custom_label)
        right.addLayout(custom_row)
        right.addWidget(self.error_label)
        right.addWidget(self.closing_label)

        self.columns = Columns(self.suggested, right_box)  # stacked when the window is narrow
        planner_layout = QVBoxLayout(self.planner)
        planner_layout.setContentsMargins(0, 0, 0, 0)
        planner_layout.addLayout(top)
        planner_layout.addWidget(self.rule_label)
        planner_layout.addWidget(self.intro_label)
        planner_layout.addWidget(self.columns, 1)

        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.planner)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)

        # wiring -------------------------------------------------------------------
        self.loop_combo.currentIndexChanged.connect(lambda _i: self._refresh_plan())
        self.plan_list.currentItemChanged.connect(lambda _c, _p: self._plan_selected())
        self.plan_audience.activated.connect(lambda _i: self.change_audience())
        self.asked_button.clicked.connect(self.toggle_asked)
        self.remove_button.clicked.connect(self.remove_selected)
        delete = QShortcut(QKeySequence(Qt.Key.Key_Delete), self.plan_list)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.remove_selected)
        self.custom_edit.returnPressed.connect(self.add_custom)
        self.custom_button.clicked.connect(self.add_custom)
        self.bus.changed.connect(self._on_change)
        self.bus.day_changed.connect(self._follow_day)
        self._day_loop = 0  # the loop the day service shows (Today's), 0 for none
        self._loaded = False
        self.redraws = 0  # how often the tab redrew (benchmarks/bench_redraws.py)

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
        why, line = content.closing_line()
        if line:
            line = line.replace("{topic}", "[the topic you discussed]")
            self.closing_label.setText(f"{why}\n“{line}”".strip())
        self.closing_label.setVisible(bool(line))
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
        if select is None:
            current = self.plan_list.currentItem()
            select = current.data(ROLE) if current else None
        planned = load_plan(self.ctx.db, loop_id)
        planned_keys = {text_key(p.text): p for p in planned}

        people = interviewers_by_role(list_rounds(self.ctx.db, loop_id))  # "Priya Raman"
        self.suggested.render(self._suggestions, planned_keys, people)

        # the plan; a question with a warning carries a ⚠
        rules = self.ctx.content.planner_rules()
        warnings = check_plan(self.ctx.db, loop_id, rules)  # the pack's count, not the default
        flagged = {w.plan_id for w in warnings if w.plan_id is not None}
        self.plan_list.blockSignals(True)
        self.plan_list.clear()
        for question in planned:
            mark = ("⚠ " if question.id in flagged else "") + (
                "✓ asked · " if question.asked else ""
            )
            item = QListWidgetItem(f"{mark}{audience_title(question.audience)}: {question.text}")
            item.setData(ROLE, question.id)
            item.setData(ROLE + 1, question.audience)
            item.setData(ROLE + 2, question.asked)
            item.setToolTip(
                plain_tip(
                    "Your own question"
                    if question.source == "custom"
                    else f"Topic: {question.topic}"
                )
            )
            self.plan_list.addItem(item)
            if question.id == select:
                self.plan_list.setCurrentItem(item)
        self.plan_list.blockSignals(False)
        n = len(planned)
        aim = rules.count_text
        if n == 0:
            count = f"Nothing planned yet: pick {aim} questions across the whole loop."
        elif n < rules.min_questions:
            count = f"{n} planned; {aim} across the loop is the aim."
        elif n <= rules.max_questions:
            count = f"{n} planned. That is the right number."
        else:
            count = f"{n} planned: more than {_word(rules.max_questions)}."
        self.count_label.setText(count)
        self.warnings_label.setText("\n".join(f"⚠ {w.message}" for w in warnings))
        self.warnings_label.setVisible(bool(warnings))
        self._plan_selected()

    def _plan_selected(self) -> None:
        item = self.plan_list.currentItem()
        has = item is not None
        for widget in (self.plan_audience, self.asked_button, self.remove_button):
            widget.setEnabled(has)
        if has:
            self.plan_audience.setCurrentIndex(self.plan_audience.findData(item.data(ROLE + 1)))
            self.asked_button.setText("Not as&ked" if item.data(ROLE + 2) else "Mark as&ked")

    # actions -------------------------------------------------------------------------

    def _changed(self, select: int | None = None) -> None:
        self.error_label.clear()
        self.redraws += 1
        self._refresh_plan(select=select)  # its warnings use the pack's count

        self.bus.announce(Change.of("plan", ids=[self.loop_id() or 0], origin=self))

    def _refuse(self, message: str) -> None:
        self.error_label.setText(message)

    def add_selected(self) -> None:
        text = self.suggested.selected_text()
        loop_id = self.loop_id()
        if loop_id is None:
            return
        if not text:
            self._refuse("Select a question in the list first (arrow keys, then Enter).")
            return
        suggestion = next(s for s in self._suggestions if s.text == text)
        try:
            plan_id, _ = add_suggestion(
                self.ctx.db, loop_id, suggestion, self.suggested.audience(), at=self.ctx.now()
            )
        except PlannerError as exc:
            self._refuse(str(exc))
            return
        self._changed(select=plan_id)

    def add_custom(self) -> None:
        loop_id = self.loop_id()
        if loop_id is None:
            return
        try:
            plan_id, _ = add(
                self.ctx.db,
                loop_id,
                self.custom_edit.text(),
                self.custom_audience.currentData(),
                at=self.ctx.now(),
            )
        except PlannerError as exc:
            self._refuse(str(exc))  # the typed text stays in the field
            return
        self.custom_edit.clear()
        self._changed(select=plan_id)

    def _selected_plan_id(self) -> int | None:
        item = self.plan_list.currentItem()
        return item.data(ROLE) if item else None

    def change_audience(self) -> None:
        plan_id = self._selected_plan_id()
        if plan_id is None:
            return
        set_audience(self.ctx.db, plan_id, self.plan_audience.currentData())
        self._changed(select=plan_id)

    def toggle_asked(self) -> None:
        plan_id = self._selected_plan_id()
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
        plan_id = self._selected_plan_id()
        if plan_id is None:
            return
        row = self.plan_list.currentRow()
        remove_planned(self.ctx.db, plan_id)
        following = self.plan_list.item(row + 1) or self.plan_list.item(row - 1)
        self._changed(select=following.data(ROLE) if following else None)


def _word(n: int) -> str:
    return PlannerRules(n, n, "").count_text  # "four"
