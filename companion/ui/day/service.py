"""The day service: created once by the application, it owns the only timer for the day.

It recomputes the Qt-free :func:`companion.core.day.model.day_view` when something can
have changed (the view's own ``next_change``, a five-minute safety net, and right after
any announced change it can see), emits ``bus.day_changed(view)``, sends each reminder
once (the dedupe lives in the database), opens the capture once per ended round, and
puts do-not-disturb back when the round it was paused for is over. Pages only render
the view and call the transitions below; a page that was never opened changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging

from PySide6.QtCore import QObject, QTimer

from companion.core.changes import DAY_KINDS, Change
from companion.core.cue.state import load_state
from companion.core.day import actions
from companion.core.day.checklist import checked_keys, phase_list, scope_for, steps_ticked
from companion.core.day.model import reminders_owed, reminders_to_send
from companion.core.day.notices import notice_for
from companion.core.day.rules import day_rules
from companion.core.dnd.rounds import choose_round, chosen_round, dnd_step
from companion.core.journal import progress
from companion.ui.day.notifier import Notifier
from companion.ui.dnd.switch import DndModel

# the session imports this module after the window's first paint (companion.ui.app), so
# the day's core (and sqlite-utils under it) is imported at the top: the first frame never
# waits for it

log = logging.getLogger(__name__)

SAFETY_NET_MS = 5 * 60 * 1000  # wake at least this often, in case the clock jumped
START_SOON_THROUGH_DND = "day.start_soon_through_dnd"
AUTO_DND = "day.auto_dnd"
SHOWN_LOOP = "today.shown_loop"  # the loop Today shows first: display only


class DayService(QObject):
    """Made once per session (:func:`day_service`) and handed to what needs it: the pages
    of the main window, the card, the session's hotkeys. The bus carries its changes."""

    def __init__(self, ctx, bus, notifier, parent: QObject | None = None, *, dnd=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.notifier = notifier
        self._dnd = dnd
        self._rules = None
        self._rules_of = None  # the Content the rules were read from
        self.view = None  # the last companion.core.day.model.DayView
        self.timer = QTimer(self, singleShot=True)
        self.timer.timeout.connect(self.refresh)
        bus.changed.connect(self._on_change)

    # --- reading --------------------------------------------------------------------

    @property
    def rules(self):
        """The day's rules, read again whenever the context's content was reloaded."""
        content = self.ctx.content
        if self._rules is None or self._rules_of is not content:
            self._rules, self._rules_of = day_rules(content), content
        return self._rules

    def _on_change(self, change) -> None:
        """A write the day can see (a loop, round, capture, thank-you, a preference or
        the content): compute the day again, once."""
        if change.touches(*DAY_KINDS, "prefs", "content"):
            self.refresh()

    @property
    def dnd(self) -> DndModel:
        """The session's one do-not-disturb model, handed to the pages and windows that
        show it: the one given (``dnd``, as tests give a stand-in), else made here once."""
        if self._dnd is None:
            # benchmarks/day_simulation.py still puts its stand-in under the bus instead
            # of handing it in: the one caller of this look-up, to go when it hands it
            found = self.bus.findChild(DndModel)
            self._dnd = found if found is not None else DndModel(self.ctx, self.bus)
        return self._dnd

    def choose_loop(self, loop_id: int, *, created: bool = False, origin=None) -> None:
        """Show ``loop_id`` first on Today (0: all loops; ``created``: just added). A
        display choice only: the day is built from every loop's rounds whatever is
        picked, and what is reminded never changes with it."""
        self.ctx.settings.set(SHOWN_LOOP, int(loop_id or 0))
        kinds = ("prefs", "loop") if created else ("prefs",)
        self.bus.announce(Change.of(*kinds, ids=[loop_id], origin=origin))

    @property
    def shown_loop(self) -> int:
        """The loop Today shows first (0: all loops in time order)."""
        return _int(self.ctx.settings.get(SHOWN_LOOP, 0))

    def loops_as_shown(self, loops: list) -> list:
        """``loops`` with the status their rounds give them now (the Journal's list), by
        the day's own round rule and the rules read once here."""
        return progress.loops_as_shown(
            loops, actions.round_states(self.ctx.db, self.rules, self.ctx.now())
        )

    def thank_you_due(self, loop_id: int):
        """When ``loop_id``'s thank-you is due: the day view's time for a loop that is
        over, else the day's rule over that loop's rounds (None once sent)."""
        view = self.view
        held = next((by for lp, by in view.thank_yous if lp.id == loop_id), None) if view else None
        return held or actions.thank_you_due(self.ctx.db, self.rules, self.ctx.now(), loop_id)

    def start(self) -> None:
        """Begin: the first view, the reminders it owes, and the timer."""
        self.refresh()

    def read(self):
        """The day as the journal holds it now, kept as ``view``: nothing sent, no timer
        armed, no signal (the window draws it before its first paint; :meth:`start`, after
        that paint, sends what is due). None when a broken row stops it: start() says so."""
        try:
            self.view = actions.load_view(self.ctx.db, self.rules, self.ctx.now())
        except Exception:
            log.exception("could not compute the day")
        return self.view

    def refresh(self):
        """Recompute the day now; send what is due; arm the timer for the next change."""
        now = self.ctx.now()
        try:
            view = actions.load_view(self.ctx.db, self.rules, now)
        except Exception as exc:  # a broken row must not stop the day: say so, keep the last view
            log.exception("could not compute the day")
            self.bus.status_message.emit(f"The day could not be computed from the journal: {exc}")
            self._arm(None, now)
            return self.view
        self.view = view
        self.bus.day_changed.emit(view)
        self._send_reminders(view)
        self._dnd_follows(view)
        self._arm(view.next_change, now)
        return view

    def _arm(self, moment: dt.datetime | None, now: dt.datetime) -> None:
        wait = SAFETY_NET_MS
        if moment is not None:
            wait = min(wait, max(250, int((moment - now).total_seconds() * 1000) + 50))
        self.timer.start(wait)

    # --- reminders and do-not-disturb ---------------------------------------------------

    def _send_reminders(self, view) -> None:
        self.notifier.follow(view)  # a round started or ended: its reminder leaves
        due_now = reminders_owed(view, frozenset())
        if not due_now:  # most ticks: nothing is due, and the database is not read
            return
        try:
            sent = actions.sent_keys(self.ctx.db, [d.key for d in due_now])
        except Exception:
            log.exception("could not read the sent reminders")
            return
        owed = [d for d in due_now if d.key not in sent]
        if not owed:
            return
        due = [d for d in reminders_to_send(view, sent) if not self._steps_done(d, view)]
        paused = self._dnd_paused()
        through = bool(self.ctx.prefs.get(START_SOON_THROUGH_DND, False))
        for item in due:
            if paused and not (item.kind == "start-soon" and through):
                continue  # suppressed, but marked: the Today page still lists it
            self.notifier.show(notice_for(item, view))
        actions.mark_sent(self.ctx.db, [d.key for d in owed], view.now)

    def _steps_done(self, due, view) -> bool:
        """A before-round reminder whose steps are ticked is not sent (marked all the same)."""
        if due.kind != "before-round":
            return False
        try:
            checked = checked_keys(self.ctx.db, scope_for("before-round", view))
        except Exception:
            log.exception("could not read the ticked steps")
            return False
        return steps_ticked(due, view, phase_list(self.ctx.content, "before-round"), checked)

    def _dnd_paused(self) -> bool:
        try:
            return self.dnd.hold is not None
        except Exception:
            return False

    def _dnd_follows(self, view) -> None:
        """Put notifications back once the round they were paused for is over; pause them
        for a running round when the user asked for that."""
        try:
            hold = self.dnd.hold
        except Exception:
            log.exception("could not read the do-not-disturb state")
            return
        step, round_id = dnd_step(
            view,
            hold,
            auto=bool(self.ctx.prefs.get(AUTO_DND, False)),
            chosen_round=chosen_round(self.ctx.settings),
        )
        if step == "off" and self.dnd.set_on(False):
            choose_round(self.ctx.settings, 0)  # the choice was for that round
            self.notifier.send("Round over", "Notifications are back on.")
        elif step == "on":
            self.dnd.set_on(True, round_id=round_id)

    # --- transitions ------------------------------------------------------------------

    def _after(self, outcome, origin=None):
        if outcome.changed:
            self.bus.announce(Change.of("round", ids=[outcome.round_id], origin=origin))
        else:
            self.bus.status_message.emit(outcome.message)
        return outcome

    def start_round(self, *, round_id: int = 0, round_type: str = ""):
        """Start a round (Today, the card, the hotkey: one rule for its length)."""
        now = self.ctx.now()
        try:  # the rows may have changed since the last view: read them, send nothing yet
            view = actions.load_view(self.ctx.db, self.rules, now)
        except Exception:  # a broken row: refresh() logs it and keeps the last view
            view = self.refresh()
        outcome = actions.start(
            self.ctx.db,
            view,
            now,
            round_id=round_id,
            round_type=round_type,
            chosen=load_state(self.ctx.settings).minutes,  # the card's length box per type
        )
        if not outcome.changed:
            self.refresh()  # nothing started: the pages still show the rows as they are now
        # a start announces a round change, which computes the day once for every page
        return self._after(outcome)

    def set_length(self, round_id: int, minutes: int):
        return self._after(actions.set_length(self.ctx.db, round_id, minutes))

    def end_round(self, round_id: int):
        """End once; the capture opens once for the round. Its reminder is marked sent
        before the day is computed again: the end's refresh sent "write it down" beside
        the capture it opened."""
        outcome = actions.end(self.ctx.db, round_id, self.ctx.now())
        opens = outcome.changed and self._claim_capture(round_id)
        self._after(outcome)
        if opens:
            self.bus.capture_round.emit(round_id)
        return outcome

    def skip_round(self, round_id: int, origin=None):
        return self._after(actions.skip(self.ctx.db, round_id, self.ctx.now()), origin)

    def unskip_round(self, round_id: int, origin=None):
        return self._after(actions.unskip(self.ctx.db, round_id), origin)

    def reschedule_round(self, round_id: int, scheduled_at, origin=None):
        """A new start time (None: no time), through the day's transition."""
        return self._after(actions.reschedule(self.ctx.db, round_id, scheduled_at), origin)

    def _claim_capture(self, round_id: int) -> bool:
        """True the first time only: the capture of ``round_id`` is to open now."""
        key = f"capture-open:{round_id}"
        if actions.sent_keys(self.ctx.db, [key]):
            return False
        # the capture is on screen: its "write it down" reminder would only repeat it
        actions.mark_sent(self.ctx.db, [key, f"capture:{round_id}"], self.ctx.now())
        return True

    def shutdown(self) -> None:
        self.timer.stop()
        self.notifier.close()


def day_service(ctx, bus, owner: QObject, *, fallback, dnd=None) -> DayService:
    """The session's day service with its notifier (``fallback``: where a notification
    goes when neither D-Bus nor a tray can show it): the one wiring the session and the
    tests use."""
    notifier = Notifier(owner, fallback=fallback, proofs_to=lambda: ctx.settings)
    return DayService(ctx, bus, notifier, owner, dnd=dnd)


def _int(value) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0
