"""Preflight's proofs of what this desktop did: the last hotkey that fired and the last
notification shown, kept in the journal across runs, each said in one line."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.context import AppContext
from companion.core.preflight import proofs
from companion.core.preflight.run import gather
from companion.core.settings import Settings
from companion.core.storage.store import open_memory_store

NOW = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.timezone(dt.timedelta(hours=1)))


def test_before_anything_fired_each_says_how_to_find_out(tmp_path):
    settings = Settings(open_memory_store().db)
    hotkey = proofs.hotkey_check(settings, NOW, "ctrl+alt+C")
    assert hotkey.ok is None and "press ctrl+alt+C with the call app focused" in hotkey.say
    assert "No hotkey is bound" in proofs.hotkey_check(settings, NOW, "").say
    shown = proofs.notification_check(settings, NOW)
    assert shown.ok is None and "the next reminder will tell" in shown.say


def test_what_fired_is_said_with_its_time_and_way_and_kept_across_runs(tmp_path):
    ctx = AppContext(tmp_path)
    proofs.record_hotkey(ctx.settings, "ctrl+alt+C", "Windows hotkeys (RegisterHotKey)", NOW)
    proofs.record_notification(ctx.settings, "dbus", NOW - dt.timedelta(minutes=5))
    ctx.close()
    later = AppContext(tmp_path)  # the next run reads what this one saw
    again = later.settings
    hotkey = proofs.hotkey_check(again, NOW, "ctrl+alt+C")
    assert hotkey.ok is True
    assert hotkey.say == "ctrl+alt+C worked at 09:30 (Windows hotkeys (RegisterHotKey))."
    shown = proofs.notification_check(again, NOW)
    assert shown.ok is True and shown.say == "The notification service showed one at 09:25."
    later.close()


@pytest.mark.parametrize(
    ("channel", "words"),
    [
        ("tray", "if you did not see it, this desktop dropped it"),
        ("window", "Reminders show in the app's window (last at 09:30)"),
    ],
)
def test_a_notification_the_app_cannot_see_shown_is_not_claimed(tmp_path, channel, words):
    settings = Settings(open_memory_store().db)
    proofs.record_notification(settings, channel, NOW)
    check = proofs.notification_check(settings, NOW)
    assert check.ok is None and words in check.say


def test_a_hand_edited_proof_is_taken_for_none(tmp_path):
    settings = Settings(open_memory_store().db)
    settings.set(proofs.HOTKEY, "yesterday")
    settings.set(proofs.NOTIFICATION, {"channel": "dbus", "at": "not a time"})
    assert proofs.hotkey_check(settings, NOW, "ctrl+alt+C").ok is None
    assert proofs.notification_check(settings, NOW).ok is None


def test_preflight_has_the_proofs_where_the_preferences_are_given(ctx):
    ctx.prefs.set("hotkeys", {"bindings": {"show-card": "ctrl+alt+J"}})
    _info, checks = gather(
        ctx.db, ctx.now(), devices=None, dnd_paused=None, prefs=ctx.prefs, settings=ctx.settings
    )
    by_id = {c.id: c for c in checks}
    assert "press ctrl+alt+J" in by_id["hotkeys"].say and "notification" in by_id
    _info, checks = gather(ctx.db, ctx.now(), devices=None, dnd_paused=None)
    assert not {"hotkeys", "notification"} & {c.id for c in checks}
