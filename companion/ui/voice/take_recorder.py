"""Rehearsal from your own voice: a strip under the rehearse bar of the About me page.

With "Record my voice" ticked (remembered), Rehearse opens the microphone and keeps the
take in memory; each Next marks a segment on the audio clock. When the rehearsal ends
the mic closes and the strip shows, per segment, the speaking time, the pauses over 2 s
and the rate (the segment's words over its speaking time), and the whole answer against
60-90 s; it can play the take back, keep it (a 0600 WAV in the data folder's ``takes``
folder, only when asked) and use the measured rate as the speaking rate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from companion.core.about.pitch import analyze
from companion.core.about.takes import figures_of, keep_take
from companion.core.voice import rehearsal as takes
from companion.core.voice.heard import hear
from companion.core.voice.recognizer import RecognizerError
from companion.core.voice.script import pitch_script
from companion.core.voice.take import Take, analyse
from companion.ui.voice.listener import MicListener

PREF_KEY = "voice.record_rehearsal"
MAX_TAKE_SECONDS = 10 * 60
MIC_ON = "\u25cf Mic on: recording this rehearsal (kept only if you ask)"


class TakeRecorder(QFrame):
    analysed = Signal(object)  # list[SegmentTake]
    heard = Signal(object)  # companion.core.voice.heard.TakeHeard, or None (no recognizer)
    _heard_there = Signal(int, object)  # (take number, TakeHeard or str): worker -> here
    mic_changed = Signal(bool)

    def __init__(
        self,
        ctx,
        rehearse_bar,
        text: Callable[[], str],
        set_rate: Callable[[float], None],
        parent=None,
        *,
        listener_factory: Callable | None = None,
    ):
        super().__init__(parent)
        self.setObjectName("rehearsalTake")
        self.ctx = ctx
        self.bar = rehearse_bar
        self._text = text
        self._set_rate = set_rate
        self._factory = listener_factory
        self.listener = None
        self.samples = None
        self.sample_rate = 16000
        self.segments: list = []  # SegmentTake, after a recorded rehearsal
        self.analysis = None
        self.take_heard = None  # what the recognizer heard in the last take (in memory)
        self._take_no = 0
        self._marks: list[tuple[str, str, float]] = []
        self._sink = None
        self._buffer = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        row = QHBoxLayout()
        self.record_box = QCheckBox("Record my voice when I rehearse")
        self.record_box.setToolTip(
            "Time each segment from your own voice: speaking time, pauses over 2 s and words"
            " per minute. The take stays in memory unless you keep it."
        )
        self.record_box.setChecked(bool(ctx.settings.get(PREF_KEY, False)))
        self.record_box.toggled.connect(self._remember)
        self.indicator = QLabel(MIC_ON)
        self.indicator.setAccessibleName("Microphone is open")
        self.indicator.setVisible(False)
        self.play_button = QPushButton("Play last take")
        self.keep_button = QPushButton("Keep take")
        self.keep_button.setToolTip(
            "Save the take as a WAV file only you can read, in the data folder"
        )
        self.rate_button = QPushButton("Use as my rate")
        for button in (self.play_button, self.keep_button, self.rate_button):
            button.setVisible(False)
        self.play_button.clicked.connect(self.toggle_play)
        self.keep_button.clicked.connect(self.keep)
        self.rate_button.clicked.connect(self.use_rate)
        row.addWidget(self.record_box)
        row.addWidget(self.indicator, 1)
        row.addWidget(self.play_button)
        row.addWidget(self.keep_button)
        row.addWidget(self.rate_button)
        layout.addLayout(row)
        self.report = QLabel("")
        self.report.setAccessibleName("Rehearsal take")
        self.report.setWordWrap(True)
        self.report.setVisible(False)
        layout.addWidget(self.report)
        self.said = QLabel("")
        self.said.setObjectName("rehearsalHeard")
        self.said.setAccessibleName("What the take said")
        self.said.setWordWrap(True)
        self.said.setVisible(False)
        layout.addWidget(self.said)
        self._heard_there.connect(self._show_heard)

        rehearse_bar.segment_changed.connect(self._segment)
        rehearse_bar.finished.connect(self._finished)

    def tab_order(self) -> list:
        """Its controls in reading order, for the page's Tab chain."""
        return [self.record_box, self.play_button, self.keep_button, self.rate_button]

    # -- recording ---------------------------------------------------------------------

    def _remember(self, on: bool) -> None:
        problem = self.ctx.settings.keep(PREF_KEY, bool(on))
        if problem:
            self._say(problem)

    def _say(self, text: str) -> None:
        self.report.setText(text)
        self.report.setVisible(bool(text))

    def _segment(self, segment_id: str) -> None:
        if not segment_id:
            return
        rehearsal = self.bar.rehearsal
        step = rehearsal.current if rehearsal is not None else None
        title = step.title if step is not None else segment_id
        starting = self.listener is None and rehearsal is not None and rehearsal.index == 0
        if starting:
            self.record_box.setEnabled(False)  # the choice holds for the whole take
            if self.record_box.isChecked():
                self._open()
        if self.listener is not None:
            self._marks.append((segment_id, title, self.listener.seconds))

    def _open(self) -> bool:
        self.stop_playback()
        self._marks = []
        for button in (self.play_button, self.keep_button, self.rate_button):
            button.setVisible(False)
        if self._factory is not None:
            listener = self._factory(self)
        else:
            listener = MicListener(self, keep_samples=True)
        errors: list[str] = []
        listener.error.connect(errors.append)
        listener.error.connect(lambda text: self._say(f"Not recording: {text}"))
        if not listener.start():
            listener.deleteLater()
            return False
        self.listener = listener
        self._say("")
        self.indicator.setVisible(True)
        self.mic_changed.emit(True)
        return True

    def _close(self) -> None:
        listener, self.listener = self.listener, None
        if listener is None:
            return
        listener.stop()
        self.samples = listener.samples
        self.sample_rate = listener.vad.sample_rate if listener.vad else 16000
        listener.deleteLater()
        self.indicator.setVisible(False)
        self.mic_changed.emit(False)

    def _finished(self, _rehearsal) -> None:
        self.record_box.setEnabled(True)
        if self.listener is None:
            return
        end = self.listener.seconds
        self._close()
        self._analyse(end)

    def _analyse(self, end: float) -> None:
        self.take_heard = None  # the last take's words are not this one's
        samples = self.samples[: int(MAX_TAKE_SECONDS * self.sample_rate)]
        self.analysis = analyse(Take(samples, self.sample_rate))
        pitch = analyze(self._text(), plan=self.ctx.content.pitch_plan())
        words = {s.id: s.words for s in pitch.segments}
        self.segments = takes.segment_takes(self.analysis.spans, self._marks, end, words)
        lines = []
        for seg in self.segments:
            rate = f", {seg.wpm:.0f} wpm" if seg.wpm else ""
            pauses = (
                "; pauses " + ", ".join(f"{p.length:.1f} s at {p.start:.0f} s" for p in seg.pauses)
                if seg.pauses
                else ""
            )
            lines.append(f"{seg.title}: {seg.speaking_seconds:.1f} s speaking{rate}{pauses}")
        low, high = pitch.target  # the pack's whole-pitch range
        answer = self.analysis.answer_seconds
        if not self.analysis.spans:
            lines.append("No speech heard in the take: check the microphone.")
        else:
            verdict = "within" if low <= answer <= high else ("under" if answer < low else "over")
            lines.append(
                f"Whole answer: {answer:.0f} s from the first word to the last ({verdict}"
                f" {low:.0f}-{high:.0f} s); {self.analysis.speaking_seconds:.0f} s speaking."
            )
        self._say("\n".join(lines))
        has_audio = len(samples) > 0
        self.play_button.setVisible(has_audio)
        self.keep_button.setVisible(has_audio)
        self._show_rate()
        self.analysed.emit(self.segments)
        if self.analysis.spans:
            self._hear(samples)

    # -- what the take said (the recognizer, off the GUI thread) -----------------------

    def _hear(self, samples) -> None:
        import threading

        self.take_heard = None
        self._take_no += 1
        number = self._take_no
        plan = self.ctx.content.pitch_plan()
        script = pitch_script(self._text(), plan=plan)
        if not script:
            return
        ids = [(s.id, s.title) for s in plan.segments]
        rate = self.sample_rate
        self.said.setText("Listening to the take\u2026")
        self.said.setVisible(True)

        def work() -> None:  # core objects only; the answer comes back by signal

            try:
                result = hear(samples, rate, script, ids)
            except RecognizerError as exc:
                result = str(exc)
            self._heard_there.emit(number, result)

        threading.Thread(target=work, name="hear-take", daemon=True).start()

    def _show_heard(self, number: int, result) -> None:
        if number != self._take_no:
            return  # a newer take replaced this one
        if isinstance(result, str):
            self.said.setText(f"Not recognized: {result}.")
            self.heard.emit(None)
            return
        self.take_heard = result
        lines = []
        for seg in result.segments:
            if seg.heard:
                rate = f", {seg.wpm:.0f} wpm" if seg.wpm else ""
                lines.append(
                    f"{seg.title}: heard {seg.start:.0f}-{seg.end:.0f} s, "
                    f"{seg.words_heard} words{rate}"
                )
            else:
                lines.append(f"{seg.title}: skipped")
        if result.evidence_number is False:
            lines.append("The evidence spoke no number.")
        elif result.evidence_number:
            lines.append("The evidence spoke a number.")
        lines.append(f"Fillers (um, uh): {result.fillers}")
        lines.append(f"Heard: {result.transcript}")
        self.said.setText("\n".join(lines))
        self._show_rate()  # now the words heard
        self.heard.emit(result)

    def measured_rate(self) -> float | None:
        """Words a minute of speech. Once the recognizer has heard the take (and most of
        what it heard is the one-pager's: ``rate_judged``), the words it heard over the
        speaking time, as `about rehearse` gives it; before that, the one-pager's words of
        each segment marked with Next over its speaking time: a take stopped without
        pressing Next put every second on the first segment (27 wpm for 160)."""
        heard, analysis = self.take_heard, self.analysis
        if heard is not None and heard.rate_judged and analysis is not None:
            return dataclasses.replace(analysis, words=heard.words_said).measured_wpm
        spoken = [s for s in self.segments if s.words and s.speaking_seconds >= 1.0]
        seconds = sum(s.speaking_seconds for s in spoken)
        if seconds <= 0:
            return None
        return sum(s.words for s in spoken) * 60.0 / seconds

    def _show_rate(self) -> None:
        rate = self.measured_rate()
        self.rate_button.setVisible(rate is not None)
        if rate is not None:
            self.rate_button.setText(f"Use {rate:.0f} wpm as my rate")

    # -- after the take ----------------------------------------------------------------

    def use_rate(self) -> None:
        rate = self.measured_rate()
        if rate is not None:
            self._set_rate(rate)

    def keep(self) -> None:
        """Keep the take's figures, never its audio (#44): the recording stays in memory
        for playback and goes with the next take or the window."""
        if not self.samples:
            return
        self.keep_figures()
        self.keep_button.setEnabled(False)
        self.keep_button.setText("Kept")
        self.keep_button.setToolTip("Its figures are in About me's takes; no audio was kept.")

    def keep_figures(self) -> None:
        """The take's figures for the About me trend (companion.core.about.takes)."""

        heard = self.take_heard
        extra = {"measured_wpm": self.measured_rate()}
        if heard is not None:
            extra.update(
                fillers=heard.fillers,
                skipped=heard.skipped,
                segments=[s.as_json() for s in heard.segments],
            )
        keep_take(self.ctx.db, figures_of(self.analysis, extra), self.ctx.now())

    def toggle_play(self) -> None:
        if self._sink is not None:
            self.stop_playback()
            return
        if not self.samples:
            return
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice
        from PySide6.QtMultimedia import QAudioFormat, QAudioSink, QMediaDevices

        device = QMediaDevices.defaultAudioOutput()
        if device.isNull():
            self._say(f"{self.report.text()}\nNo audio output to play the take on.")
            return
        fmt = QAudioFormat()
        fmt.setSampleRate(self.sample_rate)
        fmt.setChannelCount(1)
        fmt.setSampleFormat(QAudioFormat.SampleFormat.Int16)
        self._buffer = QBuffer(self)
        self._buffer.setData(QByteArray(self.samples.tobytes()))
        self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self._sink = QAudioSink(device, fmt, self)
        self._sink.start(self._buffer)
        self.play_button.setText("Stop playing")

    @property
    def playing(self) -> bool:
        return self._sink is not None

    def stop_playback(self) -> None:
        sink, self._sink = self._sink, None
        if sink is not None:
            sink.stop()
            sink.deleteLater()
        if self._buffer is not None:
            self._buffer.close()
            self._buffer.deleteLater()
            self._buffer = None
        self.play_button.setText("Play last take")

    def shutdown(self) -> None:
        self._close()
        self.stop_playback()
