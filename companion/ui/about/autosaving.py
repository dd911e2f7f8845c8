"""The typing, preview and autosave cycle the one-pager and the story bank share.

Typing only marks the text dirty and restarts two timers: the preview and the side
panel's analysis re-render after a short pause (the page's ``refresh``), and the autosave
writes within a second of the last keystroke. A page mixes this in and builds the widgets
it drives: ``editor``, ``preview``, ``panel``, ``status``, ``notice_row``, ``autosaver``;
it names what a save announces (``change_kind``) and how its preview renders
(``renderer_class``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence

from companion.core.about.render import SafeRenderer
from companion.core.changes import Change
from companion.ui.widgets.preview_render import PreviewRender

RENDER_IDLE_MS = 150  # re-render this long after the last keystroke
AUTOSAVE_TICK_MS = 100


class AutosavedEditing:
    change_kind = "about"
    renderer_class = SafeRenderer

    _renderer = None
    _preview_render = None

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        """A page action; with a shortcut, one that works only while the page has focus,
        its key said in the tooltip."""
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            tip = (
                f"{tip} ({QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)})"
            )
        action.setToolTip(tip.strip())
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _make_timers(self) -> None:
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.timeout.connect(self.refresh)
        self._save_timer = QTimer(self)
        self._save_timer.setInterval(AUTOSAVE_TICK_MS)
        self._save_timer.timeout.connect(self._autosave_tick)

    def _mark_edited(self) -> None:
        """A keystroke: dirty, and the autosave's timer running."""
        self.autosaver.touch()
        if not self._save_timer.isActive():
            self._save_timer.start()
            self.status.setText("Editing…")

    @property
    def renderer(self):
        if self._renderer is None:
            self._renderer = self.renderer_class()
        return self._renderer

    @property
    def preview_render(self):
        if self._preview_render is None:
            # the same renderer on the GUI thread and the worker alike
            self._preview_render = PreviewRender(self, self.renderer_class)
        return self._preview_render

    def _show_preview(self, text: str) -> None:
        """Rendered at once when short, else off the GUI thread (the latest text only)."""
        self.preview_render.request(text, self.preview.show_render)

    def _pause_live(self, panel_text: str, preview_text: str) -> None:
        """A text too long to analyse live: the panel and the preview say so."""
        self.analysis = None
        self.panel.show_paused(panel_text)
        self.preview_render.cancel()
        self.preview.show_message(preview_text)

    def _autosave_tick(self) -> None:
        if self.autosaver.tick():
            self._saved()
        elif self.autosaver.last_error:
            self.status.setText("Not saved")
            self.show_notice(self.autosaver.last_error + " Your text is still in the editor.")
        if not self.autosaver.dirty:
            self._save_timer.stop()

    def _saved(self) -> None:
        self.status.setText("Saved " + self.ctx.now().strftime("%H:%M:%S"))
        self.is_new = False
        self.bus.announce(Change.of(self.change_kind, origin=self))  # the editor shows it

    def save_now(self, reason: str = "save") -> bool:
        """Write the text at once (Ctrl+S keeps a revision as well)."""
        ok = self.autosaver.save_now(reason)
        if ok:
            self._save_timer.stop()
            self._saved()
        else:
            self.show_notice(f"{self.autosaver.last_error} Your text is still in the editor.")
        return ok

    def show_notice(self, text: str) -> None:
        self.notice_row.show_text(text)

    def _stop_editing(self) -> None:
        """At close: what is unsaved is written; a render on its way is not shown."""
        if self.autosaver.dirty:
            self.autosaver.save_now()
        self._save_timer.stop()
        self._render_timer.stop()
        if self._preview_render is not None:
            self._preview_render.cancel()
            self._preview_render.wait()
