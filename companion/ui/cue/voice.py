"""The card's voice line: the silence nudge strip (companion/ui/voice/nudge.py) mounted
on the card. Interface: ``render(running_type, shown_type, visible)`` (listen while a
round of an opted-in type runs on a shown card) and ``stop()`` (the microphone never
stays open behind a hidden card). QtMultimedia is imported only when the mic opens.

Its lines wrap: "● Mic on: listening…" never widens the card."""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy


def voice_line(prefs, content, parent=None):
    """The strip, with its one-line indicator allowed to wrap instead of widening."""
    from companion.ui.voice.nudge import VoiceNudge

    strip = VoiceNudge(prefs, content, parent)
    strip.indicator.setWordWrap(True)
    strip.indicator.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    strip.toggle.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    strip.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return strip


def render(strip, running_type: str | None, shown_type: str | None, visible: bool) -> None:
    if strip is not None:
        strip.sync(running_type, shown_type, visible)
