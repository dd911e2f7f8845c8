"""The review before the loop as the Study list shows it: one line of counts and a list
of the items, lowest predicted recall at the next round first (companion.core.review)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QWidget,
)

from companion.ui.widgets.itemdata import OBJECT


def review_summary(listed, due: int, total: int, noun: str) -> str:
    """'3 questions due now · 5 to review before the loop (Tue 15 Dec 10:00)'."""
    plural = "" if total == 1 else "s"
    if listed.next_round_at is None:
        return f"{due} {noun}{'' if due == 1 else 's'} due now" if due else "Nothing due now"
    when = listed.next_round_at.astimezone(listed.at.tzinfo)
    return (
        f"{due} due now · {total} {noun}{plural} to review before the loop "
        f"(first round {when:%a %d %b %H:%M})"
    )


def item_text(item, at) -> str:
    """'44%  ·  topic · due Tue 03 Nov 21:01  —  Consistent hashing' (the facts first: a
    question's text can be long)."""
    due = item.due.astimezone(at.tzinfo)
    kind = "question" if item.kind == "quiz" else "topic"
    flag = " · flagged" if item.flagged else " · new" if item.new else ""
    title = item.title if len(item.title) <= 140 else item.title[:139] + "…"
    return f"{item.recall_at_round:4.0%}  ·  {kind}{flag} · due {due:%a %d %b %H:%M}  —  {title}"


class ReviewListView(QListWidget):
    """The items of a review list; each row carries its ReviewItem."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setAccessibleName("Review before the loop, lowest predicted recall first")

    def show_list(self, listed) -> None:
        self.clear()
        for item in listed.items:
            row = QListWidgetItem(item_text(item, listed.at))
            row.setData(Qt.ItemDataRole.AccessibleTextRole, item_text(item, listed.at))
            row.setData(OBJECT, item)
            row.setToolTip("Predicted recall at the next round's start (FSRS)")
            self.addItem(row)
        if not listed.items:
            empty = QListWidgetItem("Nothing to review before the loop.")
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(empty)
        elif self.currentRow() < 0:
            self.setCurrentRow(0)

    def selected(self):
        row = self.currentItem()
        return row.data(OBJECT) if row is not None else None


class ReviewLine(QWidget):
    """The counts and a "Review before the loop (N)" button (Self-check's header)."""

    def __init__(self, tip: str, parent=None):
        super().__init__(parent)
        self.label = QLabel()
        self.label.setAccessibleName("Review before the loop")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.button = QPushButton("&Review before the loop")
        self.button.setToolTip(tip)
        self.button.setAccessibleName("Review before the loop")
        self.ahead_button = AheadButton()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.ahead_button)
        row.addWidget(self.button)

    def show_counts(self, listed, due: int, total: int, noun: str) -> None:
        self.label.setText(review_summary(listed, due, total, noun))
        self.button.setText(f"&Review before the loop ({total})")
        self.button.setEnabled(total > 0)


class AheadButton(QPushButton):
    """ "Review for N minutes": shown the evening before and the morning of a loop, a pass
    sized to the minutes (companion.core.review.ahead); ``minutes`` is its N."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.minutes: int | None = None
        self.setToolTip("The cards that gain the most recall by the round, in the time you have")
        self.hide()

    def offer(self, minutes: int | None) -> None:
        self.minutes = minutes
        if minutes:
            self.setText(f"Review for {minutes} &minutes")
            self.setAccessibleName(f"Review for {minutes} minutes")
        self.setVisible(bool(minutes))
