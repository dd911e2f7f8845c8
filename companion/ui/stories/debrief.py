"""The debrief: a round's asked ``#topics`` against the topics you expected and the
stories you told, and the loop's prep recall with the recall across loops. The Journal
shows it under each loop (:class:`DebriefBox`); right after a capture is saved a small
window shows it for that round (:class:`DebriefDialog`)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from companion.core.day.loops import get_round, type_names
from companion.core.stories import DatabaseError
from companion.core.stories.debrief import loop_debrief, prepped_debriefs


def percent(value: float | None) -> str:
    return "nothing asked with a #topic yet" if value is None else f"{value:.0%}"


def round_lines(debrief, title: str) -> list[str]:
    d = debrief
    lines = [f"{title}: recall {percent(d.recall)}"]
    lines.append(f"   expected and asked: {', '.join(d.hits) or '-'}")
    lines.append(f"   asked, not expected: {', '.join(d.misses) or '-'}")
    lines.append(f"   expected, not asked: {', '.join(d.unasked) or '-'}")
    if d.stories:
        lines.append(f"   stories told: {', '.join(d.stories)}")
    return lines


TREND_LOOPS = 8  # the trend shows this many loops, ending at the one shown


def trend_line(loops, current_id: int | None) -> str:
    """'Across loops: Acme 40% → Beta 67%' (oldest first; loops with no asked topic left
    out; the last TREND_LOOPS up to the one shown)."""
    scored = [d for d in loops if d.recall is not None]
    upto = next((n for n, d in enumerate(scored) if d.id == current_id), len(scored) - 1)
    scored = scored[max(0, upto + 1 - TREND_LOOPS) : upto + 1]
    parts = [f"{'▸' if d.id == current_id else ''}{d.company} {d.recall:.0%}" for d in scored]
    return "Across loops: " + " → ".join(parts) if parts else ""


class DebriefBox(QGroupBox):
    """The loop's debrief in the Journal: its prep recall, each round's hits and misses,
    and the recall across loops. It reads the journal when told which loop to show."""

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__("Debrief: what they asked against what you expected", parent)
        self.ctx = ctx
        self.setAccessibleName("Debrief")
        layout = QVBoxLayout(self)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAccessibleName("Prep recall")
        layout.addWidget(self.text)

    def show_loop(self, loop_id: int | None, round_id: int | None = None) -> None:
        try:
            loop = loop_debrief(self.ctx.db, loop_id) if loop_id is not None else None
            loops = prepped_debriefs(self.ctx.db)
            # a custom type's own words too
            names = type_names(self.ctx.db, self.ctx.content.round_titles())
        except DatabaseError as exc:
            self.text.setText(f"The debrief cannot be read: {exc}")
            return
        if loop is None:
            self.setVisible(False)
            return
        self.setVisible(True)
        lines = [
            f"Prep recall for {loop.company}: {percent(loop.recall)} "
            "(topics asked that you expected, over topics asked)"
        ]
        for r in loop.rounds:
            if round_id is not None and r.id != round_id:
                continue
            if not r.asked and not r.expected and not r.stories:
                continue
            lines += round_lines(r, names.get(r.type) or r.type)
        if trend := trend_line(loops, loop_id):
            lines.append(trend)
        self.text.setText("\n".join(lines))


class DebriefDialog(QDialog):
    """Right after a capture: that round's debrief and the loop's recall (non-modal)."""

    def __init__(self, ctx, round_id: int, parent: QWidget | None = None):
        super().__init__(parent)

        self.setWindowTitle("Debrief")
        self.setAccessibleName("Debrief after the round")
        self.setModal(False)
        rnd = get_round(ctx.db, round_id)
        layout = QVBoxLayout(self)
        self.box = DebriefBox(ctx, self)
        self.box.show_loop(rnd.loop_id if rnd else None, round_id)
        layout.addWidget(self.box)
        note = QLabel("Topics asked but not expected are on the study list now.")
        note.setWordWrap(True)
        layout.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, self.sizeHint().height())
