"""Two dismissable strips above the page: the nudge due now, and the once-a-day
screen-sharing reminder. Interface: ``show_text(text, now=)``, ``dismiss()``,
``reveal(allowed)``: glance mode hides a strip for a while without dismissing it. The
nudge strip also ``render``s the card state and ``say``s a problem the card reports."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout

from companion.core.cue.card import CardState
from companion.ui.cue.sections import label, tool_button
from companion.ui.cue.style import STRIPS
from companion.ui.widgets.palette_sheet import palette_sheet

SHARE_TEXT = (
    "This card is visible to anyone you share your screen with. Share one window, "
    "not the whole screen, or keep the card on a screen you do not share."
)


class Strip(QFrame):
    def __init__(self, name: str, role: str, accessible: str, button: tuple[str, str, str]):
        super().__init__()
        self.setObjectName(name)
        palette_sheet(self, STRIPS[name])
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 6, 6)
        self.text = label("", role)  # wraps: never widens the card
        self.text.setAccessibleName(accessible)
        self.dismiss_button = tool_button(*button)
        self.dismiss_button.clicked.connect(self.dismiss)
        row.addWidget(self.text, 1)
        row.addWidget(self.dismiss_button, 0, Qt.AlignmentFlag.AlignTop)
        #: the strip has something to say until dismissed, shown or not just now
        self.wanted = False
        self.setVisible(False)

    def show_text(self, text: str | None = None, *, now: bool = True) -> None:
        """Say ``text`` (None: the text it has); ``now=False`` keeps it for :meth:`reveal`."""
        if text is not None:
            self.text.setText(text)
        self.wanted = True
        self.setVisible(now)

    def dismiss(self) -> None:
        self.wanted = False
        self.setVisible(False)

    def reveal(self, allowed: bool) -> None:
        """Shown if it still has something to say and ``allowed`` (not in glance mode)."""
        self.setVisible(self.wanted and allowed)


class NudgeBanner(Strip):
    """The nudge due now, or a problem (a round the journal refused) kept until dismissed."""

    def __init__(self):
        super().__init__(
            "cueNudge", "nudgeBanner", "Nudge", ("\u2715", "Dismiss the nudge", "Hide this nudge")
        )
        self.problem = False  # what it says is a problem, not a nudge

    def say(self, text: str, *, problem: bool = False, glance: bool = False) -> None:
        self.problem = problem
        self.show_text(text, now=not glance)

    def render(self, state: CardState, glance: bool) -> None:
        """The nudge due now; a nudge goes when no round runs on the page shown."""
        quiet = not state.running or state.mode == "viewing"  # no running round's nudges
        if state.nudge is not None:
            self.say(state.nudge_text, glance=glance)
        elif quiet:
            self.dismiss_nudge()

    def dismiss_nudge(self) -> None:
        """Gone unless it says a problem (that stays until the user dismisses it)."""
        if self.text.text() and not self.problem:
            self.dismiss()


def share_reminder() -> Strip:
    strip = Strip(
        "cueReminder",
        "small",
        "Screen sharing reminder",
        ("Got it", "Dismiss the screen sharing reminder", "Hide this reminder"),
    )
    strip.text.setText(SHARE_TEXT)
    return strip
