"""The list to pick whom a planned question is for (hiring manager, peer, leadership)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from companion.core.selfcheck.planner import audience_title


def audience_combo(name: str, audiences) -> QComboBox:
    """A list of ``audiences`` by their titles, each item's data its key."""
    combo = QComboBox()
    combo.setAccessibleName(name)
    for audience in audiences:
        combo.addItem(audience_title(audience), audience)
    return combo
