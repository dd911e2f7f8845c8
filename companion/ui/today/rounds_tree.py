"""The schedule's list of rounds: when, which round, its state and the interviewer, the
round the day is about in bold. A part of the schedule editor."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from companion.core.day.schedule import clock_text, round_title
from companion.ui.widgets.round_fields import role_title

# what a round's state reads as in the schedule: a captured round is told from one that
# ended with nothing written yet
STATE_TEXTS = {
    "scheduled": "upcoming",
    "running": "\u25cf now",
    "ended": "ended, not written down",
    "captured": "done, written down",
    "skipped": "skipped",
}


def state_text(state: str, *, is_next: bool = False) -> str:
    if is_next:
        return "next"
    return STATE_TEXTS.get(state, "")


def round_row(rnd, state: str, when, now, titles: dict, focus: int, loop=None) -> tuple:
    """(round id, when, name, state, interviewer) as the list shows them; ``loop``: the
    round's loop when several loops share the list (its company names the round)."""
    if when is None:
        when_text = "no time set"
    else:
        when_text = clock_text(when, now)  # 10:00 today, else "Tue 1 Dec 10:00"
        if when.astimezone(now.tzinfo).date() == now.date():
            when_text = f"today {when_text}"
    who = ", ".join(
        part
        for part in (
            rnd.interviewer_name,
            role_title(rnd.interviewer_role) if rnd.interviewer_role else "",
        )
        if part
    )
    shown = state_text(state, is_next=rnd.id == focus and state == "scheduled")
    if not state:  # no day view of this loop: what the row itself says
        shown = "skipped" if rnd.skipped_at else "ended" if rnd.ended_at else ""
    if rnd.skipped_at and rnd.skip_reason and shown in ("skipped", ""):
        shown = rnd.skip_reason.split(" by ")[0]  # "cancelled", from the invitation
    name = round_title(rnd, titles)
    if loop is not None:
        name = f"{loop.company} · {name}"
    return (rnd.id, when_text, name, shown, who)


class RoundsTree(QTreeWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[tuple] | None = None  # what the tree shows; None: not drawn yet
        self.setAccessibleName("Rounds of this loop")
        self.setHeaderLabels(["When", "Round", "State", "Interviewer"])
        self.setRootIsDecorated(False)
        self.setAlternatingRowColors(True)
        self.setMinimumHeight(110)
        self.setMaximumHeight(220)

    def show_rows(self, rows: list[tuple], focus: int) -> None:
        """Show ``rows`` (from :func:`round_row`), ``focus`` in bold; the same rows again
        keep the list, its selection and scroll."""
        if rows == self._rows:
            return
        self._rows = rows
        selected = self.selected_id()
        self.clear()
        for round_id, *texts in rows:
            item = QTreeWidgetItem(texts)
            item.setData(0, Qt.ItemDataRole.UserRole, round_id)
            if round_id == focus:  # the round the day is about: now, or next
                font = item.font(0)
                font.setBold(True)
                for column in range(len(texts)):
                    item.setFont(column, font)
            self.addTopLevelItem(item)
            if round_id == selected:
                item.setSelected(True)
        for column in range(4):
            self.resizeColumnToContents(column)

    def selected_id(self) -> int:
        items = self.selectedItems()
        return int(items[0].data(0, Qt.ItemDataRole.UserRole)) if items else 0
