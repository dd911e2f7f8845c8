"""Invitations as they arrive: Meet/Teams/Zoom links, the people, updates and
cancellations by UID, floating times on their own date, each event standing alone.

The fixtures under tests/data/invitations are written for these tests, modelled on the
shape of Google Calendar, Exchange/Teams, Outlook, Zoom, Apple Calendar and Thunderbird
invitations."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from companion.core.day.ics import parse_ics, read_ics
from companion.core.day.invitation import import_invitation
from companion.core.day.loops import get_loop, list_loops, list_rounds
from companion.core.day.model import DayRules

FIXTURES = Path(__file__).parents[2] / "data" / "invitations"
RULES = DayRules(titles={"coding": "Coding", "hiring-manager": "Hiring manager", "peer": "Peer"})
NOW = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)
ME = "sam.rivera@example.org"


def _one(*lines: str, method: str = "") -> str:
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", *([f"METHOD:{method}"] if method else [])]
    return "\r\n".join([*head, "BEGIN:VEVENT", *lines, "END:VEVENT", "END:VCALENDAR", ""])


def _import(db, name: str, **kw):
    return import_invitation(db, FIXTURES / name, RULES, now=NOW, **kw)


# --- 1. the call link ------------------------------------------------------------------


def test_google_meet_link_comes_from_x_google_conference_and_is_nobody():
    (event,), problems = read_ics(FIXTURES / "google-coding.ics")
    assert problems == []
    assert event.link == "https://meet.google.com/xqd-pwra-kzt"
    assert event.interviewer == ""  # "Join with Google Meet: …" is not a person


def test_teams_link_comes_from_the_teams_property_not_the_sip_conf_link():
    (event,), _ = read_ics(FIXTURES / "teams-hiring-manager.ics")
    assert event.link.startswith("https://teams.microsoft.com/l/meetup-join/19%3ameeting_")
    assert event.interviewer == ""


@pytest.mark.parametrize(
    ("props", "link"),
    [
        (
            [
                "CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://example.com/room/1",
                "URL:https://a.example/",
            ],
            "https://example.com/room/1",
        ),
        (
            ["CONFERENCE;VALUE=URI;FEATURE=PHONE:tel:+1-555-0100", "URL:https://a.example/x"],
            "https://a.example/x",
        ),
        (["X-MICROSOFT-ONLINEMEETINGCONFLINK:conf:sip:a@b.example", "LOCATION:Room 4"], ""),
        (
            [
                "LOCATION:Room 4",
                "DESCRIPTION:Agenda https://intranet.example/a\\nJoin Zoom Meeting\\nhttps://us02web.zoom.us/j/8123456789?pwd=abc\\nMeeting ID: 812 345 6789",
            ],
            "https://us02web.zoom.us/j/8123456789?pwd=abc",
        ),
        (["DESCRIPTION:Chime: https://chime.aws/1234567890"], "https://chime.aws/1234567890"),
        (["DESCRIPTION:See https://intranet.example/agenda"], ""),
        (["LOCATION:javascript:alert(1)"], ""),
    ],
)
def test_the_call_link_is_read_in_its_order(props, link):
    (event,), _ = parse_ics(_one("UID:u1", "DTSTART:20261210T090000Z", *props))
    assert event.link == link


# --- 2. the people -----------------------------------------------------------------------


def test_the_organizer_and_attendees_are_read_by_cn_without_rooms():
    (event,), _ = read_ics(FIXTURES / "google-coding.ics")
    assert event.organizer.name == "Dana Li"
    assert [p.label for p in event.attendees] == [
        "Dana Li",
        "Marcus Weber",
        "sam.rivera@example.org",  # CN equal to the address: no name
    ]  # the meeting room (CUTYPE=RESOURCE) is not a person


def test_with_my_address_the_other_attendee_is_the_interviewer(db):
    _import(db, "google-coding.ics", me=ME)
    (rnd,) = list_rounds(db, list_loops(db)[0].id)
    assert (rnd.interviewer_name, rnd.organizer) == ("Marcus Weber", "Dana Li")


def test_without_my_address_the_attendee_every_event_shares_is_me(db):
    # the interviewer from an interviewing service: two attendees outside the company
    first = _import(db, "google-coding-outside-interviewer.ics")
    assert first.unsure == ("marcus.weber@karat.example", ME)  # asked, nobody guessed
    assert list_rounds(db, first.loop_id)[0].interviewer_name == ""
    second = _import(db, "teams-hiring-manager.ics")
    assert second.loop_id == first.loop_id and not second.unsure
    by_type = {r.type: r.interviewer_name for r in list_rounds(db, first.loop_id)}
    # the second invitation shows who the user is; the first round is named too now
    assert by_type == {"coding": "Marcus Weber", "hiring-manager": "Priya Raman"}


def test_card_today_and_thank_you_name_the_invited_people(db, machine_zone):
    from companion.core.cue.card import card_round
    from companion.core.day.actions import load_view
    from companion.core.journal.thankyou import recipient

    machine_zone("Europe/Berlin")
    result = _import(db, "google-coding.ics", me=ME)
    _import(db, "teams-hiring-manager.ics", me=ME)
    view = load_view(db, RULES, dt.datetime(2026, 12, 10, 9, 30).astimezone(), result.loop_id)
    assert view.next.interviewer == "Marcus Weber"
    assert view.next.link == "https://meet.google.com/xqd-pwra-kzt"
    assert card_round(view.next, []).who == "Marcus Weber"
    assert recipient(db, result.loop_id).name == "Priya Raman"  # the hiring manager


# --- 3. updates and cancellations by UID ------------------------------------------------


def test_a_higher_sequence_moves_the_round_and_re_arms_its_reminders(db, machine_zone):
    from companion.core.day.actions import load_view

    machine_zone("Europe/Berlin")
    first = _import(db, "teams-hiring-manager.ics", me=ME)
    moved = _import(db, "teams-hiring-manager-moved.ics", me=ME)
    (rnd,) = list_rounds(db, first.loop_id)
    assert (moved.added, moved.moved) == (0, 1)
    assert rnd.scheduled == dt.datetime(2026, 12, 10, 17, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    assert rnd.ics_sequence == 1
    assert "moved Hiring manager round to Thu 10 Dec 17:00." in moved.messages
    view = load_view(db, RULES, dt.datetime(2026, 12, 10, 16, 0).astimezone(), first.loop_id)
    start_soon = [d for d in view.due if d.kind == "start-soon"]
    assert [d.due_at.astimezone().strftime("%H:%M") for d in start_soon] == ["16:59"]
    again = _import(db, "teams-hiring-manager-moved.ics", me=ME)
    assert (again.duplicates, again.moved) == (1, 0)  # the same copy again changes nothing
    older = _import(db, "teams-hiring-manager.ics", me=ME)  # SEQUENCE 0 arrives late
    assert older.moved == 0 and list_rounds(db, first.loop_id)[0].scheduled_at == rnd.scheduled_at


def test_an_equal_sequence_with_a_later_dtstamp_is_the_update(db):
    text = _one(
        "UID:u7", "SUMMARY:Acme - Coding", "DTSTART:20261210T090000Z", "DTSTAMP:20261201T000000Z"
    )
    path = Path(db.conn.execute("PRAGMA database_list").fetchone()[2]).parent
    (path / "a.ics").write_text(text)
    (path / "b.ics").write_text(
        text.replace("T090000Z", "T130000Z").replace("20261201T000000Z", "20261202T000000Z")
    )
    first = import_invitation(db, path / "a.ics", RULES, now=NOW)
    second = import_invitation(db, path / "b.ics", RULES, now=NOW)
    assert second.moved == 1
    (rnd,) = list_rounds(db, first.loop_id)
    assert rnd.scheduled == dt.datetime(2026, 12, 10, 13, 0, tzinfo=dt.UTC)


def test_a_cancellation_skips_the_round_with_the_reason(db):
    first = _import(db, "teams-peer.ics", me=ME)
    cancel = _import(db, "outlook-cancel-peer.ics", me=ME)
    (rnd,) = list_rounds(db, first.loop_id)
    assert (cancel.added, cancel.cancelled) == (0, 1)
    assert "cancelled Peer round." in cancel.messages
    assert rnd.skipped_at and rnd.skip_reason == "cancelled by the organizer"


def test_a_cancellation_of_nothing_imported_adds_nothing_and_says_so(db):
    with pytest.raises(ValueError, match="a cancellation of an event never imported"):
        _import(db, "outlook-cancel-peer.ics")
    assert list_loops(db) == []


def test_a_cancelled_event_in_a_new_file_is_not_a_round(db):
    text = _one(
        "UID:c1", "SUMMARY:Canceled: Acme - Coding", "DTSTART:20261210T090000Z", "STATUS:CANCELLED"
    )
    path = Path(db.conn.execute("PRAGMA database_list").fetchone()[2]).parent / "c.ics"
    path.write_text(text)
    with pytest.raises(ValueError, match="nothing could be imported"):
        import_invitation(db, path, RULES, now=NOW)
    assert list_loops(db) == []


# --- 4. floating times -------------------------------------------------------------------


def test_a_floating_time_has_its_own_dates_offset(machine_zone):
    machine_zone("America/New_York")  # in December: -05:00; on 15 July: -04:00
    (event,), _ = parse_ics(_one("UID:f1", "SUMMARY:Acme - Coding", "DTSTART:20260715T100000"))
    assert event.start.utcoffset() == dt.timedelta(hours=-4)
    assert event.start.astimezone(dt.UTC).hour == 14


# --- 5. each event stands alone ----------------------------------------------------------


def test_an_event_whose_title_has_no_ascii_letters_imports_beside_the_others(db, tmp_path):
    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        "BEGIN:VEVENT\r\nUID:j1\r\nDTSTART:20261210T010000Z\r\nSUMMARY:面接\r\nEND:VEVENT\r\n"
        "BEGIN:VEVENT\r\nUID:j2\r\nDTSTART:20261210T030000Z\r\nSUMMARY:Coding ✓\r\nEND:VEVENT\r\n"
        "END:VCALENDAR\r\n"
    )
    (tmp_path / "u.ics").write_text(text, encoding="utf-8")
    result = import_invitation(db, tmp_path / "u.ics", RULES, company="Acme", now=NOW)
    assert result.added == 2
    labels = sorted(r.type_label or r.type for r in list_rounds(db, result.loop_id))
    assert labels == ["coding", "面接"]


def test_a_long_summary_is_a_shortened_title_never_a_refusal(db, tmp_path):
    words = "Onsite conversation about distributed consensus " * 5
    (tmp_path / "l.ics").write_text(_one("UID:l1", "DTSTART:20261210T090000Z", f"SUMMARY:{words}"))
    result = import_invitation(db, tmp_path / "l.ics", RULES, company="Acme", now=NOW)
    (rnd,) = list_rounds(db, result.loop_id)
    assert result.added == 1 and len(rnd.type_label) <= 80 and rnd.type_label.endswith("…")


def test_a_bad_event_is_named_and_the_good_ones_import(db, tmp_path):
    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        "BEGIN:VEVENT\r\nUID:bad-1\r\nDTSTART;TZID=Mars/Olympus:20261210T090000\r\n"
        "SUMMARY:Acme - Coding\r\nEND:VEVENT\r\n"
        "BEGIN:VEVENT\r\nUID:ok-1\r\nDTSTART:20261210T130000Z\r\nSUMMARY:Acme - Peer\r\nEND:VEVENT\r\n"
        "END:VCALENDAR\r\n"
    )
    (tmp_path / "m.ics").write_text(text)
    result = import_invitation(db, tmp_path / "m.ics", RULES, now=NOW)
    assert result.added == 1 and result.refused == 1
    (refusal,) = [m for m in result.messages if "Mars/Olympus" in m]
    assert refusal.startswith("m.ics, line 5, UID bad-1, 'Acme - Coding': unknown time zone")


def test_an_unknown_zone_alone_is_named_in_the_refusal(db, tmp_path):
    (tmp_path / "z.ics").write_text(
        _one("UID:z1", "DTSTART;TZID=Custom Zone:20261210T090000", "SUMMARY:Acme - Coding")
    )
    with pytest.raises(ValueError, match="unknown time zone 'Custom Zone'"):
        import_invitation(db, tmp_path / "z.ics", RULES, now=NOW)


# --- 6. local time -----------------------------------------------------------------------


def test_the_loop_is_dated_by_the_local_day_of_its_first_round(db, tmp_path, machine_zone):
    machine_zone("UTC")
    (tmp_path / "ny.ics").write_text(
        _one("UID:n1", "SUMMARY:Acme - Coding", "DTSTART;TZID=America/New_York:20261201T233000")
    )
    result = import_invitation(db, tmp_path / "ny.ics", RULES, now=NOW)
    assert get_loop(db, result.loop_id).starts_on == "2026-12-02"
    (rnd,) = list_rounds(db, result.loop_id)
    assert rnd.scheduled_at == "2026-12-02T04:30:00+00:00"  # stored on this machine's clock


def test_only_all_day_events_are_refused_saying_so(db, tmp_path):
    (tmp_path / "d.ics").write_text(
        _one("UID:d1", "DTSTART;VALUE=DATE:20261210", "SUMMARY:Acme - Onsite")
    )
    with pytest.raises(ValueError, match=r"1 all-day event only, with no start time"):
        import_invitation(db, tmp_path / "d.ics", RULES, now=NOW)


def test_two_dtstart_lines_are_named_not_called_a_bad_date():
    events, (problem,) = parse_ics(
        _one("UID:t1", "DTSTART:20261210T090000Z", "DTSTART:20261210T100000Z", "SUMMARY:x")
    )
    assert events == [] and "the event has 2 DTSTART lines" in str(problem)


def test_the_title_gives_the_interviewers_role_for_the_planner():
    (event,), _ = read_ics(FIXTURES / "teams-hiring-manager.ics")
    assert event.interviewer_role == "hiring-manager"


def test_the_people_travel_in_the_json_export_and_import(db, tmp_path):
    import json

    from companion.core.journal import files as journal_io
    from companion.core.storage.store import open_memory_store

    _import(db, "google-coding.ics", me=ME)
    out = tmp_path / "journal.json"
    journal_io.export_journal(db, out, NOW)
    doc = json.loads(out.read_text(encoding="utf-8"))
    (exported,) = doc["loops"][0]["rounds"]
    assert (exported["interviewer_name"], exported["organizer"]) == ("Marcus Weber", "Dana Li")
    fresh = open_memory_store().db
    journal_io.import_journal(fresh, out)
    (rnd,) = list_rounds(fresh, list_loops(fresh)[0].id)
    assert (rnd.interviewer_name, rnd.organizer) == ("Marcus Weber", "Dana Li")
    del doc["loops"][0]["rounds"][0]["organizer"]  # a file from before the field
    older = tmp_path / "older.json"
    older.write_text(json.dumps(doc), encoding="utf-8")
    other = open_memory_store().db
    journal_io.import_journal(other, older)
    assert list_rounds(other, list_loops(other)[0].id)[0].organizer == ""


def test_an_invitation_up_to_two_weeks_after_an_open_loop_joins_it(db, tmp_path, machine_zone):
    """README: an invitation within two weeks of an open loop of the same company joins
    it (one invitation a round, days apart); a day past that starts a loop of its own. The
    gap counts from the loop's last day, which the joined round moves."""
    machine_zone("UTC")

    def invite(uid: str, day: str):
        path = tmp_path / f"{uid}.ics"
        path.write_text(_one(f"UID:{uid}", f"DTSTART:{day}T150000Z", "SUMMARY:Acme - Coding"))
        return import_invitation(db, path, RULES, now=NOW)

    first = invite("a1", "20261207")
    joined = invite("a2", "20261221")  # 14 days after the loop's only day
    assert joined.loop_id == first.loop_id
    assert get_loop(db, first.loop_id).ends_on == "2026-12-21"
    apart = invite("a3", "20270105")  # 15 days after its last day, now the 21st
    assert apart.loop_id != first.loop_id
    assert len(list_loops(db)) == 2


# --- 5. people named in the text, broken links, library warnings ------------------------


def test_an_attendee_named_in_the_title_is_the_interviewer_without_me(db):
    """Google's "Interview: System Design (Priya Raman)" whose description says "with
    Priya." (a sentence's full stop): the attendee, in full, with no --me."""
    (event,), _ = read_ics(FIXTURES / "google-system-design-named.ics")
    assert event.interviewer == "Priya Raman"
    result = _import(db, "google-system-design-named.ics", company="Northwind")
    (rnd,) = list_rounds(db, result.loop_id)
    assert rnd.interviewer_name == "Priya Raman"
    assert result.unsure == ()  # no "say which address is yours ... to name the interviewers"


def _northwind_loop() -> str:
    """The walk's loop: four events from recruiting@, the candidate at a free-mail address
    and Priya Raman at the company's domain invited to each; "with Priya" in the first."""
    titles = [
        "Northwind AI - Coding interview with Priya",
        "Northwind AI - System design",
        "Northwind AI - Behavioral",
        "Northwind AI - Hiring manager chat",
    ]
    events = []
    for n, title in enumerate(titles, 1):
        events += [
            "BEGIN:VEVENT",
            f"UID:nw{n}@northwind.ai",
            "DTSTAMP:20261201T091512Z",
            f"DTSTART:20261210T{12 + n:02d}0000Z",
            f"DTEND:20261210T{12 + n:02d}4500Z",
            f"SUMMARY:{title}",
            "ORGANIZER;CN=Recruiting:mailto:recruiting@northwind.ai",
            "ATTENDEE;CN=Alex Kim:mailto:alex.kim@gmail.com",
            "ATTENDEE;CN=Priya Raman:mailto:priya@northwind.ai",
            f"LOCATION:https://zoom.us/j/{n}11",
            "END:VEVENT",
        ]
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//walk//EN", "METHOD:REQUEST"]
    return "\r\n".join([*head, *events, "END:VCALENDAR", ""])


def test_the_attendee_outside_the_organizers_domain_is_me(db, tmp_path):
    """Priya at @northwind.ai (the organizer's domain) is the company's; Alex at gmail.com,
    the one attendee elsewhere, is the candidate: no --me question, Priya interviews."""
    path = tmp_path / "northwind.ics"
    path.write_text(_northwind_loop())
    result = import_invitation(db, path, RULES, now=NOW)
    assert result.unsure == ()
    rounds = sorted(list_rounds(db, result.loop_id), key=lambda r: r.scheduled_at)
    assert [r.interviewer_name for r in rounds] == ["Priya Raman"] * 4
    assert all(r.organizer == "Recruiting" for r in rounds)


def test_one_file_with_one_attendee_outside_the_company_names_its_interviewer(db):
    result = _import(db, "google-coding.ics")  # Marcus and Dana at northwind, Sam elsewhere
    assert result.unsure == ()
    (rnd,) = list_rounds(db, result.loop_id)
    assert (rnd.interviewer_name, rnd.organizer) == ("Marcus Weber", "Dana Li")


@pytest.mark.parametrize(
    ("organizer", "attendees"),
    [
        ("recruiting@gmail.com", ["priya@northwind.ai", "alex.kim@gmail.com"]),  # a provider
        ("recruiting@northwind.ai", ["priya@karat.example", "alex.kim@gmail.com"]),  # two out
    ],
)
def test_the_organizers_domain_decides_only_when_it_is_a_company_and_one_is_outside(
    organizer, attendees
):
    from companion.core.day.invite_fields import Person
    from companion.core.day.invite_people import candidate_address

    invite = [Person("", a) for a in attendees]
    assert candidate_address("", [invite], [organizer]) == ""


def test_a_given_name_after_with_in_the_title_names_the_attendee():
    (first, *_), _ = parse_ics(_northwind_loop())
    assert first.interviewer == "Priya Raman"  # "Coding interview with Priya"


def test_with_a_name_ending_a_sentence_keeps_no_full_stop():
    from companion.core.day.invite_fields import interviewer_in

    assert interviewer_in("Your interview with Priya.\nPlease be on time.")[0] == "Priya"
    assert interviewer_in("A chat with Priya R. Menon")[0] == "Priya R. Menon"


def test_a_location_broken_mid_link_still_gives_the_link():
    (event,), _ = read_ics(FIXTURES / "thunderbird-zoom-broken-location.ics")
    assert event.link == "https://us02web.zoom.us/j/85123456789?pwd=QWxhZGRpbjpvcGVu"


def test_a_thunderbird_zone_name_warns_nobody(data_dir, capsys):
    """icalendar warns (with a site-packages path) on "/mozilla.org/…/Europe/Berlin";
    the user sees the import's own lines only, and the zone is Berlin's."""
    import warnings

    from companion.cli import main

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning that escaped would fail the import here
        path = FIXTURES / "thunderbird-zoom-broken-location.ics"
        assert main(["--data-dir", str(data_dir), "schedule", "import", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "site-packages" not in out + err and "Warning" not in out + err
    (event,), _ = read_ics(FIXTURES / "thunderbird-zoom-broken-location.ics")
    assert event.start.utcoffset() == dt.timedelta(hours=1)


# --- Zoom's and Apple's own files, after the spring clock change -----------------------


def _icalendar_start(name: str) -> dt.datetime:
    """The start icalendar (with zoneinfo) gives the file's one event, in UTC."""
    import icalendar

    cal = icalendar.Calendar.from_ical((FIXTURES / name).read_bytes())
    (event,) = cal.walk("VEVENT")
    return event.decoded("DTSTART").astimezone(dt.UTC)


def test_a_zoom_invitation_gives_its_company_link_and_instant(db):
    """Zoom's own .ics (no ORGANIZER, the zone written out, the link in LOCATION folded
    mid-address) for 10:00 in New York two days after the March change: 14:00 UTC."""
    result = _import(db, "zoom-technical.ics")
    assert get_loop(db, result.loop_id).company == "Lumen Analytics"
    assert any("is a guess from" in m for m in result.messages)
    (rnd,) = list_rounds(db, result.loop_id)
    assert rnd.scheduled == _icalendar_start("zoom-technical.ics")
    assert rnd.scheduled == dt.datetime(2027, 3, 16, 14, 0, tzinfo=dt.UTC)
    assert rnd.type_label == "Technical Interview"  # the loop names the company already
    assert rnd.link == "https://us06web.zoom.us/j/86512345678?pwd=bHVtZW4tdGVjaC1pbnRlcnZpZXc.1"
    again = _import(db, "zoom-technical.ics")
    assert (again.added, again.duplicates) == (0, 1)


def test_an_apple_invitation_names_its_interviewer_without_me(db):
    """Apple Calendar's invitation from a recruiter on iCloud (a mail provider: no
    company), "Interview | Kesselhaus Software", the interviewer named in the
    description, a FaceTime link in URL, 10:00 Berlin two days after the March change."""
    result = _import(db, "apple-facetime-berlin.ics")
    assert get_loop(db, result.loop_id).company == "Kesselhaus Software"
    assert result.unsure == ()  # the candidate is never asked for an address here
    (rnd,) = list_rounds(db, result.loop_id)
    assert rnd.interviewer_name == "Jonas Keller" and rnd.organizer == "Lena Vogel"
    assert rnd.link.startswith("https://facetime.apple.com/join#v=1&p=Ab3dEf6hIj9kLm2nOp5qRs")
    assert rnd.scheduled == _icalendar_start("apple-facetime-berlin.ics")
    assert rnd.scheduled == dt.datetime(2027, 3, 30, 8, 0, tzinfo=dt.UTC)
