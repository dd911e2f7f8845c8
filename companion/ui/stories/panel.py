"""The Stories tab's side panel: each story's told time against the budget and its
Result's number, each common question with the stories that answer it (or a gap), and
the pack's warnings. It renders a :class:`BankAnalysis`; it keeps nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.core.content.numbers import seconds_text
from companion.core.text import count_of
from companion.ui.theme import status_color
from companion.ui.widgets.row_table import fit_rows, row_table


class StoriesPanel(QWidget):
    #: the user picked a story row: jump to that 0-based line in the editor
    jump_to_line = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAccessibleName("Story timing and questions")
        self._lines: list[int] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        self.intro = QLabel()  # the pack's intro: which questions and limits are ours
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        self.intro.setAccessibleName("About these questions")
        self.intro.setVisible(False)
        layout.addWidget(self.intro)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Stories summary")
        layout.addWidget(self.summary)

        # the title and the tags share the width
        self.table = row_table(["Story", "Est. s", "Number", "Tags"], "Stories", stretch=(0, 3))
        self.table.setWordWrap(True)
        self.table.cellActivated.connect(self._activated)
        self.table.cellDoubleClicked.connect(self._activated)
        layout.addWidget(self.table, 2)

        questions_label = QLabel("&Questions and the stories that answer them")
        self.questions = QListWidget()
        self.questions.setAccessibleName("Questions and their stories")
        self.questions.setWordWrap(True)
        questions_label.setBuddy(self.questions)
        layout.addWidget(questions_label)
        layout.addWidget(self.questions, 3)

        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setAccessibleName("Warnings")
        self.warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.warnings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.warnings)

    def tab_order(self) -> list[QWidget]:
        """Its lists in reading order, for the page's Tab chain."""
        return [self.table, self.questions]

    def _activated(self, row: int, _column: int) -> None:
        if 0 <= row < len(self._lines):
            self.jump_to_line.emit(self._lines[row])

    def show_paused(self, message: str) -> None:
        self.summary.setText(message)
        self.table.setRowCount(0)
        self.questions.clear()
        self.warnings.setText("")

    def show_intro(self, text: str) -> None:
        self.intro.setText(text)
        self.intro.setVisible(bool(text))

    def show_analysis(self, analysis, pack) -> None:
        reports = analysis.reports
        total = sum(r.seconds for r in reports)
        count = "1 story" if len(reports) == 1 else f"{len(reports)} stories"
        told = f"{total:.0f} s" if total < 90 else f"{total / 60:.0f} min"  # not "0 min"
        self.summary.setText(
            f"{count}, about {told} told in all; "
            f"each about {seconds_text(pack.seconds)}. "
            f"{count_of(len(analysis.gaps), 'question')} with no story."
            if reports
            else "No stories yet: write one '## Story: title' per story, or press From projects."
        )
        self._lines = [r.story.line - 1 for r in reports]
        self.table.setRowCount(len(reports))
        bad, good = status_color("bad"), status_color("good")
        for row, report in enumerate(reports):
            cells = [
                report.story.title,
                f"{report.seconds:.0f}",
                "yes" if report.has_number else "no number",
                ", ".join(report.story.tags) or "no tags",
            ]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if column == 1:
                    item.setForeground(bad if report.over else good)
                    item.setToolTip(f"budget {pack.seconds} s")
                if column == 2:
                    item.setForeground(good if report.has_number else bad)
                self.table.setItem(row, column, item)
        fit_rows(self.table)
        self.questions.clear()
        for match in analysis.matches:
            names = ", ".join(s.title for s in match.stories[:3])
            text = (
                f"{match.question.text}\n    → {pack.text('pitch_answer')}"
                if match.question.answer_with
                else f"{match.question.text}\n    → {names}"
                if names
                else (
                    f"{match.question.text}\n    gap: no story tagged {', '.join(match.question.tags)}"
                )
            )
            item = QListWidgetItem(text)
            if match.gap:
                item.setForeground(status_color("bad"))
            self.questions.addItem(item)
        lines = [f"Error: {e}" for e in analysis.errors] + list(analysis.warnings)
        self.warnings.setText("\n".join(lines))
