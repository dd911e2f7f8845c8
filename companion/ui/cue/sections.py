"""The blocks of the cue card: collapsible sections, the stepper, the timebox, the
closing-topic field, and one scrollable page per round type.

Rendering only: what to show comes from :mod:`companion.core.cue` (rounds, timebox, state, placement). Lines are drawn
as one rich-text label per section (cheap to build, wraps well at any width).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.content.lengths import MAX_MINUTES, MIN_MINUTES
from companion.core.cue.rounds import CardLine, CardSection, StepView, fill_closing, standing_rule
from companion.core.cue.timebox import (
    Nudge,
    TimeboxStatus,
    format_clock,
    format_minutes,
)
from companion.ui.cue.countdown import CountdownText
from companion.ui.cue.style import NUDGE, RULE
from companion.ui.widgets.palette_sheet import palette_sheet
from companion.ui.widgets.plain_text import plain_tip


def label(text: str = "", role: str = "", *, wrap: bool = True, rich: bool = False) -> QLabel:
    widget = QLabel(text)
    widget.setWordWrap(wrap)
    widget.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    widget.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
    widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    if role:
        widget.setProperty("role", role)
    return widget


def tool_button(text: str, name: str, tip: str, *, checkable: bool = False) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setAccessibleName(name)
    button.setToolTip(tip)
    button.setCheckable(checkable)
    button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click never takes keys from the card
    button.setAutoRaise(True)
    return button


def lines_html(lines: tuple[CardLine, ...], *, bold: bool = True, meta_first: bool = False) -> str:
    """Card lines as a compact bulleted table: the line (bold), its timing, the detail
    small and the wording to use in italics. A table keeps the hanging indent narrow."""
    rows = []
    for line in lines:
        text = escape(line.text)
        head = f"<b>{text}</b>" if bold else text
        if line.meta and meta_first:
            head = f"<b>{escape(line.meta)}</b>&nbsp; {head}"
        elif line.meta:
            head += f" <small>· {escape(line.meta)}</small>"
        body = [head]
        if line.detail:
            body.append(f"<small>{escape(line.detail)}</small>")
        if line.say:
            body.append(say_html(line.say))
        rows.append(
            "<tr><td style='padding-right:6px'>\u2022</td>"
            f"<td style='padding-bottom:4px'>{'<br>'.join(body)}</td></tr>"
        )
    if not rows:
        return ""
    return "<table cellspacing='0' cellpadding='0'>" + "".join(rows) + "</table>"


def say_html(say: str) -> str:
    """Precise wording to use, as the content writes it (it may quote part of it)."""
    return f"<i>Say: {escape(say.strip())}</i>"


def detail_html(line: CardLine) -> str:
    parts = []
    if line.detail:
        parts.append(f"<small>{escape(line.detail)}</small>")
    if line.say:
        parts.append(say_html(line.say))
    return "<br>".join(parts)


class CollapsibleSection(QWidget):
    """A titled block whose body folds away; the fold is remembered by the card."""

    toggled = Signal(str, bool)  # section id, collapsed

    def __init__(self, section: CardSection, body: QWidget, collapsed: bool, parent=None):
        super().__init__(parent)
        self.section_id = section.id
        self.body = body
        self.header = QToolButton()
        self.header.setObjectName("cueSectionHeader")
        self.header.setText(section.title)
        self.header.setCheckable(True)
        self.header.setChecked(not collapsed)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setAutoRaise(True)
        self.header.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.header.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.header.setAccessibleName(f"{section.title} section")
        self.header.setToolTip(plain_tip(f"Show or hide {section.title}"))
        self.header.toggled.connect(self._on_toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.header)
        # the pack's few words on why the section matters ("recover in one breath"),
        # under its title while it is open; wrapped, so the card never widens for it
        self.intro = QLabel(section.intro)
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        self.intro.setWordWrap(True)
        self.intro.setProperty("role", "small")
        self.intro.setAccessibleName(f"About {section.title}")
        self.intro.setMinimumWidth(1)
        layout.addWidget(self.intro)
        layout.addWidget(body)
        self._apply(not collapsed)

    @property
    def collapsed(self) -> bool:
        return not self.header.isChecked()

    def set_collapsed(self, collapsed: bool) -> None:
        self.header.setChecked(not collapsed)

    def _apply(self, expanded: bool) -> None:
        self.header.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)
        self.intro.setVisible(expanded and bool(self.intro.text()))

    def _on_toggled(self, expanded: bool) -> None:
        self._apply(expanded)
        self.toggled.emit(self.section_id, not expanded)


class StepperWidget(QWidget):
    """Current step large, next step small; buttons and keys move through the steps."""

    moved = Signal(int)  # -1 back, +1 forward

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 4)
        layout.setSpacing(4)
        row = QHBoxLayout()
        self.position = label("", "small", wrap=False)
        self.position.setAccessibleName("Step position")
        self.back = tool_button("\u2190 Back", "Previous step", "Previous step (Left)")
        self.forward = tool_button("Next \u2192", "Next step", "Next step (Right or Space)")
        self.back.clicked.connect(lambda: self.moved.emit(-1))
        self.forward.clicked.connect(lambda: self.moved.emit(1))
        row.addWidget(self.position, 1)
        row.addWidget(self.back)
        row.addWidget(self.forward)
        layout.addLayout(row)
        self.current = label("", "large")
        self.current.setAccessibleName("Current step")
        self.detail = label("", rich=True)
        self.next = label("", "small")
        self.next.setAccessibleName("Next step")
        layout.addWidget(self.current)
        layout.addWidget(self.detail)
        layout.addWidget(self.next)

    def show_view(self, view: StepView) -> None:
        line = view.current
        if line is None:
            self.position.setText("No steps")
            self.current.setText("")
            self.detail.setText("")
            self.next.setText("")
            return
        position = f"Step {view.index + 1} of {view.count}"
        self.position.setText(position + (f" · {line.meta}" if line.meta else ""))
        self.current.setText(line.text)
        self.detail.setText(detail_html(line))
        self.detail.setVisible(bool(line.detail or line.say))
        # the last step is whatever the content ends the move with (for coding, the
        # check-in at the timebox), so nothing is added here
        self.next.setText(f"Next: {view.next.text}" if view.next else "Last step.")
        self.back.setEnabled(view.index > 0)
        self.forward.setEnabled(view.next is not None)


class TimeboxWidget(QWidget):
    """The round timer: length, time left, the current nudge and the next one."""

    length_changed = Signal(int)

    def __init__(self, schedule: tuple[CardLine, ...], minutes: int, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 4)
        layout.setSpacing(4)
        row = QHBoxLayout()

        self.clock = CountdownText("large")  # each second: repaints itself, no relayout
        self.clock.setAccessibleName("Time left")
        row.addWidget(self.clock, 1)
        row.addWidget(label("Length", "small", wrap=False))
        self.length = QSpinBox()
        self.length.setRange(MIN_MINUTES, MAX_MINUTES)
        self.length.setSuffix(" min")
        self.length.setValue(minutes)
        self.length.setAccessibleName("Round length in minutes")
        self.length.setToolTip("Round length; set it before you start the round")
        self.length.valueChanged.connect(self.length_changed)
        row.addWidget(self.length)
        layout.addLayout(row)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(6)
        self.bar.setAccessibleName("Round progress")
        layout.addWidget(self.bar)
        self.nudge = label("", "nudge")
        palette_sheet(self.nudge, NUDGE)  # the nudge due now, in the highlight
        self.nudge.setAccessibleName("Current nudge")
        self.upcoming = label("", "small")
        self.upcoming.setAccessibleName("Next nudge")
        layout.addWidget(self.nudge)
        layout.addWidget(self.upcoming)
        self.schedule = label("", "small", rich=True)
        self.schedule.setText(lines_html(schedule, bold=False, meta_first=True))
        self.schedule.setAccessibleName("Nudge schedule")
        layout.addWidget(self.schedule)
        self.show_idle(minutes)

    def set_schedule(self, nudges: list[Nudge]) -> None:
        lines = tuple(CardLine(n.text, meta=format_minutes(n.at)) for n in nudges)
        self.schedule.setText(lines_html(lines, bold=False, meta_first=True))

    def show_idle(self, minutes: int) -> None:
        self.length.setEnabled(True)
        if self.length.value() != minutes:
            self.length.blockSignals(True)
            self.length.setValue(minutes)
            self.length.blockSignals(False)
        self.clock.setText(f"{minutes}:00")  # short: it sits beside the length field
        self.bar.setRange(0, max(minutes * 60, 1))
        self.bar.setValue(0)
        self.nudge.setVisible(False)
        self.upcoming.setText("Not started: start the round (Ctrl+Enter) to run the timer.")
        self.schedule.setVisible(True)

    def show_status(self, status: TimeboxStatus, minutes: int) -> None:
        self.length.setEnabled(False)
        if status.phase == "over":
            self.clock.setText(f"Over by {format_clock(-status.remaining)}")
        else:
            self.clock.setText(f"{format_clock(status.remaining)} left")
        self.bar.setRange(0, max(minutes * 60, 1))
        self.bar.setValue(int(min(status.elapsed, minutes * 60)))
        self.nudge.setVisible(status.current is not None)
        if status.current is not None:
            self.nudge.setText(status.current_text)
            if self.nudge.property("fresh") != status.fresh:  # a re-polish relays out
                self.nudge.setProperty("fresh", status.fresh)
                self.nudge.style().unpolish(self.nudge)
                self.nudge.style().polish(self.nudge)
        up = status.upcoming
        self.upcoming.setText(f"At {format_minutes(up.at)}: {up.text}" if up else "")
        self.schedule.setVisible(False)


class ClosingTopicField(QWidget):
    """The quick field that fills the closing line's {topic} slot."""

    changed = Signal(str)

    def __init__(self, topic: str, preview: str, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 4)
        self.edit = QLineEdit(topic)
        self.edit.setPlaceholderText("Topic that came up, e.g. GPU scheduling")
        self.edit.setAccessibleName("Closing line topic")
        self.edit.setToolTip("Fills the {topic} slot of the closing line")
        self.edit.setClearButtonEnabled(True)
        self.edit.textChanged.connect(self.changed)
        layout.addWidget(self.edit)
        self.template = preview
        self.preview = label("", "say")
        self.preview.setVisible(bool(preview))
        layout.addWidget(self.preview)
        self.set_topic(topic)

    def set_topic(self, topic: str) -> None:
        if self.template:
            self.preview.setText(fill_closing(self.template, topic))


class RoundPage(QWidget):
    """All sections of one round type, scrollable, with the round's standing reminder
    pinned below. Built once and kept while the content and the personal data behind it
    do not change, so switching rounds only flips the visible page."""

    collapsed_changed = Signal(str, bool)
    step_moved = Signal(int)
    topic_changed = Signal(str)
    length_changed = Signal(int)

    def __init__(
        self,
        round_id: str,
        sections: list[CardSection],
        *,
        collapsed: set[str],
        topic: str,
        minutes: int,
        closing_template: str,
        parent=None,
    ):
        super().__init__(parent)
        self.round_id = round_id
        self.sections = sections
        self.setObjectName("cueRoundPage")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # arrows and Space belong to the card
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setAccessibleName("Round sections")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.scroll, 1)
        rule = standing_rule(sections)
        self.rule = label(f"\u2691 {rule}" if rule else "", "rule")
        self.rule.setObjectName("cueRule")
        palette_sheet(self.rule, RULE)
        self.rule.setAccessibleName("Standing reminder")
        self.rule.setVisible(bool(rule))
        outer.addWidget(self.rule)
        inner = QWidget()
        inner.setObjectName("cueRoundInner")
        # always as wide as the card: wrapped text reflows instead of being cut off when
        # a row (the timer, a long word) would ask for more width than the card has
        inner.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(6)
        self.stepper: StepperWidget | None = None
        self.timebox: TimeboxWidget | None = None
        self.closing_labels: list[tuple[QLabel, str]] = []
        self.topic_field: ClosingTopicField | None = None
        self.blocks: dict[str, CollapsibleSection] = {}
        for section in sections:
            body = self._body(section, topic, minutes, closing_template)
            block = CollapsibleSection(section, body, section.id in collapsed)
            block.toggled.connect(self.collapsed_changed)
            self.blocks[section.id] = block
            layout.addWidget(block)
        if not sections:
            layout.addWidget(label("This round type lists no sections the content has."))
        layout.addStretch(1)
        self.scroll.setWidget(inner)

    def _body(self, section: CardSection, topic: str, minutes: int, template: str) -> QWidget:
        if section.kind == "steps" and self.stepper is None:
            self.stepper = StepperWidget()
            self.stepper.setAccessibleName(f"{section.title} stepper")
            self.stepper.moved.connect(self.step_moved)
            return self.stepper
        if section.kind == "timebox" and self.timebox is None:
            self.timebox = TimeboxWidget(section.lines, minutes)
            self.timebox.length_changed.connect(self.length_changed)
            return self.timebox
        if section.kind == "closing-topic" and self.topic_field is None:
            preview = template if section.lines else ""
            self.topic_field = ClosingTopicField(topic, preview)
            self.topic_field.changed.connect(self.topic_changed)
            return self.topic_field
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(4, 0, 4, 2)
        layout.setSpacing(2)
        if section.kind == "closing":
            for line in section.lines:
                text = label(line.text, "say")
                text.setAccessibleName("Closing line")
                layout.addWidget(text)
                self.closing_labels.append((text, template or line.text))
        else:
            plain = section.kind in ("questions", "planned-questions", "nudges")
            body = label(lines_html(section.lines, bold=not plain), rich=True)
            body.setAccessibleName(section.title)
            layout.addWidget(body)
        if section.note:
            layout.addWidget(label(section.note, "small"))
        return box

    def set_topic(self, topic: str) -> None:
        for widget, template in self.closing_labels:
            widget.setText(fill_closing(template, topic))
        if self.topic_field is not None:
            self.topic_field.set_topic(topic)
            if self.topic_field.edit.text() != topic:
                self.topic_field.edit.blockSignals(True)
                self.topic_field.edit.setText(topic)
                self.topic_field.edit.blockSignals(False)

    def set_all_collapsed(self, collapsed: bool) -> None:
        for block in self.blocks.values():
            block.set_collapsed(collapsed)


def repolish(widget: QWidget) -> None:
    """Apply a changed dynamic property to the style sheet."""
    widget.style().unpolish(widget)
    widget.style().polish(widget)
