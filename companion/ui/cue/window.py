"""The cue card: a small always-on-top tool window beside the video call.

It never takes keyboard focus by itself: it is shown without activation and updates
(timer ticks, nudges, data refreshes) only change what it draws. Keys work once the
user clicks into it.

What it shows is one :class:`companion.core.cue.card.CardState`, computed from the day
view; the window only keeps the card's saved state (look, steps, lengths), computes the
card state when something changes, and hands each part its slice: the header, the round
tabs, the banners, the voice line, the round pages (stepper, timebox, pitch fold) and
the glance view. No part reaches into another's widgets. What the user does on it
besides Start/End is :mod:`.card_controls`; how it shows itself is :mod:`.card_look`.
"""

from __future__ import annotations

import datetime as dt
import logging
import math

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QSizeGrip, QVBoxLayout, QWidget

from companion.core.context import AppContext
from companion.core.cue import card as cue_card
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import state as cue_state
from companion.core.cue import timebox
from companion.core.platform_choice import wayland_rule_text
from companion.ui.bus import AppBus
from companion.ui.cue import voice as voice_line
from companion.ui.cue.banners import nudge_banner, share_reminder
from companion.ui.cue.card_controls import CardControls
from companion.ui.cue.card_look import CardLook
from companion.ui.cue.geometry import CardPlacement
from companion.ui.cue.ghost import GhostMode
from companion.ui.cue.glance import GlanceView
from companion.ui.cue.header import CardHeader
from companion.ui.cue.look import SHORTCUTS, CardMenu
from companion.ui.cue.on_top import KeepAbove
from companion.ui.cue.page_source import PageSource
from companion.ui.cue.pages import RoundPages
from companion.ui.cue.sections import RoundPage, label
from companion.ui.cue.stories import StoriesPart
from companion.ui.cue.style import CardFrame
from companion.ui.cue.tabs import RoundTabs

log = logging.getLogger(__name__)

#: the change kinds the card's pages show (a Start or an End is a "round" change: the
#: card follows it through the day's view and rebuilds nothing for it)
CARD_KINDS = ("about", "stories", "plan", "loop", "content")

SAVE_DELAY_MS = 400
TICK_MS = 1000
ARMED_FOR = cue_card.ARMED_FOR  # the second of two presses, within this


class CueCardWindow(CardControls, CardLook, QWidget):
    closed = Signal()  # the user closed the card (not a hide by a hotkey)

    def __init__(self, ctx: AppContext, bus: AppBus, day, parent=None, *, captures=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.day = day  # the session's day service (companion/ui/day/service.py)
        self.captures = captures  # the session's open captures (ui/journal/capture.py)
        self.setObjectName("cueCard")
        self.setWindowTitle("Cue card")
        self.setAccessibleName("Cue card")
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.state = cue_state.load_state(ctx.settings)
        self.infos = cue_rounds.round_infos(ctx.content)
        self.view = None  # the day's last companion.core.day.model.DayView
        self.card: cue_card.CardState | None = None
        self.pick: cue_card.Pick | None = None
        self._armed_at: dt.datetime | None = None
        self._settle = cue_card.Settle()  # Start/End ignores a click just after it changed
        self._changed: set[str] = set()
        self.source = PageSource(ctx)  # the pitch, the planned questions, the loop
        self.placement = CardPlacement(self, ctx.settings)
        self.ghost = GhostMode(self)  # clicks pass through (companion/ui/cue/ghost.py)
        self.on_top = KeepAbove(self)  # on top again after a quick hide and show (X11)
        self._apply_flags()

        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save_now)
        self._geometry_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._geometry_timer.timeout.connect(self.save_geometry)
        self._tick_timer = QTimer(self, interval=TICK_MS)
        self._tick_timer.timeout.connect(self.tick)
        # before a round: one wake when the countdown's words change (not each second)
        self.line_timer = QTimer(self, singleShot=True)
        self.line_timer.timeout.connect(self.render)

        self._build()
        self._apply_look()
        view = self.day.view or self.day.refresh()  # before connecting: rendered once here
        bus.day_changed.connect(self.follow_day)
        self.follow_day(view)
        self._apply_glance()
        # what the card shows from the user's data: the pitch (About me), the stories,
        # the planned questions and the loop; the rounds themselves come with the day
        # (day_changed), and nothing comes from quiz marks
        bus.changed.connect(self._data_changed)
        if captures is not None:
            captures.changed.connect(self.render)
        app = QGuiApplication.instance()
        app.screenAdded.connect(self._screens_changed)
        app.screenRemoved.connect(self._screens_changed)
        if QGuiApplication.platformName() == "wayland":  # COMPANION_WAYLAND=1: no stay-on-top
            import os

            self._show_banner(wayland_rule_text(os.environ))

    # ------------------------------------------------------------------ building

    def _round_page(self, info):
        return self.source.build(info, self.state)

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        frame = CardFrame()
        outer.addWidget(frame)
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.setSpacing(0)

        self.menu = CardMenu(self)
        self.menu.opacity_chosen.connect(self.set_opacity)
        self.menu.font_step.connect(self.change_font)
        self.menu.collapse_all.connect(self._collapse_all)
        self.menu.frame_toggled.connect(lambda on: self.set_frameless(not on))
        self.menu.hotkeys.connect(self.bus.open_hotkeys.emit)
        self.menu.preflight.connect(self.open_preflight)
        self.menu.ghost.connect(self.ghost.toggle)
        self.header = CardHeader(self, self.menu)
        self.header.pressed.connect(self.toggle_round)
        self.header.glance_toggled.connect(self.set_glance)
        self.header.close_requested.connect(self.close)
        layout.addWidget(self.header)

        self.tabs = RoundTabs(self.infos)
        self.tabs.picked.connect(self.set_round)
        layout.addWidget(self.tabs)
        self.reminder = share_reminder()
        layout.addWidget(self.reminder)
        self.banner = nudge_banner()
        layout.addWidget(self.banner)
        self.voice = voice_line.voice_line(self.ctx.settings, self.ctx.content, self)
        layout.addWidget(self.voice)
        self.follow = voice_line.follow_line(self.ctx.settings, self.ctx.db, self.ctx.content, self)
        layout.addWidget(self.follow)

        self.stories = StoriesPart(self.ctx, self.bus)
        layout.addWidget(self.stories.fold)

        self.pages = RoundPages(self._round_page)  # a bound method: RoundPages holds it weakly
        self.pages.step_moved.connect(self.move_step)
        self.pages.collapsed_changed.connect(self._on_collapsed)
        self.pages.topic_changed.connect(self._on_topic)
        self.pages.length_changed.connect(self._on_length)
        self.pages.set_user_folds(self.state.collapsed)
        self.follow.outline.connect(
            lambda title, meta: voice_line.highlight(self.pages, title, meta)
        )
        layout.addWidget(self.pages, 1)
        self._empty = label(
            "The content has no round types. Add a `kind: rounds` file to the content "
            "folder (see content/README.md).",
        )
        self._empty.setVisible(not self.infos)
        layout.addWidget(self._empty)

        self.glance = GlanceView()
        layout.addWidget(self.glance, 1)

        foot = QHBoxLayout()
        foot.setContentsMargins(6, 0, 0, 0)
        self.hint = label("Keys: 1-9 round · \u2190\u2192 step · G glance", "hint", wrap=True)
        self.hint.setToolTip(SHORTCUTS)
        foot.addWidget(self.hint, 1)
        self.size_grip = QSizeGrip(self)
        self.size_grip.setToolTip("Drag to resize the card")
        self.size_grip.setAccessibleName("Resize the card")
        foot.addWidget(
            self.size_grip, 0, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight
        )
        layout.addLayout(foot)

    # the parts' widgets most callers (tests, the hotkey harness) read

    # ------------------------------------------------------------------ saved state

    def _change(self, *names: str) -> None:
        """Mark fields as changed by the card and save soon (merged with other writers)."""
        self._changed.update(names)
        self._save_timer.start()

    def save_now(self) -> None:
        self._save_timer.stop()
        if not self._changed:
            return
        try:
            mine = {name: getattr(self.state, name) for name in self._changed}
            self.state = cue_state.CardMemory(self.ctx.settings).change(**mine)
            self._changed.clear()
        except Exception as exc:  # a locked or broken database must not break the card
            log.warning("could not save the cue card state: %s", exc)

    def reload_state(self) -> None:
        """Pick up what the Cue page (or another window) saved, keeping our own edits."""
        fresh = cue_state.load_state(self.ctx.settings)
        self.state = cue_state.merge_state(fresh, self.state, self._changed)
        loop_before = self.source.loop_id(self.state)
        self.source.forget()
        if self.source.loop_id(self.state) != loop_before:
            self.refresh_data()
        self._apply_look()
        self.render()

    # ------------------------------------------------------------------ the day

    @property
    def _day_round(self):
        return self.view.current if self.view is not None else None

    @property
    def running(self) -> bool:
        """A round of the day runs now (whoever started it)."""
        return self._day_round is not None

    @property
    def current(self) -> cue_rounds.RoundInfo | None:
        """The round type whose page is shown (a custom round's generic page too)."""
        return self._info(self.card.page) if self.card is not None else None

    def _info(self, page: str) -> cue_rounds.RoundInfo | None:
        if page == cue_card.GENERIC:
            rnd = self.card.round if self.card is not None else None
            return cue_card.generic_info(rnd.title if rnd else "Round", self.card.minutes)
        return cue_rounds.find_round(self.infos, page)

    def _capture_open(self) -> bool:
        return self.captures is not None and self.captures.open_one() is not None

    def compute(self) -> cue_card.CardState:
        now = self.ctx.now()
        armed = self._armed_at is not None and now - self._armed_at <= ARMED_FOR
        seen = cue_card.Seen(self.state.round_id, self.state.seen_nudge_at)
        return cue_card.card_state(
            self.view,
            self.infos,
            self.ctx.content,
            now,
            pick=self.pick,
            capture_open=self._capture_open(),
            seen=seen,
            steps=self.state.steps,
            minutes=self.state.minutes,
            last_type=self.state.round_type,
            armed=armed,
        )

    def follow_day(self, view) -> None:
        """The day changed: show its running round, or the next one."""
        if view is None:
            return
        self.view = view
        self.render()

    def render(self) -> None:
        """Compute the card state and give each part its slice. Never focuses the card."""
        state = self.compute()
        self.card = state
        self.pick = state.pick
        self._settle = self._settle.follow(state.press_text, self.ctx.now())
        self._remember(state)
        info = self._info(state.page)
        self.header.render(state)
        self.tabs.render(state.page)
        if info is not None:
            self.pages.show(info)
            self.pages.render(state)
        self._render_banner(state)
        self.stories.render(state.page, state.told_in)
        self._update_glance()
        self._sync_voice(state)
        self._sync_tick_timer()

    def _remember(self, state: cue_card.CardState) -> None:
        """Keep what the card state says the card has now seen."""
        if state.reset and state.round is not None:
            self.state.steps[state.round.page] = 0  # Start resets the stepper
            self._change("steps")
        seen = state.seen
        if (seen.round_id, seen.nudge_at) != (self.state.round_id, self.state.seen_nudge_at):
            self.state.round_id = seen.round_id
            self.state.seen_nudge_at = seen.nudge_at
            self._change("round_id", "seen_nudge_at")
        if state.page and state.page != cue_card.GENERIC and self.state.round_type != state.page:
            self.state.round_type = state.page
            self._change("round_type")

    def _render_banner(self, state: cue_card.CardState) -> None:
        quiet = not state.running or state.mode == "viewing"  # no running round's nudges
        if state.nudge is not None:
            self._show_banner(state.nudge_text)
        elif quiet and self.banner.text.text() and not self._banner_is_problem:
            self.banner.dismiss()

    _banner_is_problem = False

    def _show_banner(self, text: str, *, problem: bool = False) -> None:
        self._banner_is_problem = problem
        self.banner.show_text(text, now=not self.state.glance)

    def tick(self) -> None:
        """Each second while a round runs and the card is shown (and directly by tests
        after moving a fake clock): the card state again; when only the time moved, the
        countdowns and the nudge due now are redrawn, no other part (DAY.md)."""
        state = self.compute()
        before = self.card
        if before is None or cue_card.steady(state) != cue_card.steady(before):
            self.render()
            return
        self.card = state
        self._remember(state)
        self.header.show_clock(state.status)
        if state.line != before.line:
            self.header.show_line(state)
        self.pages.show_time(state)
        if (state.nudge, state.nudge_text) != (before.nudge, before.nudge_text):
            self._render_banner(state)
        self._update_glance()  # in glance mode its clock is the countdown
        self._sync_voice(state)  # the mic strips open or close as the opt-ins say
        self._sync_tick_timer()

    def _sync_tick_timer(self) -> None:
        """The one fast timer: each second, only while a round runs and the card shows.
        Otherwise the line's countdown wakes the card once, when its words change."""
        want = self._day_round is not None and self.isVisible()
        if want and not self._tick_timer.isActive():
            self._tick_timer.start()
        elif not want and self._tick_timer.isActive():
            self._tick_timer.stop()
        until = self.card.line_until if self.card is not None else None
        if want or until is None or not self.isVisible():
            self.line_timer.stop()
            return
        wait = (until - self.ctx.now()).total_seconds()
        self.line_timer.start(max(200, math.ceil(wait * 1000)))

    def timebox_status(self) -> timebox.TimeboxStatus | None:
        return self.card.status if self.card is not None else None

    # ------------------------------------------------------------------ presses

    def set_round(self, round_id: str, *, by_hand: bool = True) -> bool:
        """Show another round type: a click, a key 1-9 or ``companion cue --round`` (by
        hand: kept until the day moves to another round)."""
        if cue_rounds.find_round(self.infos, round_id) is None:
            return False
        focus = self.card.round.id if self.card is not None and self.card.round else 0
        if by_hand:
            self.pick = cue_card.Pick(round_id, focus)
        else:
            self.state.round_type = round_id
        self.render()
        return True

    def toggle_round(self) -> None:
        """Start/End: what the card state says the next press does."""
        if self._settle.ignores(self.ctx.now()):
            return  # the second click of a double click, on a button that just changed
        self._settle = self._settle.press(self.ctx.now())
        state = self.compute()
        press = state.next_press
        if press == "focus-capture":
            self.captures.bring_forward()
            self.render()
            return
        if press in ("confirm-unscheduled", "confirm-end"):
            self._armed_at = self.ctx.now()
            self.render()
            QTimer.singleShot(int(ARMED_FOR.total_seconds() * 1000) + 50, self.render)
            return
        self._armed_at = None
        try:
            if press == "end" and self._day_round is not None:
                self.day.end_round(self._day_round.id)
            elif press in ("start", "start-now"):
                self._start(state)
        except Exception as exc:  # the database refused: say so on the card
            log.warning("could not record the round: %s", exc)
            self._show_banner(f"Could not record the round in the journal: {exc}", problem=True)
        if self._day_round is None and not self._banner_is_problem:
            self.banner.dismiss()
        self.render()

    def _start(self, state: cue_card.CardState) -> None:
        """The round's length is the day's rule (core/content/lengths.py), not the card's: the
        card only saves its length box first, which that rule reads."""
        self.save_now()
        if state.start_round_id:
            self.day.start_round(round_id=state.start_round_id)
        elif state.page and state.page != cue_card.GENERIC:
            self.day.start_round(round_type=state.page)

    # ------------------------------------------------------------------ pages

    def _page(self, info: cue_rounds.RoundInfo) -> RoundPage:
        return self.pages.page(info)

    def _current_page(self) -> RoundPage | None:
        return self.pages.current()

    def _data_changed(self, change) -> None:
        if change.touches(*CARD_KINDS):
            self.refresh_data()

    def refresh_data(self) -> None:
        """About me, the stories, the planner or the loop changed: rebuild pages when
        next shown."""
        self.source.forget()
        self.stories.stale()
        self.pages.mark_stale()
        if self.isVisible():  # hidden: rebuilt in showEvent
            self.render()

    def prebuild(self) -> None:
        self.pages.prebuild(self.infos)

    # ------------------------------------------------------------------ the window

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.render()  # catches up (stale pages rebuilt), ticks each second while a round runs
        today = self.ctx.now().date()
        if self.state.needs_share_reminder(today):
            self.state.reminder_shown_on = today.isoformat()
            self._change("reminder_shown_on")
            self.reminder.show_text(now=not self.state.glance)
        QTimer.singleShot(0, self.prebuild)

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self._tick_timer.stop()
        self.line_timer.stop()
        if self.voice is not None:
            self.voice.stop()  # the mic never stays open behind a closed card
            self.follow.stop()
        super().hideEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.save_geometry()
        self.save_now()
        super().closeEvent(event)
        self.closed.emit()

    def show_card(self) -> None:
        """Show without taking focus from the call (and without raising a dialog)."""
        if not self.placement.ready:
            self.restore_geometry()
        self.show()


def open_cue_card(
    ctx: AppContext,
    bus: AppBus,
    day,
    round_type: str | None = None,
    existing: CueCardWindow | None = None,
    *,
    captures=None,
) -> CueCardWindow:
    """Show the card (reusing ``existing`` if it is still alive) on ``round_type``."""
    window = existing
    if window is not None:
        try:
            window.isVisible()  # raises if Qt already deleted it
        except RuntimeError:
            window = None
    if window is None:
        window = CueCardWindow(ctx, bus, day, captures=captures)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    else:
        window.reload_state()
    if round_type:
        window.set_round(round_type)
    window.show_card()
    return window
