"""The documented fold of the pitch outline, by the card's own view of the day: open
before a round and through its first five minutes, folded from then on."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.cue.card import card_state, steady
from companion.core.cue.rounds import round_infos
from companion.core.day.loops import Loop, Round
from companion.core.day.model import day_view
from companion.core.day.rules import day_rules
from companion.core.timeutil import to_stored

TZ = dt.timezone(dt.timedelta(hours=1))
START = dt.datetime(2026, 12, 1, 10, 0, tzinfo=TZ)
LOOP = Loop(1, "Acme", "SRE", START.date().isoformat(), None, "active", "")


@pytest.fixture(scope="module")
def world(shipped_content):
    content = shipped_content[0]
    return content, round_infos(content), day_rules(content)


def _outline_open(world, now: dt.datetime, *, started: bool = True) -> bool:
    content, infos, rules = world
    row = Round(
        id=1,
        loop_id=1,
        type="design",
        interviewer_role="",
        interviewer_name="Priya",
        scheduled_at=to_stored(START),
        started_at=to_stored(START) if started and now >= START else None,
        ended_at=None,
        notes="",
    )
    view = day_view(LOOP, [row], rules, now)
    return steady(card_state(view, infos, content, now))[1]


@pytest.mark.parametrize(
    ("offset", "open_"),
    [
        (dt.timedelta(minutes=-10), True),  # before the round
        (dt.timedelta(0), True),
        (dt.timedelta(minutes=4, seconds=59), True),
        (dt.timedelta(minutes=5), False),
        (dt.timedelta(minutes=5, seconds=1), False),
        (dt.timedelta(minutes=30), False),
    ],
    ids=["before", "at-start", "4m59s", "5m", "5m01s", "30m"],
)
def test_the_pitch_outline_folds_five_minutes_into_a_round(world, offset, open_):
    assert _outline_open(world, START + offset) is open_
