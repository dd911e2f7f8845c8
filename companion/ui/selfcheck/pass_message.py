"""What the quiz tab says instead of a question: no questions yet, nothing flagged,
nothing to review, or a pass done, with the ways on. A part of the quiz tab."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


class PassMessage(QWidget):
    """Signals: ``again_wanted``, ``flagged_wanted``, ``all_wanted`` (its buttons)."""

    again_wanted = Signal()
    flagged_wanted = Signal()
    all_wanted = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setAccessibleName("Self-check message")
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.again_button = QPushButton("Start again")
        self.flagged_button = QPushButton()
        self.all_button = QPushButton("Quiz all questions")
        self.again_button.clicked.connect(self.again_wanted)
        self.flagged_button.clicked.connect(self.flagged_wanted)
        self.all_button.clicked.connect(self.all_wanted)
        row = QHBoxLayout()
        row.addStretch(1)
        for button in (self.again_button, self.flagged_button, self.all_button):
            row.addWidget(button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.label)
        layout.addLayout(row)
        layout.addStretch(2)

    def render(self, session, *, has_questions: bool, flagged_count: int, content_dir) -> None:
        """Say where ``session`` ended; ``content_dir``: where quiz files go."""
        self.flagged_button.setText(f"Only flagged ({flagged_count})")
        self.again_button.setVisible(False)
        self.flagged_button.setVisible(False)
        self.all_button.setVisible(False)
        if not has_questions:
            self.label.setText(
                "<h3>No self-check questions yet</h3><p>The quiz comes from content files of "
                f"<code>kind: quiz</code>. Add one to {escape(str(content_dir))} and "
                "restart the app.</p>"
            )
        elif session.total == 0 and session.flagged_only:
            self.label.setText(
                "<h3>Nothing is flagged</h3><p>During the quiz, press F on a question you "
                "want to speak aloud later; it will be waiting here.</p>"
            )
            self.all_button.setVisible(True)
        elif session.total == 0 and session.only is not None:
            self.label.setText(
                "<h3>Nothing to review before the loop</h3><p>Every question you have seen "
                "is likely to stay with you until the next round.</p>"
            )
            self.all_button.setVisible(True)
        elif session.total == 0:
            self.label.setText("<h3>This set has no questions</h3>")
            self.all_button.setVisible(True)
        else:
            tally = session.tally()
            weak = tally["missed"] + tally["shaky"]
            follow = (
                f"<p>The {weak} missed or shaky one{'s' if weak != 1 else ''} come back first "
                "next time and join your study list.</p>"
                if weak
                else "<p>All got. Spaced reviews will bring them back in a few days.</p>"
            )
            self.label.setText(f"<h3>Pass done: {escape(tally_text(tally, ', '))}</h3>{follow}")
            self.again_button.setVisible(True)
            self.flagged_button.setVisible(flagged_count > 0 and not session.flagged_only)
            self.all_button.setVisible(session.flagged_only)

    def focus_first(self, shown: bool) -> None:
        """Focus the first way on (``shown``: whether the tab is on screen; off screen,
        the buttons not hidden count)."""
        for button in (self.again_button, self.all_button, self.flagged_button):
            if button.isVisible() or (not shown and not button.isHidden()):
                button.setFocus(Qt.FocusReason.OtherFocusReason)
                break


def tally_text(tally: dict[str, int], sep: str = " · ") -> str:
    parts = [f"{tally['got']} got", f"{tally['shaky']} shaky", f"{tally['missed']} missed"]
    if tally.get("easy"):
        parts.append(f"{tally['easy']} easy")
    return sep.join(parts)
