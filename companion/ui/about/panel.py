"""The side panel: per-segment words and seconds against budget, the whole pitch against
the pack's target (60-90 s as shipped), the speaking rate, the projects' numbers check, warnings and the last rehearsal."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.core.about.spoken import MAX_WPM, MIN_WPM
from companion.ui.about.takes import TakesTrend
from companion.ui.theme import status_color
from companion.ui.widgets.row_table import row_table

STATUS_TEXT = {
    "ok": "on budget",
    "over": "over",
    "under": "under",
    "empty": "empty",
    "missing": "missing",
}


def _warn() -> QColor:  # status colours from the theme: readable in light and dark
    return status_color("bad")


def _fine() -> QColor:
    return status_color("good")


def _soft() -> QColor:
    return status_color("warn")


def _set_text(label: QLabel, text: str) -> None:
    """Set only when different: the panel refreshes on every pause in typing."""
    if label.text() != text:
        label.setText(text)


def fit_side(side: QScrollArea) -> None:
    """The scrolling side pane no narrower than its panel (every table column in view,
    no sideways scrolling), and never under 300 px."""
    need = (
        side.widget().minimumSizeHint().width()
        + side.verticalScrollBar().sizeHint().width()
        + 2 * side.frameWidth()
    )
    if side.minimumWidth() != max(300, need):
        side.setMinimumWidth(max(300, need))


def _rich_label(name: str) -> QLabel:
    """A wrapped rich-text label the screen reader calls ``name``."""
    label = QLabel()
    label.setAccessibleName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


class AnalysisPanel(QWidget):
    #: the user picked a segment row: jump to that 0-based line in the editor
    jump_to_line = Signal(int)
    #: the speaking rate spin box changed (words per minute)
    rate_changed = Signal(float)
    calibrate_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAccessibleName("Pitch timing")
        self._lines: list[int | None] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        self.total_label = _rich_label("Whole pitch time")
        layout.addWidget(self.total_label)
        layout.addLayout(self._rate_row())
        self.table = row_table(["Segment", "Words", "Est. s", "Budget", "Status"], "Pitch segments")
        self.table.cellActivated.connect(self._activated)
        self.table.cellDoubleClicked.connect(self._activated)
        layout.addWidget(self.table)
        self.projects_label = _rich_label("Projects check")
        self.warnings_label = _rich_label("Warnings")
        self.rehearsal_label = _rich_label("Last rehearsal")
        self.takes = TakesTrend()
        for widget in (self.projects_label, self.warnings_label, self.rehearsal_label, self.takes):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.show_rehearsal(None)

    def _rate_row(self) -> QHBoxLayout:
        """The speaking rate and its Calibrate button."""
        rate_row = QHBoxLayout()
        rate_label = QLabel("Speaking &rate:")
        self.rate = QSpinBox()
        self.rate.setRange(int(MIN_WPM), int(MAX_WPM))
        self.rate.setSuffix(" wpm")
        self.rate.setAccessibleName("Speaking rate in words per minute")
        self.rate.setToolTip("Words per minute you speak at; calibrate to measure yours")
        rate_label.setBuddy(self.rate)
        self.calibrate_button = QPushButton("Calibrate…")
        self.calibrate_button.setAccessibleName("Calibrate speaking rate")
        self.calibrate_button.setToolTip("Time yourself reading the pitch aloud")
        rate_row.addWidget(rate_label)
        rate_row.addWidget(self.rate)
        rate_row.addWidget(self.calibrate_button)
        rate_row.addStretch(1)
        self.rate.valueChanged.connect(lambda v: self.rate_changed.emit(float(v)))
        self.calibrate_button.clicked.connect(self.calibrate_requested)
        return rate_row

    def words_per_minute(self) -> int:
        """The speaking rate shown."""
        return self.rate.value()

    def set_rate(self, wpm: float) -> None:
        self.rate.blockSignals(True)
        self.rate.setValue(round(wpm))
        self.rate.blockSignals(False)

    def tab_order(self) -> list[QWidget]:
        """Its controls in reading order, for the page's Tab chain."""
        return [self.rate, self.calibrate_button, self.table]

    def select_segment(self, row: int) -> None:
        """Select the table's ``row`` (the segment a rehearsal is on)."""
        self.table.selectRow(row)

    def _activated(self, row: int, _column: int) -> None:
        if 0 <= row < len(self._lines) and self._lines[row] is not None:
            self.jump_to_line.emit(self._lines[row])

    def _item(self, row: int, column: int) -> QTableWidgetItem:
        item = self.table.item(row, column)
        if item is None:
            item = QTableWidgetItem()
            if column in (1, 2, 3):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)
        return item

    def show_paused(self, message: str) -> None:
        self.total_label.setText(f"<b>Timing paused.</b> {escape(message)}")
        self.table.setRowCount(0)
        self._lines = []
        self.projects_label.setText("")
        self.warnings_label.setText("")

    def show_analysis(self, analysis) -> None:
        lo, hi = analysis.target  # from the content pack
        status = analysis.timing_status
        warn, fine, soft = _warn(), _fine(), _soft()  # once a refresh, not once a row
        if status == "empty":
            names = ", ".join(escape(s.title) for s in analysis.segments)
            _set_text(
                self.total_label,
                f"<b>Nothing to time yet.</b> Write under the segment headings ({names}) and "
                "the timing appears here.",
            )
        else:
            color = {"ok": fine, "long": warn, "short": soft}[status].name()
            verdict = {"ok": "within target", "long": "too long", "short": "too short"}[status]
            _set_text(
                self.total_label,
                f"<b>Whole pitch: <span style='color:{color}'>{analysis.total_seconds:.0f} s"
                f"</span></b> ({analysis.total_words} words; target {lo:.0f}-{hi:.0f} s, "
                f"{verdict})",
            )
        if self.table.rowCount() != len(analysis.segments):
            self.table.setRowCount(len(analysis.segments))
        self._lines = []
        for row, seg in enumerate(analysis.segments):
            seconds = f"{seg.seconds:.0f}" if seg.present else "–"
            words = str(seg.words) if seg.present else "–"
            status_text = STATUS_TEXT[seg.status]
            if seg.status in ("over", "under"):
                status_text = f"{abs(seg.delta_seconds):.0f} s {seg.status}"
            tip = (
                f"{seg.title}: {seg.words} words ≈ {seg.seconds:.1f} s of a {seg.budget_seconds} s "
                "budget. Double-click to jump to it."
                if seg.present
                else f"No '{seg.title}' heading yet: add one to time this segment."
            )
            color = {"over": warn, "missing": warn, "ok": fine}.get(seg.status, soft)
            cells = [seg.title, words, seconds, f"{seg.budget_seconds}", status_text]
            for column, text in enumerate(cells):
                # only touch what changed: this runs on every pause in typing
                item = self._item(row, column)
                if item.text() != text:
                    item.setText(text)
                if item.toolTip() != tip:
                    item.setToolTip(tip)
            status_item = self.table.item(row, 4)
            if status_item.foreground().color() != color:
                status_item.setForeground(QBrush(color))
            self._lines.append(seg.heading_line)
        self._fit_table()
        self._show_projects(analysis)
        if analysis.warnings:
            items = "".join(f"<li>{escape(w)}</li>" for w in analysis.warnings)
            _set_text(self.warnings_label, f"<b>Check</b><ul style='margin:0'>{items}</ul>")
        else:
            _set_text(self.warnings_label, "<b>Check</b>: nothing to fix.")

    def _fit_table(self) -> None:
        """The table at least as wide as its columns' contents and a wrapped segment
        title: a narrower one cut its Status column at the panel's edge."""
        table, header = self.table, self.table.horizontalHeader()
        fixed = sum(max(header.sectionSizeHint(c), table.sizeHintForColumn(c)) for c in range(1, 5))
        metrics = table.fontMetrics()
        segment = metrics.horizontalAdvance("Strongest") + 2 * metrics.averageCharWidth()
        need = fixed + segment + 2 * table.frameWidth()
        if table.minimumWidth() != need:
            table.setMinimumWidth(need)

    def _show_projects(self, analysis) -> None:
        if not analysis.projects_section:
            _set_text(
                self.projects_label,
                "<b>Three projects</b>: no section yet. Add a heading '## Three projects' "
                "with one sub-heading or list item per project.",
            )
            return
        rows = []
        for project in analysis.projects:
            if project.has_number:
                figures = ", ".join(escape(n) for n in project.numbers[:3])
                rows.append(f"<li>✓ {escape(project.title)} — {figures}</li>")
            else:
                rows.append(
                    f"<li><span style='color:{_warn().name()}'>⚠ {escape(project.title)} — "
                    "no number</span></li>"
                )
        if not rows:
            rows.append("<li>No projects listed under the section yet.</li>")
        _set_text(
            self.projects_label, f"<b>Three projects</b><ul style='margin:0'>{''.join(rows)}</ul>"
        )

    def show_rehearsal(self, record) -> None:
        if record is None or not record.segments:
            self.rehearsal_label.setText(
                "<b>Last rehearsal</b>: none yet. Press Rehearse (Ctrl+R) to time yourself "
                "segment by segment."
            )
            return
        rows = []
        for seg in record.segments:
            delta = seg.delta_seconds
            if delta >= 1:
                color = _warn().name()
            elif delta < -0.25 * seg.budget_seconds:
                color = _soft().name()
            else:
                color = _fine().name()
            word = "over" if delta > 0 else "under"
            rows.append(
                f"<tr><td>{escape(seg.title)}</td><td align='right'>{seg.seconds:.0f} s</td>"
                f"<td align='right'>{seg.budget_seconds:.0f} s</td>"
                f"<td style='color:{color}'>{abs(delta):.0f} s {word}</td></tr>"
            )
        when = record.started_at[:16].replace("T", " ")
        self.rehearsal_label.setText(
            f"<b>Last rehearsal</b> ({escape(when)}, {record.total_seconds:.0f} s in all)"
            f"<table cellspacing='4'>{''.join(rows)}</table>"
        )
