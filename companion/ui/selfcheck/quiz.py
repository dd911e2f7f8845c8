"""The Self-check tab: one question at a time, the answer hidden until asked for.

Keys while the question card has focus: Space shows the answer, 1/2/3/4 mark it got,
shaky, missed or easy (FSRS's Good, Hard, Again and Easy), F flags it. The set chooser
and the "flagged only" switch sit outside the card, so Space keeps its usual meaning
there. The review line counts what is due and what to review before the loop; its
button runs a pass over exactly that list, lowest predicted recall first.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import Change
from companion.core.review.ahead import offer_minutes, review_ahead
from companion.core.review.queue import review_or_empty
from companion.core.selfcheck.quiz import (
    QuizSession,
    flagged_ids,
    question_sets,
    quiz_intro,
    unique_questions,
)
from companion.ui.bus import AppBus
from companion.ui.selfcheck.pass_message import PassMessage, tally_text
from companion.ui.selfcheck.question_card import QuestionCard
from companion.ui.study.review import ReviewLine

SHOW_KEY = "Then press Space to check."  # the key is the window's; the advice is the pack's
REASON_TEXT = {
    "missed": "Missed last time",
    "shaky": "Shaky last time",
    "flagged": "Flagged",
    "due": "Due for review",
    "new": "New question",
    "later": "Not due yet: extra practice",
}
REVIEW_KINDS = ("quiz", "review", "capture", "study", "round", "loop")
ALL_SETS = ""


class QuizPanel(QWidget):
    def __init__(self, ctx, bus: AppBus, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.session = None
        self.redraws = 0  # how often the card was drawn (benchmarks/bench_redraws.py)
        self._review = {}  # question id -> its review item, during a review pass
        self.setAccessibleName("Self-check quiz")

        header = self._header()
        self.review_line = ReviewLine(
            "The due questions and those you would forget by the next round, weakest first"
        )
        self.review_label, self.review_button = self.review_line.label, self.review_line.button
        self.review_button.clicked.connect(self.show_review)
        self.review_line.ahead_button.clicked.connect(self.show_ahead)
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Quiz progress")
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.stack = self._card_and_message()
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.review_line)
        layout.addWidget(self.progress)
        layout.addWidget(self.stack, 1)
        bus.changed.connect(self._changed)

    def _header(self) -> QHBoxLayout:
        """Which questions (the set, flagged only), how far the pass is, Start again."""
        self.set_combo = QComboBox()
        self.set_combo.setAccessibleName("Question set")
        self.set_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        # never narrower than its text ("All sets (6" cut off at 200% scale): the
        # word-wrapped progress label beside it gives up the room instead
        self.set_combo.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        set_label = QLabel("Question &set:")
        set_label.setBuddy(self.set_combo)
        self.flagged_box = QCheckBox("Flagged &only")
        self.flagged_box.setAccessibleName("Flagged questions only")
        self.flagged_box.setToolTip("Review just the questions you flagged (to speak aloud)")
        self.progress_label = QLabel()
        self.progress_label.setAccessibleName("Progress")
        self.progress_label.setWordWrap(True)  # never what makes the window wider
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)  # a set's name: not HTML
        self.restart_button = QPushButton("Start &again")
        self.restart_button.setToolTip("A fresh pass, missed and shaky questions first")
        self.restart_button.clicked.connect(self.start)
        self.flagged_box.toggled.connect(lambda _on: self.start())
        self.set_combo.activated.connect(lambda _i: self.start())
        header = QHBoxLayout()
        header.addWidget(set_label)
        header.addWidget(self.set_combo)
        header.addWidget(self.flagged_box)
        header.addStretch(1)
        header.addWidget(self.progress_label)
        header.addWidget(self.restart_button)
        return header

    def _card_and_message(self) -> QStackedWidget:
        """The question card, or in its place the message (empty states, a pass done)."""
        self.card = QuestionCard()
        self.card.reveal_wanted.connect(self.reveal)
        self.card.mark_wanted.connect(self.mark)
        self.card.flag_wanted.connect(self.toggle_flag)
        self.message = PassMessage()
        self.message.again_wanted.connect(self.start)
        self.message.flagged_wanted.connect(lambda: self.flagged_box.setChecked(True))
        self.message.all_wanted.connect(self._all_questions)
        # read through the tab by the tests of other pages (accessibility, checklist)
        self.answer_label, self.message_label = self.card.answer_label, self.message.label
        stack = QStackedWidget()
        stack.addWidget(self.card)
        stack.addWidget(self.message)
        return stack

    # sessions ------------------------------------------------------------------------

    def _questions(self):
        return unique_questions(self.ctx.content.quiz())

    def _fill_sets(self, questions) -> None:
        chosen = self.set_combo.currentData()
        self.set_combo.blockSignals(True)
        self.set_combo.clear()
        self.set_combo.addItem(f"All sets ({len(questions)})", ALL_SETS)
        for name in question_sets(questions):
            count = sum(1 for q in questions if q.set == name)
            self.set_combo.addItem(f"{name} ({count})", name)
        index = self.set_combo.findData(chosen) if chosen is not None else 0
        self.set_combo.setCurrentIndex(max(index, 0))
        self.set_combo.blockSignals(False)

    def start(self) -> None:
        """A fresh pass over the chosen set (or the flagged questions only)."""
        self._begin(None)

    def _begin(self, only: list[str] | None) -> None:
        """A pass; ``only``: the review list's question ids, in its order."""

        questions = self._questions()
        self._fill_sets(questions)
        set_name = self.set_combo.currentData() or None
        self.session = QuizSession(
            self.ctx.db,
            questions,
            self.ctx.now,
            flagged_only=self.flagged_box.isChecked() and only is None,
            set_name=set_name if only is None else None,
            only=only,
        )
        self.refresh_review()
        self._render()

    # the review before the loop ------------------------------------------------------

    def review_list(self):
        # the pack's questions never answered join it before a loop (a new user's first night)
        return review_or_empty(self.ctx.db, self.ctx.now(), self._questions())

    def refresh_review(self) -> None:
        """The review line: what is due now and what to review before the next round."""
        listed = self.review_list()
        due, total = listed.count("quiz")
        self.review_line.show_counts(listed, due, total, "question")

        self.review_line.ahead_button.offer(offer_minutes(self.ctx.db, self.ctx.now()))

    def show_review(self) -> None:
        """A pass over the review list's questions, lowest predicted recall first (the
        checklist's "re-skim the answer keys" opens it too)."""
        self._review_pass(self.review_list())

    def _review_pass(self, listed) -> None:
        self._review = {i.id: i for i in listed.items if i.kind == "quiz"}
        self.set_combo.setCurrentIndex(0)
        self.flagged_box.blockSignals(True)
        self.flagged_box.setChecked(False)
        self.flagged_box.blockSignals(False)
        self._begin(list(self._review))

    def show_ahead(self) -> None:
        """A pass sized to the button's minutes (its questions, lowest recall first)."""

        minutes = self.review_line.ahead_button.minutes or 10
        self._review_pass(review_ahead(self.ctx.db, self.ctx.now(), minutes).as_review_list())

    def _changed(self, change) -> None:
        """New content: a fresh pass over its questions; review cards written elsewhere:
        the review count (this panel's own marks are drawn where they are made)."""
        if change.touches("content") and self.session is not None:
            self.start()
        elif change.origin is not self and change.touches(*REVIEW_KINDS) and self.session:
            self.refresh_review()

    def show_flagged(self) -> None:
        """Open on the flagged questions only, across every set (the checklist's link)."""
        # Called by the main window and through the bus; restarting a fresh pass twice
        # leaves the same state, so a second call is harmless.
        self.flagged_box.blockSignals(True)
        self.flagged_box.setChecked(True)
        self.flagged_box.blockSignals(False)
        self.set_combo.setCurrentIndex(0)
        self.start()

    def ensure_started(self) -> None:
        if self.session is None:
            self.start()

    def _all_questions(self) -> None:
        if self.flagged_box.isChecked():
            self.flagged_box.setChecked(False)  # restarts through toggled
        else:
            self.start()

    # actions -------------------------------------------------------------------------

    def reveal(self) -> None:
        if self.session is None or self.session.finished or self.session.revealed:
            return
        self.session.reveal()
        self._render()

    def mark(self, mark: str) -> None:
        if self.session is None or self.session.finished:
            return
        if not self.session.revealed:
            self.card.show_hint(
                "Say your answer first, then press Space to check it before marking."
            )
            return
        self.session.mark(mark)
        self._announce()
        self.refresh_review()
        self._render()

    def toggle_flag(self) -> None:
        if self.session is None or self.session.finished:
            return
        self.session.toggle_flag()
        self._announce()
        self.refresh_review()
        self._render()

    def _announce(self) -> None:
        self.bus.announce(Change.of("quiz", "review", origin=self))  # drawn here, not its echo

    # drawing -------------------------------------------------------------------------

    def _render(self) -> None:
        self.redraws += 1
        session = self.session
        tally = session.tally()
        done = min(session.index, session.total)
        self.progress.setMaximum(max(session.total, 1))
        self.progress.setValue(done)
        if session.finished:
            self.progress_label.setText(f"{done} of {session.total} · {tally_text(tally)}")
            self._render_message()
            return
        item = session.current
        self.progress_label.setText(
            f"Question {session.position} of {session.total} · {tally_text(tally)}"
        )
        self.stack.setCurrentWidget(self.card)
        card = item.card
        reason = REASON_TEXT.get(item.reason, item.reason)
        seen = f" · reviewed {card.reviews}×" if card and card.reviews else ""
        review = self._review.get(item.question.id) if session.only is not None else None
        if review and review.new:
            reason = "Review before the loop · new question, not answered yet"
        elif review:
            reason = f"Review before the loop · recall at the round {review.recall_at_round:.0%}"
        question = item.question
        see = self._titles(question.see) if session.revealed else []
        self.card.show_question(f"{reason}{seen} · {question.set}", question, session.revealed, see)
        if not session.revealed:
            self.card.show_hint(f"{quiz_intro(self.ctx.content, question)} {SHOW_KEY}")
        self.card.show_flag(session.is_flagged())
        if self.isVisible() and not self.set_combo.hasFocus() and not self.flagged_box.hasFocus():
            self.card.setFocus(Qt.FocusReason.OtherFocusReason)

    def _titles(self, section_ids) -> list[str]:
        titles = []
        for section_id in section_ids:
            section = self.ctx.content.section(section_id)
            titles.append(section.title if section else section_id)
        return titles

    def _render_message(self) -> None:
        self.message.render(
            self.session,
            has_questions=bool(self._questions()),
            flagged_count=len(flagged_ids(self.ctx.db)),
            content_dir=self.ctx.data_dir / "content",
        )
        self.stack.setCurrentWidget(self.message)
        self.message.focus_first(self.isVisible())
