"""The story bank's part of a GUI session: new rounds get their expected topics, and a
saved capture records the debrief's asked-but-not-expected topics and shows the debrief.
Made once by :class:`companion.ui.session.Session`."""

from __future__ import annotations

from PySide6.QtCore import QObject

from companion.core.changes import Change
from companion.core.content.stories import story_pack
from companion.core.stories import DatabaseError


class StoriesSession(QObject):
    def __init__(self, ctx, bus, parent: QObject | None = None, *, show_debrief: bool = True):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.pack = story_pack(ctx.content)
        self.show_debrief = show_debrief
        self.dialog = None
        bus.changed.connect(self._changed)

    def _changed(self, change) -> None:
        if change.touches("round", "loop"):
            self.prefill()

    def prefill(self) -> None:
        """Every round not yet ended and without expected topics gets the prefill."""
        # seam: after the first paint (the story bank's rows, 28 modules: not with the session)
        from companion.core.stories.rounds import prefill_missing

        try:
            prefill_missing(self.ctx.db, self.pack, self.ctx.now())
        except DatabaseError:  # a read-only or older journal: nothing to prefill into
            pass

    def captured(self, round_id: int) -> None:
        """A capture was saved: put the surprises on the study list, show the debrief."""
        if not round_id:
            return
        # seam: after the first paint (as in prefill)
        from companion.core.stories.debrief import record_surprises

        try:
            record_surprises(self.ctx.db, round_id, self.pack.surprise_severity, self.ctx.now())
        except DatabaseError:
            return
        self.bus.announce(Change.of("study", ids=[round_id], origin=self))
        if self.show_debrief:
            # seam: after the first paint
            from companion.ui.stories.debrief import DebriefDialog

            self.dialog = DebriefDialog(self.ctx, round_id)  # replaces the last one
            self.dialog.show()
