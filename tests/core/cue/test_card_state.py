"""The card as a view of the day: every phase x every round type (custom included) x a
manual pick, on plain rows and a fixed clock (no Qt, no database)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from companion.core.cue.card import GENERIC, Pick, Seen, card_state
from companion.core.cue.rounds import round_infos
from companion.core.day.loops import Loop, Round
from companion.core.day.model import day_view
from companion.core.day.rules import day_rules
from companion.core.timeutil import to_stored

TZ = dt.timezone(dt.timedelta(hours=1))
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=TZ)
LOOP = Loop(1, "Acme", "SRE", NOW.date().isoformat(), None, "active", "")
CUSTOM = ("bar-raiser", "Bar raiser")  # a type the content does not have
PHASES = ("before", "in", "between", "after")


@pytest.fixture(scope="module")
def world(shipped_content):
    content = shipped_content[0]
    return content, round_infos(content), day_rules(content)


def _round(rid, rtype, *, label="", scheduled=None, started=None, ended=None, who="Priya"):
    return Round(
        id=rid,
        loop_id=1,
        type=rtype,
        interviewer_role="",
        interviewer_name=who,
        scheduled_at=to_stored(scheduled) if scheduled else None,
        started_at=to_stored(started) if started else None,
        ended_at=to_stored(ended) if ended else None,
        notes="",
        type_label=label,
    )


def _day(phase: str, rtype: str, label: str = ""):
    """Rows that put the day in ``phase`` with a round of ``rtype`` in focus."""
    m = dt.timedelta(minutes=1)
    if phase == "before":
        rows = [_round(1, rtype, label=label, scheduled=NOW + 12 * m)]
    elif phase == "in":
        rows = [_round(1, rtype, label=label, scheduled=NOW - 20 * m, started=NOW - 20 * m)]
    elif phase == "between":
        rows = [
            _round(1, "opening", scheduled=NOW - 90 * m, started=NOW - 90 * m, ended=NOW - 45 * m),
            _round(2, rtype, label=label, scheduled=NOW + 60 * m, who="Marcus"),
        ]
    else:  # after: every round of the day ran
        rows = [
            _round(1, rtype, label=label, scheduled=NOW - 90 * m, started=NOW - 90 * m,
                   ended=NOW - 45 * m),
        ]  # fmt: skip
    return rows


def _state(world, rows, now=NOW, **kw):
    content, infos, rules = world
    view = day_view(LOOP, rows, rules, now)
    return card_state(view, infos, content, now, **kw), view


def _types(world):
    return [(i.id, "") for i in world[1]] + [CUSTOM]


def test_every_phase_every_type_and_a_pick(world):
    content, infos, _rules = world
    for phase in PHASES:
        for rtype, label in _types(world):
            rows = _day(phase, rtype, label)
            state, view = _state(world, rows)
            where = f"{phase}/{rtype}"
            assert state.mode == phase, where
            own = next((i for i in infos if i.id == rtype), None)
            if phase == "after":
                assert state.round is None and state.next_press == "start", where
                assert "Loop done" in state.line, where
                continue
            rnd = state.round
            assert rnd is not None and rnd.type == rtype, where
            if own is None:  # a custom type keeps its own title, on the generic page
                assert state.title == "Bar raiser" and rnd.custom, where
                assert state.page == GENERIC, where
                assert all(i.short not in state.title for i in infos), where
            else:
                assert state.title == own.short and state.page == rtype, where
            if phase == "in":
                assert state.next_press == "end" and state.press_text == "End", where
                assert state.status is not None and state.status.elapsed == 20 * 60, where
                assert state.minutes == view.current.minutes, where
                assert state.reset and state.step == 0, where
            elif phase == "before":
                assert state.line == f"{state.title} with Priya in 12 min", where
                assert state.next_press == "start" and state.start_round_id == 1, where
            else:
                assert state.line.startswith(f"Next: {state.title} with Marcus at 13:00"), where
                assert state.next_press == "start" and state.start_round_id == 2, where

            # a pick by hand: another type's page, under its own title
            other = next(i for i in infos if i.id not in (rtype, state.page))
            focus = state.round.id if state.round else 0
            picked, _ = _state(world, rows, pick=Pick(other.id, focus))
            assert picked.page == other.id and picked.title == other.short, where
            if phase == "in":
                assert picked.mode == "viewing", where
                assert picked.line == f"viewing {other.short} \u00b7 {state.title} running", where
                assert picked.nudge is None and picked.page_status is None, where
                assert picked.next_press == "end", where
            else:
                assert picked.mode == phase, where


def test_a_pick_ends_when_the_day_moves_to_another_round(world):
    rows = _day("before", "coding")
    state, _ = _state(world, rows, pick=Pick("design", focus_id=99))
    assert state.pick is None and state.page == "coding"


def test_opened_late_only_the_current_nudge_shows(world):
    """20 minutes into coding: the minute-12 nudge alone, not minute 6 and 12 together."""
    content, infos, rules = world
    rows = _day("in", "coding")
    state, view = _state(world, rows)
    due = [n for n in state.status.due]
    assert len({n.at for n in due}) >= 2, "the shipped coding round nudges twice by 20 min"
    assert state.nudge == due[-1]
    assert state.nudge_text == state.status.current_text
    assert all(n.text not in state.nudge_text for n in due if n.at != due[-1].at)
    # shown once: the next tick has nothing new
    again = card_state(view, infos, content, NOW, seen=state.seen)
    assert again.nudge is None and not again.reset


def test_start_resets_the_stepper(world):
    rows = _day("in", "design")
    state, _ = _state(world, rows, steps={"design": 3}, seen=Seen(round_id=7, nudge_at=30.0))
    assert state.reset and state.step == 0 and state.seen.round_id == 1
    later, _ = _state(world, rows, steps={"design": 3}, seen=state.seen)
    assert not later.reset and later.step == 3


def test_an_extra_round_right_after_end_needs_a_second_press(world):
    m = dt.timedelta(minutes=1)
    rows = [_round(1, "coding", scheduled=NOW - 45 * m, started=NOW - 45 * m, ended=NOW - m)]
    state, _ = _state(world, rows)
    assert state.mode == "after"
    assert state.next_press == "confirm-unscheduled" and "again" in state.press_tip
    armed, _ = _state(world, rows, armed=True)
    assert armed.next_press == "start" and armed.press_text == "Start extra"
    later, _ = _state(world, rows, now=NOW + 20 * m)
    assert later.next_press == "start"


def test_an_open_capture_takes_the_press(world):
    for phase in PHASES:
        state, _ = _state(world, _day(phase, "coding"), capture_open=True)
        assert state.next_press == "focus-capture" and state.press_text == "Capture", phase


def test_a_custom_type_named_like_a_shipped_one_uses_its_page_with_its_own_title(world):
    rows = _day("in", "system-design-deep-dive", "System design deep dive")
    state, _ = _state(world, rows)
    assert state.page == "design" and state.title == "System design deep dive"
    assert state.mode == "in"


def test_nothing_on_the_day_shows_the_type_shown_last(world):
    content, infos, _ = world
    state = card_state(None, infos, content, NOW, last_type="peer")
    assert state.mode == "none" and state.page == "peer" and state.round is None
    assert state.next_press == "start" and state.start_round_id == 0


def test_the_idle_length_is_the_days_for_the_round_ahead_else_the_types(world):
    content, infos, _ = world
    state, view = _state(world, _day("before", "coding"))
    assert state.minutes == view.next.minutes
    coding = next(i for i in infos if i.id == "coding")
    picked, _ = _state(world, _day("before", "design"), pick=Pick("coding", 1))
    assert picked.minutes == coding.minutes
    own, _ = _state(world, _day("before", "design"), pick=Pick("coding", 1), minutes={"coding": 25})
    assert own.minutes == 25


def test_start_never_starts_a_round_of_another_day(world):
    """The walk: the next round was tomorrow's (23 h away) and one Start on the card
    recorded it as run today; only a round of today is the one a Start starts."""
    tomorrow = _round(1, "coding", scheduled=NOW + dt.timedelta(hours=23))
    state, view = _state(world, [tomorrow])
    assert view.next is not None and view.next.round.id == 1  # the card counts down to it
    assert state.next_press == "start" and state.start_round_id == 0
    today, _ = _state(world, [_round(1, "coding", scheduled=NOW + dt.timedelta(hours=3))])
    assert today.start_round_id == 1


# --- a press at the start of a round (#46) ---------------------------------------------

S = dt.timedelta(seconds=1)
M = dt.timedelta(minutes=1)


def _clock_started(rtype="coding", at=NOW):
    """A round the clock started at ``at`` (its scheduled time passed, nobody pressed)."""
    return [_round(1, rtype, scheduled=at)]


def _user_started(rtype="coding", at=NOW):
    return [_round(1, rtype, scheduled=at, started=at)]


def test_a_clock_started_round_pressed_at_10_s_is_started_again_not_ended(world):
    state, view = _state(world, _clock_started(), now=NOW + 10 * S)
    assert view.current is not None and view.current.round.started_at is None
    assert state.next_press == "start-now" and state.start_round_id == 1
    assert state.press_text == "Start"
    assert state.line.startswith("started by the clock \u00b7 press to start now")


def test_a_clock_started_round_pressed_at_4_min_is_still_taken_over(world):
    state, _ = _state(world, _clock_started(), now=NOW + 4 * M)
    assert state.next_press == "start-now" and state.start_round_id == 1


def test_a_clock_started_round_pressed_at_6_min_ends(world):
    state, _ = _state(world, _clock_started(), now=NOW + 6 * M)
    assert state.next_press == "end" and state.press_text == "End"


def test_the_take_over_minutes_are_the_packs(world):
    content, infos, rules = world
    assert content.round_defaults().take_over_within == 5


def test_a_user_started_round_at_10_s_ends_only_at_a_second_press(world):
    rows = _user_started(at=NOW - 10 * S)
    first, _ = _state(world, rows)
    assert first.next_press == "confirm-end" and "twice" in first.press_tip
    assert first.line.startswith("started 11:59")
    armed, _ = _state(world, rows, armed=True)
    assert armed.next_press == "end" and armed.press_text == "End now"
    assert armed.line.startswith("press again")


def test_after_the_take_over_the_card_says_when_it_started(world):
    state, _ = _state(world, _user_started(at=NOW - 6 * M))
    assert state.next_press == "end" and state.line.startswith("started 11:54")


def test_a_round_running_late_past_its_length_ends_at_one_press(world):
    content, infos, rules = world
    rows = [_round(1, "coding", scheduled=NOW - 20 * M, started=NOW - 20 * M)]
    rows[0] = dataclasses.replace(rows[0], length_minutes=3)
    state, view = _state(world, rows, now=NOW)
    assert view.current is not None and state.status.remaining < 0
    assert state.next_press == "end"
    short = [_round(1, "coding", scheduled=NOW - 4 * M, started=NOW - 4 * M)]
    short[0] = dataclasses.replace(short[0], length_minutes=3)
    late, _ = _state(world, short)  # 4 min into a 3-minute round: younger than 5, but late
    assert late.next_press == "end"


def test_a_double_press_is_settled_by_the_meaning_change():
    from companion.core.cue.card import SETTLE, Settle

    first = Settle().follow("Start", NOW)
    assert not first.ignores(NOW)  # a card seen for the first time takes a press at once
    changed = first.press(NOW).follow("End", NOW)
    assert changed.ignores(NOW + dt.timedelta(milliseconds=200))
    assert not changed.ignores(NOW + SETTLE)
    assert changed.follow("End", NOW + S) is changed  # no change: no new wait


def test_a_meaning_the_clock_changed_takes_the_next_press_at_once():
    """An armed "End now" ran out and turned back to "End"; the hesitant user's press just
    after was taken for a double click's tail and swallowed."""
    from companion.core.cue.card import ARMED_FOR, Settle

    armed = Settle().follow("End", NOW).press(NOW).follow("End now", NOW)
    assert armed.ignores(NOW + dt.timedelta(milliseconds=100))  # the double click's tail
    ran_out = armed.follow("End", NOW + ARMED_FOR)  # no press: the clock
    assert not ran_out.ignores(NOW + ARMED_FOR + dt.timedelta(milliseconds=100))


def test_after_a_custom_round_ends_the_header_keeps_its_title(world):
    """The walk: after "Bar raiser" ended the header went back to "Peer / IC"."""
    rows = _day("after", *CUSTOM)
    state, _ = _state(world, rows, last_type="peer")
    assert state.mode == "after" and state.title == "Bar raiser"


@pytest.mark.parametrize(
    ("label", "page"),
    [
        ("Behavioral interview", "hiring-manager"),  # the page with the Stories fold
        ("Behavioural interview", "hiring-manager"),
        ("ML infra deep dive interview", "peer"),
        ("Architecture review", "design"),
        ("Intro call with the recruiter", "opening"),
        ("Lunch with the team", GENERIC),
        ("Office tour", GENERIC),
    ],
)
def test_an_invitations_own_words_find_the_pack_page_that_fits(world, label, page):
    """A custom type from an invitation ("Behavioral interview") showed the generic page:
    no Stories on the card in a behavioural round. The pack's ``also:`` words name it."""
    from companion.core.content.stories import FALLBACK
    from companion.core.stories.rounds import shows_stories

    rtype = label.lower().replace(" ", "-")
    state, _view = _state(world, _day("in", rtype, label))
    assert (state.title, state.page) == (label, page)
    assert shows_stories(FALLBACK, state.page) == (page in ("hiring-manager", "peer"))
