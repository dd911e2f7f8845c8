"""The typing, preview and autosave cycle the one-pager and the story bank share.

Typing only marks the text dirty and restarts two timers: the preview and the side
panel's analysis re-render after a short pause (the page's ``render``), and the autosave
writes within a second of the last keystroke. The page builds the editor's widgets and
hands in what the cycle drives: the preview, the autosaver, and where its notices go; the
save status it reports is a signal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from companion.core.about.autosave import Autosaver
from companion.core.about.render import SafeRenderer
from companion.ui.widgets.preview_render import PreviewRender

RENDER_IDLE_MS = 150  # re-render this long after the last keystroke
AUTOSAVE_TICK_MS = 100


@dataclass(frozen=True)
class Document:
    """What one editor edits: the one-pager or the story bank."""

    store: object  # core.about.store, or a DocumentStore
    name: str  # in messages and titles: "one-pager"
    export_file: str  # the export dialog's suggested name
    renderer_class: type = SafeRenderer  # the preview's and the PDF's renderer


class AutosaveCycle(QObject):
    """One editor's cycle: :meth:`typed` on every edit; ``render`` is called after the
    pause; :attr:`saved` after every write."""

    saved = Signal()
    status_changed = Signal(str)  # "Editing…", "Saved 10:02:03", "Not saved"

    def __init__(
        self,
        page: QWidget,
        ctx,
        document: Document,
        *,
        editor,
        preview,
        render: Callable[[], None],
        notice: Callable[[str], None],
        render_max_seconds: float | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        super().__init__(page)
        self.autosaver = Autosaver(
            ctx.db,
            editor.toPlainText,
            wall_clock=ctx.now,
            monotonic=monotonic,
            store=document.store,
            what=f"the {document.name}",
        )
        self._preview = preview
        self._notice = notice
        self._wall_clock = ctx.now
        self._renderer_class = document.renderer_class
        self._renderer = None
        self._preview_render: PreviewRender | None = None
        # while typing goes on, a re-render at least this often (None: only after a pause)
        self._render_max_seconds = render_max_seconds
        self._monotonic = monotonic
        self._render_pending_since = 0.0
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.timeout.connect(render)
        self._save_timer = QTimer(self)
        self._save_timer.setInterval(AUTOSAVE_TICK_MS)
        self._save_timer.timeout.connect(self._autosave_tick)

    @property
    def dirty(self) -> bool:
        return self.autosaver.dirty

    def typed(self) -> None:
        """A keystroke: dirty, the autosave's timer running, the render put off."""
        self.autosaver.touch()
        if not self._save_timer.isActive():
            self._save_timer.start()
            self.status_changed.emit("Editing…")
        now = self._monotonic()
        if not self._render_timer.isActive():
            self._render_pending_since = now
            self._render_timer.start(RENDER_IDLE_MS)
        elif (
            self._render_max_seconds is None
            or now - self._render_pending_since < self._render_max_seconds
        ):
            self._render_timer.start(RENDER_IDLE_MS)

    def rendering(self) -> None:
        """The page renders now: a pending debounce would only render the same text again."""
        self._render_timer.stop()

    @property
    def renderer(self):
        if self._renderer is None:
            self._renderer = self._renderer_class()
        return self._renderer

    @property
    def preview_render(self) -> PreviewRender:
        if self._preview_render is None:
            # the same renderer on the GUI thread and the worker alike
            self._preview_render = PreviewRender(self, self._renderer_class)
        return self._preview_render

    def show_preview(self, text: str) -> None:
        """Rendered at once when short, else off the GUI thread (the latest text only)."""
        self.preview_render.request(text, self._preview.show_render)

    def pause_preview(self, message: str) -> None:
        """A text too long to render live: the preview says so instead."""
        self.preview_render.cancel()
        self._preview.show_message(message)

    def _autosave_tick(self) -> None:
        if self.autosaver.tick():
            self._saved()
        elif self.autosaver.last_error:
            self.status_changed.emit("Not saved")
            self._notice(self.autosaver.last_error + " Your text is still in the editor.")
        if not self.autosaver.dirty:
            self._save_timer.stop()

    def _saved(self) -> None:
        self.status_changed.emit("Saved " + self._wall_clock().strftime("%H:%M:%S"))
        self.saved.emit()

    def save_now(self, reason: str = "save") -> bool:
        """Write the text at once (Ctrl+S keeps a revision as well)."""
        ok = self.autosaver.save_now(reason)
        if ok:
            self._save_timer.stop()
            self._saved()
        else:
            self._notice(f"{self.autosaver.last_error} Your text is still in the editor.")
        return ok

    def stop(self) -> None:
        """At close: what is unsaved is written; a render on its way is not shown."""
        if self.autosaver.dirty:
            self.autosaver.save_now()
        self._save_timer.stop()
        self._render_timer.stop()
        if self._preview_render is not None:
            self._preview_render.cancel()
            self._preview_render.wait()
