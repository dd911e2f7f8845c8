"""Fixtures the window-wide audits share (accessibility, contrast, shortcuts)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def app_look(qapp):
    """The UI tests see the window as a user does: in the app's own visual system (the
    light scheme, the one these platforms report)."""
    from companion.ui.theme import apply_scheme, apply_theme

    apply_scheme(qapp, apply_theme(qapp, {}))
    return qapp


@pytest.fixture
def main_window(qtbot, ctx, bus):
    """Make the app's main window, shown and painted (closed after the test)."""
    from companion.ui.mainwindow import MainWindow

    made = []

    def make():
        win = MainWindow(ctx, bus)
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

    def show(win, key: str):
        win.show_page(key)
        page = win.page(key)
        qtbot.waitUntil(lambda: win.stack.currentWidget() is page)
        qtbot.wait(20)  # on_shown runs on the next turn of the event loop
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
    """Python's collector runs only between GUI tests, never inside one.

    PySide 6.11 keeps Python wrappers of widgets Qt has since deleted; when the collector
    frees such a wrapper at an arbitrary moment (inside a paint event, or a Qt message
    handler), it deletes whatever now lives at that address: a segfault in
    QLineEdit::paintEvent, or a spin in Shiboken::Object::removeParent. Collecting at
    teardown, after Qt has run its deferred deletes, keeps that out of the tests."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    gc.disable()
    yield
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    gc.enable()


@pytest.fixture(autouse=True)
def _no_window_outlives_its_test(_garbage_between_tests):
    """Close and delete the top-level windows a test made and did not hand to qtbot (the
    app keeps its one cue card for reuse: hidden, not deleted). Left over, each restyle
    of the app (a scheme change) repolished every one of them: three cards from one test
    made each later scheme change take a minute. Runs before the collector fixture's
    teardown, which carries out the deletes."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    before = list(app.topLevelWidgets()) if app is not None else []
    yield
    app = QApplication.instance()
    if app is None:
        return
    for window in app.topLevelWidgets():
        if not any(window is kept for kept in before):
            window.close()
            window.deleteLater()
