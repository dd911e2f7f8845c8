"""The cue card's round timer: start/end a round, the ticking clock, nudges and the round length."""

from __future__ import annotations

import logging

from companion.core.cue import rounds as cue_rounds
from companion.core.cue import timebox
from companion.ui.cue.sections import RoundPage

log = logging.getLogger(__name__)
TICK_MS = 1000


class TimerMixin:
    """Start and end a round and show its timebox; mixed into the card window."""

    def toggle_round(self) -> None:
        """Start the round (journal row + timer) or end it and open the quick capture."""
        from companion.core.cue import sources as cue_sources

        info = self.current
        try:
            if self.state.running:
                round_id = cue_sources.end_round(self.ctx.db, self.state, self.ctx.now())
                self._change("round_id", "running_type", "started_at", "seen_nudge_at")
                self.save_now()
                self._emit_journal_changed()
                self.bus.capture_round.emit(round_id or 0)
            elif info is not None:
                minutes = self.state.round_minutes(info)
                cue_sources.start_round(self.ctx.db, self.state, info, self.ctx.now(), minutes)
                self._change(
                    "round_id", "running_type", "started_at", "running_minutes", "seen_nudge_at"
                )
                self.save_now()
                self._emit_journal_changed()
        except Exception as exc:
            log.warning("could not record the round: %s", exc)
            self._show_banner(f"Could not record the round in the journal: {exc}")
        if not self.state.running:
            self.banner.setVisible(False)
        self.tick()

    def _emit_journal_changed(self) -> None:
        """Tell the other pages; the card itself has nothing to rebuild for its own row."""
        self._quiet = True
        try:
            self.bus.journal_changed.emit()
        finally:
            self._quiet = False

    def _running_info(self) -> cue_rounds.RoundInfo | None:
        if not self.state.running:
            return None
        return cue_rounds.find_round(self.infos, self.state.running_type)

    def timebox_status(self) -> timebox.TimeboxStatus | None:
        info = self._running_info()
        started = self.state.started
        if info is None or started is None:
            return None
        minutes = self.state.running_minutes
        defaults = self.ctx.content.round_defaults()  # the pack's wrap-up and time-up
        nudges = timebox.timebox_nudges(self.ctx.content.section(info.nudges), minutes, defaults)
        return timebox.timebox_status(
            started, self.ctx.now(), minutes, nudges, defaults.wrap_up_before_end
        )

    def tick(self) -> None:
        """Re-evaluate the timer against the (injectable) clock: called every second, and
        directly by tests after advancing a fake clock. Never raises or focuses the card."""
        status = self.timebox_status()
        self._status = status
        running = status is not None
        self.start_button.setText("End" if running else "Start")
        self.start_button.setAccessibleName("End round" if running else "Start round")
        self.start_button.setToolTip(
            "End the round: records the end and opens the quick capture (Ctrl+Enter)"
            if running
            else "Start the round and its timer; records it in the journal (Ctrl+Enter)"
        )
        self.start_button.setProperty("running", running)
        self._repolish(self.start_button)
        if status is None:
            self.clock.setText("")
            self.clock.setVisible(False)
        else:
            self.clock.setVisible(True)
            left = timebox.format_clock(status.remaining)
            self.clock.setText(left if status.remaining >= 0 else f"+{left[1:]}")
            self.clock.setProperty("phase", status.phase)
            self._repolish(self.clock)
            fresh = timebox.newly_due(
                timebox.timebox_nudges(
                    self.ctx.content.section(self._running_info().nudges),
                    self.state.running_minutes,
                    self.ctx.content.round_defaults(),
                ),
                self.state.seen_nudge_at,
                status.elapsed,
            )
            if fresh:
                self.state.seen_nudge_at = fresh[-1].at
                self._change("seen_nudge_at")
                # nudges falling due together (or while the card was closed) show together
                self._show_banner("\n".join(n.text for n in fresh[-2:]))
        self._show_timebox(self._current_page())
        self._update_glance()

    def _show_timebox(self, page: RoundPage | None) -> None:
        if page is None or page.timebox is None:
            return
        info = cue_rounds.find_round(self.infos, page.round_id)
        status = self._status if self.state.running_type == page.round_id else None
        if status is None:
            page.timebox.show_idle(self.state.round_minutes(info))
        else:
            page.timebox.show_status(status, self.state.running_minutes)

    def _show_banner(self, text: str) -> None:
        self.banner_text.setText(text)
        self.banner.setVisible(not self.state.glance)

    def _on_length(self, round_id: str, minutes: int) -> None:
        self.state.minutes[round_id] = timebox.clamp_minutes(minutes)
        self._change("minutes")
        page = self._pages.get(round_id)
        info = cue_rounds.find_round(self.infos, round_id)
        if page is not None and page.timebox is not None and info is not None:
            nudges = timebox.timebox_nudges(
                self.ctx.content.section(info.nudges), minutes, self.ctx.content.round_defaults()
            )
            page.timebox.set_schedule(nudges)
            page.timebox.show_idle(minutes)
