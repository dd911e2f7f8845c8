"""The Self-check page: the quiz ("Self-check") and the questions-to-ask planner, as two tabs."""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from companion.ui.bus import AppBus
from companion.ui.selfcheck.planner import PlannerPanel
from companion.ui.selfcheck.quiz import QuizPanel


class SelfCheckPage(QWidget):
    QUIZ_TAB, PLANNER_TAB = 0, 1

    def __init__(self, ctx, bus: AppBus, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.setAccessibleName("Self-check")
        self.quiz = QuizPanel(ctx, bus)
        self.planner = PlannerPanel(ctx, bus)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Self-check and questions to ask")
        self.tabs.addTab(self.quiz, "Self-check")
        self.tabs.addTab(self.planner, "Questions to ask")
        self.tabs.setTabToolTip(self.QUIZ_TAB, "Quiz yourself, answer from memory first")
        self.tabs.setTabToolTip(
            self.PLANNER_TAB,
            f"Plan {ctx.content.planner_rules().count_text} questions for the loop",
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        self.tabs.currentChanged.connect(lambda _i: self._load_current())
        # The main window also calls show_flagged(); a second call is a no-op.
        bus.open_flagged_quiz.connect(self.show_flagged)

    def on_shown(self) -> None:
        self._load_current()

    def _load_current(self) -> None:
        if self.tabs.currentIndex() == self.PLANNER_TAB:
            self.planner.ensure_loaded()
        else:
            self.quiz.ensure_started()
            self.quiz.card.setFocus()

    def show_flagged(self) -> None:
        """Show the quiz on the flagged questions only (the checklist's "speak aloud" link)."""
        self.tabs.setCurrentIndex(self.QUIZ_TAB)
        self.quiz.show_flagged()

    def show_planner(self, loop_id: int | None = None) -> None:
        """Switch to the planner, on ``loop_id`` when given."""
        self.tabs.setCurrentIndex(self.PLANNER_TAB)
        self.planner.ensure_loaded()
        if loop_id is not None:
            self.planner.select_loop(loop_id)
