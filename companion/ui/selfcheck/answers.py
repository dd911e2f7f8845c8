"""Self-check questions shown outside the quiz (the Study list's guide pane): each
question first, its answer behind its own "Show answer" button, since the guide's rule is
to answer from memory before opening each one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget


@dataclass(frozen=True)
class AskedQuestion:
    question: str
    answer: str
    current: bool = False  # the one the selected topic matched (drawn bold)


class AnswerToggle(QPushButton):
    """A question's disclosure: shows its answer, then hides it again."""

    def __init__(self, number: int, answer: QLabel, parent=None):
        super().__init__(parent)
        self.number = number
        self.answer = answer
        self.setCheckable(True)
        self.toggled.connect(self._show)
        self._show(False)

    def _show(self, shown: bool) -> None:
        self.answer.setVisible(shown)
        verb = "Hide" if shown else "Show"
        self.setText(f"{verb} answer")
        self.setAccessibleName(f"{verb} the answer to question {self.number}")


class QuestionsWithHiddenAnswers(QScrollArea):
    """The questions of a self-check set, in order, every answer hidden until asked."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAccessibleName("Self-check questions, answers hidden")
        self.toggles: list[AnswerToggle] = []
        self.questions: list[QLabel] = []
        self.show_questions("", ())

    def show_questions(self, intro: str, questions: Sequence[AskedQuestion]) -> None:
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        self.toggles, self.questions = [], []
        if intro:
            layout.addWidget(_plain(intro, "How to use these questions"))
        for number, asked in enumerate(questions, 1):
            question = _plain(f"{number}. {asked.question}", f"Question {number}")
            if asked.current:
                font = question.font()
                font.setBold(True)
                question.setFont(font)
            answer = _plain(asked.answer or "(This question has no answer.)", f"Answer {number}")
            answer.setFrameShape(QFrame.Shape.StyledPanel)
            answer.setMargin(6)
            answer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            toggle = AnswerToggle(number, answer)
            layout.addWidget(question)
            layout.addWidget(toggle, 0, Qt.AlignmentFlag.AlignLeft)
            layout.addWidget(answer)
            self.questions.append(question)
            self.toggles.append(toggle)
        layout.addStretch(1)
        self.setWidget(inner)  # the previous questions (and any answer shown) go with it
        self.setVisible(bool(questions))


def _plain(text: str, name: str) -> QLabel:
    """Pack text as plain text (an <img src=file:...> in it must not make Qt read a file)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setAccessibleName(name)
    return label
