"""The cue card: a small always-on-top tool window beside the video call.

It never takes keyboard focus by itself: it is shown without activation and updates
(timer ticks, nudges, data refreshes) only change what it draws. Keys work once the
user clicks into it. What to show is decided in :mod:`companion.core.cue` (rounds, timebox, state, placement).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizeGrip,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.context import AppContext
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import state as cue_state
from companion.core.cue import timebox
from companion.ui.bus import AppBus
from companion.ui.cue.fit_label import FitLabel
from companion.ui.cue.geometry import DragHandle, GeometryMixin
from companion.ui.cue.look import SHORTCUTS, LookMixin
from companion.ui.cue.sections import RoundPage, label, tool_button
from companion.ui.cue.timer import TICK_MS, TimerMixin
from companion.ui.cue.voice import VoiceMixin

log = logging.getLogger(__name__)

SAVE_DELAY_MS = 400


class CueCardWindow(TimerMixin, LookMixin, GeometryMixin, VoiceMixin, QWidget):
    def __init__(self, ctx: AppContext, bus: AppBus, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.setObjectName("cueCard")
        self.setWindowTitle("Cue card")
        self.setAccessibleName("Cue card")
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.state = cue_state.load_state(ctx.settings)
        self._changed: set[str] = set()
        self._pages: dict[str, RoundPage] = {}
        self._stale: set[str] = set()
        self._pitch: tuple[list[cue_rounds.CardLine], str] | None = None
        self._loop_id: int | None = None
        self._geometry_ready = False
        self._status: timebox.TimeboxStatus | None = None
        self._quiet = False
        self.infos = cue_rounds.round_infos(ctx.content)
        self._apply_flags()

        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save_now)
        self._geometry_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._geometry_timer.timeout.connect(self.save_geometry)
        self._tick_timer = QTimer(self, interval=TICK_MS)
        self._tick_timer.timeout.connect(self.tick)

        self._build()
        self._apply_look()
        # the card follows the day: the running round, or the next one when it is due
        day = self.day
        view = day.view or day.refresh()  # before connecting: follow_day runs once here
        bus.day_changed.connect(self.follow_day)
        self.follow_day(view)
        if self._current_page() is None:  # the day shows nothing: the type shown last time
            current = cue_rounds.find_round(self.infos, self.state.round_type) or (
                self.infos[0] if self.infos else None
            )
            if current is not None:
                self.set_round(current.id, by_hand=False)
            else:
                self._empty.setVisible(True)
        self._apply_glance()
        # what the card shows from the user's data: the pitch (About me), the planned
        # questions and the loop (journal); nothing comes from quiz marks
        for signal in (bus.about_changed, bus.journal_changed):
            signal.connect(self.refresh_data)
        app = QGuiApplication.instance()
        app.screenAdded.connect(self._screens_changed)
        app.screenRemoved.connect(self._screens_changed)
        if QGuiApplication.platformName() == "wayland":  # COMPANION_WAYLAND=1: no stay-on-top
            import os

            from companion.core.platform_choice import wayland_rule_text

            self._show_banner(wayland_rule_text(os.environ))

    # ------------------------------------------------------------------ building

    def _apply_flags(self) -> None:
        flags = Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint
        if self.state.frameless:
            flags |= Qt.WindowType.FramelessWindowHint
        self.setWindowFlags(flags)

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        frame = QFrame()
        frame.setObjectName("cueFrame")
        outer.addWidget(frame)
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.setSpacing(0)

        self.handle = DragHandle(self)
        head = QHBoxLayout(self.handle)
        head.setContentsMargins(6, 3, 3, 3)
        head.setSpacing(2)
        grip = QLabel("\u2237")
        grip.setProperty("role", "small")
        self.title = FitLabel("", "title", wrap=False)  # shrinks, then elides (tooltip: all)
        self.title.setAccessibleName("Round type")
        self.title.setMinimumWidth(40)
        self.clock = label("", "clock", wrap=False)
        self.clock.setAccessibleName("Round timer")
        self.start_button = tool_button(
            "Start",
            "Start round",
            "Start the round and its timer; records it in the journal (Ctrl+Enter)",
        )
        self.start_button.setObjectName("cueStart")
        self.start_button.clicked.connect(self.toggle_round)
        self.glance_button = tool_button(
            "Glance",
            "Glance mode",
            "Only the current step or nudge, in large type (G)",
            checkable=True,
        )
        self.glance_button.toggled.connect(self.set_glance)
        self.menu_button = tool_button("\u22ef", "Card options", "Opacity, text size, window frame")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_button.setMenu(self._build_menu())
        close = tool_button("\u2715", "Close the card", "Close the card (the round keeps running)")
        close.clicked.connect(self.close)
        head.addWidget(grip)
        head.addWidget(self.title, 1)
        head.addWidget(self.clock)
        head.addWidget(self.start_button)
        head.addWidget(self.glance_button)
        head.addWidget(self.menu_button)
        head.addWidget(close)
        layout.addWidget(self.handle)

        self.strip = QWidget()
        self.strip.setObjectName("cueStrip")
        grid = QGridLayout(self.strip)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setSpacing(2)
        self.round_buttons: dict[str, QToolButton] = {}
        for n, info in enumerate(self.infos):
            text = f"{info.key} {info.short}" if info.key else info.short
            button = tool_button(
                text,
                f"Round type {info.title}",
                f"{info.title} ({info.key})" if info.key else info.title,
                checkable=True,
            )
            button.setProperty("role", "roundButton")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.clicked.connect(lambda _=False, rid=info.id: self.set_round(rid))
            grid.addWidget(button, n // 2, n % 2)  # two columns keep the card narrow
            self.round_buttons[info.id] = button
        layout.addWidget(self.strip)

        self.reminder = QFrame()
        self.reminder.setObjectName("cueReminder")
        rem = QHBoxLayout(self.reminder)
        rem.setContentsMargins(8, 6, 6, 6)
        text = label(
            "This card is visible to anyone you share your screen with. Share one window, "
            "not the whole screen, or keep the card on a screen you do not share.",
            "small",
        )
        text.setAccessibleName("Screen sharing reminder")
        got_it = tool_button("Got it", "Dismiss the screen sharing reminder", "Hide this reminder")
        got_it.clicked.connect(lambda: self.reminder.setVisible(False))
        rem.addWidget(text, 1)
        rem.addWidget(got_it, 0, Qt.AlignmentFlag.AlignTop)
        self.reminder.setVisible(False)
        layout.addWidget(self.reminder)

        self.banner = QFrame()
        self.banner.setObjectName("cueNudge")
        ban = QHBoxLayout(self.banner)
        ban.setContentsMargins(8, 6, 6, 6)
        self.banner_text = label("", "nudgeBanner")
        self.banner_text.setAccessibleName("Nudge")
        dismiss = tool_button("\u2715", "Dismiss the nudge", "Hide this nudge")
        dismiss.clicked.connect(lambda: self.banner.setVisible(False))
        ban.addWidget(self.banner_text, 1)
        ban.addWidget(dismiss, 0, Qt.AlignmentFlag.AlignTop)
        self.banner.setVisible(False)
        layout.addWidget(self.banner)
        self._build_voice(layout)

        self.stack = QStackedWidget()
        self.stack.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout.addWidget(self.stack, 1)
        self._empty = label(
            "The content has no round types. Add a `kind: rounds` file to the content "
            "folder (see content/README.md).",
        )
        self._empty.setVisible(False)
        layout.addWidget(self._empty)

        self.glance = QWidget()
        self.glance.setObjectName("cueGlance")
        gl = QVBoxLayout(self.glance)
        gl.setContentsMargins(10, 6, 10, 6)
        self.glance_text = FitLabel("", "glance")  # shrinks to fit, never clipped
        self.glance_text.setAccessibleName("Glance text")
        self.glance_caption = label("", "small")
        gl.addWidget(self.glance_text, 1)
        gl.addWidget(self.glance_caption)
        self.glance.setVisible(False)
        layout.addWidget(self.glance, 1)

        foot = QHBoxLayout()
        foot.setContentsMargins(6, 0, 0, 0)
        self.hint = label("Keys: 1-9 round · \u2190\u2192 step · G glance", "hint", wrap=False)
        self.hint.setToolTip(SHORTCUTS)
        foot.addWidget(self.hint, 1)
        self.size_grip = QSizeGrip(self)
        self.size_grip.setToolTip("Drag to resize the card")
        self.size_grip.setAccessibleName("Resize the card")
        foot.addWidget(
            self.size_grip, 0, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight
        )
        layout.addLayout(foot)

    # ------------------------------------------------------------------ state

    def _change(self, *names: str) -> None:
        """Mark fields as changed by the card and save soon (merged with other writers)."""
        self._changed.update(names)
        self._save_timer.start()

    def save_now(self) -> None:
        self._save_timer.stop()
        if not self._changed:
            return
        try:
            fresh = cue_state.load_state(self.ctx.settings)
            self.state = cue_state.merge_state(fresh, self.state, self._changed)
            cue_state.save_state(self.ctx.settings, self.state)
            self._changed.clear()
        except Exception as exc:  # a locked or broken database must not break the card
            log.warning("could not save the cue card state: %s", exc)

    def reload_state(self) -> None:
        """Pick up what the Cue page (or another window) saved, keeping our own edits."""
        fresh = cue_state.load_state(self.ctx.settings)
        self.state = cue_state.merge_state(fresh, self.state, self._changed)
        loop_before = self._loop_id
        self._loop_id = None
        self._resolve_loop()
        if self._loop_id != loop_before:
            self.refresh_data()
        self._apply_look()

    # ------------------------------------------------------------------ rounds

    @property
    def current(self) -> cue_rounds.RoundInfo | None:
        return cue_rounds.find_round(self.infos, self.state.round_type)

    def set_round(self, round_id: str, *, by_hand: bool = True) -> bool:
        """Show another round type: a click, a key 1-9 or ``companion cue --round`` (by
        hand: kept until the day moves on), or the day's own round (``by_hand=False``)."""
        info = cue_rounds.find_round(self.infos, round_id)
        if info is None:
            return False
        if by_hand:
            self.picked_by_hand()
        self._show_round(info)
        self._show_clocked()
        return True

    def _show_round(self, info: cue_rounds.RoundInfo) -> None:
        """Put ``info``'s page on the card: the part of a switch the clock does not change
        (:meth:`_show_clocked` does the rest, and :meth:`tick` calls it too)."""
        if self.state.round_type != info.id:
            self.state.round_type = info.id
            self._change("round_type")
        page = self._page(info)
        self.stack.setCurrentWidget(page)
        for rid, button in self.round_buttons.items():
            button.setChecked(rid == info.id)
        self.title.setText(info.short)
        self.title.setToolTip(info.title)
        self._show_step(page)

    def _page(self, info: cue_rounds.RoundInfo) -> RoundPage:
        page = self._pages.get(info.id)
        if page is not None and info.id not in self._stale:
            return page
        new = self._build_page(info)
        if page is not None:
            self.stack.removeWidget(page)
            page.deleteLater()
        self._stale.discard(info.id)
        self._pages[info.id] = new
        self.stack.addWidget(new)
        return new

    def _build_page(self, info: cue_rounds.RoundInfo) -> RoundPage:
        content = self.ctx.content
        pitch, pitch_note = self._pitch_lines() if "@pitch-outline" in info.sections else ([], "")
        planned: list[cue_rounds.CardLine] = []
        if "@planned-questions" in info.sections:
            from companion.core.cue.sources import planned_question_lines

            planned = planned_question_lines(self.ctx.db, self._resolve_loop(), info.audience)
        sections = cue_rounds.build_sections(
            content,
            info,
            pitch_outline=pitch,
            pitch_note=pitch_note,
            planned=planned,
            planned_note="Planned for this interviewer" if planned else "",
            closing_topic=self.state.closing_topic,
            minutes=self.state.round_minutes(info),
        )
        closing = content.by_kind("closing")
        template = closing[0].items[0].text if closing and closing[0].items else ""
        page = RoundPage(
            info.id,
            sections,
            collapsed=set(self.state.collapsed),
            topic=self.state.closing_topic,
            minutes=self.state.round_minutes(info),
            closing_template=template,
        )
        page.collapsed_changed.connect(self._on_collapsed)
        page.step_moved.connect(self.move_step)
        page.topic_changed.connect(self._on_topic)
        page.length_changed.connect(lambda m, rid=info.id: self._on_length(rid, m))
        return page

    def _pitch_lines(self) -> tuple[list[cue_rounds.CardLine], str]:
        if self._pitch is None:
            from companion.core.cue.sources import pitch_outline_lines

            self._pitch = pitch_outline_lines(self.ctx.db, self.ctx.content.pitch_plan())
        return self._pitch

    def _resolve_loop(self) -> int | None:
        if self._loop_id is None:
            from companion.core.cue.sources import resolve_loop_id

            try:
                self._loop_id = resolve_loop_id(self.ctx.db, self.state, self.ctx.now().date())
            except Exception as exc:
                log.warning("no current loop: %s", exc)
        return self._loop_id

    def refresh_data(self) -> None:
        """About me, the planner or the journal changed: rebuild pages when next shown."""
        if self._quiet:
            return
        self._pitch = None
        self._loop_id = None
        self._stale.update(self._pages)
        if self.current is not None and self.isVisible():  # hidden: rebuilt in showEvent
            self.set_round(self.current.id, by_hand=False)

    def prebuild(self) -> None:
        """Build the other round pages ahead of time, one per event-loop turn, so the
        first switch to each is as quick as the later ones."""
        pending = [i for i in self.infos if i.id not in self._pages]
        if not pending:
            return
        page = self._page(pending[0])
        page.setVisible(False)
        QTimer.singleShot(0, self.prebuild)

    # ------------------------------------------------------------------ stepper

    def move_step(self, delta: int) -> None:
        page = self._current_page()
        if page is None or page.stepper is None:
            return
        section = cue_rounds.stepper_section(page.sections)
        count = len(section.lines) if section else 0
        before = self.state.step(page.round_id)
        if self.state.move_step(page.round_id, delta, count) != before:
            self._change("steps")
        self._show_step(page)
        self._update_glance()

    def _show_step(self, page: RoundPage) -> None:
        if page.stepper is not None:
            section = cue_rounds.stepper_section(page.sections)
            page.stepper.show_view(cue_rounds.step_view(section, self.state.step(page.round_id)))

    def _current_page(self) -> RoundPage | None:
        widget = self.stack.currentWidget()
        return widget if isinstance(widget, RoundPage) else None


def open_cue_card(
    ctx: AppContext,
    bus: AppBus,
    round_type: str | None = None,
    existing: CueCardWindow | None = None,
) -> CueCardWindow:
    """Show the card (reusing ``existing`` if it is still alive) on ``round_type``."""
    window = existing
    if window is not None:
        try:
            window.isVisible()  # raises if Qt already deleted it
        except RuntimeError:
            window = None
    if window is None:
        window = CueCardWindow(ctx, bus)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    else:
        window.reload_state()
    if round_type:
        window.set_round(round_type)
    window.show_card()
    return window
