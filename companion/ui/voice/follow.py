"""Voice-following for the cue card: which pitch segment is being spoken, its remaining
budget, and the live delivery line, from the microphone stream.

Two parts, so the card can mount either:

- :class:`VoiceFollow` (a QObject, no widget): ``attach(listener)`` follows a
  MicListener's ``chunk`` stream (companion/ui/voice/listener.py, the one the silence
  nudge reads); emits ``changed(FollowView)`` and ``segment_changed(id)``; ``step(±1)``
  is the back/next correction. The recognizer (pocketsphinx) is imported on attach.
- :class:`FollowStrip` (a QFrame): the opt-in toggle, the mic indicator, "Now: <segment>
  · 12 s left", the delivery line and its calm nudge. It opens its own MicListener.

Mounted on the cue card by companion/ui/cue/voice.py (``follow_line``, ``render_follow``,
``highlight``); on any card::

    strip = FollowStrip(ctx.settings, ctx.db, ctx.content, parent); layout.addWidget(strip)
    strip.sync(opening=<the round runs and is in its opening minutes>, visible=card.isVisible())
    strip.outline.connect(<mark that pitch outline line, with its time left>)
    # back/next hotkeys, first line of the card's move_step(delta):
    if strip.step(delta): return
    # hideEvent: strip.stop()

Nothing is recorded or written: samples go to the recognizer and are dropped.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout

from companion.core.about.store import load_text, words_per_minute
from companion.core.voice.delivery import ANSWER_LIMIT
from companion.core.voice.follow import PitchFollow
from companion.core.voice.pcm import resample
from companion.core.voice.recognizer import RecognizerError
from companion.core.voice.script import pitch_script
from companion.ui.voice.listener import MicListener, muted_words
from companion.ui.widgets.palette_sheet import palette_sheet

PREF_KEY = "voice.follow_pitch"
MIC_ON = "\u25cf Mic on: following your pitch, nothing recorded"


class VoiceFollow(QObject):
    changed = Signal(object)  # companion.core.voice.follow.FollowView
    segment_changed = Signal(str)  # the segment being spoken ("" before any)
    ready = Signal(float)  # seconds the recognizer took to load
    error = Signal(str)

    def __init__(self, script, calibrated_wpm: float, parent=None, *, answer_limit=None):
        super().__init__(parent)
        self.script = script
        self.wpm = calibrated_wpm
        self.answer_limit = answer_limit
        self.follow = None  # companion.core.voice.follow.PitchFollow, once attached
        self._listener = None
        self._segment = ""
        self.ready_seconds: float | None = None  # how long the recognizer took to load
        self.ready_at: float | None = None  # time.perf_counter() when it was ready

    def attach(self, listener) -> bool:
        """Follow ``listener``'s stream; False (and ``error``) when recognition cannot start."""
        import time

        if self.follow is None:
            began = time.perf_counter()
            try:
                self.follow = PitchFollow(
                    self.script, self.wpm, answer_limit=self.answer_limit or ANSWER_LIMIT
                )
            except RecognizerError as exc:
                self.error.emit(f"{exc}.")
                return False
            self.ready_at = time.perf_counter()
            self.ready_seconds = self.ready_at - began
            self.ready.emit(self.ready_seconds)
        self.detach()
        self._listener = listener
        listener.chunk.connect(self.feed)
        return True

    def detach(self) -> None:
        if self._listener is not None:
            try:
                self._listener.chunk.disconnect(self.feed)
            except (RuntimeError, TypeError):
                pass  # the listener is gone already
            self._listener = None

    def feed(self, samples, sample_rate: int = 16000) -> None:
        if self.follow is None:
            return
        if sample_rate != 16000:
            samples = resample(samples, sample_rate)
        self._show(self.follow.feed(samples))

    def step(self, by: int) -> None:
        if self.follow is not None:
            self._show(self.follow.step(by))

    def _show(self, view) -> None:
        segment = view.segment_id or ""
        if segment != self._segment:
            self._segment = segment
            self.segment_changed.emit(segment)
        self.changed.emit(view)


def _listener(parent):
    return MicListener(parent, measure_levels=False)


def _left_text(view) -> str:
    left = view.remaining or 0.0
    return f"{left:.0f} s left" if left >= 0 else f"over by {-left:.0f} s"


def _remaining_text(view) -> str:
    if view.segment_id is None:
        return "Now: waiting for your first words"
    return f"Now: {view.title} \u00b7 {_left_text(view)}"


class FollowStrip(QFrame):
    segment_changed = Signal(str)
    outline = Signal(str, str)  # the segment's title and "speaking now" ("", "": none), on change
    mic_changed = Signal(bool)

    def __init__(
        self, settings, db, content, parent=None, *, listener_factory: Callable | None = None
    ):
        super().__init__(parent)
        self.setObjectName("cueFollow")
        self.settings, self.db, self.content = settings, db, content
        self._factory = listener_factory or _listener
        self.listener = None
        self.follower: VoiceFollow | None = None
        self._failed = False
        self.view = None
        self._outline = ("", "")

        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 2, 6, 2)
        outer.setSpacing(2)
        row = QHBoxLayout()
        self.indicator = QLabel(MIC_ON)
        self.indicator.setObjectName("cueFollowMicOn")
        self.indicator.setAccessibleName("Microphone is open for following the pitch")
        self.indicator.setVisible(False)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setAccessibleName("Follow my pitch by voice")
        self.toggle.setToolTip(
            "In a round's opening minutes, listen and show which pitch segment you are on "
            "and its time left; recognized on this machine, nothing recorded"
        )
        self.toggle.setChecked(bool(settings.get(PREF_KEY, False)))
        self._label_toggle()
        self.toggle.toggled.connect(self._toggled)
        row.addWidget(self.indicator, 1)
        row.addStretch(0)
        row.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignRight)
        outer.addLayout(row)
        self.now = QLabel("")
        self.now.setObjectName("cueFollowNow")
        self.now.setAccessibleName("Pitch segment being spoken")
        self.line = QLabel("")
        self.line.setObjectName("cueDeliveryLine")
        self.line.setAccessibleName("Delivery")
        self.nudge = QLabel("")
        self.nudge.setObjectName("cueDeliveryNudge")
        self.nudge.setAccessibleName("Delivery nudge")
        self.nudge.setWordWrap(True)
        self.message = QLabel("")
        self.message.setObjectName("cueFollowProblem")
        self.message.setAccessibleName("Pitch following problem")
        self.message.setWordWrap(True)
        for label in (self.now, self.line, self.nudge, self.message):
            label.setVisible(False)
            outer.addWidget(label)
        palette_sheet(
            self,
            "#cueFollowNow { font-weight: 600; }"
            " #cueDeliveryNudge { background: palette(alternate-base); padding: 3px 6px; }"
            " #cueFollowMicOn { color: palette(highlight); font-weight: 600; }",
        )

    @property
    def following(self) -> bool:
        return self.listener is not None and self.follower is not None

    def sync(self, opening: bool, visible: bool, glance: bool = False) -> None:
        """Listen while opted in, in the opening minutes of a running round, on a shown
        card; close otherwise. The strip (and its opt-in button) shows only in those
        minutes, so the card before and after a round's opening is unchanged; in glance
        mode only while it follows (the opt-in button is not worth the glance's room).
        Cheap when nothing changed (the card calls it each tick)."""
        want = bool(opening and visible and self.toggle.isChecked())
        if not opening:
            self._failed = False
        shown = bool(opening) and (not glance or self.toggle.isChecked())
        if self.parent() is not None and self.isHidden() == shown:
            self.setVisible(shown)  # only the opening minutes: the card stays as it was
        if want and not self.following and not self._failed:
            self._open()
        elif not want and self.listener is not None:
            self.stop()

    def step(self, by: int) -> bool:
        """Back/next by hand while following (True: handled, the card's stepper waits)."""
        if not self.following:
            return False
        self.follower.step(by)
        return True

    def stop(self) -> None:
        listener, self.listener = self.listener, None
        if self.follower is not None:
            self.follower.detach()
            self.follower.deleteLater()
            self.follower = None
        if listener is not None:
            listener.stop()
            listener.deleteLater()
        for label in (self.now, self.line, self.nudge):
            label.setVisible(False)
        if self.indicator.isVisible():
            self.indicator.setVisible(False)
            self.mic_changed.emit(False)
        self.view = None
        self.segment_changed.emit("")
        self._emit_outline(("", ""))

    def _emit_outline(self, outline: tuple[str, str]) -> None:
        if outline != self._outline:
            self._outline = outline
            self.outline.emit(*outline)

    def _open(self) -> None:
        plan = self.content.pitch_plan()
        script = pitch_script(load_text(self.db), plan=plan)
        if not script:
            self._fail("write your pitch in About me first: there is nothing to follow.")
            return
        follower = VoiceFollow(script, words_per_minute(self.db), self, answer_limit=plan.target[1])
        follower.error.connect(self._fail)
        follower.changed.connect(self._show)
        follower.segment_changed.connect(self.segment_changed)
        try:
            listener = self._factory(self)
        except Exception as exc:  # noqa: BLE001 (audio must never take the card down)
            self._fail(f"the microphone is not available ({exc}).")
            return
        listener.error.connect(self._fail)
        listener.muted.connect(lambda on: self._muted(listener, on))
        if not follower.attach(listener):
            listener.deleteLater()
            return
        self.follower, self.listener = follower, listener
        if not listener.start():
            return  # error shown
        self.message.setVisible(False)
        self.indicator.setVisible(True)
        self.mic_changed.emit(True)
        self._show(follower.follow.view())

    def _muted(self, listener, on: bool) -> None:
        self.message.setText(f"Not hearing your pitch: {muted_words(listener.device_name)}")
        self.message.setVisible(on)

    def _fail(self, text: str) -> None:
        self._failed = True
        self.stop()
        # the state, not the setting: "Pitch following off" under "Follow my pitch: on"
        # read as a contradiction; the opt-in stays for the next round
        self.message.setText(f"Not following your pitch: {text}")
        self.message.setVisible(True)

    def _show(self, view) -> None:
        self.view = view
        # the outline is re-marked when the segment changes, not each second (a rich-text
        # relayout of the page); its time left runs in the "Now:" line
        self._emit_outline((view.title, "speaking now") if view.segment_id else ("", ""))
        for label, text in (
            (self.now, _remaining_text(view)),
            (self.line, view.delivery.text),
            (self.nudge, view.delivery.nudge),
        ):
            if label.text() != text:
                label.setText(text)
            if label.isVisibleTo(self) != bool(text):
                label.setVisible(bool(text))

    def _label_toggle(self) -> None:
        self.toggle.setText(f"Follow my pitch: {'on' if self.toggle.isChecked() else 'off'}")

    def _toggled(self, on: bool) -> None:
        self._label_toggle()
        problem = self.settings.keep(PREF_KEY, bool(on))
        if problem:
            self.message.setText(problem)
            self.message.setVisible(True)
        self._failed = False
