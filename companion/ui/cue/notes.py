"""The post-round capture for the cue card: the journal's capture dialog."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QWidget

from companion.core.context import AppContext
from companion.ui.journal.capture import CaptureDialog


def open_capture(
    ctx: AppContext, bus, round_id: int, parent: QWidget | None = None
) -> QDialog | None:
    """Open the quick capture for ``round_id`` (0: a round not recorded in the journal)."""
    dialog = CaptureDialog(ctx, bus, round_id, parent)
    dialog.show()
    return dialog
