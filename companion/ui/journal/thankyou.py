"""The Journal page's thank-you tracker: due the pack's hours after the loop, a draft that names one
topic discussed, copy to the clipboard, mark sent."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from companion.core.changes import Change
from companion.core.content.numbers import duration_text
from companion.core.content.stories import story_pack
from companion.core.journal.thankyou import compose_thank_you, default_recipient, save_thank_you
from companion.core.timeutil import to_local
from companion.ui.weak_calls import held_weakly


class ThankYouBox(QGroupBox):
    """Per loop: when it is due, to whom, the draft; copy, mark sent."""

    def __init__(self, ctx, bus, status: Callable[[str], None]):
        super().__init__("Thank-you note")
        self.ctx = ctx
        self.bus = bus
        self.status = held_weakly(status)  # the page's method: no cycle through the page
        self.loop_id: int | None = None
        self.setAccessibleName("Thank-you note")
        self.due = QLabel()
        self.due.setAccessibleName("Thank-you due")
        self.to_whom = QLineEdit()
        self.to_whom.setAccessibleName("Thank-you to")
        self.to_whom.setPlaceholderText("To whom: one person, the recruiter or the hiring manager")
        self.why = QLabel()  # why the draft names no topic from the person's round
        self.why.setAccessibleName("About the draft")
        self.why.setWordWrap(True)
        self.why.hide()
        self.draft = QPlainTextEdit()
        self.draft.setAccessibleName("Thank-you draft")
        self.draft.setTabChangesFocus(True)
        self.draft.setMaximumHeight(140)
        self.fill = QPushButton("&Draft from notes")
        self.copy = QPushButton("Co&py")
        self.copy.setAccessibleName("Copy the draft to the clipboard")
        self.sent = QPushButton("Mark &sent")
        self.fill.clicked.connect(self.fill_draft)
        self.copy.clicked.connect(self.copy_draft)
        self.sent.clicked.connect(self.toggle_sent)
        self.to_whom.editingFinished.connect(self.save)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(600)
        self._save_timer.timeout.connect(self.save)
        self.draft.textChanged.connect(self._save_timer.start)
        row = QHBoxLayout()
        row.addWidget(self.fill)
        row.addWidget(self.copy)
        row.addStretch(1)
        row.addWidget(self.sent)
        layout = QVBoxLayout(self)
        layout.addWidget(self.due)
        layout.addWidget(self.to_whom)
        layout.addWidget(self.draft)
        layout.addWidget(self.why)
        layout.addLayout(row)
        self._sent = False

    def save_pending(self) -> None:
        """Save a draft typed a moment ago whose autosave has not fired yet."""
        if self._save_timer.isActive():
            self.save_now()

    def save_now(self) -> None:
        """Save what the fields hold now (before another loop is shown in them)."""
        self._save_timer.stop()
        self.save()

    def show_loop(self, loop_id: int | None, thank_you) -> None:
        self._save_timer.stop()
        if loop_id != self.loop_id:
            self.why.hide()
        self.loop_id = loop_id
        self.setEnabled(loop_id is not None)
        if loop_id is None or thank_you is None:
            self.due.setText("")
            self.draft.blockSignals(True)
            self.draft.setPlainText("")
            self.draft.blockSignals(False)
            return
        self._sent = thank_you.sent
        if thank_you.sent:
            self.due.setText(f"Sent {thank_you.sent_at[:16].replace('T', ' ')} UTC.")
        elif thank_you.due_at is None:
            after = duration_text(self.ctx.content.thank_you_after)
            self.due.setText(f"Due {after} after the last round ends.")
        else:
            left = thank_you.due_at - self.ctx.now()
            hours = int(left.total_seconds() // 3600)
            stamp = to_local(thank_you.due_at).strftime("%a %d %b %H:%M")
            self.due.setText(f"Due {stamp} ({'overdue' if hours < 0 else f'in {hours} h'}).")
        self.sent.setText("Mark not &sent" if thank_you.sent else "Mark &sent")
        self.to_whom.setText(thank_you.to_whom)
        self.draft.blockSignals(True)
        self.draft.setPlainText(thank_you.draft)
        self.draft.blockSignals(False)

    def save(self) -> None:
        if self.loop_id is None:
            return
        try:
            save_thank_you(
                self.ctx.db,
                self.loop_id,
                to_whom=self.to_whom.text(),
                draft=self.draft.toPlainText(),
            )
        except ValueError as exc:
            self.status(f"Thank-you not saved: {exc}")

    def fill_draft(self) -> None:
        if self.loop_id is None:
            return
        if not self.to_whom.text().strip():
            self.to_whom.setText(default_recipient(self.ctx.db, self.loop_id))
        self.save()

        tags = story_pack(self.ctx.content).tags  # "identity" is a kind of question
        draft = compose_thank_you(self.ctx.db, self.loop_id, tags)
        self.draft.setPlainText(draft.text)
        self.save()
        self.why.setText(draft.why)
        self.why.setVisible(bool(draft.why))

    def copy_draft(self) -> None:
        QGuiApplication.clipboard().setText(self.draft.toPlainText())
        self.status("Draft copied to the clipboard.")

    def toggle_sent(self) -> None:
        if self.loop_id is None:
            return
        self.save_now()

        save_thank_you(self.ctx.db, self.loop_id, sent_at=None if self._sent else self.ctx.now())
        self.bus.announce(Change.of("thank-you", ids=[self.loop_id], origin=self))
