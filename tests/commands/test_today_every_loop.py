"""`companion today --json --at` over issue 61's scripted calendar (three companies, two
the same day with back-to-back rounds, one the next week at 02:00) at 20 chosen
moments: the day of every loop, named with its company, nothing due inside a round."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from scripted_calendar import DAY, NEXT_WEEK, book, local

from companion.cli import main

D0, D1 = DAY - dt.timedelta(days=1), DAY + dt.timedelta(days=1)
N0 = NEXT_WEEK - dt.timedelta(days=1)

# (moment, phase, running round "Company type", next round "Company type", words one of
# the reminders owed now holds ("" none owed), words none of them may hold)
MOMENTS = [
    (local(D0, 16, 59), "none", None, "Northwind coding", "", ""),
    (local(D0, 17), "night-before", None, "Northwind coding", "Tomorrow: first round at 10:00", ""),
    (local(DAY, 0, 30), "night-before", None, "Northwind coding", "Tomorrow", "sleep"),
    (local(DAY, 1), "night-before", None, "Northwind coding", "Go to sleep", ""),
    (local(DAY, 5), "morning-of", None, "Northwind coding", "Interview day", "sleep"),
    (local(DAY, 9, 45), "before-round", None, "Northwind coding", "in 15 min", ""),
    # the issue: at 10:20 Northwind's running round was not shown at all
    (local(DAY, 10, 20), "in-round", "Northwind coding", "Northwind design", "", ""),
    (local(DAY, 10, 35), "in-round", "Northwind coding", "Northwind design", "", "design"),
    (local(DAY, 10, 44), "in-round", "Northwind coding", "Northwind design", "", "design"),
    (
        local(DAY, 10, 45),
        "in-round",
        "Northwind design",
        "Northwind hiring-manager",
        "starts now",
        "",
    ),
    (
        local(DAY, 11),
        "in-round",
        "Northwind design",
        "Northwind hiring-manager",
        "",
        "write it down",
    ),
    (local(DAY, 11, 35), "between-rounds", None, "Northwind hiring-manager", "write it down", ""),
    (local(DAY, 13, 50), "before-round", None, "Northwind hiring-manager", "in 10 min", ""),
    (local(DAY, 14, 30), "in-round", "Northwind hiring-manager", "Cobalt peer", "", ""),
    (local(DAY, 15), "between-rounds", None, "Cobalt peer", "write it down", ""),
    (local(DAY, 16, 10), "in-round", "Cobalt peer", "Driftwood coding", "", ""),
    (local(DAY, 17), "after-loop", None, "Driftwood coding", "write it down", ""),
    (local(D1, 11), "after-loop", None, "Driftwood coding", "Thank-you note: Northwind", ""),
    (local(N0, 17), "night-before", None, "Driftwood coding", "Tomorrow: first round at 02:00", ""),
    (local(NEXT_WEEK, 0, 45), "morning-of", None, "Driftwood coding", "", "sleep"),
]


@pytest.fixture
def calendar(data_dir, ctx):
    booked = book(ctx.db)
    ctx.db.close()
    return booked


def _named(rnd) -> str | None:
    return f"{rnd['company']} {rnd['type']}" if rnd else None


@pytest.mark.parametrize(
    ("moment", "phase", "current", "nxt", "owed", "never"),
    MOMENTS,
    ids=[f"{m:%a-%H%M}" for m, *_ in MOMENTS],
)
def test_the_day_of_every_loop_at_a_moment(
    calendar, data_dir, capsys, moment, phase, current, nxt, owed, never
):
    at = moment.strftime("%Y-%m-%dT%H:%M")
    assert main(["--data-dir", str(data_dir), "today", "--json", "--at", at]) == 0
    day = json.loads(capsys.readouterr().out)
    assert [lp["company"] for lp in day["loops"]] == ["Northwind", "Cobalt", "Driftwood"]
    assert (day["phase"], _named(day["current_round"]), _named(day["next_round"])) == (
        phase,
        current,
        nxt,
    )
    texts = [n["text"] for n in day["now"]]
    assert (owed in " ".join(texts)) if owed else texts == [], texts
    if never:
        assert not [t for t in texts if never in t.lower()], texts


def test_the_capture_counts_to_the_next_break_and_each_loop_keeps_its_thank_you(
    calendar, data_dir, capsys
):
    def day_at(moment):
        at = moment.strftime("%Y-%m-%dT%H:%M")
        assert main(["--data-dir", str(data_dir), "today", "--json", "--at", at]) == 0
        return json.loads(capsys.readouterr().out)

    # the hiring-manager round ends 14:45; Cobalt's starts at 16:00: an hour fits
    assert day_at(local(DAY, 15))["capture_due_by"].startswith(f"{DAY}T15:45")
    # Northwind's design ends 11:30 while coding's capture was cut at 10:45: the window
    # runs from the break, not "55 min left" while the next round starts in 10
    assert day_at(local(DAY, 11))["capture_due_by"].startswith(f"{DAY}T12:30")
    evening = day_at(local(DAY, 17))
    assert {t["company"] for t in evening["thank_yous"]} == {"Northwind", "Cobalt"}
    # midnight: Cobalt's loop ended last, Northwind's thank-you is still there
    after = day_at(local(D1, 0, 5))
    assert {t["company"] for t in after["thank_yous"]} == {"Northwind", "Cobalt"}


def test_the_text_lists_what_is_open_in_the_words_each_reminder_will_say(
    calendar, data_dir, capsys
):
    def text_at(moment, *json_flag):
        at = moment.strftime("%Y-%m-%dT%H:%M")
        assert main(["--data-dir", str(data_dir), "today", *json_flag, "--at", at]) == 0
        return capsys.readouterr().out

    # the design round's start, held to the break that is its start: "starts now", not
    # "starts in 1 minute" at 10:45
    lines = text_at(local(DAY, 10, 20)).splitlines()
    assert "due 10:45: Northwind · System design round starts now (10:45)" in lines, lines
    # a week on, last week's loops and their thank-yous (past their window) are not
    # listed: the night of Driftwood's 02:00 round
    lines = text_at(local(NEXT_WEEK, 0, 45)).splitlines()
    assert lines[0] == "Driftwood — ML infra (2026-12-14)"
    assert not [line for line in lines if line.startswith("thank-you note")], lines
    assert json.loads(text_at(local(NEXT_WEEK, 0, 45), "--json"))["thank_yous"] == []
    # the next day both are listed, each by its own time
    lines = text_at(local(D1, 11)).splitlines()
    assert [line for line in lines if line.startswith("thank-you note")] == [
        "thank-you note to Northwind by 14:45",
        "thank-you note to Cobalt by 16:30",
    ]
