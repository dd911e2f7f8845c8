"""`companion cue`'s window: the cue card on its own, on the same session the app builds
(the day service, captures, hotkeys), with the main window made only if asked for.

Imported by :mod:`companion.commands.cue` at its qt seam, inside ``deferred_sigint``: the
command line builds every command's parser, so a command module that loaded PySide6 at
its top made every headless command pay for Qt, and a Ctrl+C during that import was lost
(the card then ran on) or broke PySide6 (a traceback from the theme).
"""

from __future__ import annotations

import sys

from companion.ui.app import create_application
from companion.ui.bus import AppBus
from companion.ui.mainwindow import MainWindow
from companion.ui.process.interrupt import SigintQuit
from companion.ui.process.module_sources import forget_module_sources
from companion.ui.process.single_instance import serve_launches, server_name
from companion.ui.session import Session
from companion.ui.theme import finish_theme


def run_card(ctx, round_type: str | None) -> int:
    app = create_application(sys.argv[:1])

    cards: list = []  # Ctrl+C: as closing the card (before the card: just quit)
    sigint = SigintQuit(lambda: (cards[0].close() if cards else None, app.quit()))

    finish_theme(app)  # the card alone: its whole look before it is built

    bus = AppBus()
    # the same session the main app builds: the day service, the captures, the hotkeys
    session = Session(ctx, bus, app)
    card = session.show_cue_card(round_type or "")
    cards.append(card)
    session.day.start()  # the card follows the day here too
    session.start_hotkeys()
    forget_module_sources()  # the card's modules are in
    mains: list = []  # `companion` run while the card runs: the main window opens here
    server = serve_launches(
        server_name(ctx.data_dir),
        card,
        lambda: (card.show_card(), open_main(ctx, bus, session.day, mains)),
        lambda rtype: (card.set_round(rtype), card.show_card()),
    )
    # the card (a tool window Qt does not count) is what the user closes: quit then, or
    # once the last capture is closed after it; closing a capture alone quits nothing
    app.setQuitOnLastWindowClosed(False)

    closed: list[bool] = []

    def maybe_quit() -> None:
        idle = session.captures.open_one() is None and not any(w.isVisible() for w in mains)
        if closed and not card.isVisible() and idle:
            app.quit()

    card.closed.connect(lambda: (closed.append(True), maybe_quit()))
    session.captures.changed.connect(maybe_quit)
    app.lastWindowClosed.connect(maybe_quit)  # the main window, closed after the card
    code = sigint.exec(app.exec)
    server.close()
    session.shutdown()
    return code


def open_main(ctx, bus, day, mains: list):
    """The main window in the card's process (made once, on the card's session: its
    pages are handed the session's day service), brought to the front. ``mains`` holds it."""
    if not mains:
        mains.append(MainWindow(ctx, bus, day=lambda: day))
    window = mains[0]
    window.bring_to_front()
    return window
