"""Keyboard shortcuts: Ctrl+Q quits, and no two keys clash within a window.

Qt treats two shortcuts on one key that are live at the same time as ambiguous and fires
neither; two mnemonics (the &-letter of a button or label) on one letter only cycle the
focus. The audit collects, for every state of every window (each page of the main window,
the cue card, the dialogs), the QShortcut and QAction keys and the Alt+letter mnemonics of
the buttons, buddy labels, group boxes and tabs visible together, and reports each clash.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QGroupBox,
    QLabel,
    QTabBar,
    QWidget,
)

from companion.core.day.loops import add_round, create_loop
from companion.ui.pages import PAGES

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]

_MNEMONIC = re.compile(r"&([^&\s])")


def mnemonic(text: str) -> str | None:
    """'Alt+C' for '&Copy', None for a text without one ('&&' is a literal ampersand)."""
    match = _MNEMONIC.search(text.replace("&&", ""))
    return f"Alt+{match.group(1).upper()}" if match else None


def _visible(widget: QWidget | None, root: QWidget) -> bool:
    return widget is not None and widget.isVisibleTo(root) and widget.isEnabled()


def _keys(root: QWidget) -> list[tuple[str, QWidget | None, str]]:
    """(key, scope, what) for every live key in ``root``'s window; scope None = window-wide.
    One object (an action added to a page and its toolbar) counts once per key."""
    found: list[tuple[str, QWidget | None, str]] = []
    seen: set[tuple[str, int]] = set()

    def once(key: str, owner: object) -> bool:
        if (key, id(owner)) in seen:
            return False
        seen.add((key, id(owner)))
        return True

    for shortcut in root.findChildren(QShortcut):
        parent = shortcut.parent()
        if not isinstance(parent, QWidget) or not shortcut.isEnabled():
            continue
        if not (parent is root or _visible(parent, root)):
            continue
        scope = None if shortcut.context() == Qt.ShortcutContext.WindowShortcut else parent
        bound = shortcut.keys()  # a QShortcut may carry several keys
        for key in bound:
            if once(key.toString(), shortcut):
                found.append((key.toString(), scope, f"shortcut on {type(parent).__name__}"))
    for widget in [root, *root.findChildren(QWidget)]:
        # a disabled button counts: it is enabled by a selection, and then two keys clash
        if widget is not root and not (widget.isVisibleTo(root) or _visible(widget, root)):
            continue
        for action in widget.actions() if widget.isEnabled() else ():
            if not isinstance(action, QAction) or not action.isEnabled():
                continue
            window_wide = action.shortcutContext() in (
                Qt.ShortcutContext.WindowShortcut,
                Qt.ShortcutContext.ApplicationShortcut,
            )
            for key in action.shortcuts():
                if once(key.toString(), action):
                    found.append(
                        (
                            key.toString(),
                            None if window_wide else widget,
                            f"action {action.text()!r}",
                        )
                    )
        texts: list[str] = []
        labelled = isinstance(widget, QLabel) and widget.buddy() is not None
        if isinstance(widget, QAbstractButton) or labelled:
            texts.append(widget.text())
        elif isinstance(widget, QGroupBox) and widget.isCheckable():
            texts.append(widget.title())
        elif isinstance(widget, QTabBar):
            texts += [widget.tabText(i) for i in range(widget.count()) if widget.isTabEnabled(i)]
        for text in texts:
            key = mnemonic(text)
            if key:
                found.append((key, None, f"{type(widget).__name__} {text!r}"))
    return found


def _overlap(a: QWidget | None, b: QWidget | None) -> bool:
    if a is None or b is None or a is b:
        return True
    return a.isAncestorOf(b) or b.isAncestorOf(a)


def clashes(root: QWidget, where: str) -> list[str]:
    keys = _keys(root)
    problems = []
    for i, (key, scope, what) in enumerate(keys):
        for other_key, other_scope, other in keys[i + 1 :]:
            if key == other_key and _overlap(scope, other_scope):
                problems.append(f"{where}: {key} is both {what} and {other}")
    return problems


# fixtures -----------------------------------------------------------------------------


@pytest.fixture
def loop(ctx, clock):
    today = clock.now()
    loop_id = create_loop(ctx.db, "Acme", "SRE", starts_on=today.date().isoformat())
    first = add_round(ctx.db, loop_id, "coding", scheduled_at=today + dt.timedelta(hours=1))
    add_round(ctx.db, loop_id, "design", scheduled_at=today + dt.timedelta(hours=3))
    return loop_id, first


@pytest.fixture
def window(main_window, loop):
    return main_window()


# tests --------------------------------------------------------------------------------


def test_the_audit_finds_a_clash(qtbot):
    from PySide6.QtWidgets import QPushButton, QVBoxLayout

    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    layout.addWidget(QPushButton("&Capture…"))
    layout.addWidget(QPushButton("&Copy"))
    layout.addWidget(QPushButton("&Undo"))
    QShortcut(QKeySequence("Ctrl+Q"), root)
    QShortcut(QKeySequence("Ctrl+Q"), root)
    root.show()
    problems = clashes(root, "probe")
    assert len(problems) == 2, problems
    assert any("Alt+C" in p for p in problems) and any("Ctrl+Q" in p for p in problems)
    assert mnemonic("Save && &quit") == "Alt+Q" and mnemonic("A && B") is None


def test_ctrl_q_quits(qtbot, window, monkeypatch):
    quits = []
    monkeypatch.setattr(QApplication, "quit", staticmethod(lambda: quits.append(True)))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert quits, "Ctrl+Q did not quit"
    assert not window.isVisible(), "Ctrl+Q closes the main window"


def test_no_clash_on_any_page(qtbot, window, open_page):
    problems = []
    for spec in PAGES:
        page = open_page(window, spec.key)
        problems += clashes(window, f"page:{spec.key}")
        if spec.key == "about":
            page.rehearsal.start()
            for _ in range(12):  # every segment, the last one included
                QApplication.processEvents()
                problems += clashes(window, "page:about rehearsal")
                if not page.rehearse_bar.isVisible():
                    break
                page.rehearse_bar.next_button.click()
    assert not problems, "Clashing keys:\n  " + "\n  ".join(sorted(set(problems)))


def test_no_clash_on_today_in_every_phase(qtbot, window, open_page, loop, clock, bus, day_service):
    """Today's buttons change with the phase: before a round it shows four more, in a
    round two; each state is checked (the day service recomputes when its timer fires)."""
    _loop_id, first = loop
    page = open_page(window, "today")
    day = day_service
    start = clock.now()
    problems, phases = [], []
    for minutes in (0, 50, 60 + 5):  # far off, ten minutes before, in the round
        clock._now = start + dt.timedelta(minutes=minutes)
        if minutes == 65:
            day.start_round(round_id=first)
        day.refresh()  # the day's timer fired at the moved clock
        QApplication.processEvents()
        phases.append(day.view.phase)
        problems += clashes(window, f"page:today {day.view.phase}")
    assert phases[1:] == ["before-round", "in-round"], phases
    del page
    assert not problems, "Clashing keys:\n  " + "\n  ".join(sorted(set(problems)))


def test_the_rehearsal_next_button_keeps_its_key(qtbot, window, open_page):
    page = open_page(window, "about")
    page.editor.setPlainText("# Me\n\n## Past\nOne.\n\n## Present\nTwo.\n\n## Future\nThree.")
    page.rehearsal.start()
    keys = set()
    while page.rehearse_bar.isVisible() and len(keys) < 10:
        keys.add(mnemonic(page.rehearse_bar.next_button.text()))
        page.rehearse_bar.next_button.click()
        QApplication.processEvents()
    assert keys == {"Alt+N"}, keys


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking
def test_no_clash_on_the_cue_card(qtbot, ctx, bus, day_service, loop):
    from companion.ui.cue.window import CueCardWindow

    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    card.show()
    qtbot.waitExposed(card)
    problems = []
    for round_id in card.round_buttons:
        card.set_round(round_id)
        QApplication.processEvents()
        problems += clashes(card, f"cuecard round {round_id}")
    card.close()
    assert not problems, "Clashing keys:\n  " + "\n  ".join(sorted(set(problems)))


def test_no_clash_in_the_dialogs(qtbot, ctx, bus, day_service, loop, clock):
    from types import SimpleNamespace

    from companion.core.about import store as about_store
    from companion.core.day.loops import get_loop, get_round
    from companion.ui.about.dialogs import CalibrateDialog, HistoryDialog
    from companion.ui.journal import dialogs as je
    from companion.ui.journal.capture import CaptureDialog
    from companion.ui.journal.page import JournalPage
    from companion.ui.widgets.loop_dialogs import LoopDialog, RoundDialog

    loop_id, round_id = loop
    about_store.snapshot(ctx.db, "# Me\n\nA pitch.", clock.now(), "save")
    types = [(t.id, t.title) for t in ctx.content.round_types()]
    entry = SimpleNamespace(question="q", topic="t", detail="d", severity=2, text="w", note="n")
    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    dialogs = {
        "CaptureDialog": CaptureDialog(ctx, bus, round_id),
        "CaptureDialog without a round": CaptureDialog(ctx, bus, 0),
        "HistoryDialog": HistoryDialog(ctx.db),
        "CalibrateDialog": CalibrateDialog(120),
        "LoopDialog": LoopDialog(clock.now().date()),
        "RoundDialog add": RoundDialog(types, clock.now()),
        "RoundDialog edit": RoundDialog(types, clock.now(), get_round(ctx.db, round_id)),
        "RoundDialog with notes": RoundDialog(types, None, get_round(ctx.db, round_id), notes=True),
        "LoopEditDialog": je.LoopEditDialog(get_loop(ctx.db, loop_id)),
        "WeakTopicDialog": je.WeakTopicDialog("caching", "read up"),
        "WeakTopicsDialog": je.WeakTopicsDialog(ctx.db),
        **{f"EntryDialog {kind}": je.EntryDialog(kind, entry) for kind in je.KIND_TITLES},
    }
    problems = []
    for name, dialog in dialogs.items():
        if not dialog.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose):
            qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        problems += clashes(dialog, f"dialog:{name}")
        dialog.close()
    assert not problems, "Clashing keys:\n  " + "\n  ".join(sorted(set(problems)))


# Ctrl+Q on a real X display: there StandardKey.Quit is Ctrl+Q too, which the offscreen
# platform does not know, so a second Quit shortcut made Ctrl+Q ambiguous only on the day
_XCB_SCRIPT = """
import sys, tempfile
from pathlib import Path
from PySide6.QtCore import Qt
from PySide6.QtGui import QShortcut
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
app = QApplication([])
from companion.core.context import AppContext
from companion.ui.bus import AppBus
from companion.ui.mainwindow import MainWindow
ctx = AppContext(Path(tempfile.mkdtemp()))
bus = AppBus()
from companion.ui.session import Session
sessions = []
win = MainWindow(ctx, bus, day=lambda: sessions[0].day)
sessions.append(Session(ctx, bus, window=win))
session = sessions[0]
win.show()
QTest.qWaitForWindowExposed(win)
win.activateWindow()
def wait_for(check, seconds=10.0):  # PySide6 has no QTest.qWaitFor
    import time
    end = time.monotonic() + seconds
    while not check() and time.monotonic() < end:
        QTest.qWait(10)
wait_for(win.isActiveWindow)
quit_keys = [s for s in win.findChildren(QShortcut) if "Ctrl+Q" in [k.toString() for k in s.keys()]]
QTest.keyClick(win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
wait_for(lambda: not win.isVisible())
print(len(quit_keys), win.isVisible())
ctx.close()
"""


@pytest.mark.slow
@pytest.mark.system
def test_ctrl_q_quits_on_a_real_x_display(tmp_path):
    import os
    import shutil
    import subprocess
    import sys

    if shutil.which("Xvfb") is None:
        pytest.skip("needs Xvfb (Debian package xvfb)")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            display = ":" + pipe.readline().strip()
        env = {
            **os.environ,
            "DISPLAY": display,
            "QT_QPA_PLATFORM": "xcb",
            "COMPANION_HOME": str(tmp_path / "data"),
            "XDG_RUNTIME_DIR": str(tmp_path),
        }
        (tmp_path / "data").mkdir(mode=0o700)
        done = subprocess.run(
            [sys.executable, "-c", _XCB_SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        xvfb.kill()
        xvfb.wait()
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-2:] == ["1", "False"], (done.stdout, done.stderr[-2000:])
