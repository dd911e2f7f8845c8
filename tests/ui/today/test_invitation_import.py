"""Today's "Import .ics": the people named, the user's address asked once, and a later
copy of an event moving or cancelling its round (the same path as the CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.day.invite_people import ME_PREF
from companion.core.day.loops import create_loop, list_rounds

pytestmark = pytest.mark.gui

FIXTURES = Path(__file__).parents[2] / "data" / "invitations"


@pytest.fixture
def editor(qtbot, ctx, bus, day_service):
    from companion.ui.today.schedule import ScheduleEditor

    loop = create_loop(ctx.db, "Northwind", starts_on="2026-12-10")
    widget = ScheduleEditor(ctx, bus, day_service)
    qtbot.addWidget(widget)
    widget.set_loop(loop)
    return widget


def test_the_first_import_with_several_people_asks_which_address_is_mine(editor, ctx):
    message = editor.import_file(FIXTURES / "google-coding-outside-interviewer.ics")
    assert "Added 1 round from google-coding-outside-interviewer.ics." in message
    assert "--me" not in message  # the CLI's words; here the dialog asks
    ask = editor.ask_dialog
    assert ask.isVisible() and ask.comboBoxItems() == [
        "marcus.weber@karat.example",
        "sam.rivera@example.org",
    ]
    ask.setTextValue("sam.rivera@example.org")
    ask.accept()
    assert ctx.settings.get(ME_PREF) == "sam.rivera@example.org"
    (rnd,) = list_rounds(ctx.db, editor.loop_id)
    assert (rnd.interviewer_name, rnd.organizer) == ("Marcus Weber", "Dana Li")
    assert rnd.link == "https://meet.google.com/xqd-pwra-kzt"


def test_an_update_and_a_cancellation_change_the_rounds_in_place(editor, ctx):
    ctx.settings.set(ME_PREF, "sam.rivera@example.org")
    editor.import_file(FIXTURES / "teams-hiring-manager.ics")
    editor.import_file(FIXTURES / "teams-peer.ics")
    moved = editor.import_file(FIXTURES / "teams-hiring-manager-moved.ics")
    assert "moved Hiring manager round to" in moved and "Added 0 rounds" in moved
    cancelled = editor.import_file(FIXTURES / "outlook-cancel-peer.ics")
    assert "cancelled Peer" in cancelled
    rounds = {r.type: r for r in list_rounds(ctx.db, editor.loop_id)}
    assert set(rounds) == {"hiring-manager", "peer"}
    assert rounds["peer"].skip_reason == "cancelled by the organizer"
    assert rounds["hiring-manager"].interviewer_name == "Priya Raman"


def test_a_cancelled_round_says_cancelled_on_today(editor, ctx):
    ctx.settings.set(ME_PREF, "sam.rivera@example.org")
    editor.import_file(FIXTURES / "teams-peer.ics")
    editor.import_file(FIXTURES / "outlook-cancel-peer.ics")
    states = [editor.tree.topLevelItem(n).text(2) for n in range(editor.tree.topLevelItemCount())]
    assert states == ["cancelled"]


def test_the_result_box_shows_plain_text_and_the_question_opens_over_it(editor):
    from companion.core.day.ics import read_ics

    path = FIXTURES / "google-coding-outside-interviewer.ics"
    events, problems = read_ics(path)
    editor._show_import(path, events, problems, "")
    assert editor.dialog.text().startswith(
        "Added 1 round from google-coding-outside-interviewer.ics."
    )
    assert "<p" not in editor.dialog.text()  # was shown as raw markup in a plain-text box
    assert editor.ask_dialog is not None and editor.ask_dialog.isVisible()


def test_the_planner_names_whom_each_audience_is_for(qtbot, ctx, bus):
    from PySide6.QtCore import Qt

    from companion.core.changes import Change
    from companion.core.day.invitation import import_invitation
    from companion.core.day.rules import day_rules
    from companion.ui.selfcheck.page import SelfCheckPage

    rules = day_rules(ctx.content)
    me = "sam.rivera@example.org"
    result = import_invitation(ctx.db, FIXTURES / "teams-hiring-manager.ics", rules, me=me)
    page = SelfCheckPage(ctx, bus)
    qtbot.addWidget(page)
    page.show()
    page.on_shown()
    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    bus.announce(Change.of("loop", ids=[result.loop_id]))
    panel = page.planner
    groups = {
        panel.suggested.tree.topLevelItem(n).data(
            0, Qt.ItemDataRole.UserRole + 1
        ): panel.suggested.tree.topLevelItem(n).text(0)
        for n in range(panel.suggested.tree.topLevelItemCount())
    }
    assert groups["hiring-manager"].startswith("Hiring manager — Priya Raman (")
    assert " — " not in groups["peer"]  # nobody in this loop is a peer


def test_a_two_party_title_goes_to_the_loop_of_its_company(qtbot, ctx, bus, day_service, tmp_path):
    """GoodTime's "Phone screen: Alex <> Cobalt Labs" from @cobaltlabs.io imported on the
    Cobalt Labs loop is that loop's: Alex (the candidate invited) names no company."""
    from companion.ui.today.schedule import ScheduleEditor

    loop = create_loop(ctx.db, "Cobalt Labs", starts_on="2026-12-10")
    widget = ScheduleEditor(ctx, bus, day_service)
    qtbot.addWidget(widget)
    widget.set_loop(loop)
    text = (FIXTURES / "goodtime-two-parties.ics").read_text()
    path = tmp_path / "cobalt.ics"
    path.write_text(text.replace("Cobalt Labs <> Alex", "Alex <> Cobalt Labs"))
    message = widget.import_file(path)
    assert "is an invitation from" not in message, message
    (rnd,) = list_rounds(ctx.db, loop)
    assert rnd.interviewer_name == "Priya Raman"  # Alex, outside @cobaltlabs.io, is me
