"""The self-check's question card: why this question now, the question, a hint until the
answer shows, the answer, and the buttons to reveal, mark and flag it.

Keys while the card has focus: Space shows the answer, 1/2/3/4 mark it got, shaky,
missed or easy (FSRS's Good, Hard, Again and Easy), F flags it. A part of the quiz tab."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

#: the marks' buttons: (mark, text, accessible name, key)
MARK_BUTTONS = (
    ("got", "Got it · Good (1)", "Got it", Qt.Key.Key_1),
    ("shaky", "Shaky · Hard (2)", "Shaky", Qt.Key.Key_2),
    ("missed", "Missed · Again (3)", "Missed", Qt.Key.Key_3),
    ("easy", "Easy (4)", "Easy", Qt.Key.Key_4),
)


class QuestionCard(QFrame):
    """Signals: ``reveal_wanted`` (Space or the button), ``mark_wanted`` (the mark),
    ``flag_wanted`` (F or the button)."""

    reveal_wanted = Signal()
    mark_wanted = Signal(str)
    flag_wanted = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("quizCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Question card")
        self._labels()
        self._buttons()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 14, 18, 14)
        layout.addWidget(self.reason_label)
        layout.addWidget(self.question_label)
        layout.addSpacing(8)
        layout.addWidget(self.hint_label)
        layout.addWidget(self.answer_label)
        layout.addWidget(self.see_label)
        layout.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.show_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        marks = QHBoxLayout()  # a row of their own: four fit a small screen
        for button in self.mark_buttons.values():
            marks.addWidget(button)
        marks.addStretch(1)
        marks.addWidget(self.flag_button)
        layout.addLayout(marks)
        self._space = self._key(Qt.Key.Key_Space, self.reveal_wanted.emit)
        for mark, _t, _n, key in MARK_BUTTONS:
            self._key(key, lambda m=mark: self.mark_wanted.emit(m))
        self._key(Qt.Key.Key_F, self.flag_wanted.emit)

    def _labels(self) -> None:
        self.reason_label = QLabel()
        self.reason_label.setAccessibleName("Why this question now")
        self.question_label = QLabel()
        self.question_label.setObjectName("quizQuestion")
        self.question_label.setWordWrap(True)
        self.question_label.setAccessibleName("Question")
        self.question_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = QFont(self.question_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.35)
        self.question_label.setFont(font)
        self.hint_label = QLabel()
        self.hint_label.setWordWrap(True)
        self.hint_label.setAccessibleName("Hint")
        self.answer_label = QLabel()
        self.answer_label.setObjectName("quizAnswer")
        self.answer_label.setFrameShape(QFrame.Shape.StyledPanel)
        self.answer_label.setMargin(8)
        self.answer_label.setWordWrap(True)
        self.answer_label.setAccessibleName("Answer")
        self.answer_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.see_label = QLabel()
        self.see_label.setWordWrap(True)
        self.see_label.setAccessibleName("Read again")
        # pack text is plain text, never HTML: an <img src=file:...> in an answer must not
        # make Qt read a file or reach the network
        for label in (
            self.reason_label,
            self.question_label,
            self.hint_label,
            self.answer_label,
            self.see_label,
        ):
            label.setTextFormat(Qt.TextFormat.PlainText)

    def _buttons(self) -> None:
        self.show_button = QPushButton("Show answer (Space)")
        self.mark_buttons = {mark: QPushButton(text) for mark, text, _n, _k in MARK_BUTTONS}
        self.got_button = self.mark_buttons["got"]
        self.flag_button = QPushButton("Flag (F)")
        self.flag_button.setCheckable(True)
        for button, name in (
            (self.show_button, "Show answer"),
            *((self.mark_buttons[m], n) for m, _t, n, _k in MARK_BUTTONS),
            (self.flag_button, "Flag to speak aloud"),
        ):
            button.setAccessibleName(name)
            # Clicking keeps the focus on the card, so the keys keep working.
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.show_button.clicked.connect(self.reveal_wanted)
        for mark, button in self.mark_buttons.items():
            button.clicked.connect(lambda _c=False, m=mark: self.mark_wanted.emit(m))
        self.flag_button.clicked.connect(self.flag_wanted)

    def _key(self, key: Qt.Key, slot) -> QShortcut:
        shortcut = QShortcut(QKeySequence(key), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(slot)
        return shortcut

    def show_question(self, reason: str, question, revealed: bool, see: list[str]) -> None:
        """``question`` with why it comes now, its answer once ``revealed`` (the hint
        shows before); ``see``: the titles of the sections to read again."""
        self.reason_label.setText(reason)
        self.question_label.setText(question.question)
        self.answer_label.setVisible(revealed)
        self.see_label.setVisible(revealed and bool(question.see))
        self.hint_label.setVisible(not revealed)
        if revealed:
            self.answer_label.setText(question.answer or "(This question has no answer.)")
            self.see_label.setText("Read again: " + ", ".join(see))
        else:
            self.answer_label.clear()
        self.show_button.setEnabled(not revealed)
        self._space.setEnabled(not revealed)
        for button in self.mark_buttons.values():
            button.setEnabled(revealed)

    def show_hint(self, text: str) -> None:
        self.hint_label.setText(text)

    def show_flag(self, flagged: bool) -> None:
        self.flag_button.setChecked(flagged)
        self.flag_button.setText("Flagged (F)" if flagged else "Flag (F)")
