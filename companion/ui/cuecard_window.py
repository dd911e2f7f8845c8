"""The cue card: a small always-on-top tool window beside the video call.

It never takes keyboard focus by itself: it is shown without activation and updates
(timer ticks, nudges, data refreshes) only change what it draws. Keys work once the
user clicks into it. What to show is decided in :mod:`companion.core.cuecard`.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizeGrip,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.core import cuecard as cc
from companion.core.context import AppContext
from companion.ui.bus import AppBus
from companion.ui.cue_sections import RoundPage, label, tool_button

log = logging.getLogger(__name__)

TICK_MS = 1000
SAVE_DELAY_MS = 400
SHORTCUTS = (
    "1-9: switch round · \u2190/\u2192 or Space: step · G: glance · Ctrl+Enter: start/end"
    " · +/-: text size · [ ]: opacity"
)


def _rect(qrect) -> cc.Rect:
    return cc.Rect(qrect.x(), qrect.y(), qrect.width(), qrect.height())


class DragHandle(QFrame):
    """The card's title strip: drag it to move a frameless card."""

    def __init__(self, window: QWidget, parent=None):
        super().__init__(parent)
        self._window = window
        self._press: QPoint | None = None
        self.setObjectName("cueHandle")
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag to move the card")
        self.setAccessibleName("Move the card")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        handle = self._window.windowHandle()
        # the compositor moves the window where it can (the only way on Wayland)
        if handle is not None and handle.startSystemMove():
            self._press = None
        else:
            self._press = event.globalPosition().toPoint() - self._window.frameGeometry().topLeft()
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._window.move(event.globalPosition().toPoint() - self._press)
            event.accept()
        else:
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._press = None
        super().mouseReleaseEvent(event)


class CueCardWindow(QWidget):
    def __init__(self, ctx: AppContext, bus: AppBus, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.setObjectName("cueCard")
        self.setWindowTitle("Cue card")
        self.setAccessibleName("Cue card")
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.state = cc.load_state(ctx.settings)
        self._changed: set[str] = set()
        self._pages: dict[str, RoundPage] = {}
        self._stale: set[str] = set()
        self._pitch: tuple[list[cc.CardLine], str] | None = None
        self._loop_id: int | None = None
        self._geometry_ready = False
        self._status: cc.TimeboxStatus | None = None
        self._quiet = False
        self.infos = cc.round_infos(ctx.content)
        self._apply_flags()

        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save_now)
        self._geometry_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._geometry_timer.timeout.connect(self.save_geometry)
        self._tick_timer = QTimer(self, interval=TICK_MS)
        self._tick_timer.timeout.connect(self.tick)

        self._build()
        self._apply_look()
        current = cc.find_round(self.infos, self.state.round_type) or (
            self.infos[0] if self.infos else None
        )
        if current is not None:
            self.set_round(current.id)
        else:
            self._empty.setVisible(True)
        self._apply_glance()
        for signal in (bus.about_changed, bus.quiz_changed, bus.journal_changed):
            signal.connect(self.refresh_data)
        app = QGuiApplication.instance()
        app.screenAdded.connect(self._screens_changed)
        app.screenRemoved.connect(self._screens_changed)
        self.tick()
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
        self.title = label("", "title", wrap=False)
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
        self.glance_text = label("", "glance")
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

    def _build_menu(self) -> QMenu:
        menu = QMenu(self)
        opacity = menu.addMenu("Opacity")
        self._opacity_group = QActionGroup(self)
        for pct in range(100, cc.OPACITY_MIN - 1, -10):
            action = QAction(f"{pct}%", self, checkable=True)
            action.setData(pct)
            action.triggered.connect(lambda _=False, p=pct: self.set_opacity(p))
            self._opacity_group.addAction(action)
            opacity.addAction(action)
        menu.addAction("Larger text  (+)", lambda: self.change_font(1))
        menu.addAction("Smaller text  (-)", lambda: self.change_font(-1))
        menu.addSeparator()
        menu.addAction("Collapse all sections", lambda: self._collapse_all(True))
        menu.addAction("Expand all sections", lambda: self._collapse_all(False))
        menu.addSeparator()
        self._frame_action = QAction("Window frame", self, checkable=True)
        self._frame_action.setChecked(not self.state.frameless)
        self._frame_action.toggled.connect(lambda on: self.set_frameless(not on))
        menu.addAction(self._frame_action)
        menu.addAction("Global hotkeys\u2026", self.bus.open_hotkeys.emit)
        menu.addSeparator()
        help_action = menu.addAction("Shortcuts: " + SHORTCUTS.split(" · ")[0] + " \u2026")
        help_action.setToolTip(SHORTCUTS)
        help_action.setEnabled(False)
        menu.setToolTipsVisible(True)
        return menu

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
            fresh = cc.load_state(self.ctx.settings)
            self.state = cc.merge_state(fresh, self.state, self._changed)
            cc.save_state(self.ctx.settings, self.state)
            self._changed.clear()
        except Exception as exc:  # a locked or broken database must not break the card
            log.warning("could not save the cue card state: %s", exc)

    def reload_state(self) -> None:
        """Pick up what the Cue page (or another window) saved, keeping our own edits."""
        fresh = cc.load_state(self.ctx.settings)
        self.state = cc.merge_state(fresh, self.state, self._changed)
        loop_before = self._loop_id
        self._loop_id = None
        self._resolve_loop()
        if self._loop_id != loop_before:
            self.refresh_data()
        self._apply_look()

    # ------------------------------------------------------------------ rounds

    @property
    def current(self) -> cc.RoundInfo | None:
        return cc.find_round(self.infos, self.state.round_type)

    def set_round(self, round_id: str) -> bool:
        """Show another round type (a click, a key 1-9, or ``companion cue --round``)."""
        info = cc.find_round(self.infos, round_id)
        if info is None:
            return False
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
        self._show_timebox(page)
        self._update_glance()
        return True

    def _page(self, info: cc.RoundInfo) -> RoundPage:
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

    def _build_page(self, info: cc.RoundInfo) -> RoundPage:
        content = self.ctx.content
        pitch, pitch_note = self._pitch_lines() if "@pitch-outline" in info.sections else ([], "")
        planned: list[cc.CardLine] = []
        if "@planned-questions" in info.sections:
            from companion.core.cue_sources import planned_question_lines

            planned = planned_question_lines(self.ctx.db, self._resolve_loop(), info.audience)
        sections = cc.build_sections(
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

    def _pitch_lines(self) -> tuple[list[cc.CardLine], str]:
        if self._pitch is None:
            from companion.core.cue_sources import pitch_outline_lines

            self._pitch = pitch_outline_lines(self.ctx.db)
        return self._pitch

    def _resolve_loop(self) -> int | None:
        if self._loop_id is None:
            from companion.core.cue_sources import resolve_loop_id

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
        if self.current is not None:
            self.set_round(self.current.id)

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
        section = cc.stepper_section(page.sections)
        count = len(section.lines) if section else 0
        before = self.state.step(page.round_id)
        if self.state.move_step(page.round_id, delta, count) != before:
            self._change("steps")
        self._show_step(page)
        self._update_glance()

    def _show_step(self, page: RoundPage) -> None:
        if page.stepper is not None:
            section = cc.stepper_section(page.sections)
            page.stepper.show_view(cc.step_view(section, self.state.step(page.round_id)))

    def _current_page(self) -> RoundPage | None:
        widget = self.stack.currentWidget()
        return widget if isinstance(widget, RoundPage) else None

    # ------------------------------------------------------------------ timebox

    def toggle_round(self) -> None:
        """Start the round (journal row + timer) or end it and open the quick capture."""
        from companion.core import cue_sources

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

    def _running_info(self) -> cc.RoundInfo | None:
        if not self.state.running:
            return None
        return cc.find_round(self.infos, self.state.running_type)

    def timebox_status(self) -> cc.TimeboxStatus | None:
        info = self._running_info()
        started = self.state.started
        if info is None or started is None:
            return None
        minutes = self.state.running_minutes
        nudges = cc.timebox_nudges(self.ctx.content.section(info.nudges), minutes)
        return cc.timebox_status(started, self.ctx.now(), minutes, nudges)

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
            left = cc.format_clock(status.remaining)
            self.clock.setText(left if status.remaining >= 0 else f"+{left[1:]}")
            self.clock.setProperty("phase", status.phase)
            self._repolish(self.clock)
            fresh = cc.newly_due(
                cc.timebox_nudges(
                    self.ctx.content.section(self._running_info().nudges),
                    self.state.running_minutes,
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
        info = cc.find_round(self.infos, page.round_id)
        status = self._status if self.state.running_type == page.round_id else None
        if status is None:
            page.timebox.show_idle(self.state.round_minutes(info))
        else:
            page.timebox.show_status(status, self.state.running_minutes)

    def _show_banner(self, text: str) -> None:
        self.banner_text.setText(text)
        self.banner.setVisible(not self.state.glance)

    def _on_length(self, round_id: str, minutes: int) -> None:
        self.state.minutes[round_id] = cc.clamp_minutes(minutes)
        self._change("minutes")
        page = self._pages.get(round_id)
        info = cc.find_round(self.infos, round_id)
        if page is not None and page.timebox is not None and info is not None:
            nudges = cc.timebox_nudges(self.ctx.content.section(info.nudges), minutes)
            page.timebox.set_schedule(nudges)
            page.timebox.show_idle(minutes)

    # ------------------------------------------------------------------ glance, look

    def set_glance(self, on: bool) -> None:
        if self.state.glance != on:
            self.state.glance = on
            self._change("glance")
            self.save_geometry(glance=not on)
        self._apply_glance()
        if self._geometry_ready:
            self.restore_geometry()

    def toggle_glance(self) -> None:
        self.set_glance(not self.state.glance)

    def _apply_glance(self) -> None:
        on = self.state.glance
        self.glance_button.blockSignals(True)
        self.glance_button.setChecked(on)
        self.glance_button.blockSignals(False)
        for widget in (self.strip, self.stack, self.hint):
            widget.setVisible(not on)
        if on:
            self.banner.setVisible(False)
            self.reminder.setVisible(False)
        self.glance.setVisible(on)
        self._update_glance()

    def _update_glance(self) -> None:
        if not self.state.glance:
            return
        info = self.current
        page = self._current_page()
        step = cc.step_view(
            cc.stepper_section(page.sections) if page else None,
            self.state.step(info.id) if info else 0,
        )
        big, small = cc.glance_text(info.title if info else "", step, self._status)
        self.glance_text.setText(big)
        self.glance_caption.setText(small)

    def show_recovery(self) -> bool:
        """For "I'm stuck": leave glance mode, open the recovery lines and scroll to them
        (a global hotkey; the card does not take the focus). False if the round has none."""
        if self.state.glance:
            self.set_glance(False)
        page = self._current_page()
        block = page.blocks.get("recovery") if page is not None else None
        if block is None:
            return False
        block.set_collapsed(False)
        page.scroll.ensureWidgetVisible(block.header)
        return True

    def set_opacity(self, pct: int) -> None:
        self.state.opacity = cc.clamp_opacity(pct)
        self._change("opacity")
        self._apply_look()

    def change_font(self, delta: int) -> None:
        self.state.font_pt = cc.clamp_font(self.state.font_pt + delta)
        self._change("font_pt")
        self._apply_look()

    def set_frameless(self, frameless: bool) -> None:
        if self.state.frameless == frameless:
            return
        self.state.frameless = frameless
        self._change("frameless")
        geometry = self.geometry()
        visible = self.isVisible()
        self._apply_flags()  # hides the window
        self.setGeometry(geometry)
        if visible:
            self.show()

    def _apply_look(self) -> None:
        self.setWindowOpacity(self.state.opacity / 100)
        for action in self._opacity_group.actions():
            action.setChecked(action.data() == round(self.state.opacity, -1))
        self.setStyleSheet(style_sheet(self.state.font_pt))

    def _collapse_all(self, collapsed: bool) -> None:
        page = self._current_page()
        if page is not None:
            page.set_all_collapsed(collapsed)

    def _on_collapsed(self, section_id: str, collapsed: bool) -> None:
        names = set(self.state.collapsed)
        if collapsed:
            names.add(section_id)
        else:
            names.discard(section_id)
        self.state.collapsed = sorted(names)
        self._change("collapsed")
        for page in self._pages.values():  # the same section folds in every round
            block = page.blocks.get(section_id)
            if block is not None and block.collapsed != collapsed:
                block.blockSignals(True)
                block.set_collapsed(collapsed)
                block.blockSignals(False)

    def _on_topic(self, topic: str) -> None:
        self.state.closing_topic = topic
        self._change("closing_topic")
        for page in self._pages.values():
            page.set_topic(topic)

    @staticmethod
    def _repolish(widget: QWidget) -> None:
        widget.style().unpolish(widget)
        widget.style().polish(widget)

    # ------------------------------------------------------------------ keys

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ctrl = mods & Qt.KeyboardModifier.ControlModifier
        if ctrl and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.toggle_round()
        elif not mods and Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            info = cc.round_for_key(self.infos, key - Qt.Key.Key_0)
            if info is not None:
                self.set_round(info.id)
        elif not ctrl and key in (Qt.Key.Key_Right, Qt.Key.Key_Space):
            self.move_step(1)
        elif not ctrl and key == Qt.Key.Key_Left:
            self.move_step(-1)
        elif key == Qt.Key.Key_G and not ctrl:
            self.toggle_glance()
        elif key == Qt.Key.Key_Escape and self.state.glance:
            self.set_glance(False)
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.change_font(1)
        elif key == Qt.Key.Key_Minus:
            self.change_font(-1)
        elif key == Qt.Key.Key_BracketLeft:
            self.set_opacity(self.state.opacity - 10)
        elif key == Qt.Key.Key_BracketRight:
            self.set_opacity(self.state.opacity + 10)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # ------------------------------------------------------------------ geometry, show

    def _screens(self) -> tuple[list[cc.Rect], list[cc.Rect]]:
        screens = QGuiApplication.screens()
        return (
            [_rect(s.geometry()) for s in screens],
            [_rect(s.availableGeometry()) for s in screens],
        )

    def restore_geometry(self) -> bool:
        """Place the card where it was on this screen layout; returns True if it had to
        be brought back onto a screen."""
        screens, usable = self._screens()
        saved = self.ctx.settings.get(cc.GEOMETRY_KEY)
        rect, rescued = cc.restore_rect(saved, screens, self.state.glance, usable)
        hint = self.minimumSizeHint()
        fitted = cc.fit_rect(rect, hint.width(), hint.height(), usable)
        rescued = rescued or (fitted.x, fitted.y) != (rect.x, rect.y)
        self.setGeometry(fitted.x, fitted.y, fitted.w, fitted.h)
        self._geometry_ready = True
        return rescued

    def save_geometry(self, glance: bool | None = None) -> None:
        self._geometry_timer.stop()
        if not self._geometry_ready:
            return
        screens, _ = self._screens()
        try:
            saved = self.ctx.settings.get(cc.GEOMETRY_KEY)
            mode = self.state.glance if glance is None else glance
            self.ctx.settings.set(
                cc.GEOMETRY_KEY, cc.remember_rect(saved, screens, _rect(self.geometry()), mode)
            )
        except Exception as exc:
            log.warning("could not save the card's position: %s", exc)

    def _screens_changed(self, *_args) -> None:
        if self.isVisible():
            screens, usable = self._screens()
            rect = cc.rescue_rect(_rect(self.geometry()), usable)
            if rect != _rect(self.geometry()):
                self.setGeometry(rect.x, rect.y, rect.w, rect.h)

    def moveEvent(self, event) -> None:
        super().moveEvent(event)
        if self._geometry_ready:
            self._geometry_timer.start()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._geometry_ready:
            self._geometry_timer.start()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._tick_timer.start()
        today = self.ctx.now().date()
        if self.state.needs_share_reminder(today):
            self.state.reminder_shown_on = today.isoformat()
            self._change("reminder_shown_on")
            self.reminder.setVisible(not self.state.glance)
        QTimer.singleShot(0, self.prebuild)

    def hideEvent(self, event) -> None:
        self._tick_timer.stop()
        super().hideEvent(event)

    def closeEvent(self, event) -> None:
        self.save_geometry()
        self.save_now()
        super().closeEvent(event)

    def show_card(self) -> None:
        """Show without taking focus from the call (and without raising a dialog)."""
        if not self._geometry_ready:
            self.restore_geometry()
        self.show()


def style_sheet(base_pt: int) -> str:
    """Font sizes scale with the card's text size; colours come from the palette so light
    and dark schemes both work."""

    def pt(factor: float) -> str:
        return f"{max(6, round(base_pt * factor))}pt"

    return f"""
    QWidget {{ font-size: {pt(1)}; }}
    #cueFrame {{ border: 1px solid palette(mid); background: palette(window); }}
    #cueHandle {{ background: palette(button); border-bottom: 1px solid palette(mid); }}
    QLabel[role="title"] {{ font-size: {pt(1.1)}; font-weight: 600; }}
    QLabel[role="clock"] {{ font-size: {pt(1.1)}; font-weight: 600; padding: 0 4px; }}
    QLabel[role="clock"][phase="near-end"], QLabel[role="clock"][phase="over"] {{
        color: palette(highlighted-text); background: palette(highlight); border-radius: 3px; }}
    QLabel[role="large"] {{ font-size: {pt(1.5)}; font-weight: 600; }}
    QLabel[role="glance"] {{ font-size: {pt(2.2)}; font-weight: 600; }}
    QLabel[role="small"], QLabel[role="hint"] {{ font-size: {pt(0.85)}; }}
    QLabel[role="say"] {{ font-style: italic; }}
    QLabel[role="nudge"] {{ font-weight: 600; }}
    QLabel[role="nudge"][fresh="true"] {{ color: palette(highlighted-text);
        background: palette(highlight); padding: 2px 4px; border-radius: 3px; }}
    QToolButton::menu-indicator {{ image: none; width: 0px; }}
    QLabel[role="rule"] {{ font-size: {pt(0.95)}; padding: 5px 8px; border-top: 1px solid palette(mid);
        background: palette(alternate-base); }}
    #cueNudge {{ background: palette(highlight); }}
    #cueNudge QLabel, #cueNudge QToolButton {{ color: palette(highlighted-text); font-weight: 600; }}
    #cueReminder {{ background: palette(alternate-base); border-bottom: 1px solid palette(mid); }}
    #cueStrip QToolButton {{ padding: 2px 4px; }}
    #cueStrip QToolButton:checked {{ background: palette(highlight); color: palette(highlighted-text);
        border-radius: 3px; }}
    #cueStart[running="true"] {{ font-weight: 600; }}
    #cueSectionHeader {{ font-weight: 600; text-align: left; }}
    """


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
