"""The main window shell: pages, shortcuts, geometry, single instance, bad storage."""

from __future__ import annotations

import base64

import pytest
from PySide6.QtCore import QRect, Qt

from companion.ui.pages import PAGES

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot, ctx, bus, day_service):
    from companion.ui.mainwindow import MainWindow

    win = MainWindow(ctx, bus, day=lambda: day_service)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win._painted)
    qtbot.waitUntil(lambda: win.stack.count() > 0)  # the first page comes after the paint
    return win


def test_every_page_opens_with_ctrl_number(qtbot, window):
    for n, spec in enumerate(PAGES, 1):
        qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0 + n), Qt.KeyboardModifier.ControlModifier)
        assert window.current_key() == spec.key
        assert window.stack.currentWidget() is window.page(spec.key)
        assert spec.title in window.windowTitle()


def test_bus_open_page_switches(window, bus):
    bus.open_page.emit("journal")
    assert window.current_key() == "journal"
    bus.open_page.emit("no-such-page")
    assert window.current_key() == "journal"


def test_geometry_and_last_page_are_restored(qtbot, ctx, bus, day_service):
    from companion.core.prefs import Prefs
    from companion.ui.mainwindow import MainWindow

    first = MainWindow(ctx, bus, day=lambda: day_service)
    qtbot.addWidget(first)
    first.setGeometry(QRect(40, 50, 700, 480))  # the offscreen screen is 800x600
    first.show()
    qtbot.waitUntil(lambda: first._painted)
    first.show_page("study")
    first.close()  # saves through prefs
    saved = Prefs(ctx.prefs.path)
    assert saved.get("main.page") == "study"
    assert base64.b64decode(saved.get("main.geometry"))

    ctx.prefs = saved
    second = MainWindow(ctx, bus, day=lambda: day_service)
    qtbot.addWidget(second)
    assert second.current_key() == "study"
    assert second.size() == first.size()


def test_a_window_grown_past_the_screen_edge_moves_back(qtbot, window):
    area = window.screen().availableGeometry()
    window.resize(400, 300)
    window.move(area.right() - 450, area.top() + 10)
    qtbot.waitUntil(lambda: window.frameGeometry().right() <= area.right())
    window.resize(700, 300)  # as a wider page does
    qtbot.waitUntil(lambda: window.frameGeometry().right() <= area.right())
    assert window.frameGeometry().left() >= area.left()


def test_junk_geometry_falls_back_to_a_default_size(qtbot, ctx, bus, day_service):
    from companion.ui.mainwindow import MainWindow

    ctx.prefs.set("main.geometry", "not base64 at all!")
    ctx.prefs.set("main.page", "nonsense")
    win = MainWindow(ctx, bus, day=lambda: day_service)
    qtbot.addWidget(win)
    assert win.current_key() == "today"
    screen = win.screen().availableGeometry()
    assert win.width() == min(1100, int(screen.width() * 0.9))
    assert screen.contains(win.geometry())  # a first window is placed on screen


def test_the_main_window_steps_aside_for_the_card(qtbot, window):
    area = window.screen().availableGeometry()
    window.setGeometry(QRect(area.left() + 300, area.top() + 60, 450, 400))
    qtbot.waitUntil(lambda: window.geometry().width() == 450)
    card = QRect(area.left() + 560, area.top() + 40, 220, 300)
    assert window.make_room_for(card)
    qtbot.waitUntil(lambda: not window.frameGeometry().intersects(card))
    assert area.contains(window.frameGeometry())
    apart = QRect(window.frameGeometry().right() + 20, area.top(), 100, 100)
    assert not window.make_room_for(apart)  # not in the way: stays where it is


def test_single_instance_hands_over_to_the_running_one(qtbot, data_dir):
    from companion.ui.process.single_instance import (
        InstanceLock,
        hand_over,
        make_server,
        server_name,
    )

    name = server_name(data_dir)
    assert not hand_over(name, timeout_ms=100)  # nobody is running yet
    first = InstanceLock(data_dir)
    assert first.acquire()
    assert not InstanceLock(data_dir).acquire()  # a second launch cannot take the folder
    server = make_server(name)
    assert server.listening
    with qtbot.waitSignal(server.raise_requested, timeout=10_000):
        assert hand_over(name)
    server.close()
    first.release()
    assert not hand_over(name, timeout_ms=100)
    again = InstanceLock(data_dir)
    assert again.acquire()  # free once the first one is gone
    again.release()


def test_a_second_launch_exits_and_raises_the_first(qtbot, data_dir):
    """The real hand-over path: run_gui in a child process while this one holds the lock."""
    import subprocess
    import sys

    from companion.ui.process.single_instance import InstanceLock, make_server, server_name

    lock = InstanceLock(data_dir)
    assert lock.acquire()
    server = make_server(server_name(data_dir))
    raised = []
    server.raise_requested.connect(lambda: raised.append(True))
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    qtbot.waitUntil(lambda: child.poll() is not None, timeout=20_000)
    out, err = child.communicate()
    assert child.returncode == 0, err
    assert "already running" in out
    qtbot.waitUntil(lambda: bool(raised), timeout=10_000)
    server.close()
    lock.release()


def test_other_data_folder_gets_its_own_instance(tmp_path):
    from companion.ui.process.single_instance import server_name

    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")


def test_the_socket_goes_to_the_runtime_folder_else_tmpdir_else_tmp(tmp_path, monkeypatch):
    from companion.ui.process.single_instance import server_name

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    assert server_name(tmp_path).startswith(str(tmp_path / "run") + "/")
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    for name in ("TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert server_name(tmp_path).startswith(str(tmp_path) + "/")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "no-such-folder"))
    assert server_name(tmp_path).startswith("/tmp/interview-companion-")


def _notices(window) -> str:
    from companion.ui.mainwindow import NoticeBar

    return " ".join(bar.message for bar in window.findChildren(NoticeBar))


def _started_app(qtbot, ctx):
    from PySide6.QtWidgets import QApplication

    from companion.ui.app import Application

    app = Application(ctx, QApplication.instance())
    qtbot.addWidget(app.window)
    app._finish_start()
    return app


def test_start_with_a_corrupt_database_moves_it_aside_and_says_so(qtbot, ctx, data_dir):
    junk = b"this is not a database" * 50
    (data_dir / "companion.sqlite3").write_bytes(junk)
    app = _started_app(qtbot, ctx)
    assert "moved aside" in _notices(app.window)
    aside = list(data_dir.glob("companion.sqlite3.damaged-*"))
    assert len(aside) == 1
    assert aside[0].read_bytes() == junk  # kept, byte for byte
    assert ctx.store.quick_check() == "ok"
    assert not ctx.store.read_only


def test_corrupt_database_offers_the_newest_backup(qtbot, ctx, data_dir):
    from companion.core.day import loops
    from companion.core.storage.store import backup, list_backups

    loops.create_loop(ctx.db, "Acme GPU Infra")
    backup(ctx.store.conn, data_dir / "backups", ctx.now())
    ctx.close()
    (data_dir / "companion.sqlite3").write_bytes(b"garbage" * 100)
    for side in data_dir.glob("companion.sqlite3-*"):
        side.unlink()
    app = _started_app(qtbot, ctx)
    assert loops.list_loops(ctx.db) == []
    app.restore_backup(list_backups(data_dir / "backups")[0])
    assert [lp.company for lp in loops.list_loops(ctx.db)] == ["Acme GPU Infra"]
    assert "Restored" in _notices(app.window)


def test_start_with_a_newer_database_keeps_it_and_works_in_memory(qtbot, ctx, data_dir):
    import sqlite3

    path = data_dir / "companion.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    app = _started_app(qtbot, ctx)
    assert "newer version" in _notices(app.window)
    assert path.read_bytes() == before
    assert ctx.store.read_only


def test_quit_undoes_the_apps_own_pause_and_skips_the_work_without_one(qtbot, ctx):
    """Quit puts back a pause the app made (here one the notification server ends by
    itself, so only the record goes); with no record there is nothing to undo and quit
    does not load the do-not-disturb code at all (it ran inside the first paint's quit in
    the start-up benchmark)."""
    from app_child import run_child

    from companion.core.dnd import record
    from companion.ui.app import Application, create_application

    path = record.record_path(ctx.data_dir)
    record.save(path, record.Hold(adapter="portal", holder="app", restores_itself=True))
    app = Application(ctx, create_application(["companion"]))
    qtbot.addWidget(app.window)
    app.shutdown()
    assert not path.exists()

    code = (
        "import sys\n"
        "from companion.core.context import AppContext\n"
        "from companion.ui.app import Application, create_application\n"
        f"app = Application(AppContext({str(ctx.data_dir / 'fresh')!r}), create_application())\n"
        "app.shutdown()\n"
        "print(any(m.startswith('companion.core.dnd') for m in sys.modules))\n"
    )
    done = run_child(code, home=ctx.data_dir / "home")
    assert done.stdout.strip() == "False", done.stderr[-500:]


@pytest.mark.parametrize("key", ["today", "checklist"])
def test_a_narrowed_window_never_cuts_off_a_pages_buttons(qtbot, window, ctx, key):
    """Beside the cue card at 200 % the window was narrowed below Today's content: the
    schedule's buttons and the lines' ends were cut off, with no bar to reach them. A
    page's scroll area is as wide as its content needs, so the window stops there."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QPushButton

    from companion.core.day.loops import add_round, create_loop

    loop = create_loop(ctx.db, "Acme", "SRE", starts_on=ctx.now().date().isoformat())
    add_round(ctx.db, loop, "design", scheduled_at=ctx.now())
    window.show_page(key)
    page = window.page(key)
    qtbot.waitUntil(lambda: getattr(page, "_built", True))
    page.on_shown()
    window.resize(200, window.height())

    def cut_off() -> list[tuple[str, int, int]]:
        buttons = [b for b in page.findChildren(QPushButton) if b.isVisibleTo(page)]
        assert buttons
        ends = [(b.text(), b.mapTo(page, QPoint(b.width(), 0)).x()) for b in buttons]
        return [(text, right, page.width()) for text, right in ends if right > page.width()]

    # the layouts' requests travel up to the window over a few event-loop turns: under
    # load more than 100 ms, so wait for the outcome rather than for a fixed time
    try:
        qtbot.waitUntil(lambda: not cut_off(), timeout=3000)
    except qtbot.TimeoutError:
        pass
    assert cut_off() == []
