"""Runs the real app (Application from companion.ui.app) for the hotkey tests and prints
one JSON line per hotkey with the card's state. Not a test module: tests start it as a
subprocess under Xvfb (or a compositor). Reads "quit" on stdin to quit the way a user
does (so the grabs are released by the app, not by the process ending)."""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import Qt


def card_state(app) -> dict:
    card = app._cue_window
    if card is None:
        return {"card": False}
    info = card.current
    page = card.pages.current()
    block = page.blocks.get("recovery") if page is not None else None
    return {
        "card": True,
        "visible": card.isVisible(),
        "round": info.id if info else None,
        "step": card.state.step(info.id) if info else None,
        "running": card.running,
        "glance": card.state.glance,
        "recovery_open": block is not None and not block.collapsed,
        "card_active": card.isActiveWindow(),
        "winid": int(card.winId()) if card.isVisible() else None,
        "geometry": card.geometry().getRect(),
        "ghost": card.ghost.on,
        "mark": card.ghost.mark.mark.text()
        if card.ghost.mark and card.ghost.mark.isVisible()
        else "",
        "opacity": round(card.windowOpacity() * 100),
        "on_top_flag": bool(card.windowFlags() & Qt.WindowType.WindowStaysOnTopHint),
    }


def main() -> int:
    from PySide6.QtCore import QSocketNotifier, QTimer

    from companion.core.context import AppContext
    from companion.core.paths import resolve_data_dir
    from companion.ui.app import Application, create_application

    ctx = AppContext(resolve_data_dir(None))  # COMPANION_HOME, as the CLI resolves it
    qapp = create_application([sys.argv[0]])
    app = Application(ctx, qapp)
    round_type = sys.argv[1] if len(sys.argv) > 1 else "design"

    def report(action: str) -> None:
        print(json.dumps({"action": action, **card_state(app)}), flush=True)

    def wait_for_hotkeys() -> None:
        if getattr(app, "hotkeys", None) is None:
            QTimer.singleShot(50, wait_for_hotkeys)
            return
        app.hotkeys.activated.connect(report)  # after the app's own slot: shows the result
        app.hotkeys.status_changed.connect(status)
        app.show_cue_card(round_type)
        app._cue_window.pages.collapse_all(True)  # so "recovery" has something to open
        app._cue_window.hide()
        status()

    def status() -> None:
        print(
            json.dumps(
                {
                    "ready": True,
                    "platform": qapp.platformName(),
                    "backend": app.hotkeys.backend_name,
                    "unavailable": app.hotkeys.unavailable,
                    "problems": app.hotkeys.problems,
                }
            ),
            flush=True,
        )

    def command() -> None:
        line = sys.stdin.readline().strip()
        if line in ("quit", ""):
            app.window.close_and_quit() if hasattr(app.window, "close_and_quit") else qapp.quit()
        elif line == "show":
            app.show_cue_card("")
            report("show")
        elif line == "state":
            report("state")
        elif line == "reminders":  # (channel, title, body) of each notification sent
            sent = app.notifier.sent if app.notifier is not None else []
            print(json.dumps({"reminders": sent}), flush=True)
        elif line == "hide-show":  # the show-card hotkey twice, quickly: hidden, shown again
            app.on_hotkey("show-card")
            app.on_hotkey("show-card")
            report("hide-show")
        elif line.startswith("rebind "):  # rebind ACTION KEYS, through the Hotkeys dialog
            from companion.ui.hotkeys.dialog import HotkeysDialog, to_qt

            _, action, keys = line.split(" ", 2)
            dialog = HotkeysDialog(ctx.prefs, app.hotkeys, app.window)
            dialog.edits[action].setKeySequence(to_qt(keys))
            saved = dialog.save()
            note = dialog.notes[action].text()
            dialog.deleteLater()
            print(
                json.dumps({"rebound": saved, "note": note, "status": dialog.status.text()}),
                flush=True,
            )

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(command)
    app.window.show()
    qapp.aboutToQuit.connect(app.shutdown)
    QTimer.singleShot(0, wait_for_hotkeys)
    code = qapp.exec()
    print(json.dumps({"quit": code}), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
