"""The company of an invitation, said honestly: read from a title part that names one
(not "Interview", not the candidate's name), else from the organizer's mail domain
(not a mail provider or an applicant-tracking host); said as a guess with where it was
read; fixed once by ``--company`` or a rename; a title with nothing usable asks."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from companion.core.day.invitation import import_invitation
from companion.core.day.invite_company import company_of, domain_company, title_company
from companion.core.day.loops import get_loop, list_loops, update_loop
from companion.core.day.model import DayRules

RULES = DayRules(
    titles={
        "coding": "Coding round",
        "system-design": "System design",
        "hiring-manager": "Hiring manager",
        "behavioral": "Behavioral interview",
    }
)
NOW = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)
INVITATIONS = Path(__file__).parents[2] / "data" / "invitations"


def google(summary: str, organizer: str, *, uid: str = "a1@google.com", day: int = 10) -> str:
    """Google Calendar's shape: the organizer, the interviewer and the candidate as
    ATTENDEEs, the Meet link in X-GOOGLE-CONFERENCE."""
    return "\r\n".join(
        [
            "BEGIN:VCALENDAR",
            "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
            "VERSION:2.0",
            "METHOD:REQUEST",
            "BEGIN:VEVENT",
            f"DTSTART:202612{day:02d}T150000Z",
            f"DTEND:202612{day:02d}T160000Z",
            "DTSTAMP:20261201T091512Z",
            f"ORGANIZER;CN=Dana Li:mailto:{organizer}",
            f"UID:{uid}",
            "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;"
            "CN=Jordan Blake;X-NUM-GUESTS=0:mailto:jordan.blake@gmail.com",
            f"ATTENDEE;CUTYPE=INDIVIDUAL;CN=Dana Li:mailto:{organizer}",
            "X-GOOGLE-CONFERENCE:https://meet.google.com/abc-defg-hij",
            f"SUMMARY:{summary}",
            "SEQUENCE:0",
            "STATUS:CONFIRMED",
            "END:VEVENT",
            "END:VCALENDAR",
            "",
        ]
    )


@pytest.mark.parametrize(
    ("title", "company"),
    [
        ("Interview - Virtue Market Research", "Virtue Market Research"),
        ("Interview Schedule | Acme Robotics", "Acme Robotics"),
        ("BuzzClan Interview :", "BuzzClan"),
        ("Acme - Coding interview with Sam (Engineer)", "Acme"),
        ("Northwind – Hiring manager", "Northwind"),
        ("Canceled: Acme - Coding", "Acme"),
        ("Interview Schedule", ""),
        ("Walk-in interview", ""),
        ("Assignment due", ""),
        ("Web Dev Internship", ""),
        ("Jordan Blake", ""),  # the candidate's own name
        ("Interview: System Design (Priya Raman)", ""),
        ("Interview | Kesselhaus Software", "Kesselhaus Software"),  # a name's own last word
        ("Coding - Acme Data", "Acme Data"),
        ("Acme Software Engineer Interview", "Acme"),  # the role's words, not the name's
        ("Interview - Backend Software", ""),
    ],
)
def test_a_title_part_names_the_company_only_when_it_names_one(title, company):
    from companion.core.day.invite_company import plain_words

    plain = plain_words([*RULES.titles, *RULES.titles.values()])
    assert title_company(title, ["Jordan Blake", "Priya Raman"], plain) == company


@pytest.mark.parametrize(
    ("addresses", "company"),
    [
        (["talent@virtuemarketresearch.com"], "Virtue Market Research"),  # as the title spells it
        (["no-reply@greenhouse.io", "ana@jobs.acme.co.uk"], "Acme"),
        (["someone@gmail.com"], ""),
        (["calendar-notification@google.com"], ""),
    ],
)
def test_the_organizers_domain_names_the_company_unless_it_is_a_provider(addresses, company):
    assert domain_company(addresses, ["Interview - Virtue Market Research"])[0] == company


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("summary", "company", "words"),
    [
        ("Technical Interview - Lumen Analytics", "Lumen Analytics", "Technical Interview"),
        ("Acme - Culture and values", "acme", "Culture and values"),
        ("BuzzClan Interview :", "BuzzClan", "Interview"),
        ("Acmeville chat", "Acme", "Acmeville chat"),  # whole words only
        ("Acme", "Acme", "Acme"),  # nothing else left: the title as it is
    ],
)
def test_a_rounds_own_words_leave_out_the_loops_company(summary, company, words):
    from companion.core.day.invite_company import without_company

    assert without_company(summary, company) == words


def test_the_import_says_the_company_was_guessed_and_from_where(db, tmp_path):
    path = _write(tmp_path, "v.ics", google("Interview - Virtue Market Research", "hr@vmr.example"))
    result = import_invitation(db, path, RULES, now=NOW)
    assert get_loop(db, result.loop_id).company == "Virtue Market Research"
    (note,) = [m for m in result.messages if "guess" in m]
    assert "'Virtue Market Research' is a guess from the title" in note
    assert "--company NAME" in note


def test_a_generic_title_takes_the_organizers_domain(db, tmp_path):
    path = _write(tmp_path, "s.ics", google("Interview Schedule", "recruiting@buzzclan.com"))
    result = import_invitation(db, path, RULES, now=NOW)
    assert get_loop(db, result.loop_id).company == "Buzzclan"
    assert any("guess from the organizer's address (@buzzclan.com)" in m for m in result.messages)


def test_nothing_usable_asks_for_the_company(db, tmp_path):
    path = _write(tmp_path, "w.ics", google("Web Dev Internship", "someone@gmail.com"))
    with pytest.raises(ValueError, match="say it with --company NAME"):
        import_invitation(db, path, RULES, now=NOW)
    assert list_loops(db) == []
    result = import_invitation(db, path, RULES, company="Initech", now=NOW)
    assert get_loop(db, result.loop_id).company == "Initech"
    assert not any("guess" in m for m in result.messages)


def test_company_fixes_a_guess_once_and_updates_keep_it(db, tmp_path):
    path = _write(tmp_path, "v.ics", google("Interview - Globex Corp", "hr@globex.example"))
    first = import_invitation(db, path, RULES, now=NOW)
    fixed = import_invitation(db, path, RULES, company="Globex", now=NOW)
    assert fixed.loop_id == first.loop_id and fixed.added == 0
    assert "renamed loop 'Globex Corp' to 'Globex'." in fixed.messages
    moved = (
        google("Interview - Globex Corp", "hr@globex.example")
        .replace("SEQUENCE:0", "SEQUENCE:1")
        .replace("T150000Z", "T170000Z")
    )
    result = import_invitation(db, _write(tmp_path, "v2.ics", moved), RULES, now=NOW)
    assert (result.loop_id, result.moved) == (first.loop_id, 1)
    assert get_loop(db, first.loop_id).company == "Globex"


def test_a_renamed_loop_takes_the_next_invitation_from_the_same_sender(db, tmp_path):
    path = _write(tmp_path, "a.ics", google("Interview - Globex Corp", "hr@globex.example"))
    first = import_invitation(db, path, RULES, now=NOW)
    update_loop(db, first.loop_id, company="Globex")  # the user's rename in the app
    second = google("Interview - Globex Corp", "hr@globex.example", uid="b2@google.com", day=12)
    result = import_invitation(db, _write(tmp_path, "b.ics", second), RULES, now=NOW)
    assert (result.loop_id, result.added) == (first.loop_id, 1)
    assert [lp.company for lp in list_loops(db)] == ["Globex"]


def test_company_of_reads_people_from_the_events(tmp_path):
    from companion.core.day.ics import parse_ics

    events, _ = parse_ics(google("Jordan Blake", "talent@initech.example"))
    guess = company_of(events, "jordan.blake@gmail.com")
    assert (guess.name, guess.source) == ("Initech", "the organizer's address (@initech.example)")


@pytest.mark.parametrize(
    ("title", "domains", "company"),
    [
        ("Phone screen: Cobalt Labs <> Alex", ["cobaltlabs.io"], "Cobalt Labs"),
        ("Phone screen: Alex <> Cobalt Labs", [], "Cobalt Labs"),  # a given name alone
        ("Alex Kim x Cobalt Labs", [], "Cobalt Labs"),  # an attendee's whole name
        ("Intro call: Halcyon / Cobalt Labs", ["cobaltlabs.io"], "Cobalt Labs"),  # the domain's
        ("Intro call: Halcyon / Cobalt Labs", [], "Halcyon"),  # no domain: the first part
        ("Northwind AI x Sam", ["northwind.ai"], "Northwind AI"),
    ],
)
def test_a_title_naming_two_parties_gives_the_companys_part(title, domains, company):
    people = ["Alex Kim", "Priya Raman", "Recruiting"]
    assert title_company(title, people, domains=domains) == company


def test_a_two_party_invitation_names_the_company_and_a_round_without_the_candidate(db, tmp_path):
    from companion.core.day.loops import list_rounds

    # GoodTime's shape: "Phone screen: Cobalt Labs <> Alex" from talent@cobaltlabs.io
    result = import_invitation(db, INVITATIONS / "goodtime-two-parties.ics", RULES, now=NOW)
    assert get_loop(db, result.loop_id).company == "Cobalt Labs"
    (rnd,) = list_rounds(db, result.loop_id)
    assert rnd.type_label == "Phone screen"


def test_a_rounds_words_leave_out_a_person_the_title_names():
    from companion.core.day.invite_company import without_company

    summary = "Phone screen - Cobalt Labs <> Alex"
    assert without_company(summary, "Cobalt Labs", ["Alex Kim"]) == "Phone screen"
