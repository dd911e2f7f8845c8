"""The planner's "Your plan": the loop's planned questions with their audience, asked
state and the planner's warnings inline, a field for a question of the user's own, and
how each round closes. A part of the questions-to-ask tab."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from companion.core.content.plans import PlannerRules
from companion.core.selfcheck.planner import audience_title
from companion.ui.selfcheck.audience_combo import audience_combo
from companion.ui.theme import status_color
from companion.ui.widgets.plain_text import plain_tip

ROLE = Qt.ItemDataRole.UserRole


class PlanBox(QGroupBox):
    """Signals: ``audience_chosen`` (for the selected question), ``asked_toggled``,
    ``remove_wanted`` (the button or Delete), ``custom_wanted`` (Enter or "Add question")."""

    audience_chosen = Signal()
    asked_toggled = Signal()
    remove_wanted = Signal()
    custom_wanted = Signal()

    def __init__(self, audiences, parent=None):
        super().__init__("Your plan", parent)
        self.plan_list = QListWidget()
        self.plan_list.setAccessibleName("Planned questions")
        self.plan_list.setWordWrap(True)
        self.count_label = QLabel()
        self.count_label.setAccessibleName("Plan size")
        self.warnings_label = QLabel()
        self.warnings_label.setObjectName("planWarnings")
        self.warnings_label.setWordWrap(True)
        self.warnings_label.setAccessibleName("Plan warnings")
        self.warnings_label.setStyleSheet(f"color: {status_color('warn').name()};")
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName("Problem")
        self.error_label.setStyleSheet(f"color: {status_color('bad').name()};")
        self.closing_label = QLabel()  # how each round ends, with why
        self.closing_label.setObjectName("plannerClosing")
        self.closing_label.setWordWrap(True)
        self.closing_label.setAccessibleName("Closing line")
        for label in (self.count_label, self.warnings_label, self.closing_label):
            label.setTextFormat(Qt.TextFormat.PlainText)  # pack text: never HTML
        layout = QVBoxLayout(self)
        layout.addWidget(self.count_label)
        layout.addWidget(self.plan_list, 1)
        layout.addLayout(self._plan_row(audiences))
        layout.addWidget(self.warnings_label)
        layout.addSpacing(6)
        self._add_custom_row(layout, audiences)
        layout.addWidget(self.error_label)
        layout.addWidget(self.closing_label)
        self.plan_list.currentItemChanged.connect(lambda _c, _p: self._selection_changed())
        delete = QShortcut(QKeySequence(Qt.Key.Key_Delete), self.plan_list)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.remove_wanted)

    def _plan_row(self, audiences) -> QHBoxLayout:
        """The selected question's audience, Mark asked and Remove."""
        self.plan_audience = audience_combo("Audience of the selected planned question", audiences)
        plan_audience_label = QLabel("Au&dience:")
        plan_audience_label.setBuddy(self.plan_audience)
        self.asked_button = QPushButton("Mark as&ked")
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setAccessibleName("Remove the selected question from the plan")
        self.plan_audience.activated.connect(lambda _i: self.audience_chosen.emit())
        self.asked_button.clicked.connect(self.asked_toggled)
        self.remove_button.clicked.connect(self.remove_wanted)
        row = QHBoxLayout()
        row.addWidget(plan_audience_label)
        row.addWidget(self.plan_audience)
        row.addStretch(1)
        row.addWidget(self.asked_button)
        row.addWidget(self.remove_button)
        return row

    def _add_custom_row(self, layout: QVBoxLayout, audiences) -> None:
        """A question of the user's own, with the audience they choose."""
        self.custom_edit = QLineEdit()
        self.custom_edit.setPlaceholderText("Type a question of your own…")
        self.custom_edit.setAccessibleName("Your own question")
        custom_label = QLabel("Y&our own question (the audience you choose):")
        custom_label.setBuddy(self.custom_edit)
        self.custom_audience = audience_combo("Audience for your own question", audiences)
        self.custom_button = QPushButton("Add &question")
        self.custom_edit.returnPressed.connect(self.custom_wanted)
        self.custom_button.clicked.connect(self.custom_wanted)
        row = QHBoxLayout()
        row.addWidget(self.custom_edit, 1)
        row.addWidget(self.custom_audience)
        row.addWidget(self.custom_button)
        layout.addWidget(custom_label)
        layout.addLayout(row)

    # drawing ---------------------------------------------------------------------------

    def render(self, planned, warnings, rules, select: int | None = None) -> None:
        """The ``planned`` questions (``select`` selected, else the one selected now),
        a ⚠ on those ``warnings`` name, and the count against the pack's ``rules``."""
        if select is None:
            select = self.selected_id()
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
        self.count_label.setText(count_text(len(planned), rules))
        self.warnings_label.setText("\n".join(f"⚠ {w.message}" for w in warnings))
        self.warnings_label.setVisible(bool(warnings))
        self._selection_changed()

    def show_closing(self, why: str, line: str) -> None:
        """How each round ends (the pack's closing line), with why; hidden without one."""
        if line:
            line = line.replace("{topic}", "[the topic you discussed]")
            self.closing_label.setText(f"{why}\n“{line}”".strip())
        self.closing_label.setVisible(bool(line))

    def refuse(self, message: str) -> None:
        self.error_label.setText(message)

    def _selection_changed(self) -> None:
        item = self.plan_list.currentItem()
        has = item is not None
        for widget in (self.plan_audience, self.asked_button, self.remove_button):
            widget.setEnabled(has)
        if has:
            self.plan_audience.setCurrentIndex(self.plan_audience.findData(item.data(ROLE + 1)))
            self.asked_button.setText("Not as&ked" if item.data(ROLE + 2) else "Mark as&ked")

    # what is chosen --------------------------------------------------------------------

    def selected_id(self) -> int | None:
        item = self.plan_list.currentItem()
        return item.data(ROLE) if item else None

    def following_id(self) -> int | None:
        """The question to select once the selected one is removed: the next, else the
        one before."""
        row = self.plan_list.currentRow()
        following = self.plan_list.item(row + 1) or self.plan_list.item(row - 1)
        return following.data(ROLE) if following else None

    def audience(self) -> str:
        """The audience chosen for the selected question."""
        return self.plan_audience.currentData()

    def custom_question(self) -> tuple[str, str]:
        """(the question typed, its audience)."""
        return self.custom_edit.text(), self.custom_audience.currentData()


def count_text(n: int, rules) -> str:
    """The plan's size against the pack's pick ("3 planned. That is the right number.")."""
    aim = rules.count_text
    if n == 0:
        return f"Nothing planned yet: pick {aim} questions across the whole loop."
    if n < rules.min_questions:
        return f"{n} planned; {aim} across the loop is the aim."
    if n <= rules.max_questions:
        return f"{n} planned. That is the right number."
    return f"{n} planned: more than {_word(rules.max_questions)}."


def _word(n: int) -> str:
    return PlannerRules(n, n, "").count_text  # "four"
