"""What an invitation says beyond its time: the interviewer and the call link survive the
import, and only an http(s) address is ever offered as a link."""

from __future__ import annotations

import datetime as dt

import pytest
from core.about.test_guard import growth
from hypothesis import given
from hypothesis import strategies as st

from companion.core.day.ics import parse_ics
from companion.core.day.invitation import guess_company, import_invitation
from companion.core.day.invite_fields import call_link_of, interviewer_in
from companion.core.day.links import call_link
from companion.core.day.loops import INTERVIEWER_ROLES, get_round, list_rounds, update_round
from companion.core.day.rules import day_rules

INVITE = """BEGIN:VCALENDAR\r
VERSION:2.0\r
BEGIN:VEVENT\r
SUMMARY:Acme - Coding\r
DTSTART:20261202T140000Z\r
DTEND:20261202T144500Z\r
DESCRIPTION:Interviewer: Priya Raman (Hiring manager)\\nPlease join 2 min ear\r
 ly\\, thanks.\r
LOCATION:Zoom https://acme.zoom.us/j/123?pwd=x\\, passcode 9\r
BEGIN:VALARM\r
TRIGGER:-PT10M\r
DESCRIPTION:Reminder\r
END:VALARM\r
END:VEVENT\r
BEGIN:VEVENT\r
SUMMARY:Acme - System design\r
DTSTART:20261202T150000Z\r
DESCRIPTION:Marcus Lee\r
URL:https://meet.example.com/abc-defg\r
LOCATION:Room 4B\r
END:VEVENT\r
BEGIN:VEVENT\r
SUMMARY:Acme - Culture\r
DTSTART:20261202T160000Z\r
DESCRIPTION:We look forward to meeting you. Bring a notebook.\r
LOCATION:javascript:alert(1)\r
END:VEVENT\r
END:VCALENDAR\r
"""


def test_description_location_and_url_are_read():
    coding, design, culture = parse_ics(INVITE, local_tz=dt.UTC)[0]
    assert (coding.interviewer, coding.interviewer_role) == ("Priya Raman", "hiring-manager")
    assert coding.link == "https://acme.zoom.us/j/123?pwd=x"  # the alarm's text is not it
    assert (design.interviewer, design.link) == ("Marcus Lee", "https://meet.example.com/abc-defg")
    assert (culture.interviewer, culture.link) == ("", "")  # a sentence is nobody's name


@pytest.mark.parametrize(
    "text, name",
    [
        ("Interviewer: Dana Wu", ("Dana Wu", "")),
        ("Interviewers - Kim Park, Lee Cho", ("Kim Park, Lee Cho", "")),
        ("Hiring manager: Sam Ode", ("Sam Ode", "hiring-manager")),
        ("A chat with Priya Raman about the team.", ("Priya Raman", "")),
        ("Join at https://x.example/y", ("", "")),
        ("Zoom Meeting", ("", "")),
        ("Onsite, building 4", ("", "")),
        ("Priya Raman, Engineering Manager", ("Priya Raman, Engineering Manager", "")),
        ("", ("", "")),
    ],
)
def test_interviewer_in_description(text, name):
    assert interviewer_in(text) == name


@pytest.mark.parametrize(
    "text, link",
    [
        ("https://meet.example.com/x", "https://meet.example.com/x"),
        ("HTTP://Example.com", "HTTP://Example.com"),
        ("file:///etc/passwd", ""),
        ("javascript:alert(1)", ""),
        ("https://", ""),
        ("https://a.example/x y", ""),
        ("Room 4B", ""),
        ("tel:+15551234", ""),
    ],
)
def test_only_http_links_are_offered(text, link):
    assert call_link(text) == link


def test_the_link_prefers_the_url_and_finds_one_in_the_location():
    assert call_link_of({"LOCATION": ["Zoom: https://z.example/j/1."]}) == "https://z.example/j/1"
    both = {"URL": ["https://u.example/"], "LOCATION": ["https://l.example/"]}
    assert call_link_of(both) == "https://u.example/"
    assert call_link_of({"LOCATION": ["Building 2"]}) == ""


def test_the_import_keeps_interviewer_and_link(db, content, tmp_path):
    path = tmp_path / "loop.ics"
    path.write_text(INVITE)
    result = import_invitation(db, path, day_rules(content))
    coding, design, culture = list_rounds(db, result.loop_id)
    assert (coding.interviewer_name, coding.interviewer_role) == ("Priya Raman", "hiring-manager")
    assert coding.link == "https://acme.zoom.us/j/123?pwd=x"
    assert (design.interviewer_name, design.link) == (
        "Marcus Lee",
        "https://meet.example.com/abc-defg",
    )
    assert culture.link == ""


def test_a_round_link_is_checked_when_stored(db, content, tmp_path):
    path = tmp_path / "loop.ics"
    path.write_text(INVITE)
    rid = list_rounds(db, import_invitation(db, path, day_rules(content)).loop_id)[0].id
    with pytest.raises(ValueError, match="not a web address"):
        update_round(db, rid, link="file:///etc/passwd")
    assert get_round(db, rid).link == "https://acme.zoom.us/j/123?pwd=x"  # kept
    update_round(db, rid, link="")
    assert get_round(db, rid).link == ""


def test_the_day_round_offers_only_an_http_link(db, content, tmp_path):
    from companion.core.day.actions import load_view

    path = tmp_path / "loop.ics"
    path.write_text(INVITE)
    loop_id = import_invitation(db, path, day_rules(content)).loop_id
    first = list_rounds(db, loop_id)[-1].id
    db.execute("UPDATE rounds SET link = 'javascript:alert(1)' WHERE id = ?", [first])
    view = load_view(db, day_rules(content), dt.datetime(2026, 12, 2, 13, tzinfo=dt.UTC), loop_id)
    links = {d.title: d.link for d in view.rounds}
    assert links["Coding round"] == "https://acme.zoom.us/j/123?pwd=x"
    assert view.round(first).link == ""
    assert view.next.interviewer == "Priya Raman"


@given(st.text(max_size=300), st.text(max_size=300))
def test_any_location_and_description_give_a_safe_link_and_a_short_name(location, description):
    from urllib.parse import urlsplit

    link = call_link_of({"LOCATION": [location], "DESCRIPTION": [description]})
    assert link == "" or urlsplit(link).scheme.lower() in ("http", "https")
    assert not any(c.isspace() for c in link)
    name, role = interviewer_in(description)
    assert len(name) <= 80 and "\n" not in name
    assert role in INTERVIEWER_ROLES


def test_an_event_title_longer_than_a_round_type_is_imported_cut_to_80(db, content, tmp_path):
    """A recruiter's long title used to refuse the whole file with a message naming
    neither (tests/fuzz/regressions/ics)."""
    title = "Quarterly walk through the garden of lanterns and kites " * 3
    path = tmp_path / "long.ics"
    path.write_text(
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261202T140000Z\r\n"
        f"SUMMARY:Acme - {title}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    result = import_invitation(db, path, day_rules(content))
    (only,) = list_rounds(db, result.loop_id)
    assert 0 < len(only.type_label) <= 80
    assert title.startswith(only.type_label.removesuffix("…"))  # shortened, with an ellipsis


def test_an_event_titled_only_in_punctuation_is_a_round(db, content, tmp_path):
    path = tmp_path / "dots.ics"
    path.write_text(
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261202T140000Z\r\n"
        "SUMMARY:Acme - ???\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    result = import_invitation(db, path, day_rules(content), company="Acme")
    (only,) = list_rounds(db, result.loop_id)
    assert only.type and only.type_label == "???"  # imported under its own words, never refused


@pytest.mark.parametrize(
    ("read", "make"),
    [
        (interviewer_in, lambda n: "Interviewer: Priya " + "(" * n),
        (interviewer_in, lambda n: "Notes" + "\n" * n + "end"),
        (lambda title: guess_company([title]), lambda n: "Acme" + " " * n + "Coding"),
    ],
    ids=["bracket-run", "blank-lines", "space-run-in-a-title"],
)
def test_long_runs_in_a_description_or_a_title_cost_linear_time(read, make):
    """The regular expressions backtracked over a run of brackets, blank lines or spaces
    from each of its characters: 14,000 took 2-3 s, in the regex engine, past the ics fuzz
    target's time bound (tests/fuzz/regressions/ics)."""
    assert growth(read, make, 2000) < 3.0
