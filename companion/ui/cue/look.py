"""How the cue card looks and answers keys: glance mode, the options menu (opacity, text
size, frame, collapsing), the recovery lines on demand."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeyEvent
from PySide6.QtWidgets import QMenu, QWidget

from companion.core.cue import rounds as cue_rounds
from companion.core.cue import state as cue_state
from companion.ui.cue.style import style_sheet

SHORTCUTS = (
    "1-9: switch round · \u2190/\u2192 or Space: step · G: glance · Ctrl+Enter: start/end"
    " · +/-: text size · [ ]: opacity"
)


class LookMixin:
    """Glance mode, look, options menu and keys of the card window; mixed into it."""

    def _build_menu(self) -> QMenu:
        menu = QMenu(self)
        opacity = menu.addMenu("Opacity")
        self._opacity_group = QActionGroup(self)
        for pct in range(100, cue_state.OPACITY_MIN - 1, -10):
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
        step = cue_rounds.step_view(
            cue_rounds.stepper_section(page.sections) if page else None,
            self.state.step(info.id) if info else 0,
        )
        big, small = cue_rounds.glance_text(info.title if info else "", step, self._status)
        self.glance_text.setText(big)
        self.glance_caption.setText(small)

    def set_opacity(self, pct: int) -> None:
        self.state.opacity = cue_state.clamp_opacity(pct)
        self._change("opacity")
        self._apply_look()

    def change_font(self, delta: int) -> None:
        self.state.font_pt = cue_state.clamp_font(self.state.font_pt + delta)
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
            info = cue_rounds.round_for_key(self.infos, key - Qt.Key.Key_0)
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
