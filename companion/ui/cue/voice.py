"""The cue card's silence nudge strip (companion/ui/voice/nudge.py), tied to the day's
running round: the card syncs it whenever it learns the round started or ended
(:meth:`follow_day` and :meth:`tick`) or shows another round type, and closes the
microphone when it hides. QtMultimedia is imported only when the microphone opens."""

from __future__ import annotations


class VoiceMixin:
    """The ``voice`` strip of the card window; mixed into it."""

    voice = None  # companion.ui.voice.nudge.VoiceNudge, once built

    def _build_voice(self, layout) -> None:
        from companion.ui.voice.nudge import VoiceNudge

        self.voice = VoiceNudge(self.ctx.prefs, self.ctx.content, self)
        layout.addWidget(self.voice)

    def _sync_voice(self) -> None:
        """Listen while a round of an opted-in type runs and the card shows; else close."""
        if self.voice is None:
            return
        shown = self.current
        running = self._day_round.type if self._day_round is not None else None
        self.voice.sync(running, shown.id if shown else None, self.isVisible())

    def _stop_voice(self) -> None:
        """The microphone never stays open behind a hidden or closed card."""
        if self.voice is not None:
            self.voice.stop()
