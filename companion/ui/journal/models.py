"""Item models over the journal's core objects (loops, rounds and entries, search hits,
the study list). Plain Qt models; the pages only choose which view shows them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex, Qt

from companion.core.day.loops import Loop, Round
from companion.core.day.round_state import round_title
from companion.core.journal.detail import LoopDetail, RoundEntries
from companion.core.journal.edits import entry_kind_of
from companion.core.journal.entries import SEVERITIES
from companion.core.journal.search import MARK_END, MARK_START, SearchHit
from companion.ui.widgets.itemdata import ACCESSIBLE, DISPLAY, OBJECT, TOOLTIP, one_line, when_text


def loop_dates(loop: Loop) -> str:
    """'27 Nov 2026', '27–28 Nov 2026' or 'no date', from the loop's ISO days."""
    import datetime as dt

    def day(text: str | None) -> dt.date | None:
        try:
            return dt.date.fromisoformat(text) if text else None
        except ValueError:
            return None

    first, last = day(loop.starts_on), day(loop.ends_on)
    if first is None:
        return loop.starts_on or "no date"
    if last is None or last == first:
        return f"{first.day} {first:%b %Y}"
    if (last.year, last.month) == (first.year, first.month):
        return f"{first.day}–{last.day} {first:%b %Y}"
    return f"{first.day} {first:%b %Y} – {last.day} {last:%b %Y}"


@dataclass(frozen=True)
class RoundNotes:
    """The notes row under a round (edited with the round, cleared with Delete)."""

    round: Round


class LoopListModel(QAbstractListModel):
    """Loops, newest first; the view paints company and role on one line, dates and
    status on the next (see journal_views.LoopDelegate)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.loops: list[Loop] = []

    def set_loops(self, loops: list[Loop]) -> None:
        self.beginResetModel()
        self.loops = list(loops)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.loops)

    def data(self, index, role=DISPLAY):
        if not index.isValid() or not 0 <= index.row() < len(self.loops):
            return None
        loop = self.loops[index.row()]
        if role == DISPLAY:
            role_text = f" · {loop.role}" if loop.role else ""
            return f"{loop.company}{role_text}\n{loop_dates(loop)} · {loop.status}"
        if role == ACCESSIBLE:
            parts = (loop.company, loop.role, loop_dates(loop), loop.status)
            return ", ".join(p for p in parts if p)
        if role == TOOLTIP:
            head = " · ".join(p for p in (loop.company, loop.role) if p)
            tip = f"{head}\n{loop_dates(loop)} · {loop.status}"
            if loop.notes:
                tip += "\n\n" + one_line(loop.notes, 300)
            return tip + "\n\nEnter or F2 edits the loop."
        if role == OBJECT:
            return loop
        return None

    def row_of(self, loop_id: int) -> int:
        for n, loop in enumerate(self.loops):
            if loop.id == loop_id:
                return n
        return -1


# A round node is a top-level row; its entries are its children. internalId 0 marks a
# round; an entry stores its round's row + 1.
_ROUND = 0


def _entries(group: RoundEntries) -> list[tuple[str, str, object]]:
    out: list[tuple[str, str, object]] = []
    for a in group.asked:
        topic = f"  [{a.topic}]" if a.topic else ""
        out.append(("Asked", a.question + topic, a))
    for f in group.flubs:
        studied = " (studied)" if f.studied_at else ""
        detail = f": {f.detail}" if f.detail else ""
        out.append((f"Flubbed, {SEVERITIES[f.severity]}{studied}", f.topic + detail, f))
    for w in group.went_well:
        out.append(("Went well", w.text, w))
    for t in group.weak:
        out.append(("Weak topic", t.topic + (f": {t.note}" if t.note else ""), t))
    for q in group.asked_them:  # shown, edited on the Self-check page's planner
        out.append(("You asked them", q.text, None))
    if group.round is not None and group.round.notes:
        out.append(("Notes", group.round.notes, RoundNotes(group.round)))
    return out


class RoundTreeModel(QAbstractItemModel):
    """A loop's rounds, each with what was asked, flubbed, went well and notes."""

    HEADERS = ("What", "Entry")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.groups: list[RoundEntries] = []
        self._children: list[list[tuple[str, str, object]]] = []
        self._titles: Mapping[str, str] = {}

    def set_detail(
        self, detail: LoopDetail | None, titles: Mapping[str, str] | None = None
    ) -> None:
        """Show ``detail``; ``titles`` (round type id -> title) names its rounds as the
        day does."""
        self.beginResetModel()
        self._titles = titles or {}
        self.groups = list(detail.rounds) if detail else []
        self._children = [_entries(g) for g in self.groups]
        self.endResetModel()

    def index(self, row, column, parent=QModelIndex()):  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _ROUND)
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index=QModelIndex()):  # noqa: B008
        if not index.isValid() or index.internalId() == _ROUND:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, _ROUND)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        if not parent.isValid():
            return len(self.groups)
        if parent.internalId() == _ROUND and parent.column() == 0:
            return len(self._children[parent.row()])
        return 0

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return len(self.HEADERS)

    def headerData(self, section, orientation, role=DISPLAY):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == DISPLAY:
            return self.HEADERS[section]
        return None

    def data(self, index, role=DISPLAY):
        if not index.isValid():
            return None
        if index.internalId() == _ROUND:
            group = self.groups[index.row()]
            rnd = group.round
            if role in (DISPLAY, ACCESSIBLE, TOOLTIP):
                if rnd is None:
                    return "Not tied to a round" if index.column() == 0 else ""
                if index.column() == 0:
                    return round_title(rnd, self._titles)
                role_name = rnd.interviewer_role.replace("-", " ").capitalize()
                who = " · ".join(p for p in (role_name, rnd.interviewer_name) if p)
                when = when_text(rnd.started_at or rnd.scheduled_at)
                skipped = "skipped" if rnd.skipped_at else ""  # it did not happen
                return " · ".join(p for p in (when, who, skipped) if p) or "no time recorded"
            if role == OBJECT:
                return rnd
            return None
        kind, text, obj = self._children[index.internalId() - 1][index.row()]
        if role in (DISPLAY, ACCESSIBLE):
            return kind if index.column() == 0 else one_line(text)
        if role == TOOLTIP:
            return text[:2000]
        if role == OBJECT:
            return obj
        return None

    def index_of(self, kind: str, ref_id: int) -> QModelIndex:
        """Where an entry ("asked", "flub", ...), a round ("round") or a round's notes
        ("notes", by round id) is shown; invalid when it is not."""

        for row, group in enumerate(self.groups):
            if kind == "round" and group.round is not None and group.round.id == ref_id:
                return self.index(row, 0)
            for child, (_label, _text, obj) in enumerate(self._children[row]):
                if kind == "notes" and isinstance(obj, RoundNotes) and obj.round.id == ref_id:
                    return self.index(child, 0, self.index(row, 0))
                if (
                    obj is not None
                    and not isinstance(obj, RoundNotes)
                    and obj.id == ref_id
                    and entry_kind_of(obj) == kind
                ):
                    return self.index(child, 0, self.index(row, 0))
        return QModelIndex()


class SearchResultsModel(QAbstractListModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.hits: list[SearchHit] = []

    def set_hits(self, hits: list[SearchHit]) -> None:
        self.beginResetModel()
        self.hits = list(hits)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.hits)

    def data(self, index, role=DISPLAY):
        if not index.isValid() or not 0 <= index.row() < len(self.hits):
            return None
        hit = self.hits[index.row()]
        if role in (DISPLAY, ACCESSIBLE):
            where = hit.company or "no loop"
            snippet = hit.snippet.replace(MARK_START, "«").replace(MARK_END, "»")
            return f"{hit.label} · {where}\n{one_line(snippet)}"
        if role == TOOLTIP:
            return hit.plain_snippet()
        if role == OBJECT:
            return hit
        return None
