"""Fixtures the window-wide audits share (accessibility, contrast, shortcuts)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def app_look(qapp):
    """The UI tests see the window as a user does: in the app's own visual system (the
    light scheme, the one these platforms report)."""
    from companion.ui.theme import apply_scheme, apply_theme

    apply_scheme(qapp, apply_theme(qapp, {}))
    return qapp


class Ticker:
    """A monotonic clock the test moves by hand (``ticker.t += 1.0``)."""

    def __init__(self) -> None:
        self.t = 500.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def ticker():
    return Ticker()


@pytest.fixture
def about_page(qtbot, ctx, bus, ticker):
    """``about_page(width)``: the About me page on the ``ticker`` clock, shown at that
    width (the One-pager and Stories tests); shut down after the test."""
    from companion.ui.about.page import AboutPage

    made = []

    def make(width: int):
        widget = AboutPage(ctx, bus, monotonic=ticker)
        qtbot.addWidget(widget)
        widget.resize(width, 800)
        widget.show()
        qtbot.waitExposed(widget)
        made.append(widget)
        return widget

    yield make
    for widget in made:
        widget.shutdown()


@pytest.fixture
def main_window(qtbot, ctx, bus, day_service):
    """Make the app's main window, shown and painted (closed after the test)."""
    from companion.ui.mainwindow import MainWindow

    made = []

    def make():
        win = MainWindow(ctx, bus, day=lambda: day_service)
        qtbot.addWidget(win)
        win.resize(1100, 720)
        win.show()
        qtbot.waitUntil(lambda: win._painted)
        qtbot.waitUntil(lambda: win.stack.count() > 0)
        made.append(win)
        return win

    yield make
    for win in made:
        win.close()


def settle() -> None:
    """Run what the event loop still holds: a page built on a timer shows its new widgets
    and lays them out through posted events; under load a fixed wait can end before them,
    and a measure or a grab then sees widgets at their first, unlaid-out place."""
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QApplication.sendPostedEvents()
        QApplication.processEvents()


@pytest.fixture
def open_page(qtbot):
    """Show a page of a main window and wait until it is the current one."""

    from PySide6.QtCore import QTimer

    def show(win, key: str):
        win.show_page(key)
        page = win.page(key)
        qtbot.waitUntil(lambda: win.stack.currentWidget() is page)
        # on_shown runs from a 0 ms timer: one queued after it has run once it has
        shown: list[bool] = []
        QTimer.singleShot(0, lambda: shown.append(True))
        qtbot.waitUntil(lambda: bool(shown))
        qtbot.waitUntil(lambda: getattr(page, "_built", True))  # built on a 0 ms timer
        settle()
        return page

    return show


@pytest.fixture(scope="session")
def session_server(tmp_path_factory):
    """A private PulseAudio for the microphone tests (test_voice.py, test_voice_follow.py).
    One server for the session: Qt's audio backend keeps its connection for the life
    of the process and warns while it reconnects, so the server must outlive the tests
    that use it in-process. Killed when the session ends."""
    import pulse  # tests/pulse.py: skips the test when no server can start

    srv = pulse.start(tmp_path_factory.mktemp("pulse"))
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def _garbage_between_tests():
    """The collector stays on, in its normal state, as it is for a user; after each test
    the deferred deletes of the windows it closed run, and then the collector, so no
    test's garbage is left for the next one's paint events.

    A widget made without a parent is owned by its Python wrapper: when a reference cycle
    runs through one (a lambda or bound method over ``self`` kept on a child, as the
    capture's flub line once did), the collector, not Qt, deletes it, whenever it next
    runs; inside a paint event (CompanionStyle's Python overrides allocate) that was a
    segfault. tests/ui/test_no_cycles.py checks that a closed dialog, page and card leave
    no such cycle behind.

    COMPANION_GC_IN_PAINT=1 (``make test-gc``, run by .ci/run) also collects inside every
    paint event: the worst moment, to find a cycle like the capture's (that run
    segfaulted every time with the capture's cycle back in, and passes without it)."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    if os.environ.get("COMPANION_GC_IN_PAINT"):
        _collect_in_paint_events()
    yield
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


def _top_level_windows() -> list:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    return list(app.topLevelWidgets()) if app is not None else []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    item.windows_before = _top_level_windows()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    """Close and delete the top-level windows a test made and did not hand to qtbot (the
    app keeps its one cue card for reuse: hidden, not deleted), before the fixtures close
    the journal under them. Left over, each restyle of the app (a scheme change)
    repolished every one of them: three cards from one test made each later scheme
    change take a minute. The collector fixture's teardown carries out the deletes."""
    before = getattr(item, "windows_before", [])
    for window in _top_level_windows():
        # our own parentless windows only: Qt's (a tooltip, a completer's popup) belong
        # to Qt or to another widget, and deleting one here freed it twice (a segfault)
        ours = type(window).__module__.startswith("companion.") and window.parent() is None
        if ours and not any(window is kept for kept in before):
            window.close()
            window.deleteLater()
    yield


_paint_collector: list = []


def _collect_in_paint_events() -> None:
    """Run the collector in every paint event from now on (once per session)."""
    if _paint_collector:
        return
    import gc

    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    class CollectInPaint(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 (Qt API)
            if event.type() == QEvent.Type.Paint:
                gc.collect()
            return False

    _paint_collector.append(CollectInPaint())
    QApplication.instance().installEventFilter(_paint_collector[0])
