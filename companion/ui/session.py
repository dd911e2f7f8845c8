"""The objects one GUI session owns, each made once, here: the notifier, the day service,
the open captures, the cue card and the global hotkeys.

Both the main app (companion/ui/app.py) and the card alone (`companion cue`) build a
session, so the card has its day service and its hotkeys either way; nothing else makes
a second one; the service is handed to what needs it (the bus carries its changes).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from companion.core.hotkeys import problems_notice
from companion.ui.day.service import day_service
from companion.ui.hotkeys.service import HotkeyService, drive_card
from companion.ui.journal.capture import CaptureDesk
from companion.ui.stories.session import StoriesSession


class Session(QObject):
    card_shown = Signal(object)  # the card was opened or shown (the main window makes room)

    def __init__(
        self,
        ctx,
        bus,
        parent: QObject | None = None,
        *,
        window=None,
        notice: Callable[[str], None] | None = None,
        fallback: Callable[[str, str], None] | None = None,
        day=None,
    ):
        super().__init__(parent or bus)  # kept alive by its parent, as its parts are
        self.ctx = ctx
        self.bus = bus
        self.window = window  # the main window, or None for the card alone
        self._notice = notice or (lambda text: bus.status_message.emit(text))
        fallback = fallback or (lambda t, m: bus.status_message.emit(f"{t}: {m}"))
        owner = window or bus  # lives as long as the session's windows do
        # the one owner of the day's timer, reminders and do-not-disturb; pages observe it
        # (``day``: made already, before the first paint, to draw Today's plan in it)
        self.day = day or day_service(ctx, bus, owner, fallback=fallback)
        self.notifier = self.day.notifier
        self.captures = CaptureDesk(ctx, bus, window)
        if window is None:
            self.captures.setParent(bus)
        self.card = None
        self.hotkeys = None
        # expected topics for new rounds; the debrief after each saved capture
        self.stories = StoriesSession(ctx, bus, owner)
        self.captures.captured.connect(self.stories.captured)
        bus.capture_round.connect(self.open_capture)
        bus.show_cue_card.connect(self.show_cue_card)

    def open_capture(self, round_id: int):
        return self.captures.open(round_id)

    def show_cue_card(self, round_type: str = ""):
        # seam: after the first paint
        from companion.ui.cue.window import open_cue_card

        self.card = open_cue_card(
            self.ctx, self.bus, self.day, round_type or None, self.card, captures=self.captures
        )
        self.card_shown.emit(self.card)
        return self.card

    def start_hotkeys(self, parent=None) -> None:
        self.hotkeys = HotkeyService(
            self.ctx.prefs, parent or self.window or self, proofs_to=lambda: self.ctx.settings
        )
        self.hotkeys.activated.connect(self.on_hotkey)
        self.hotkeys.status_changed.connect(
            lambda: [self._notice(p) for p in problems_notice(self.hotkeys.unreported())]
        )
        self.hotkeys.start()

    def on_hotkey(self, action: str) -> None:
        if action == "preflight":
            # seam: after the first paint
            from companion.ui.preflight.window import open_preflight

            open_preflight(self.ctx, self.bus, self.day.dnd, self.window)
            return
        self.card = drive_card(action, self.card, lambda: self.show_cue_card(""))

    def shutdown(self) -> None:
        if self.hotkeys is not None:
            self.hotkeys.stop()  # release the grabs / close the portal session first
        self.day.shutdown()
