"""No network, ever: start-up, the one-pager preview (with remote image URLs in the text)
and exports must not open an AF_INET/AF_INET6 socket or resolve a host name.

In-process, socket creation, connect, getaddrinfo and friends are wrapped to record calls.
In subprocesses, a sitecustomize does the same and reports at exit, and when strace is
available the system calls are traced too, which also catches Qt's C++ networking.
AF_UNIX sockets (X11, D-Bus, the single-instance QLocalServer) are fine.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NET_FAMILIES = (socket.AF_INET, socket.AF_INET6)
REMOTE_TEXT = textwrap.dedent(
    """\
    # Ada Lovelace {identity}

    ![me](https://example.com/photo.png)
    ![tracker](http://tracker.example.net/pixel.gif?u=1)
    <img src="https://evil.example.org/x.png">

    ## Why this team {why}

    I like [analytical engines](https://example.com/engines) and
    ![diagram](//cdn.example.com/d.svg).
    """
)


class NetRecorder:
    def __init__(self):
        self.calls: list[tuple] = []


@pytest.fixture
def net_calls(monkeypatch) -> NetRecorder:
    """Record every attempt to use the network from Python in this process."""
    rec = NetRecorder()
    real_init = socket.socket.__init__

    def init(self, family=-1, type=-1, proto=-1, fileno=None):  # noqa: A002
        fam = socket.AF_INET if family == -1 else family
        if fileno is None and fam in NET_FAMILIES:
            rec.calls.append(("socket", int(fam)))
        real_init(self, family, type, proto, fileno)

    def wrap(name, real):
        def recorder(*args, **kwargs):
            rec.calls.append((name, repr(args[:2])))
            return real(*args, **kwargs)

        return recorder

    monkeypatch.setattr(socket.socket, "__init__", init)
    for name in ("connect", "connect_ex", "sendto"):
        real = getattr(socket.socket, name)

        def method(self, *args, _real=real, _name=name):
            if self.family in NET_FAMILIES:
                rec.calls.append((_name, repr(args[:1])))
            return _real(self, *args)

        monkeypatch.setattr(socket.socket, name, method)
    for name in ("create_connection", "getaddrinfo", "gethostbyname", "gethostbyname_ex"):
        monkeypatch.setattr(socket, name, wrap(name, getattr(socket, name)))
    return rec


def test_the_recorder_catches_a_connection_attempt(net_calls):
    """The guard itself works: a refused local TCP connect is recorded."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        sock.connect_ex(("127.0.0.1", 9))
    with pytest.raises(OSError):
        socket.getaddrinfo("no-such-host.invalid", 80)
    names = [c[0] for c in net_calls.calls]
    assert names[:3] == ["socket", "connect_ex", "getaddrinfo"]


# in process ----------------------------------------------------------------------------


@pytest.mark.gui
def test_start_up_opens_no_network_socket(qtbot, qapp, ctx, net_calls):
    from PySide6.QtWidgets import QApplication

    from companion.ui.app import Application

    app = Application(ctx, qapp)
    qtbot.addWidget(app.window)
    with qtbot.waitSignal(app.window.first_painted, timeout=10_000):
        app.window.show()
    qtbot.waitUntil(lambda: ctx._store is not None, timeout=10_000)  # the deferred start ran
    QApplication.sendPostedEvents()  # and what it posted
    QApplication.processEvents()
    assert net_calls.calls == []


@pytest.mark.gui
def test_preview_with_remote_images_fetches_nothing(qtbot, net_calls):
    import companion.core.about.render as about_render
    import companion.ui.about.editor as about_editor

    preview = about_editor.SafePreview()
    qtbot.addWidget(preview)
    body = about_render.SafeRenderer().render(REMOTE_TEXT)
    assert "<img" not in body and "image not loaded" in body
    preview.show_html(body)
    preview.show()
    qtbot.waitExposed(preview)
    # even raw markup that slipped through is not fetched: the preview refuses the request
    preview.show_html('<p>x</p><img src="https://example.com/raw.png">')
    qtbot.waitUntil(lambda: "https://example.com/raw.png" in preview.blocked, timeout=10_000)
    assert net_calls.calls == []


@pytest.mark.gui
def test_about_page_preview_fetches_nothing(qtbot, ctx, bus, net_calls):
    import companion.ui.about.page as about_page

    page = about_page.AboutPage(ctx, bus)
    qtbot.addWidget(page)
    page.show()
    page.documents.replace_text(REMOTE_TEXT, "import")
    page.refresh()
    qtbot.waitExposed(page)
    page.preview.viewport().repaint()  # painted now: any image it would load, it asks for
    assert net_calls.calls == []
    if hasattr(page, "shutdown"):
        page.shutdown()


@pytest.mark.gui
def test_exports_fetch_nothing(qapp, tmp_path, db, net_calls):
    import companion.core.about.export as about_export
    import companion.core.about.render as about_render

    about_export.export_html(REMOTE_TEXT, tmp_path / "about.html")
    about_export.export_markdown(REMOTE_TEXT, tmp_path / "about.md")
    html = (tmp_path / "about.html").read_text()
    assert "<img" not in html.lower()
    import companion.ui.about.export as ui_export

    ui_export.export_pdf(about_render.SafeRenderer().render(REMOTE_TEXT), tmp_path / "about.pdf")
    assert (tmp_path / "about.pdf").read_bytes().startswith(b"%PDF")
    now = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
    from companion.core.journal.files import export_journal
    from companion.core.study.exports import export_study_list

    export_journal(db, tmp_path / "journal.json", now)
    for fmt in ("md", "csv", "anki", "json"):
        export_study_list(db, fmt, tmp_path / f"study.{fmt}", now)
    assert net_calls.calls == []


# subprocesses --------------------------------------------------------------------------

SITECUSTOMIZE = """
import atexit, json, os, socket
_calls = []
_NET = (socket.AF_INET, socket.AF_INET6)
_init = socket.socket.__init__
def _record_init(self, family=-1, type=-1, proto=-1, fileno=None):
    if fileno is None and (socket.AF_INET if family == -1 else family) in _NET:
        _calls.append(["socket", int(family)])
    _init(self, family, type, proto, fileno)
socket.socket.__init__ = _record_init
def _method(name, real):
    def wrapped(self, *args):
        if self.family in _NET:
            _calls.append([name, repr(args[:1])])
        return real(self, *args)
    return wrapped
for _n in ("connect", "connect_ex", "sendto"):
    setattr(socket.socket, _n, _method(_n, getattr(socket.socket, _n)))
def _func(name, real):
    def wrapped(*args, **kw):
        _calls.append([name, repr(args[:2])])
        return real(*args, **kw)
    return wrapped
for _n in ("create_connection", "getaddrinfo", "gethostbyname", "gethostbyname_ex"):
    setattr(socket, _n, _func(_n, getattr(socket, _n)))
@atexit.register
def _report():
    with open(os.environ["COMPANION_NET_REPORT"], "w") as fh:
        json.dump(_calls, fh)
"""


def _strace_usable() -> bool:
    if not shutil.which("strace"):
        return False
    done = subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "true"], capture_output=True)
    return done.returncode == 0


def _run_watched(tmp_path: Path, argv: list[str], env_extra: dict[str, str]) -> dict:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    report = tmp_path / "net-report.json"
    trace = tmp_path / "strace.txt"
    env = dict(os.environ)
    env.update(env_extra)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(REPO), env.get("PYTHONPATH", "")])
    env["COMPANION_NET_REPORT"] = str(report)
    env["QT_QPA_PLATFORM"] = "offscreen"
    prefix = []
    if _strace_usable():
        prefix = ["strace", "-f", "-qq", "-e", "trace=socket,connect,sendto", "-o", str(trace)]
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "companion", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert report.exists(), "the process ended without running its exit handlers"
    syscalls = []
    if trace.exists():
        syscalls = [
            line
            for line in trace.read_text().splitlines()
            if "AF_INET" in line  # also matches AF_INET6
        ]
    return {"python": json.loads(report.read_text()), "syscalls": syscalls, "traced": bool(prefix)}


@pytest.mark.slow
def test_self_test_subprocess_opens_no_network_socket(tmp_path):
    seen = _run_watched(tmp_path, ["--self-test"], {})
    assert seen["python"] == []
    assert seen["syscalls"] == [], "\n".join(seen["syscalls"][:10])


@pytest.mark.slow
def test_gui_start_up_subprocess_opens_no_network_socket(tmp_path):
    data = tmp_path / "data"
    seen = _run_watched(tmp_path, ["--data-dir", str(data)], {"COMPANION_EXIT_ON_FIRST_PAINT": "1"})
    assert seen["python"] == []
    assert seen["syscalls"] == [], "\n".join(seen["syscalls"][:10])


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_about_export_subprocess_opens_no_network_socket(tmp_path, fmt):
    import companion.commands.about  # noqa: F401 (must import)
    import companion.core.about.store as about_store
    from companion.core.storage.store import open_store

    data = tmp_path / "data"
    store = open_store(data / "companion.sqlite3")
    try:
        about_store.save_text(store.db, REMOTE_TEXT, dt.datetime.now().astimezone(), reason="save")
    finally:
        store.close()
    out = tmp_path / f"about.{fmt}"
    seen = _run_watched(tmp_path, ["--data-dir", str(data), "about", "export", "-o", str(out)], {})
    assert out.exists() and out.stat().st_size > 0
    assert seen["python"] == []
    assert seen["syscalls"] == [], "\n".join(seen["syscalls"][:10])
