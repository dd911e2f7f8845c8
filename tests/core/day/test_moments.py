"""Each item at its moment: the night before lasts until the morning and, past midnight,
leads with sleep; the guide's morning items come before the first round only."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day import actions
from companion.core.day.checklist import for_moment, phase_list
from companion.core.day.loops import add_round, create_loop
from companion.core.day.rules import day_rules

TZ = dt.timezone(dt.timedelta(hours=1))


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=TZ)


def _pack_with(tmp_path, name: str, *changes: tuple[str, str]):
    """The shipped pack with the file ``name`` changed (each (old, new) once)."""
    from companion.core.content.loader import load_content
    from companion.core.paths import shipped_content_dir

    text = (shipped_content_dir() / name).read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    mine, errors = load_content([shipped_content_dir(), folder])
    assert errors == []
    return mine


@pytest.fixture
def rules(content):
    return day_rules(content)


@pytest.fixture
def morning_loop(db):
    loop_id = create_loop(db, "Acme", "ML infra", starts_on="2026-12-02")
    first = add_round(db, loop_id, "design", scheduled_at=at(2, 10))
    second = add_round(db, loop_id, "coding", scheduled_at=at(2, 13))
    return loop_id, first, second


def test_one_am_before_a_ten_oclock_round_is_still_the_night_before(db, rules, morning_loop):
    view = actions.load_view(db, rules, at(2, 1))
    assert view.phase == "night-before" and view.day == dt.date(2026, 12, 2)
    pending = [d for d in view.due if d.due_at <= view.now < d.expires_at]
    assert [d.title for d in pending] == ["Go to sleep: first round at 10:00"]
    assert "1am" in pending[0].text
    assert actions.load_view(db, rules, at(2, 5)).phase == "morning-of"


def test_past_midnight_the_night_before_list_leads_with_sleep(db, rules, content, morning_loop):
    lst = phase_list(content, "night-before")
    assert lst.items[0].text != "Go to sleep"
    evening = for_moment(lst, actions.load_view(db, rules, at(1, 22)))
    assert evening.items == lst.items  # before midnight: the list as the pack orders it
    late = for_moment(lst, actions.load_view(db, rules, at(2, 1)))
    assert late.items[0].text == "Go to sleep" and set(late.items) == set(lst.items)


def test_the_evening_reminder_gives_way_to_sleep_at_midnight(db, rules, morning_loop):
    view = actions.load_view(db, rules, at(1, 23, 59))
    pending = [d for d in view.due if d.due_at <= view.now < d.expires_at]
    assert [d.title for d in pending] == ["Tomorrow: first round at 10:00"]


def _before_texts(view, round_id):
    return " ".join(d.text for d in view.due if d.kind == "before-round" and d.round_id == round_id)


def test_the_guides_morning_items_come_before_the_first_round_only(db, rules, morning_loop):
    _loop, first, second = morning_loop
    view = actions.load_view(db, rules, at(2, 8))
    before_first, before_second = _before_texts(view, first), _before_texts(view, second)
    for morning_item in ("Close Slack", "Phone face-down", "about-me aloud", "one chapter-15"):
        assert morning_item in before_first and morning_item not in before_second
    for each_round in ("Water within reach", "Bathroom break"):
        assert each_round in before_first and each_round in before_second


def test_the_before_round_list_for_a_later_round_drops_the_morning_items(
    db, rules, content, morning_loop
):
    lst = phase_list(content, "before-round")
    first = for_moment(lst, actions.load_view(db, rules, at(2, 9, 50)))
    later = for_moment(lst, actions.load_view(db, rules, at(2, 12, 50)))
    assert first.items == lst.items
    assert [i.text for i in later.items] == [
        "Water within reach; notebook and pen open",
        "Bathroom break, right before the call",
    ]


def test_the_words_a_minute_before_a_round_are_the_packs(db, content, morning_loop, tmp_path):
    mine = _pack_with(
        tmp_path,
        "12-before-round.md",
        ("start_soon: Camera on, one breath, smile.", "start_soon: Sit up."),
    )
    view = actions.load_view(db, day_rules(mine), at(2, 9, 59))
    (soon,) = [d for d in view.due if d.kind == "start-soon" and d.due_at == at(2, 9, 59)]
    assert soon.text == "Sit up."


def test_the_after_loop_reminder_is_the_capture_reminders_text(db, rules, content, morning_loop):
    from companion.core.day.loops import end_round

    _loop, first, _second = morning_loop
    end_round(db, first, at(2, 10, 40))
    view = actions.load_view(db, rules, at(2, 10, 41))
    (capture,) = [d for d in view.due if d.kind == "capture"]
    assert capture.text == content.section("after-loop").meta["reminder"]
    assert capture.text == "Write down every question you were asked, within the hour."


@pytest.fixture
def two_am_loop(db):
    loop_id = create_loop(db, "Acme", "ML infra", starts_on="2026-12-02")
    return loop_id, add_round(db, loop_id, "design", scheduled_at=at(2, 2, 4))


def test_no_sleep_line_eleven_minutes_before_a_two_am_round(db, rules, content, two_am_loop):
    """The walk: at 01:53 with a round at 02:04, Today and `today` said "Go to sleep:
    first round at 02:04" and sent it as a notification."""
    view = actions.load_view(db, rules, at(2, 1, 53))
    pending = [d for d in view.due if d.due_at <= view.now < d.expires_at]
    assert not [d for d in pending if "sleep" in d.title.lower()]
    assert not [d for d in view.due if d.kind == "night-before" and d.expires_at > at(2, 0, 34)]
    lst = phase_list(content, "night-before")
    late = for_moment(lst, actions.load_view(db, rules, at(2, 0, 50))).items
    assert "Go to sleep" not in [i.text for i in late]  # no sleep fits: not on the list


def test_no_sleep_line_at_all_before_a_two_am_round(db, rules, content, two_am_loop):
    """The pack's night switch is 1 am and a sleep needs 90 minutes: before a 02:04
    round no sleep fits, so neither the reminder nor the list says "Go to sleep" (at
    00:30 it said sleep, at 00:31 "take a walk")."""
    for moment in (at(1, 22), at(2, 0, 20), at(2, 0, 50), at(2, 1, 30)):
        view = actions.load_view(db, rules, moment)
        assert not [d for d in view.due if "sleep" in d.title.lower()], moment
        lst = for_moment(phase_list(content, view.phase), view) if view.phase in (
            "night-before", "morning-of") else None  # fmt: skip
        words = " ".join(i.text for i in lst.items) if lst else ""
        assert "Go to sleep" not in words and "walk" not in words, (moment, words)
    assert actions.load_view(db, rules, at(2, 0, 50)).phase == "morning-of"


def test_a_four_am_round_sleeps_from_one_and_takes_no_walk(db, rules, content):
    loop_id = create_loop(db, "Acme", "ML infra", starts_on="2026-12-02")
    add_round(db, loop_id, "design", scheduled_at=at(2, 4))
    said = set()
    moment = at(1, 17)
    while moment < at(2, 4):
        view = actions.load_view(db, rules, moment)
        if view.phase in ("night-before", "morning-of"):
            items = for_moment(phase_list(content, view.phase), view).items
            if view.phase == "night-before" and actions.load_view(db, rules, moment).sleep_window:
                said |= (
                    {"sleep"} if items[0].text == "Go to sleep" and moment >= at(2, 1) else set()
                )
            said |= {"walk"} if any("walk" in i.text for i in items) else set()
        moment += dt.timedelta(minutes=10)
    assert said == {"sleep"}
    assert actions.load_view(db, rules, at(2, 0, 50)).sleep_window == (at(2, 1), at(2, 2, 30))


def test_the_night_switch_and_margin_are_the_packs(db, content, two_am_loop, tmp_path):
    mine = _pack_with(
        tmp_path,
        "10-night-before.md",
        ("night_from: 01:00", "night_from: 00:00"),
        ("sleep_margin: 90", "sleep_margin: 60"),
    )
    view = actions.load_view(db, day_rules(mine), at(2, 0, 20))
    pending = [d for d in view.due if d.due_at <= view.now < d.expires_at]
    assert [d.title for d in pending] == ["Go to sleep: first round at 02:04"]
    assert pending[0].expires_at == at(2, 1, 4)


def test_the_warm_up_length_schedules_the_warm_up(db, content, morning_loop, tmp_path):
    """The pack's warm_up_minutes changed the words only; now the warm-up steps move: they
    fill that many minutes ending where the bathroom break begins."""

    def warm_up_offsets(pack):
        view = actions.load_view(db, day_rules(pack), at(2, 8))
        _loop, first, _second = morning_loop
        return sorted(
            (int(d.key.rsplit(":", 1)[-1]), d.text)
            for d in view.due
            if d.kind == "before-round" and d.round_id == first and "Warm-up" in d.text
        )

    assert [m for m, _t in warm_up_offsets(content)] == [5, 8]  # the guide's 5 minutes
    mine = _pack_with(tmp_path, "12-before-round.md", ("warm_up_minutes: 5", "warm_up_minutes: 10"))
    assert [m for m, _t in warm_up_offsets(mine)] == [8, 13]
    steps = {i.text: i.minutes_before for i in phase_list(mine, "before-round").items}
    assert steps["Warm-up: read the about-me aloud once"] == 13  # the list says the same
