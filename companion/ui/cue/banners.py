"""Two dismissable strips above the page: the nudge due now, and the once-a-day
screen-sharing reminder. Interface: ``show_text(text)`` / ``setVisible``."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout

from companion.ui.cue.sections import label, tool_button

SHARE_TEXT = (
    "This card is visible to anyone you share your screen with. Share one window, "
    "not the whole screen, or keep the card on a screen you do not share."
)


class Strip(QFrame):
    def __init__(self, name: str, role: str, accessible: str, button: tuple[str, str, str]):
        super().__init__()
        self.setObjectName(name)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 6, 6)
        self.text = label("", role)  # wraps: never widens the card
        self.text.setAccessibleName(accessible)
        dismiss = tool_button(*button)
        dismiss.clicked.connect(lambda: self.setVisible(False))
        row.addWidget(self.text, 1)
        row.addWidget(dismiss, 0, Qt.AlignmentFlag.AlignTop)
        self.setVisible(False)

    def show_text(self, text: str) -> None:
        self.text.setText(text)
        self.setVisible(True)


def nudge_banner() -> Strip:
    return Strip(
        "cueNudge", "nudgeBanner", "Nudge", ("\u2715", "Dismiss the nudge", "Hide this nudge")
    )


def share_reminder() -> Strip:
    strip = Strip(
        "cueReminder",
        "small",
        "Screen sharing reminder",
        ("Got it", "Dismiss the screen sharing reminder", "Hide this reminder"),
    )
    strip.text.setText(SHARE_TEXT)
    return strip
