"""The About page's rehearsal and calibration: start and stop a timed run of the
one-pager, follow the segment being said, keep the take's timings, and set the speaking
rate. A part of :class:`companion.ui.about.page.AboutPage` (a mixin over its widgets)."""

from __future__ import annotations

from companion.core.about.rehearsal import Step, against_target
from companion.ui.about.dialogs import CalibrateDialog
from companion.ui.about.preview_follow import heading_text, scroll_to_heading


class AboutRehearsal:
    def toggle_rehearsal(self) -> None:
        if self.rehearse_bar.running:
            self.rehearse_bar.stop()
        else:
            self.start_rehearsal()

    def start_rehearsal(self) -> None:
        self.refresh()
        plan = self.ctx.content.pitch_plan()
        steps = tuple(Step(s.id, s.title, s.seconds) for s in plan.segments)
        if self.analysis is not None:
            present = tuple(
                Step(s.id, s.title, s.budget_seconds) for s in self.analysis.segments if s.present
            )
            steps = present or steps
        self._rehearsal_started_at = self.ctx.now()
        self.show_notice("")  # the last take's summary would read as this one's
        self.editor.setReadOnly(True)
        self.stop_rehearsal_action.setEnabled(True)
        self.rehearse_action.setText("Stop rehearsing")
        self.rehearse_bar.start(steps)

    def _rehearsing_segment(self, segment_id: str) -> None:
        if not segment_id or self.analysis is None:
            self.editor.highlight_lines(None, None)
            return
        for row, seg in enumerate(self.analysis.segments):
            if seg.id == segment_id:
                self.editor.highlight_lines(seg.heading_line, seg.end_line)
                self.panel.table.selectRow(row)
                if seg.heading_line is not None:  # the preview follows the rehearsal
                    lines = self.editor.toPlainText().split("\n")
                    if seg.heading_line < len(lines):
                        scroll_to_heading(self.preview, heading_text(lines[seg.heading_line]))

    def _rehearsal_finished(self, rehearsal) -> None:
        self.editor.setReadOnly(False)
        self.stop_rehearsal_action.setEnabled(False)
        self.rehearse_action.setText("Rehearse")
        results = rehearsal.results()
        if not results:
            self.show_notice("Rehearsal stopped before the first segment was done; nothing kept.")
            return
        record = self._store.save_rehearsal(
            self.ctx.db, self._rehearsal_started_at or self.ctx.now(), results
        )
        self.panel.show_rehearsal(record)
        over = [f"{s.title} (+{s.delta_seconds:.0f} s)" for s in results if s.delta_seconds >= 1]

        target = self.ctx.content.pitch_plan().target
        summary = (
            f"Rehearsal: {record.total_seconds:.0f} s in all, "
            f"{against_target(record.total_seconds, target)}."
        )
        if over:
            summary += " Over budget: " + ", ".join(over) + "."
        self.show_notice(summary)

    def open_calibrate(self) -> None:
        self.refresh()
        words = 0
        if self.analysis is not None:
            words = self.analysis.total_words or self.analysis.document_words
        self.calibrate_dialog = CalibrateDialog(words, self, monotonic=self.monotonic)
        self.calibrate_dialog.accepted.connect(self._calibrated)
        self.calibrate_dialog.open()

    def _calibrated(self) -> None:
        dialog = self.calibrate_dialog
        if dialog is not None and dialog.rate is not None:
            self.set_rate(dialog.rate)
            self.show_notice(f"Speaking rate set to {dialog.rate:.0f} words per minute.")
