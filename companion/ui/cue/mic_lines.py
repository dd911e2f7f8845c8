"""The card's two microphone lines (companion/ui/cue/voice.py mounts them): the silence
nudge, listening while a round of an opted-in type runs on the shown card, and pitch
following, in the running round's opening minutes. Glance mode keeps the silence line
only while the mic listens, the following line only while it follows.

Interface: ``MicLines(ctx, parent)`` with its strips ``voice`` and ``follow``;
``sync(running_page, card_state, visible, glance)``, ``show(card_state, visible, glance)``
and ``stop()``.
"""

from __future__ import annotations

from companion.core.cue.card import CardState
from companion.ui.cue import voice as voice_line


class MicLines:
    def __init__(self, ctx, parent):
        self.voice = voice_line.voice_line(ctx.settings, ctx.content, parent)
        self.follow = voice_line.follow_line(ctx.settings, ctx.db, ctx.content, parent)

    def sync(self, running_page: str | None, card: CardState, visible: bool, glance: bool):
        """``running_page``: the running round's page type (its opt-in is kept per page,
        as the toggle shows it: a custom type's page), None when no round runs."""
        voice_line.render(self.voice, running_page, card.page, visible)
        self.show(card, visible, glance)

    def show(self, card: CardState | None, visible: bool, glance: bool) -> None:
        want = not glance or self.voice.mic_open
        if self.voice.isHidden() == want:
            self.voice.setVisible(want)
        voice_line.render_follow(self.follow, card, visible, glance)

    def stop(self) -> None:
        """The mic never stays open behind a hidden card."""
        self.voice.stop()
        self.follow.stop()
