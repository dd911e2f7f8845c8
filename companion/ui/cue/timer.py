"""The cue card's round timer: start/end a round, the ticking clock, nudges and the round length."""

from __future__ import annotations

import logging

from companion.core.cue import rounds as cue_rounds
from companion.core.cue import timebox
from companion.ui.cue.pitch_fold import fold_pitch
from companion.ui.cue.sections import RoundPage

log = logging.getLogger(__name__)
TICK_MS = 1000


class TimerMixin:
    """The round on the card is the day's: start and end go through the day service, the
    timebox shows the day's running round, and the card follows the schedule."""

    _day_round = None  # companion.core.day.model.DayRound: the round running now, if any
    _focus_id = 0  # the round the day is about (running, or next within its window)
    _picked_for = None  # the focus round id when the user last picked a type by hand

    @property
    def running(self) -> bool:
        """A round of the day runs now (whoever started it)."""
        return self._day_round is not None

    @property
    def day(self):
        from companion.ui.day.service import DayService

        return DayService.of(self.ctx, self.bus)

    def follow_day(self, view) -> None:
        """Show the running round, or the next one once its before-round window opened. A
        type picked by hand stays for the session until the round in focus changes."""
        if view is None:
            return
        current = view.current
        self._day_round = current
        if current is not None and current.id != self.state.round_id:
            self.state.round_id = current.id  # a new round: its nudges start afresh
            self.state.seen_nudge_at = -1.0
            self._change("round_id", "seen_nudge_at")
        focus = current or (view.next if view.phase == "before-round" else None)
        self._focus_id = focus.id if focus is not None else 0
        if focus is not None and self._picked_for != focus.id:
            self._picked_for = None
            info = cue_rounds.find_round(self.infos, focus.type)
            shown = self.current
            if info is not None and (shown is None or shown.id != info.id):
                self._show_round(info)  # the tick below shows its timer, fold and glance
        self.tick()

    def picked_by_hand(self) -> None:
        """The user chose a type: keep it until the day moves to another round."""
        self._picked_for = self._focus_id

    def toggle_round(self) -> None:
        """End the running round (the capture opens once), or start the shown type: the
        day's round of that type if one is due today, else an extra round."""
        # the journal change this causes has nothing for the card to rebuild
        self._quiet = True
        try:
            if self._day_round is not None:
                self.day.end_round(self._day_round.id)
            elif self.current is not None:
                info = self.current
                mine = self.state.minutes.get(info.id)  # the length set on the card, if any
                self.day.start_round(round_type=info.id, minutes=mine)
        except Exception as exc:  # the database refused: say so on the card
            log.warning("could not record the round: %s", exc)
            self._show_banner(f"Could not record the round in the journal: {exc}")
        finally:
            self._quiet = False
        if self._day_round is None:
            self.banner.setVisible(False)
        self.tick()

    def _running_info(self) -> cue_rounds.RoundInfo | None:
        if self._day_round is None:
            return None
        return cue_rounds.find_round(self.infos, self._day_round.type)

    def _nudges(self):
        """The running round's nudges (kept per round and length: a tick reads them)."""
        rnd = self._day_round
        key = (rnd.id, rnd.type, rnd.minutes)
        cached = getattr(self, "_nudge_cache", None)
        if cached is None or cached[0] != key:
            info = self._running_info()
            section = self.ctx.content.section(info.nudges) if info is not None else None
            nudges = timebox.timebox_nudges(section, rnd.minutes, self.ctx.content.round_defaults())
            cached = self._nudge_cache = (key, nudges)
        return cached[1]

    def timebox_status(self) -> timebox.TimeboxStatus | None:
        rnd = self._day_round
        if rnd is None or rnd.starts_at is None:
            return None
        nudges = self._nudges()
        wrap_up = getattr(self, "_wrap_up", None)
        if wrap_up is None:  # the pack's wrap-up minutes, read once
            wrap_up = self._wrap_up = self.ctx.content.round_defaults().wrap_up_before_end
        return timebox.timebox_status(rnd.starts_at, self.ctx.now(), rnd.minutes, nudges, wrap_up)

    def tick(self) -> None:
        """Re-evaluate the timer against the (injectable) clock: each second while a round
        runs and the card is shown, and directly by tests after moving a fake clock. Only
        what changed is redrawn. Never raises or focuses the card."""
        status = self.timebox_status()
        self._status = status
        running = status is not None
        if self.start_button.property("running") != running:
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
            if self.clock.isVisible() or self.clock.text():
                self.clock.setText("")
                self.clock.setVisible(False)
        else:
            self.clock.setVisible(True)
            left = timebox.format_clock(status.remaining)
            text = left if status.remaining >= 0 else f"+{left[1:]}"
            if text != self.clock.text():
                self.clock.setText(text)
            if self.clock.property("phase") != status.phase:
                self.clock.setProperty("phase", status.phase)
                self._repolish(self.clock)
            fresh = timebox.newly_due(self._nudges(), self.state.seen_nudge_at, status.elapsed)
            if fresh:
                self.state.seen_nudge_at = fresh[-1].at
                self._change("seen_nudge_at")
                # nudges falling due together (or while the card was closed) show together
                self._show_banner("\n".join(n.text for n in fresh[-2:]))
        self._show_clocked()
        self._sync_tick_timer()

    def _show_clocked(self) -> None:
        """What follows the clock on the page shown: its timebox, the pitch fold, the glance
        text and the silence nudge (each tick, and once per switch of round type)."""
        self._show_timebox(self._current_page())
        fold_pitch(self)  # the pitch outline folds once the round is past its opening
        self._update_glance()
        self._sync_voice()  # the silence nudge listens only while the round runs

    def _sync_tick_timer(self) -> None:
        """The one fast timer: each second, only while a round runs and the card shows."""
        timer = self._tick_timer
        want = self._day_round is not None and self.isVisible()
        if want and not timer.isActive():
            timer.start()
        elif not want and timer.isActive():
            timer.stop()

    def _show_timebox(self, page: RoundPage | None) -> None:
        if page is None or page.timebox is None:
            return
        info = cue_rounds.find_round(self.infos, page.round_id)
        rnd = self._day_round
        status = self._status if rnd is not None and rnd.type == page.round_id else None
        if status is None:
            page.timebox.show_idle(self.state.round_minutes(info))
        else:
            page.timebox.show_status(status, rnd.minutes)

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
        rnd = self._day_round
        if rnd is not None and rnd.type == round_id and rnd.minutes != minutes:
            self.day.set_length(rnd.id, timebox.clamp_minutes(minutes))
