"""The banner at the top of Today while desktop notifications are paused, saying until
when. A part of the Today page, kept current from the do-not-disturb model."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from companion.ui.widgets.palette_sheet import palette_sheet


class DndBanner(QLabel):
    def __init__(self, dnd, parent=None):
        super().__init__(parent)
        self.dnd = dnd  # the session's do-not-disturb model
        self.setWordWrap(True)
        self.setObjectName("dndBanner")
        self.setAccessibleName("Notifications paused")
        palette_sheet(
            self,
            "QLabel#dndBanner { background: palette(highlight); color: palette(highlighted-text);"
            " padding: 6px; border-radius: 4px; }",
        )
        self.hide()
        dnd.changed.connect(self.refresh)

    def refresh(self) -> None:
        hold = self.dnd.hold
        if hold is None:
            self.hide()
            return
        if hold.holder == "app" and hold.round_id:
            why = "until the round ends"
        elif hold.holder == "cli":
            why = "(turned on from the command line) until you switch it off"
        else:
            why = "until you switch it off"
        self.setText(f"Desktop notifications are paused {why}.")
        self.show()
