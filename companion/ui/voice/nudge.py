"""The cue card's silence nudge: a strip that listens during a running round (when the
round type opted in), shows "Narrate: say what you are checking" after the content's
silence limit, clears it on speech, and shows a mic indicator whenever the mic is open.

The card only calls ``sync()`` (on its tick and when the shown round changes) and
``stop()`` (when it hides or closes); everything else lives here. Nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout

from companion.core.voice import nudge as rules
from companion.ui.voice.listener import MicListener, muted_words
from companion.ui.widgets.palette_sheet import palette_sheet

MIC_ON = "\u25cf Mic on: listening for silence, nothing recorded"


def _listener(parent):
    return MicListener(parent, measure_levels=False)


class VoiceNudge(QFrame):
    nudge_changed = Signal(bool)  # shown / cleared
    mic_changed = Signal(bool)  # opened / closed

    def __init__(self, settings, content, parent=None, *, listener_factory: Callable | None = None):
        super().__init__(parent)
        self.setObjectName("cueVoice")
        self.settings = settings  # the database's: which round types it listens in
        self.watch = rules.SilenceWatch(rules.silence_limit(content))
        self._factory = listener_factory or _listener
        self.listener = None
        self._round: str | None = None  # the shown round type (for the opt-in button)
        self._listening_for: str | None = None  # the running round the mic is open for
        self._failed_for: str | None = None  # do not retry a failed mic every tick

        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 2, 6, 2)
        outer.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(4)
        self.indicator = QLabel(MIC_ON)
        self.indicator.setObjectName("cueMicOn")
        self.indicator.setAccessibleName("Microphone is open")
        self.indicator.setVisible(False)
        self.toggle = QToolButton()
        self.toggle.setText("Silence nudge: off")
        self.toggle.setCheckable(True)
        self.toggle.setAccessibleName("Silence nudge for this round type")
        self.toggle.toggled.connect(self._toggled)
        row.addWidget(self.indicator, 1)
        row.addStretch(0)
        row.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignRight)
        outer.addLayout(row)
        self.nudge = QLabel(rules.nudge_text(content))
        self.nudge.setObjectName("cueSilenceNudge")
        self.nudge.setAccessibleName("Silence nudge")
        self.nudge.setWordWrap(True)
        self.nudge.setVisible(False)
        outer.addWidget(self.nudge)
        self.message = QLabel("")
        self.message.setObjectName("cueMicProblem")
        self.message.setAccessibleName("Microphone problem")
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        outer.addWidget(self.message)
        palette_sheet(
            self,
            "#cueSilenceNudge { background: palette(highlight); color: palette(highlighted-text);"
            " font-weight: 600; padding: 4px 6px; }"
            " #cueMicOn { color: palette(highlight); font-weight: 600; }",
        )

    # -- what the card calls -----------------------------------------------------------

    def sync(self, running_type: str | None, shown_type: str | None, visible: bool) -> None:
        """Open the mic while a round of an opted-in type runs on a visible card; close
        it otherwise. Cheap when nothing changed (the card calls it every second)."""
        if shown_type != self._round:
            self._round = shown_type
            self.toggle.blockSignals(True)
            self.toggle.setChecked(rules.opted_in(self.settings, shown_type))
            self.toggle.blockSignals(False)
            self._label_toggle()
            suggested = shown_type in rules.SUGGESTED_ROUNDS
            self.toggle.setToolTip(
                f"Listen during {shown_type or 'this'} rounds and nudge after "
                f"{self.watch.limit:.0f} s of silence; nothing is recorded"
                + (" (suggested for this round type)" if suggested else "")
            )
        want = bool(visible and running_type and rules.opted_in(self.settings, running_type))
        if running_type != self._failed_for and self._failed_for is not None:
            self._failed_for = None
            self._label_toggle()
        if want and self._failed_for is None:
            if self._listening_for != running_type:
                self.stop()
                self._open(running_type)
        elif self.listener is not None:
            self.stop()
        if not running_type:
            self.message.setVisible(False)

    def stop(self) -> None:
        """Close the mic and clear the nudge (idempotent)."""
        listener, self.listener = self.listener, None
        self._listening_for = None
        if listener is not None:
            listener.stop()
            listener.deleteLater()
        self._set_nudge(False)
        if self.indicator.isVisible():
            self.indicator.setVisible(False)
            self.mic_changed.emit(False)

    @property
    def mic_open(self) -> bool:
        return self.listener is not None and self.listener.is_open

    # -- inside ------------------------------------------------------------------------

    def _open(self, round_type: str) -> None:
        self.message.setVisible(False)
        self.watch.showing = False
        try:
            listener = self._factory(self)
        except Exception as exc:  # noqa: BLE001 (audio must never take the card down)
            self._failed(round_type, f"the microphone is not available ({exc}).")
            return
        listener.error.connect(lambda text, rt=round_type: self._failed(rt, text))
        listener.silent_for.connect(self._silent_for)
        listener.speech_started.connect(self._speech)
        listener.muted.connect(lambda on: self._muted(listener, on))
        self.listener = listener
        self._listening_for = round_type
        if not listener.start():
            return  # error already shown
        self.indicator.setVisible(True)
        self.mic_changed.emit(True)

    def _failed(self, round_type: str, text: str) -> None:
        self._failed_for = round_type
        self.stop()
        self.message.setText(f"Silence nudge off: {text}")
        self.message.setVisible(True)
        self._label_toggle()

    def _muted(self, listener, on: bool) -> None:
        """Muted is said at once, not after the nudge's 20 s of what looks like silence."""
        self.message.setText(f"Not hearing you: {muted_words(listener.device_name)}")
        self.message.setVisible(on)

    def _silent_for(self, seconds: float) -> None:
        if self.watch.silence(seconds):
            self._set_nudge(True)

    def _speech(self, _at: float) -> None:
        self.watch.speech()
        self._set_nudge(False)

    def _set_nudge(self, on: bool) -> None:
        self.watch.showing = on
        if self.nudge.isVisibleTo(self) != on:
            self.nudge.setVisible(on)
            self.nudge_changed.emit(on)

    def _label_toggle(self) -> None:
        on = self.toggle.isChecked()
        # opted in, but the mic failed this round: "on" beside "Silence nudge off: ..."
        # said two things at once (found in the walk, no audio server)
        failed = on and self._failed_for is not None and self._failed_for == self._round
        self.toggle.setText(f"Silence nudge: {'no mic' if failed else 'on' if on else 'off'}")

    def _toggled(self, on: bool) -> None:
        self._label_toggle()
        if not self._round:
            return
        problem = rules.set_opted_in(self.settings, self._round, on)
        if problem:
            self.message.setText(problem)
            self.message.setVisible(True)
        elif not on:
            self.message.setVisible(False)  # a failure's "Silence nudge off: ..." is moot now
        self._failed_for = None
