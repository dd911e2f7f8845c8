"""The start-up baselines: a bare QMainWindow with a QTextEdit, with ``--widget`` a bare
shown QWidget, or with ``--list`` a bare QWidget holding a three-item QListWidget (the
least a window that draws text pays: fonts and an item view), that quit on their first
paint.

Prints the same lines as ``companion`` under COMPANION_EXIT_ON_FIRST_PAINT=1:
``first-paint <epoch seconds> <seconds since the script started>``, and at exit
``peak-kib N``.
"""

from __future__ import annotations

import sys
import time

STARTED = time.perf_counter()

from PySide6.QtCore import QEvent, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QMainWindow, QTextEdit, QWidget  # noqa: E402


class FirstPaint(QObject):
    """Reports the window's first paint event, then quits the application."""

    def __init__(self, app: QApplication):
        super().__init__()
        self.app = app
        self.done = False

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.Paint and not self.done:
            self.done = True
            print(f"first-paint {time.time():.6f} {time.perf_counter() - STARTED:.6f}", flush=True)
            # after this paint is flushed, as the app does (companion.ui.process.launch.run_gui)
            QTimer.singleShot(0, lambda: self.app.exit(0))
        return False


def main() -> int:
    app = QApplication(sys.argv[:1])
    if "--widget" in sys.argv[1:]:
        window = QWidget()
    elif "--list" in sys.argv[1:]:  # the least a window with a text rail draws
        from PySide6.QtWidgets import QHBoxLayout, QListWidget

        window = QWidget()
        rail = QListWidget()
        rail.addItems(["Today", "About me", "Stories"])
        QHBoxLayout(window).addWidget(rail)
    else:
        window = QMainWindow()
        window.setCentralWidget(QTextEdit())
    window.setWindowTitle("bare window")
    window.resize(1100, 720)  # the main window's default size
    watcher = FirstPaint(app)
    window.installEventFilter(watcher)
    window.show()
    return app.exec()


def say_peak() -> None:
    """``peak-kib N`` at exit, as the app says it (``companion.ui.process.launch``, not
    imported here: the baseline loads nothing of the app)."""
    with open("/proc/self/status", encoding="ascii") as status:
        kib = [line.split()[1] for line in status if line.startswith("VmHWM:")]
    print(f"peak-kib {kib[0]}", flush=True)


if __name__ == "__main__":
    import atexit

    if sys.platform == "linux":
        atexit.register(say_peak)
    raise SystemExit(main())
