"""Checklists from content and their ticks per loop, day and round."""

from __future__ import annotations

from companion.core.content.loader import PHASES, Content, parse_section
from companion.core.day import checklist as cl
from companion.core.day.loops import create_loop


def test_phase_lists_follow_the_day_and_carry_links(content):
    lists = cl.phase_lists(content)
    assert [lst.phase for lst in lists] == list(PHASES)
    before = cl.phase_list(content, "before-round")
    assert before.items and all(item.key.startswith("before-round/") for item in before.items)
    links = {item.link for lst in lists for item in lst.items if item.link}
    assert {"about-me", "flagged-quiz", "dnd"} <= links
    assert any(item.minutes_before for item in before.items)
    keys = [item.key for lst in lists for item in lst.items]
    assert len(keys) == len(set(keys))


def test_ticks_round_trip_per_loop_day_and_round(db, clock):
    loop = create_loop(db, "Acme")
    other = create_loop(db, "Globex")
    day = cl.Scope(loop, "2026-12-01")
    cl.set_checked(db, day, "night-before/go-to-sleep", True, clock.now())
    cl.set_checked(db, day, "morning-of/eat", True, clock.now())
    cl.set_checked(db, day, "morning-of/eat", True, clock.now())  # idempotent
    round_scope = cl.Scope(loop, "2026-12-01", round_id=3)
    cl.set_checked(db, round_scope, "before-round/water", True, clock.now())
    assert cl.checked_keys(db, day) == {"night-before/go-to-sleep", "morning-of/eat"}
    assert cl.checked_keys(db, round_scope) == {"before-round/water"}
    assert cl.checked_keys(db, cl.Scope(loop, "2026-12-02")) == set()
    assert cl.checked_keys(db, cl.Scope(other, "2026-12-01")) == set()
    cl.set_checked(db, day, "morning-of/eat", False, clock.now())
    assert cl.checked_keys(db, day) == {"night-before/go-to-sleep"}


def test_ticks_survive_reopening_the_database(ctx, clock):
    from companion.core.context import AppContext

    scope = cl.Scope(0, "2026-12-01")
    cl.set_checked(ctx.db, scope, "a/b", True, clock.now())
    ctx.close()
    again = AppContext(ctx.data_dir, clock=clock)
    try:
        assert cl.checked_keys(again.db, scope) == {"a/b"}
    finally:
        again.close()


def test_reset_one_phase_and_new_day(db, clock):
    scope = cl.Scope(1, "2026-12-01")
    for key in ("night-before/a", "night-before/b", "morning-of/c"):
        cl.set_checked(db, scope, key, True, clock.now())
    cl.set_checked(db, cl.Scope(1, "2026-12-01", 9), "before-round/x", True, clock.now())
    cl.set_checked(db, cl.Scope(1, "2026-11-30"), "night-before/a", True, clock.now())
    assert cl.reset(db, scope, ["night-before/a", "night-before/b"]) == 2
    assert cl.checked_keys(db, scope) == {"morning-of/c"}
    assert cl.reset(db, scope, []) == 0
    assert cl.new_day(db, 1, "2026-12-01") == 2  # the day's lists and its rounds' lists
    assert cl.checked_keys(db, cl.Scope(1, "2026-12-01", 9)) == set()
    assert cl.checked_keys(db, cl.Scope(1, "2026-11-30")) == {"night-before/a"}  # history kept


def test_progress_counts_only_items_of_the_list(content):
    items = cl.phase_list(content, "night-before").items
    checked = {items[0].key, items[1].key, "other/stale"}
    assert cl.progress(items, checked) == (2, len(items))


def test_phase_merges_sections_and_skips_bad_minutes():
    a = parse_section(
        "---\nid: extra\nkind: checklist\nphase: morning-of\ntitle: Extra\n---\n- Stretch\n  minutes_before: soon\n"
    )
    b = parse_section(
        "---\nid: morning-of\nkind: checklist\nphase: morning-of\ntitle: Morning\n---\n- Eat\n"
    )
    content = Content({"extra": a, "morning-of": b})
    lst = cl.phase_list(content, "morning-of")
    assert [i.text for i in lst.items] == ["Stretch", "Eat"]
    assert lst.items[0].minutes_before is None
    assert lst.title == "Morning of"
    assert cl.phase_list(content, "after-loop").items == ()


def test_before_round_list_runs_again_for_each_round(db, clock):
    import datetime as dt

    from companion.core.day.actions import load_view
    from companion.core.day.loops import add_round
    from companion.core.day.model import DayRules

    tz = clock.now().tzinfo
    loop = create_loop(db, "Acme")
    first = add_round(db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 1, 10, tzinfo=tz))
    second = add_round(db, loop, "design", scheduled_at=dt.datetime(2026, 12, 1, 13, tzinfo=tz))
    rules = DayRules()
    early = load_view(db, rules, dt.datetime(2026, 12, 1, 9, 50, tzinfo=tz), loop)
    scope = cl.scope_for("before-round", early)
    assert scope == cl.Scope(loop, "2026-12-01", first)
    cl.set_checked(db, scope, "before-round/water", True, clock.now())
    later = load_view(db, rules, dt.datetime(2026, 12, 1, 12, 50, tzinfo=tz), loop)
    assert cl.scope_for("before-round", later) == cl.Scope(loop, "2026-12-01", second)
    assert cl.checked_keys(db, cl.scope_for("before-round", later)) == set()
    assert cl.scope_for("morning-of", later) == cl.Scope(loop, "2026-12-01")


def test_the_capture_item_ticks_itself_once_every_round_of_the_day_is_written_down(
    db, clock, content
):
    """The walk: every round "written down", yet "Write down every question" unticked."""
    import datetime as dt

    from companion.core.day.loops import add_round, update_round

    now = clock.now()
    after = cl.phase_list(content, "after-loop")
    capture = next(i for i in after.items if i.link == "journal-capture")
    loop = create_loop(db, "Acme")
    first = add_round(db, loop, "coding", scheduled_at=now - dt.timedelta(hours=3))
    second = add_round(db, loop, "peer", scheduled_at=now - dt.timedelta(hours=2))
    skipped = add_round(db, loop, "design", scheduled_at=now - dt.timedelta(hours=1))
    update_round(db, skipped, skipped_at=now.isoformat())
    scope = cl.Scope(loop, now.date().isoformat())
    assert capture.key not in cl.day_checked(db, scope, after.items, now)
    update_round(db, first, notes="asked about heaps")
    assert capture.key not in cl.day_checked(db, scope, after.items, now)  # one to go
    update_round(db, second, notes="asked about a bug")
    ticked = cl.day_checked(db, scope, after.items, now)
    assert capture.key in ticked and ticked - {capture.key} == cl.checked_keys(db, scope)
    other_day = cl.Scope(loop, (now.date() + dt.timedelta(days=1)).isoformat())
    assert capture.key not in cl.day_checked(db, other_day, after.items, now)  # no rounds then


def test_the_thank_you_item_ticks_itself_once_the_loop_s_note_is_marked_sent(db, clock, content):
    """The walk: the thank-you marked sent in the Journal, yet "send ... a thank-you"
    unticked."""
    from companion.core.journal.thankyou import save_thank_you

    now = clock.now()
    after = cl.phase_list(content, "after-loop")
    thanks = next(i for i in after.items if i.link == "thank-you")
    loop = create_loop(db, "Acme")
    other = create_loop(db, "Globex")
    scope = cl.Scope(loop, now.date().isoformat())
    assert thanks.key not in cl.day_checked(db, scope, after.items, now)
    save_thank_you(db, loop, draft="Thank you", sent_at=now)  # as the Journal's "Mark sent"
    ticked = cl.day_checked(db, scope, after.items, now)
    assert thanks.key in ticked and ticked - {thanks.key} == cl.checked_keys(db, scope)
    assert thanks.key not in cl.day_checked(db, cl.Scope(other, scope.day), after.items, now)
    round_scope = cl.Scope(loop, scope.day, round_id=1)  # a round's list is not the loop's
    assert thanks.key not in cl.day_checked(db, round_scope, after.items, now)
    save_thank_you(db, loop, sent_at=None)  # un-marked: unticked again
    assert thanks.key not in cl.day_checked(db, scope, after.items, now)
