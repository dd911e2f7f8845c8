"""`companion schedule import`: each event stands alone, exit 1 only when none went in,
the user's address kept once, times printed on this machine's clock."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main
from companion.core.context import AppContext
from companion.core.day.invite_people import my_address

FIXTURES = Path(__file__).parents[1] / "data" / "invitations"


def _import(data_dir, *args) -> int:
    return main(["--data-dir", str(data_dir), "schedule", "import", *map(str, args)])


def test_exit_0_with_one_good_event_1_with_none_and_each_refusal_named(data_dir, tmp_path, capsys):
    bad = "BEGIN:VEVENT\r\nUID:b1\r\nDTSTART;TZID=Nowhere/Zone:20261210T090000\r\nSUMMARY:Acme - Coding\r\nEND:VEVENT\r\n"
    good = "BEGIN:VEVENT\r\nUID:g1\r\nDTSTART:20261210T130000Z\r\nSUMMARY:Acme - Peer\r\nEND:VEVENT\r\n"
    (tmp_path / "mixed.ics").write_text(
        f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{bad}{good}END:VCALENDAR\r\n"
    )
    (tmp_path / "bad.ics").write_text(f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{bad}END:VCALENDAR\r\n")
    assert _import(data_dir, tmp_path / "mixed.ics") == 0
    out = capsys.readouterr().out
    assert (
        "note: mixed.ics, line 5, UID b1, 'Acme - Coding': unknown time zone 'Nowhere/Zone'" in out
    )
    assert "added 1 round," in out and "1 event not imported" in out and "(s)" not in out
    assert _import(data_dir, tmp_path / "bad.ics") == 1
    err = capsys.readouterr().err
    assert "unknown time zone 'Nowhere/Zone'" in err and "Traceback" not in err


def test_my_address_is_kept_for_the_next_import(data_dir, capsys):
    assert _import(data_dir, FIXTURES / "google-coding.ics", "--me", "Sam.Rivera@example.org") == 0
    ctx = AppContext(data_dir)  # kept in the journal, where settings live
    assert my_address(ctx.settings) == "sam.rivera@example.org"
    ctx.close()
    assert _import(data_dir, FIXTURES / "teams-peer.ics") == 0
    assert "Several people" not in capsys.readouterr().out
    assert main(["--data-dir", str(data_dir), "today", "--at", "2026-12-11T08:00Z", "--json"]) == 0
    rounds = json.loads(capsys.readouterr().out)["rounds"]
    assert [r["interviewer"] for r in rounds] == ["Marcus Weber", "Jonas Ek"]


def test_an_address_that_is_not_one_is_a_usage_error(data_dir, capsys):
    assert _import(data_dir, FIXTURES / "google-coding.ics", "--me", "sam") == 2
    assert "not an e-mail address" in capsys.readouterr().err


def test_review_json_prints_the_next_round_on_this_machines_clock(
    data_dir, tmp_path, capsys, machine_zone
):
    machine_zone("UTC")
    (tmp_path / "ny.ics").write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:n1\r\n"
        "DTSTART;TZID=America/New_York:20261210T100000\r\nSUMMARY:Acme - Coding\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    assert _import(data_dir, tmp_path / "ny.ics") == 0
    capsys.readouterr()
    assert main(["--data-dir", str(data_dir), "review", "--at", "2026-12-09T12:00", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["next_round_at"] == "2026-12-10T15:00:00+00:00"


def test_today_names_the_interviewer_of_the_next_round(data_dir, capsys):
    assert _import(data_dir, FIXTURES / "google-coding.ics", "--me", "sam.rivera@example.org") == 0
    capsys.readouterr()
    assert main(["--data-dir", str(data_dir), "today", "--at", "2026-12-10T07:00Z"]) == 0
    assert "next: Coding round with Marcus Weber at " in capsys.readouterr().out


def test_without_my_address_the_cli_says_how_to_give_it(data_dir, capsys):
    assert _import(data_dir, FIXTURES / "google-coding-outside-interviewer.ics") == 0
    out = capsys.readouterr().out
    assert "several people are invited (marcus.weber@karat.example, sam.rivera@" in out
    assert "--me ADDRESS" in out
