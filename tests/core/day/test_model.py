"""The day model, walked through a whole interview day on a controlled clock (no Qt)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from companion.core.day import actions
from companion.core.day.invitation import import_invitation
from companion.core.day.loops import get_round, list_rounds
from companion.core.day.model import day_view, reminders_owed, reminders_to_send
from companion.core.day.rules import day_rules

TZ = dt.timezone(dt.timedelta(hours=1))


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=TZ)


INVITATION = """BEGIN:VCALENDAR
VERSION:2.0
BEGIN:VEVENT
SUMMARY:Acme - Hiring manager chat
DTSTART:20261202T090000
DTEND:20261202T094500
END:VEVENT
BEGIN:VEVENT
SUMMARY:Acme - System design
DTSTART:20261202T100000
DTEND:20261202T104500
END:VEVENT
BEGIN:VEVENT
SUMMARY:Acme - Coding
DTSTART:20261202T113000
DTEND:20261202T121500
END:VEVENT
BEGIN:VEVENT
SUMMARY:Acme - Culture and values
DTSTART:20261202T130000
DTEND:20261202T134500
END:VEVENT
END:VCALENDAR
"""


@pytest.fixture
def rules(content):
    return day_rules(content)


@pytest.fixture
def invited(db, rules, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("TZ", "Etc/GMT-1")  # floating times in the file read as UTC+1
    import time

    time.tzset()
    path = tmp_path / "loop.ics"
    path.write_text(INVITATION)
    result = import_invitation(db, path, rules, company=None, role="ML infra")
    yield result
    monkeypatch.delenv("TZ")
    time.tzset()


def view_at(db, rules, moment):
    return actions.load_view(db, rules, moment)


def test_the_invitation_becomes_a_loop_with_four_typed_rounds(db, rules, invited, tmp_path):
    assert invited.loop_created and invited.added == 4
    rounds = list_rounds(db, invited.loop_id)
    assert [r.type for r in rounds] == ["hiring-manager", "design", "coding", "culture-and-values"]
    assert rounds[-1].type_label == "Culture and values"  # a custom type keeps its words
    again = import_invitation(db, tmp_path / "loop.ics", rules)
    assert (again.loop_created, again.added, again.duplicates) == (False, 0, 4)


def test_a_whole_day_walked_by_the_clock(db, rules, invited):
    # the evening before
    v = view_at(db, rules, at(1, 16, 59))
    assert v.phase == "none" and v.next.type == "hiring-manager"
    v = view_at(db, rules, at(1, 17))
    assert v.phase == "night-before" and v.day == dt.date(2026, 12, 2)
    assert [d.kind for d in reminders_to_send(v, set())] == ["night-before"]
    # the morning of
    v = view_at(db, rules, at(2, 7))
    assert v.phase == "morning-of"
    # before the first round: its list is for that round
    v = view_at(db, rules, at(2, 8, 50))
    assert v.phase == "before-round" and v.focus.type == "hiring-manager"
    # a scheduled round runs from its start whether or not Start was pressed
    v = view_at(db, rules, at(2, 9, 5))
    assert v.phase == "in-round" and v.current.type == "hiring-manager"
    assert v.current.state == "running"
    # ended by its length: between rounds, the capture is due within the hour
    v = view_at(db, rules, at(2, 9, 46))
    assert v.phase == "before-round"  # design starts at 10:00, its list is up from 9:45
    hm = v.round(list_rounds(db, invited.loop_id)[0].id)
    # the capture counts to the next break: the design round starts at 10:00
    assert hm.state == "ended" and v.capture_due_by == at(2, 10, 0)
    v = view_at(db, rules, at(2, 10, 50))
    assert v.phase == "between-rounds" and v.next.type == "coding"
    # the thank-you is 24 h after the LOOP, not after each round
    assert v.thank_you_due_by == at(3, 13, 45)
    v = view_at(db, rules, at(2, 14))
    assert v.phase == "after-loop" and v.thank_you_due_by == at(3, 13, 45)
    v = view_at(db, rules, at(4, 14, 1))
    assert v.phase == "none"


def test_the_view_is_a_pure_function_of_its_inputs(db, rules, invited):
    loop_rounds = list_rounds(db, invited.loop_id)
    from companion.core.day.loops import get_loop

    loop = get_loop(db, invited.loop_id)
    one = day_view(loop, loop_rounds, rules, at(2, 10, 5))
    two = day_view(loop, loop_rounds, rules, at(2, 10, 5))
    assert one == two
    assert one.next_change is not None and one.next_change > at(2, 10, 5)


def test_next_change_is_the_next_moment_anything_changes(db, rules, invited):
    v = view_at(db, rules, at(1, 12))
    assert v.next_change == at(1, 17)  # the evening-before list
    v = view_at(db, rules, at(2, 9, 5))
    assert v.next_change == at(2, 9, 45)  # the first round ends by its length


def test_start_and_end_once_from_anywhere(db, rules, invited):
    first = list_rounds(db, invited.loop_id)[0]
    v = view_at(db, rules, at(2, 8, 58))
    # starting the type of a scheduled round of the day starts that round
    outcome = actions.start(db, v, at(2, 8, 58), round_type="hiring-manager")
    assert outcome.changed and outcome.round_id == first.id
    assert len(list_rounds(db, invited.loop_id)) == 4
    done = actions.end(db, first.id, at(2, 9, 40))
    assert done.changed
    again = actions.end(db, first.id, at(2, 9, 42))
    assert not again.changed and "already ended at 09:40" in again.message
    assert get_round(db, first.id).ended_at.startswith("2026-12-02T09:40")


def test_starting_a_type_whose_round_ended_makes_an_extra_round(db, rules, invited):
    first = list_rounds(db, invited.loop_id)[0]
    actions.end(db, first.id, at(2, 9, 40))
    v = view_at(db, rules, at(2, 9, 41))
    outcome = actions.start(db, v, at(2, 9, 41), round_type="hiring-manager")
    assert outcome.changed and outcome.round_id != first.id
    extra = get_round(db, outcome.round_id)
    assert extra.scheduled_at is None and extra.loop_id == invited.loop_id
    v = view_at(db, rules, at(2, 9, 42))  # an unscheduled round is an ordinary round
    assert v.current.id == extra.id and v.phase == "in-round"


def test_a_started_round_may_overrun_until_end_is_pressed(db, rules, invited):
    first = list_rounds(db, invited.loop_id)[0]
    v = view_at(db, rules, at(2, 9))
    actions.start(db, v, at(2, 9), round_id=first.id)
    v = view_at(db, rules, at(2, 9, 55))  # 45 min + overrun
    assert v.current is not None and v.current.id == first.id


def test_custom_round_types_are_kept_or_refused(db, rules, invited):
    known = set(rules.titles)
    rid = actions.add(db, invited.loop_id, "", known=known, label="Bar raiser")
    rnd = get_round(db, rid)
    assert (rnd.type, rnd.type_label) == ("bar-raiser", "Bar raiser")
    with pytest.raises(ValueError, match="needs a type"):
        actions.add(db, invited.loop_id, "  ", known=known, label=" ")


def test_skip_and_reminders_are_sent_once(db, rules, invited):
    v = view_at(db, rules, at(2, 8, 50))
    owed = reminders_owed(v, set())
    shown = reminders_to_send(v, set())
    # several steps before the first round are owed, the newest one is shown
    assert len(owed) > len(shown)
    actions.mark_sent(db, [d.key for d in owed], at(2, 8, 50))
    v = view_at(db, rules, at(2, 8, 51))
    assert reminders_owed(v, actions.sent_keys(db)) == []
    second = list_rounds(db, invited.loop_id)[1]
    assert actions.skip(db, second.id, at(2, 8, 51)).changed
    v = view_at(db, rules, at(2, 10, 5))
    assert v.round(second.id).state == "skipped" and v.current is None


def test_rows_the_app_cannot_show_do_not_break_the_view(db, rules, invited):
    first = list_rounds(db, invited.loop_id)[0]
    db["rounds"].update(first.id, {"ended_at": "0001-01-01T00:00:00", "scheduled_at": "junk"})
    v = view_at(db, rules, at(2, 9))
    assert v.round(first.id) is not None


def test_one_reminder_per_before_round_offset_of_the_pack(db, rules, invited):
    """The shipped pack: notifications off and the phone at 15, water at 10, the warm-up
    at 7 and 5, the bathroom at 3 minutes; each offset is its own reminder, sent once."""
    first = list_rounds(db, invited.loop_id)[0]  # 09:00
    seen: dict[str, tuple[int, str]] = {}
    sent: set[str] = set()
    for minute in range(40, 60):
        v = view_at(db, rules, at(2, 8, minute))
        for item in reminders_to_send(v, sent):
            if item.kind == "before-round" and item.round_id == first.id:
                seen[item.key.rsplit(":", 1)[1]] = (minute, item.text)
        sent |= {d.key for d in reminders_owed(v, sent)}
    assert {k: m for k, (m, _) in seen.items()} == {"15": 45, "10": 50, "8": 52, "5": 55, "3": 57}
    assert "Close Slack" in seen["15"][1] and "Phone face-down" in seen["15"][1]
    assert "Bathroom" in seen["3"][1] and "Bathroom" not in seen["15"][1]
    assert rules.before_window == dt.timedelta(minutes=15)


def test_reminder_texts_come_from_the_pack(db, rules, invited):
    from dataclasses import replace

    mine = replace(rules, texts={"night-before": "Pack your bag.", "morning-of": "Coffee."})
    night = [d for d in view_at(db, mine, at(1, 20)).due if d.kind == "night-before"]
    assert [d.text for d in night] == ["Pack your bag."]
    morning = [d for d in view_at(db, mine, at(2, 7)).due if d.kind == "morning-of"]
    assert [d.text for d in morning] == ["Coffee."]


def test_the_packs_windows_move_the_capture_and_thank_you(db, rules, invited):
    from dataclasses import replace

    mine = replace(
        rules, capture_window=dt.timedelta(hours=3), thank_you_after=dt.timedelta(hours=48)
    )
    v = view_at(db, mine, at(2, 14))
    assert v.capture_due_by == at(2, 16, 45) and v.thank_you_due_by == at(4, 13, 45)


def test_the_invitations_end_sets_the_rounds_length(db, rules, tmp_path, monkeypatch):
    path = tmp_path / "long.ics"
    path.write_text(
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Initech - System design\n"
        "DTSTART:20261202T100000Z\nDTEND:20261202T110000Z\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    result = import_invitation(db, path, rules)
    (rnd,) = list_rounds(db, result.loop_id)
    assert rnd.length_minutes == 60
    start = dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC)
    v = actions.load_view(db, rules, start + dt.timedelta(minutes=50), result.loop_id)
    assert v.current is not None and v.current.ends_at == start + dt.timedelta(hours=1)


def test_the_journals_thank_you_is_due_a_day_after_the_loop_not_each_round(db, rules, invited):
    """Journal and Today agree: 24 h after the last round, though the first has ended."""
    first = list_rounds(db, invited.loop_id)[0]
    actions.end(db, first.id, at(2, 9, 40))
    journal_says = actions.thank_you_due(db, rules, at(2, 9, 41), invited.loop_id)
    view = view_at(db, rules, at(2, 9, 41))
    assert journal_says == view.thank_you_due_by == at(3, 13, 45)


def test_the_thank_you_reminder_comes_four_hours_before_it_is_due(db, rules, invited):
    """README: a notification when the thank-you is due within 4 hours."""
    view = view_at(db, rules, at(3, 9))
    (thanks,) = [d for d in view.due if d.key.startswith("thank-you:")]
    assert view.thank_you_due_by == at(3, 13, 45)
    assert thanks.due_at == at(3, 9, 45)
