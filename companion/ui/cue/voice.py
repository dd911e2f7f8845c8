"""The card's voice line: the silence nudge strip (companion/ui/voice/nudge.py) mounted
on the card. Interface: ``render(running_type, shown_type, visible)`` (listen while a
round of an opted-in type runs on a shown card) and ``stop()`` (the microphone never
stays open behind a hidden card). QtMultimedia is imported only when the mic opens.

Its lines wrap: "● Mic on: listening…" never widens the card."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QSizePolicy

from companion.core.cue.opening import pitch_outline_open
from companion.ui.cue.pages import PITCH
from companion.ui.cue.sections import lines_html
from companion.ui.voice.follow import FollowStrip
from companion.ui.voice.nudge import VoiceNudge


def voice_line(settings, content, parent=None):
    """The strip, with its one-line indicator allowed to wrap instead of widening."""

    strip = VoiceNudge(settings, content, parent)
    strip.indicator.setWordWrap(True)
    strip.indicator.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    strip.toggle.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    strip.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return strip


def render(strip, running_type: str | None, shown_type: str | None, visible: bool) -> None:
    if strip is not None:
        strip.sync(running_type, shown_type, visible)


# -- pitch following (companion/ui/voice/follow.py) ---------------------------------------
# Mounted by the card in five lines: ``follow_line`` beside ``voice_line``; its
# ``outline`` signal to ``highlight``; ``render_follow`` in ``render``; ``stop()`` in
# hideEvent; and first in ``move_step``: ``if self.follow.step(delta): return``.


def follow_line(settings, db, content, parent=None):
    """The pitch-following strip, its lines wrapping like the voice line's."""

    strip = FollowStrip(settings, db, content, parent)
    for text in (strip.indicator, strip.now, strip.line, strip.nudge, strip.message):
        text.setWordWrap(True)
        text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    strip.toggle.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    strip.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return strip


def render_follow(strip, state, visible: bool, glance: bool = False) -> None:
    """Listen in the running round's opening minutes (the pitch outline's), on a shown card."""

    if strip is None:
        return
    opening = state is not None and state.status is not None and pitch_outline_open(state.elapsed)
    strip.sync(opening, visible, glance)


def highlight(pages, title: str, meta: str) -> None:
    """Mark the segment being spoken (``title``; "" for none) in the shown page's pitch
    outline, its timing replaced by ``meta`` ("speaking now"); every other page's outline
    is left unmarked. The card can pass through another page between a mark and its
    clearing: at End it showed the next round's page when following stopped, and the
    ended round's page kept "speaking now" while its capture was open (found in the walk)."""
    shown = pages.current()
    for page in pages.pages():
        _mark(page, title if page is shown else "", meta)


def _mark(page, title: str, meta: str) -> None:
    from dataclasses import replace

    from PySide6.QtWidgets import QLabel

    block = page.blocks.get(PITCH)
    section = next((s for s in page.sections if s.id == PITCH), None) if block else None
    if section is None:
        return
    body = next(
        (w for w in block.body.findChildren(QLabel) if w.accessibleName() == section.title), None
    )
    if body is None:
        return
    lines = tuple(
        replace(line, text=f"\u25b6 {line.text}", meta=meta) if line.text == title else line
        for line in section.lines
    )
    html = lines_html(lines)
    if body.text() != html:
        body.setText(html)
    marked = [n for n, line in enumerate(section.lines) if line.text == title]
    keeper = _keeper(page)
    keeper.mark = (body, marked[0], len(lines)) if marked else None
    keeper.bring()


class _MarkKeeper(QObject):
    """Keeps a page's marked outline line in sight: when marked, and when the page's
    viewport shrinks (a nudge banner above it pushed the line out of sight)."""

    def __init__(self, page):
        super().__init__(page)
        self.page = page
        self.mark = None  # (the outline's label, the marked line, the number of lines)
        page.scroll.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Resize and self.mark is not None:
            QTimer.singleShot(0, self.bring)  # after the layout has placed the label
        return False

    def bring(self) -> None:
        if self.mark is None or not self.page.isVisible():
            return
        body, index, count = self.mark
        inner = self.page.scroll.widget()
        if inner is None or not inner.isAncestorOf(body):
            return
        # the label is one block of lines: the marked one is about its share down
        line = body.height() / max(1, count)
        top = body.mapTo(inner, body.rect().topLeft()).y()
        self.page.scroll.ensureVisible(0, int(top + line * (index + 0.5)), 0, int(line))


def _keeper(page) -> _MarkKeeper:
    keeper = page.findChild(_MarkKeeper)
    return keeper if keeper is not None else _MarkKeeper(page)
