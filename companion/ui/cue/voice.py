"""The cue card's voice strips, tied to the day's running round: the silence nudge
(companion/ui/voice/nudge.py) and pitch following (companion/ui/voice/follow.py). The
card syncs them whenever it learns the round started or ended (:meth:`follow_day` and
:meth:`tick`) or shows another round type, and closes the microphone when it hides.
QtMultimedia and the recognizer are imported only when a microphone opens."""

from __future__ import annotations

from companion.core.cue.opening import pitch_outline_open


class VoiceMixin:
    """The ``voice`` and ``follow`` strips of the card window; mixed into it."""

    voice = None  # companion.ui.voice.nudge.VoiceNudge, once built
    follow = None  # companion.ui.voice.follow.FollowStrip, once built

    def _build_voice(self, layout) -> None:
        from companion.ui.voice.follow import FollowStrip
        from companion.ui.voice.nudge import VoiceNudge

        self.follow = FollowStrip(self.ctx.prefs, self.ctx.db, self.ctx.content, self)
        layout.addWidget(self.follow)
        self.voice = VoiceNudge(self.ctx.prefs, self.ctx.content, self)
        layout.addWidget(self.voice)

    def _sync_voice(self) -> None:
        """Listen while a round of an opted-in type runs and the card shows; else close.
        Pitch following listens in the running round's opening minutes only."""
        if self.voice is None:
            return
        shown = self.current
        running = self._day_round.type if self._day_round is not None else None
        self.voice.sync(running, shown.id if shown else None, self.isVisible())
        status = getattr(self, "_status", None)
        opening = status is not None and pitch_outline_open(status.elapsed)
        self.follow.sync(opening, self.isVisible())

    def _stop_voice(self) -> None:
        """The microphone never stays open behind a hidden or closed card."""
        if self.voice is not None:
            self.voice.stop()
        if self.follow is not None:
            self.follow.stop()
