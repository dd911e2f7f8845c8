"""The card's one-second tick redraws the countdowns and the nudge due now, never every
part (DAY.md, STYLE.md): renders counted per part over a simulated minute of a round."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import add_round, create_loop

pytestmark = pytest.mark.gui


class Counted:
    """How often each part's drawing method ran (the methods themselves run as ever)."""

    def __init__(self):
        self.calls: dict[str, int] = {}

    def wrap(self, name: str, owner, method: str) -> None:
        real = getattr(owner, method)

        def counted(*args, **kwargs):
            self.calls[name] = self.calls.get(name, 0) + 1
            return real(*args, **kwargs)

        setattr(owner, method, counted)

    def __getitem__(self, name: str) -> int:
        return self.calls.get(name, 0)


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), opacity
def test_a_minute_of_ticks_redraws_the_countdowns_and_the_nudge_alone(
    qtbot, ctx, bus, day_service, clock
):
    from companion.ui.cue.window import CueCardWindow

    loop = create_loop(ctx.db, "Acme", starts_on=clock.now().date().isoformat())
    add_round(ctx.db, loop, "design", scheduled_at=clock.now())
    day_service.refresh()
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    card.show()
    qtbot.waitExposed(card)
    day_service.start_round(round_type="design")
    assert card.running
    started = clock.now()
    # past the opening minutes and the first press's confirm (those change more)
    clock.set(started + dt.timedelta(minutes=6))
    card.tick()
    upcoming = card.card.status.upcoming  # the next nudge: the simulated minute holds it
    assert upcoming is not None
    clock.set(started + dt.timedelta(minutes=upcoming.at) - dt.timedelta(seconds=30))
    card.tick()  # the jump: whatever it redraws
    page = card.pages.current()
    counted = Counted()
    for name, owner, method in (
        ("header", card.header, "render"),
        ("clock", card.header, "show_clock"),
        ("tabs", card.tabs, "render"),
        ("pages", card.pages, "render"),
        ("page switch", card.pages, "show"),
        ("timebox", page.timebox, "show_status"),
        ("stories", card.stories, "render"),
        ("banner", card.banner, "show_text"),
    ):
        counted.wrap(name, owner, method)
    nudges = []
    for _ in range(60):
        clock.advance(seconds=1)
        card.tick()
        nudges.append(card.card.nudge)
    assert counted["clock"] == counted["timebox"] == 60  # the countdowns, each second
    assert upcoming in nudges  # the nudge fell due in this minute
    assert counted["banner"] == 1  # and was shown once, when it did
    assert card.banner.isVisible() and upcoming.text in card.banner.text.text()
    for part in ("header", "tabs", "pages", "page switch", "stories"):
        assert counted[part] == 0, part
    assert card.header.clock.text()  # the clock still counts
