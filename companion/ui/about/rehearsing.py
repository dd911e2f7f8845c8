"""The About page's rehearsal and calibration: start and stop a timed run of the
one-pager, follow the segment being said in the editor, the timing table and the preview,
keep the take's timings, and measure the speaking rate. A part the page constructs with
the widgets it drives and the callbacks it needs."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from companion.core.about import store as about_store
from companion.core.about.rehearsal import Step, against_target
from companion.ui.about.actions import page_action
from companion.ui.about.dialogs import CalibrateDialog
from companion.ui.about.preview_follow import heading_text, scroll_to_heading


class PitchRehearsal(QObject):
    """``rehearse_action`` (Ctrl+R) starts or stops a run on the ``bar``;
    ``stop_action`` (Esc) stops it; :meth:`open_calibrate` sets the rate."""

    def __init__(
        self,
        page: QWidget,
        ctx,
        *,
        bar,
        editor,
        preview,
        panel,
        analysis: Callable[[], object],
        refresh: Callable[[], None],
        set_rate: Callable[[float], None],
        notice: Callable[[str], None],
        monotonic: Callable[[], float] = time.monotonic,
    ):
        super().__init__(page)
        self._page = page  # the actions' and the dialog's parent
        self.ctx = ctx
        self.bar = bar
        self._editor, self._preview, self._panel = editor, preview, panel
        self._analysis = analysis  # the page's latest PitchAnalysis (None while paused)
        self._refresh = refresh
        self._set_rate = set_rate
        self._notice = notice
        self._monotonic = monotonic
        self._started_at = None
        self.calibrate_dialog: CalibrateDialog | None = None
        self.rehearse_action = page_action(
            page, "Rehearse", self.toggle, "Ctrl+R", "Time yourself segment by segment"
        )
        self.stop_action = page_action(
            page, "Stop rehearsal", bar.stop, "Esc", "Stop the rehearsal"
        )
        self.stop_action.setEnabled(False)
        bar.segment_changed.connect(self._segment)
        bar.finished.connect(self._finished)

    def toggle(self) -> None:
        if self.bar.running:
            self.bar.stop()
        else:
            self.start()

    def start(self) -> None:
        self._refresh()
        plan = self.ctx.content.pitch_plan()
        steps = tuple(Step(s.id, s.title, s.seconds) for s in plan.segments)
        analysis = self._analysis()
        if analysis is not None:
            present = tuple(
                Step(s.id, s.title, s.budget_seconds) for s in analysis.segments if s.present
            )
            steps = present or steps
        self._started_at = self.ctx.now()
        self._notice("")  # the last take's summary would read as this one's
        self._editor.setReadOnly(True)
        self.stop_action.setEnabled(True)
        self.rehearse_action.setText("Stop rehearsing")
        self.bar.start(steps)

    def _segment(self, segment_id: str) -> None:
        analysis = self._analysis()
        if not segment_id or analysis is None:
            self._editor.highlight_lines(None, None)
            return
        for row, seg in enumerate(analysis.segments):
            if seg.id == segment_id:
                self._editor.highlight_lines(seg.heading_line, seg.end_line)
                self._panel.select_segment(row)
                if seg.heading_line is not None:  # the preview follows the rehearsal
                    lines = self._editor.toPlainText().split("\n")
                    if seg.heading_line < len(lines):
                        scroll_to_heading(self._preview, heading_text(lines[seg.heading_line]))

    def _finished(self, rehearsal) -> None:
        self._editor.setReadOnly(False)
        self.stop_action.setEnabled(False)
        self.rehearse_action.setText("Rehearse")
        results = rehearsal.results()
        if not results:
            self._notice("Rehearsal stopped before the first segment was done; nothing kept.")
            return
        record = about_store.save_rehearsal(
            self.ctx.db, self._started_at or self.ctx.now(), results
        )
        self._panel.show_rehearsal(record)
        over = [f"{s.title} (+{s.delta_seconds:.0f} s)" for s in results if s.delta_seconds >= 1]

        target = self.ctx.content.pitch_plan().target
        summary = (
            f"Rehearsal: {record.total_seconds:.0f} s in all, "
            f"{against_target(record.total_seconds, target)}."
        )
        if over:
            summary += " Over budget: " + ", ".join(over) + "."
        self._notice(summary)

    def open_calibrate(self) -> None:
        self._refresh()
        words = 0
        analysis = self._analysis()
        if analysis is not None:
            words = analysis.total_words or analysis.document_words
        self.calibrate_dialog = CalibrateDialog(words, self._page, monotonic=self._monotonic)
        self.calibrate_dialog.accepted.connect(self._calibrated)
        self.calibrate_dialog.open()

    def _calibrated(self) -> None:
        dialog = self.calibrate_dialog
        if dialog is not None and dialog.rate is not None:
            self._set_rate(dialog.rate)
            self._notice(f"Speaking rate set to {dialog.rate:.0f} words per minute.")
