"""Signals that pages use to talk to each other without knowing each other."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class AppBus(QObject):
    """Changes and requests between parts; never a service (those are handed down)."""

    #: switch the main window to a page by key ("today", "about", "cue", ...)
    open_page = Signal(str)
    #: show the journal on a loop by id (its rounds and its thank-you)
    open_loop = Signal(int)
    #: the self-check page should show only the flagged questions
    open_flagged_quiz = Signal()
    #: the study list should show the review before the loop (companion.core.review)
    open_review = Signal()
    #: open the quick post-round capture for a round id (0 = no round recorded)
    capture_round = Signal(int)
    #: show the cue card window for a round type id ("" = last used)
    show_cue_card = Signal(str)
    #: open the global hotkeys dialog (the app owns the hotkey service)
    open_hotkeys = Signal()
    #: a desktop notification (title, message), shown through the tray when there is one
    notify = Signal(str, str)
    #: the day model changed (a companion.core.day.model.DayView); pages render it
    day_changed = Signal(object)
    #: a short message for the main window's status bar
    status_message = Signal(str)
    #: something was written (a companion.core.changes.Change: kinds, ids, origin); a
    #: view refreshes only for the kinds it shows and skips its own echo by origin
    changed = Signal(object)

    def announce(self, change) -> None:
        """Tell every view what a write changed: one ``changed(change)``."""
        self.changed.emit(change)
