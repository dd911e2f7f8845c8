"""What the list and table models share: the item-data roles they answer and the text
helpers for a cell."""

from __future__ import annotations

from PySide6.QtCore import Qt

from companion.core.timeutil import parse_stored, to_local

DISPLAY = Qt.ItemDataRole.DisplayRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
ACCESSIBLE = Qt.ItemDataRole.AccessibleTextRole
OBJECT = Qt.ItemDataRole.UserRole  # the core object a row shows


def when_text(text: str | None) -> str:
    """A stored time as a short local date and time ("Tue 01 Dec 14:00"); "" if none."""
    moment = parse_stored(text)
    return to_local(moment).strftime("%a %d %b %H:%M") if moment else ""


def one_line(text: str, limit: int = 160) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
