"""The cue card: a small always-on-top tool window beside the video call.

It never takes keyboard focus by itself: it is shown without activation and updates
(timer ticks, nudges, data refreshes) only change what it draws. Keys work once the
user clicks into it.

What it shows is one :class:`companion.core.cue.card.CardState`, computed from the day
view; the window computes it when something changes and hands each part its slice. It
is built of parts that own their widgets and state, wired here with signals and calls;
no part reaches into another's attributes:

- what it keeps between runs: :mod:`.memory`; its look and place: :mod:`.appearance`
- the header, the round tabs, the strips (:mod:`.banners`), the mic lines
  (:mod:`.mic_lines`), the stories fold, the round pages, the glance view and glance
  mode (:mod:`.glance`), the foot
- Start/End: :mod:`.press`; the step, folds, topic and length: :mod:`.controls`;
  the timers: :mod:`.ticker`
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from companion.core.context import AppContext
from companion.core.cue import card as cue_card
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import state as cue_state
from companion.core.platform_choice import wayland_rule_text
from companion.ui.bus import AppBus
from companion.ui.cue import voice as voice_line
from companion.ui.cue.appearance import CardAppearance
from companion.ui.cue.banners import NudgeBanner, share_reminder
from companion.ui.cue.controls import PageControls
from companion.ui.cue.foot import CardFoot
from companion.ui.cue.ghost import GhostMode
from companion.ui.cue.glance import GlanceMode, GlanceView
from companion.ui.cue.header import CardHeader
from companion.ui.cue.look import CardMenu, card_key
from companion.ui.cue.memory import CardStateCopy
from companion.ui.cue.mic_lines import MicLines
from companion.ui.cue.on_top import KeepAbove
from companion.ui.cue.page_source import PageSource
from companion.ui.cue.pages import RoundPages
from companion.ui.cue.press import StartEnd
from companion.ui.cue.sections import label
from companion.ui.cue.stories import StoriesPart
from companion.ui.cue.style import CardFrame
from companion.ui.cue.tabs import RoundTabs
from companion.ui.cue.ticker import CardTicker
from companion.ui.preflight.window import open_preflight

#: the change kinds the card's pages show (a Start or an End is a "round" change: the
#: card follows it through the day's view and rebuilds nothing for it)
CARD_KINDS = ("about", "stories", "plan", "loop", "content")


class CueCardWindow(QWidget):
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
        self.infos = cue_rounds.round_infos(ctx.content)
        self.view = None  # the day's last companion.core.day.model.DayView
        self.card: cue_card.CardState | None = None
        self.pick: cue_card.Pick | None = None
        self._make_parts()
        self._build()
        self.press = StartEnd(
            day, captures, self.memory, self.banner, ctx.now,
            compute=self.compute, render=self.render, running=self.running_round,
        )  # fmt: skip
        self.appearance.apply()
        self._follow_sources()

    def _make_parts(self) -> None:
        """The parts without widgets of their own in the card's layout."""
        self.memory = CardStateCopy(self.ctx.settings, self)  # saved a moment after a change
        self.source = PageSource(self.ctx)  # the pitch, the planned questions, the loop
        self.ghost = GhostMode(self)  # clicks pass through (companion/ui/cue/ghost.py)
        self.appearance = CardAppearance(self, self.memory, self.ghost)  # flags, look, place
        self.on_top = KeepAbove(self)  # on top again after a quick hide and show (X11)
        self.ticker = CardTicker(self, tick=self.tick, wake=self.render)  # its two timers

    def _follow_sources(self) -> None:
        """Render the day once, then follow it, the user's data and the screens."""
        view = self.day.view or self.day.refresh()  # before connecting: rendered once here
        self.bus.day_changed.connect(self.follow_day)
        self.follow_day(view)
        self.glancing.apply()
        # what the card shows from the user's data: the pitch (About me), the stories,
        # the planned questions and the loop; the rounds themselves come with the day
        # (day_changed), and nothing comes from quiz marks
        self.bus.changed.connect(self._data_changed)
        if self.captures is not None:
            self.captures.changed.connect(self.render)
        app = QGuiApplication.instance()
        app.screenAdded.connect(self.appearance.screens_changed)
        app.screenRemoved.connect(self.appearance.screens_changed)
        if QGuiApplication.platformName() == "wayland":  # COMPANION_WAYLAND=1: no stay-on-top
            import os

            self.banner.say(wayland_rule_text(os.environ), glance=self.state.glance)

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
        layout.addWidget(self._build_header())
        self.tabs = RoundTabs(self.infos)
        self.tabs.picked.connect(self.set_round)
        self.reminder = share_reminder()
        self.banner = NudgeBanner()
        self.mics = MicLines(self.ctx, self)
        self.voice, self.follow = self.mics.voice, self.mics.follow
        self.stories = StoriesPart(self.ctx, self.bus)
        for widget in (self.tabs, self.reminder, self.banner, self.voice, self.follow):
            layout.addWidget(widget)
        layout.addWidget(self.stories.fold)
        layout.addWidget(self._build_pages(), 1)
        self._empty = label(
            "The content has no round types. Add a `kind: rounds` file to the content "
            "folder (see content/README.md).",
        )
        self._empty.setVisible(not self.infos)
        layout.addWidget(self._empty)
        self.glance = GlanceView()
        layout.addWidget(self.glance, 1)
        self.foot = CardFoot(self)
        layout.addWidget(self.foot)
        self.glancing = GlanceMode(
            self.memory, self.appearance, self.header, self.glance,
            (self.tabs, self.pages, self.foot.hint), (self.banner, self.reminder),
            switched=self._glance_switched,
        )  # fmt: skip
        # the parts' widgets most callers (tests, the hotkey harness, ghost mode) read
        self.title, self.clock = self.header.title, self.header.clock
        self.start_button, self.glance_button = self.header.start_button, self.header.glance_button
        self.round_buttons, self.stack = self.tabs.buttons, self.pages
        self.banner_text, self.glance_text = self.banner.text, self.glance.text

    def _build_header(self) -> CardHeader:
        """The header and its ⋯ menu, wired to the parts their choices change."""
        self.menu = CardMenu(self)
        self.appearance.shown.connect(self.menu.render)
        self.menu.opacity_chosen.connect(self.appearance.set_opacity)
        self.menu.font_step.connect(self.appearance.change_font)
        self.menu.collapse_all.connect(lambda on: self.pages.collapse_all(on))
        self.menu.frame_toggled.connect(lambda on: self.appearance.set_frameless(not on))
        self.menu.hotkeys.connect(self.bus.open_hotkeys.emit)
        self.menu.preflight.connect(self.open_preflight)
        self.menu.ghost.connect(self.ghost.toggle)
        self.header = CardHeader(self, self.menu)
        self.header.pressed.connect(self.toggle_round)
        self.header.glance_toggled.connect(self.set_glance)
        self.header.close_requested.connect(self.close)
        return self.header

    def _build_pages(self) -> RoundPages:
        """The round pages and the controls that keep what the user changes on them."""
        self.pages = RoundPages(self._round_page)  # a bound method: RoundPages holds it weakly
        self.controls = PageControls(
            self.memory, self.pages, self.follow, self.day, self.ctx.content, self.infos,
            render=self.render,
        )  # fmt: skip
        self.pages.step_moved.connect(self.move_step)
        self.pages.collapsed_changed.connect(self.controls.fold)
        self.pages.topic_changed.connect(self.controls.topic)
        self.pages.length_changed.connect(self._on_length)
        self.pages.set_user_folds(self.state.collapsed)
        self.follow.outline.connect(
            lambda title, meta: voice_line.highlight(self.pages, title, meta)
        )
        return self.pages

    # ------------------------------------------------------------------ saved state

    @property
    def state(self) -> cue_state.CueState:
        """The card's saved state (companion/ui/cue/memory.py writes it)."""
        return self.memory.state

    def reload_state(self) -> None:
        """Pick up what the Cue page (or another window) saved, keeping our own edits."""
        self.memory.reload()
        loop_before = self.source.loop_id(self.state)
        self.source.forget()
        if self.source.loop_id(self.state) != loop_before:
            self.refresh_data()
        self.appearance.apply()
        self.render()

    # ------------------------------------------------------------------ the day

    def running_round(self):
        """The day's running round (companion.core.day.model), or None."""
        return self.view.current if self.view is not None else None

    @property
    def running(self) -> bool:
        """A round of the day runs now (whoever started it)."""
        return self.running_round() is not None

    @property
    def current(self) -> cue_rounds.RoundInfo | None:
        """The round type whose page is shown (a custom round's generic page too)."""
        return self._info(self.card.page) if self.card is not None else None

    def _info(self, page: str) -> cue_rounds.RoundInfo | None:
        if page == cue_card.GENERIC:
            rnd = self.card.round if self.card is not None else None
            return cue_card.generic_info(rnd.title if rnd else "Round", self.card.minutes)
        return cue_rounds.find_round(self.infos, page)

    def compute(self) -> cue_card.CardState:
        now = self.ctx.now()
        capture_open = self.captures is not None and self.captures.open_one() is not None
        return cue_card.card_state(
            self.view, self.infos, self.ctx.content, now,
            pick=self.pick, capture_open=capture_open, armed=self.press.armed(now),
            **self.memory.card_inputs(),
        )  # fmt: skip

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
        self.press.follow(state)
        self.memory.remember(state)
        info = self._info(state.page)
        self.header.render(state)
        self.tabs.render(state.page)
        if info is not None:
            self.pages.show(info)
            self.pages.render(state)
        self.banner.render(state, self.state.glance)
        self.stories.render(state.page, state.told_in)
        self._show_glance()
        self._sync_voice(state)
        self._sync_tick_timer()

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
        self.memory.remember(state)
        self.header.show_clock(state.status)
        if state.line != before.line:
            self.header.show_line(state)
        self.pages.show_time(state)
        if (state.nudge, state.nudge_text) != (before.nudge, before.nudge_text):
            self.banner.render(state, self.state.glance)
        self._show_glance()  # in glance mode its clock is the countdown
        self._sync_voice(state)  # the mic strips open or close as the opt-ins say
        self._sync_tick_timer()

    def _sync_tick_timer(self) -> None:
        until = self.card.line_until if self.card is not None else None
        self.ticker.sync(self.running, self.isVisible(), until, self.ctx.now)

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
        """Start/End: what the card state says the next press does (companion/ui/cue/press.py)."""
        self.press.press()

    def move_step(self, delta: int) -> None:
        self.controls.step(delta)

    def show_recovery(self) -> bool:
        """For "I'm stuck": leave glance mode, open the recovery lines and scroll to them
        (a global hotkey; the card does not take the focus). False if the round has none."""
        if self.state.glance:
            self.set_glance(False)
        return self.controls.open_recovery()

    def show_stories(self) -> bool:
        """The stories hotkey: open the Stories fold, or step its filter to the next
        question type. False when the round on screen has no Stories fold."""
        if self.state.glance:
            self.set_glance(False)
        if not self.stories.shown():
            return False
        self.stories.next_filter()
        return True

    def _on_length(self, round_id: str, minutes: int) -> None:
        if self.controls.set_length(round_id, minutes, self.running_round()):
            return  # the day's length: the day recomputes
        self.card = self.compute()
        self.pages.render(self.card, self.controls.nudges(round_id))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        found = card_key(event.key(), event.modifiers())
        if found is None:
            super().keyPressEvent(event)
            return
        name, value = found
        self._key_actions()[name](value)
        event.accept()

    def _key_actions(self) -> dict[str, Callable[[int], object]]:
        """What each of the card's keys (companion/ui/cue/look.py) does, given its value."""
        return {
            "round": self._round_key,
            "press": lambda _: self.toggle_round(),
            "step": self.move_step,
            "glance": lambda _: self.toggle_glance(),
            # Esc leaves glance mode; it never hides the card
            "leave-glance": lambda _: self.state.glance and self.set_glance(False),
            "font": self.appearance.change_font,
            "opacity": lambda step: self.set_opacity(self.state.opacity + step),
            "story-told": lambda _: self.stories.mark_current(),
            "stories": lambda _: self.show_stories(),
        }

    def _round_key(self, key: int) -> None:
        info = cue_rounds.round_for_key(self.infos, key)
        if info is not None:
            self.set_round(info.id)

    # ------------------------------------------------------------------ pages

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

    def open_preflight(self) -> None:
        open_preflight(self.ctx, self.bus, self.day.dnd, self)

    def prebuild(self) -> None:
        self.pages.prebuild(self.infos)

    # ------------------------------------------------------------------ the window

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.render()  # catches up (stale pages rebuilt), ticks each second while a round runs
        if self.memory.reminder_due(self.ctx.now().date()):
            self.reminder.show_text(now=not self.state.glance)
        QTimer.singleShot(0, self.prebuild)

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.ticker.stop()
        self.mics.stop()  # the mic never stays open behind a closed card
        super().hideEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.appearance.save_geometry()
        self.memory.save_now()
        super().closeEvent(event)
        self.closed.emit()

    def show_card(self) -> None:
        """Show without taking focus from the call (and without raising a dialog)."""
        if not self.appearance.placed:
            self.appearance.restore_geometry()
        self.show()

    def moveEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().moveEvent(event)
        self.appearance.moved()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.appearance.moved()

    def set_opacity(self, pct: int) -> None:
        """The card's own opacity (the ⋯ menu, the [ ] keys, the hotkeys through ghost mode)."""
        self.appearance.set_opacity(pct)

    def restore_geometry(self) -> bool:
        return self.appearance.restore_geometry()

    # ------------------------------------------------------------------ glance mode

    def set_glance(self, on: bool) -> None:
        self.glancing.set(on)

    def toggle_glance(self) -> None:
        self.glancing.set(not self.state.glance)

    def _glance_switched(self) -> None:
        self.mics.show(self.card, self.isVisible(), self.state.glance)
        self._show_glance()

    def _show_glance(self) -> None:
        if self.state.glance and self.card is not None:
            page = self.pages.current()
            self.glance.show_card(self.card, page.sections if page is not None else [])

    # ------------------------------------------------------------------ the voice lines

    def _sync_voice(self, state) -> None:
        rnd = self.running_round()  # its opt-in is kept per page: a custom type's page
        running = cue_card.page_for(rnd, self.infos)[0] if rnd is not None else None
        self.mics.sync(running, state, self.isVisible(), self.state.glance)


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
