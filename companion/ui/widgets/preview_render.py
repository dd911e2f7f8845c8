"""The Markdown preview rendered off the GUI thread, so the window never freezes on it.

A short text (under :data:`SYNC_CHARS`, with little link work: ``guard.SYNC_LINK_COST``)
renders at once, inside a frame; any other renders on a worker thread with its own
Qt-free :class:`SafeRenderer`. Every request takes a new generation number: a result that
comes back after a newer request is dropped, and at most one render runs while the latest
waiting text replaces any other (typing never queues renders).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from companion.core.about.guard import SYNC_LINK_COST, RenderRefused, link_cost
from companion.core.about.render import SafeRenderer

# The slowest texts but links cost up to about 8 us a character here; links cost their
# number times the paragraph's length, so they are bounded apart (SYNC_LINK_COST):
# 2,000 characters of either stay near 15 ms, inside a frame (benchmarks/bench_preview.py)
SYNC_CHARS = 2_000


class _Signals(QObject):
    done = Signal(int, object)  # generation, list of HTML sections or the RenderRefused


class _Render(QRunnable):
    def __init__(self, generation: int, text: str, renderer, signals: _Signals):
        super().__init__()
        self.generation, self.text, self.renderer, self.signals = (
            generation,
            text,
            renderer,
            signals,
        )

    def run(self) -> None:  # core only: never a widget here

        try:
            result = self.renderer.render_sections(self.text)
        except RenderRefused as exc:
            result = exc
        except (RecursionError, MemoryError, ValueError) as exc:  # never a dead worker
            result = RenderRefused(f"the preview could not be rendered ({type(exc).__name__})")
        try:
            self.signals.done.emit(self.generation, result)
        except RuntimeError:  # the page went away meanwhile: nothing to show it on
            pass


class PreviewRender(QObject):
    """``request(text, show)`` calls ``show(sections_or_refusal)`` on the GUI thread for
    the latest text only."""

    def __init__(self, parent: QObject | None = None, make_renderer: Callable | None = None):
        super().__init__(parent)
        self._make_renderer = make_renderer  # the page's renderer class (default SafeRenderer)
        self.generation = 0
        self.running = False
        self._pending: tuple[int, str] | None = None
        self._show: Callable | None = None
        self._renderers: dict[str, object] = {}
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _Signals()
        self._signals.done.connect(self._done)

    def _renderer(self, where: str):
        if where not in self._renderers:  # one per thread: a Markdown instance is not shared
            self._renderers[where] = (self._make_renderer or SafeRenderer)()
        return self._renderers[where]

    def request(self, text: str, show: Callable) -> None:
        self.generation += 1
        self._show = show
        if len(text) < SYNC_CHARS and link_cost(text) <= SYNC_LINK_COST:
            self._pending = None
            try:
                show(self._renderer("gui").render_sections(text))
            except RenderRefused as exc:
                show(exc)
            return
        self._pending = (self.generation, text)
        self._start()

    def cancel(self) -> None:
        """Drop whatever is rendering or waiting (the page shows something else now)."""
        self.generation += 1
        self._pending = None

    def _start(self) -> None:
        if self.running or self._pending is None:
            return
        generation, text = self._pending
        self._pending = None
        self.running = True
        self._pool.start(_Render(generation, text, self._renderer("worker"), self._signals))

    def _done(self, generation: int, result) -> None:
        self.running = False
        if generation == self.generation and self._show is not None:
            self._show(result)
        self._start()

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until no render runs (tests, closing the page)."""
        return self._pool.waitForDone(msecs)
