"""The cue card's rules without Qt: sections, stepper, timebox, state and geometry."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.content.lengths import DEFAULT_MINUTES
from companion.core.content.loader import Content, parse_section
from companion.core.cue import sources as cue_sources
from companion.core.cue.placement import (
    NOTIFICATION_BAND,
    Rect,
    is_reachable,
    layout_key,
    remember_rect,
    rescue_rect,
    restore_rect,
)
from companion.core.cue.rounds import (
    CardLine,
    build_sections,
    fill_closing,
    find_round,
    glance_text,
    round_for_key,
    round_infos,
    standing_rule,
    step_view,
    stepper_section,
)
from companion.core.cue.state import CardMemory, CueState, load_state
from companion.core.cue.timebox import timebox_nudges, timebox_status
from companion.core.day import loops

T0 = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=1)))


def _content(*texts: str) -> Content:
    content = Content()
    for text in texts:
        section = parse_section(text)
        content.sections[section.id] = section
    return content


# --------------------------------------------------------------------- round types


def test_shipped_round_types_have_keys_and_sections(content):
    infos = round_infos(content)
    ids = [i.id for i in infos]
    assert ids[:3] == ["opening", "design", "coding"]
    assert [i.key for i in infos] == list(range(1, len(infos) + 1))
    coding = find_round(infos, "coding")
    assert coding.nudges == "coding-nudges" and coding.minutes == DEFAULT_MINUTES
    assert round_for_key(infos, 2).id == "design"
    assert round_for_key(infos, 9) is None


def test_pack_round_without_key_gets_a_free_one():
    content = _content(
        "---\nid: rounds\nkind: rounds\ntitle: R\n---\n"
        "- Alpha\n  id: alpha\n  key: 2\n  sections: traps\n"
        "- Beta: extra\n  id: beta\n  sections: traps\n"
        "- Gamma\n  id: gamma\n  key: 2\n  sections: traps\n",
        "---\nid: traps\nkind: traps\ntitle: Traps\n---\n- one\n",
    )
    infos = round_infos(content)
    assert [(i.id, i.key) for i in infos] == [("alpha", 2), ("beta", 1), ("gamma", 3)]
    assert infos[1].short == "Beta"


def test_sections_follow_the_round_order_and_skip_unknown(content):
    coding = find_round(round_infos(content), "coding")
    sections = build_sections(content, coding, closing_topic="GPU scheduling")
    assert [s.id for s in sections] == list(coding.sections)
    closing = next(s for s in sections if s.kind == "closing")
    assert "GPU scheduling" in closing.lines[0].text and "{topic}" not in closing.lines[0].text
    timebox = next(s for s in sections if s.kind == "timebox")
    assert any("Working solution" in ln.text for ln in timebox.lines)

    broken = find_round(round_infos(content), "coding")
    broken = type(broken)(**{**broken.__dict__, "sections": ("nope", "traps")})
    assert [s.id for s in build_sections(content, broken)] == ["traps"]


def test_design_round_has_a_stepper_and_the_standing_rule(content):
    design = find_round(round_infos(content), "design")
    sections = build_sections(content, design)
    stepper = stepper_section(sections)
    assert stepper.id == "design-move"
    rule = standing_rule(sections)
    assert "failure modes" in rule and "cost" in rule


def test_opening_falls_back_to_content_pitch_then_uses_own_outline(content):
    opening = find_round(round_infos(content), "opening")
    # the opening round lists the content's pitch itself, so the outline does not repeat it
    first, *rest = build_sections(content, opening)
    assert first.kind == "pitch-outline" and first.lines == ()
    assert "About me" in first.note
    assert sum(1 for s in rest if s.kind == "pitch") == 1
    # a round without the pitch section gets the content's pitch as the outline
    hm = find_round(round_infos(content), "hiring-manager")
    fallback = build_sections(content, hm)[0]
    assert fallback.kind == "pitch-outline"
    assert fallback.lines[0].text == "Who you are" and fallback.lines[0].meta == "10 s"
    assert "About me" in fallback.note
    own = build_sections(
        content, opening, pitch_outline=[CardLine("Me", detail="Infra eng", meta="9 s / 10 s")]
    )[0]
    assert [ln.text for ln in own.lines] == ["Me"]


def test_planned_questions_fall_back_to_the_audience(content):
    hm = find_round(round_infos(content), "hiring-manager")
    planned = next(s for s in build_sections(content, hm) if s.kind == "planned-questions")
    assert planned.lines and all(ln.text for ln in planned.lines)
    texts = [ln.text for ln in planned.lines]
    pick = content.planner_rules().max_questions
    assert texts == [q.text for q in content.questions_for("hiring-manager")][:pick]
    mine = build_sections(content, hm, planned=[CardLine("My own question?")])
    assert next(s for s in mine if s.kind == "planned-questions").lines[0].text == (
        "My own question?"
    )


def test_the_packs_questions_are_its_pick_for_the_interviewer_with_the_rule_once():
    """The card listed every question of an audience under "From the content, for
    hiring-manager": an id for a label and no word of the pack's "pick 3-4"."""
    questions = "".join(
        f"- Question {n}?\n  audience: hiring-manager\n  topic: t{n}\n" for n in range(1, 7)
    )
    content = _content(
        "---\nid: rounds\nkind: rounds\ntitle: R\n---\n- Hiring manager\n  id: hiring-manager\n"
        "  audience: hiring-manager\n  sections: @planned-questions\n",
        "---\nid: questions\nkind: questions\ntitle: Q\npick: 2-3\n"
        "rule: Pick 2-3 across the loop.\n---\n" + questions,
    )
    hm = find_round(round_infos(content), "hiring-manager")
    (planned,) = build_sections(content, hm)
    assert [ln.text for ln in planned.lines] == ["Question 1?", "Question 2?", "Question 3?"]
    assert planned.note == "Hiring manager questions from the content. Pick 2-3 across the loop."
    assert "hiring-manager" not in planned.note
    assert not any("Pick" in ln.text + ln.meta for ln in planned.lines)  # said once


def test_the_shipped_cards_say_the_pick_rule_under_the_packs_questions(content):
    rule = content.planner_rules().rule
    for info in round_infos(content):
        for section in build_sections(content, info):
            if section.kind == "planned-questions" and section.lines:
                assert section.note.count(rule) == 1, info.id
                assert len(section.lines) <= content.planner_rules().max_questions
                assert not any(who in section.note for who in info.audience if "-" in who)


def test_an_introduction_is_said_once_per_card(content):
    """The opening card showed the pitch's intro twice: over the outline and the pitch."""
    for info in round_infos(content):
        intros = [s.intro for s in build_sections(content, info) if s.intro]
        assert len(intros) == len(set(intros)), info.id
    opening = build_sections(content, find_round(round_infos(content), "opening"))
    pitch_intro = " ".join(content.section("pitch").intro.split())
    assert [s.kind for s in opening if s.intro == pitch_intro] == ["pitch-outline"]


def test_one_wrap_up_per_round(content):
    """The coding card nudged "Wrap up: run the tests..." at 40 min and the timer's own
    "2 minutes left: wrap up." at 43: between the content's last nudge and time up
    there is nothing more."""
    for info in round_infos(content):
        if not info.nudges:
            continue
        nudges = timebox_nudges(content.section(info.nudges), 45, content.round_defaults())
        closing = [n for n in nudges if n.at >= 45 - 5]
        assert len(closing) == 2 and closing[-1].at == 45, (info.id, closing)  # the wrap, time up
    coding = timebox_nudges(content.section("coding-nudges"), 45, content.round_defaults())
    assert [n.at for n in coding if n.at >= 40] == [40, 45]
    assert coding[-2].text.startswith("Wrap up: run the tests")


def test_fill_closing():
    assert fill_closing("I like {topic}.", " caching ") == "I like caching."
    assert fill_closing("I like {topic}.", "") == "I like [topic]."


# --------------------------------------------------------------------- stepper


def test_stepper_moves_and_clamps(content):
    design = find_round(round_infos(content), "design")
    section = stepper_section(build_sections(content, design))
    state = CueState(round_type="design")
    count = len(section.lines)
    view = step_view(section, state.step("design"))
    assert view.index == 0 and view.next.text == section.lines[1].text
    state.move_step("design", -1, count)
    assert state.step("design") == 0
    for _ in range(count + 3):
        state.move_step("design", 1, count)
    view = step_view(section, state.step("design"))
    assert view.index == count - 1 and view.next is None
    state.move_step("design", -1, count)
    assert state.step("design") == count - 2
    assert state.step("coding") == 0  # each round type keeps its own step


# --------------------------------------------------------------------- timebox


def test_nudges_from_content_placed_on_the_length(content):
    nudges = timebox_nudges(content.section("coding-nudges"), 45)
    ats = [n.at for n in nudges]
    assert ats == sorted(ats)
    assert 20 in ats and 35 in ats and 40 in ats  # at: 20, before_end: 10 and 5
    assert ats[-1] == 45 and nudges[-1].builtin  # time-up
    short = timebox_nudges(content.section("coding-nudges"), 30)
    assert [n.at for n in short if not n.builtin] == [1, 4, 6, 12, 20, 20, 25, 28]
    assert [n.at for n in short if n.builtin] == [30]  # "at: 28" already nudges near the end


def test_near_end_nudge_added_only_when_content_has_none():
    section = parse_section(
        "---\nid: n\nkind: nudges\ntitle: N\n---\n- early\n  at: 5\n- bad\n  at: soon\n"
    )
    nudges = timebox_nudges(section, 30)
    assert [(n.at, n.builtin) for n in nudges] == [(5, False), (28, True), (30, True)]
    late = parse_section("---\nid: n\nkind: nudges\ntitle: N\n---\n- wrap\n  before_end: 1\n")
    assert [n.at for n in timebox_nudges(late, 30)] == [29, 30]


def test_timebox_status_with_a_fake_clock(content):
    nudges = timebox_nudges(content.section("coding-nudges"), 45)
    status = timebox_status(T0, T0, 45, nudges)
    assert status.current is None and status.upcoming.at == 1 and status.phase == "running"
    at20 = timebox_status(T0, T0 + dt.timedelta(minutes=20, seconds=5), 45, nudges)
    assert "Working solution" in at20.current.text and at20.fresh
    later = timebox_status(T0, T0 + dt.timedelta(minutes=24), 45, nudges)
    assert "Working solution" in later.current.text and not later.fresh
    near = timebox_status(T0, T0 + dt.timedelta(minutes=43, seconds=30), 45, nudges)
    assert near.phase == "near-end" and near.remaining == 90
    over = timebox_status(T0, T0 + dt.timedelta(minutes=46), 45, nudges)
    assert over.phase == "over" and over.current.at == 45 and over.upcoming is None


def test_glance_prefers_fresh_nudge_then_step(content):
    design = find_round(round_infos(content), "design")
    section = stepper_section(build_sections(content, design))
    view = step_view(section, 1)
    nudges = timebox_nudges(content.section("design-nudges"), 45)
    fresh = timebox_status(T0, T0 + dt.timedelta(minutes=5, seconds=10), 45, nudges)
    assert glance_text("System design", view, fresh)[0].startswith("Workload clarified")
    stale = timebox_status(T0, T0 + dt.timedelta(minutes=9), 45, nudges)
    big, small = glance_text("System design", view, stale)
    assert big == section.lines[1].text and small.startswith("Step 2/")
    assert glance_text("Peer", step_view(None, 0), None)[0] == "Peer"


# --------------------------------------------------------------------- state


class DictStore(dict):
    def set(self, key, value):
        self[key] = value


def test_state_round_trips_and_tolerates_junk():
    store = DictStore()
    state = CueState(round_type="coding", opacity=60, font_pt=14, glance=True)
    state.steps["design"] = 3
    state.round_id = 7
    CardMemory(store).change(**state.to_dict())
    again = load_state(store)
    assert again == state
    # a state saved by an older card (it kept its own running round) still loads
    old = CueState.from_dict({**state.to_dict(), "running_type": "coding", "started_at": "x"})
    assert old == state
    junk = CueState.from_dict(
        {"opacity": 5, "font_pt": "x", "glance": "yes", "steps": {"a": "b", "c": 2}, "round_id": -3}
    )
    assert junk.opacity == 30 and junk.font_pt == 11 and junk.glance is False
    assert junk.steps == {"c": 2} and junk.round_id is None
    assert CueState.from_dict(None) == CueState()
    assert CueState.from_dict({"opacity": 400}).opacity == 100


def test_share_reminder_once_a_day():
    state = CueState()
    assert state.needs_share_reminder(dt.date(2026, 12, 1))
    state.reminder_shown_on = "2026-12-01"
    assert not state.needs_share_reminder(dt.date(2026, 12, 1))
    assert state.needs_share_reminder(dt.date(2026, 12, 2))


# --------------------------------------------------------------------- geometry

LEFT = Rect(0, 0, 1920, 1080)
RIGHT = Rect(1920, 0, 2560, 1440)


def test_layout_key_is_order_independent():
    assert layout_key([LEFT, RIGHT]) == layout_key([RIGHT, LEFT])
    assert layout_key([LEFT]) != layout_key([LEFT, RIGHT])


def test_restore_per_layout_and_rescue_when_the_monitor_is_gone():
    on_right = Rect(3900, 100, 380, 600)
    saved = remember_rect({}, [LEFT, RIGHT], on_right)
    rect, rescued = restore_rect(saved, [LEFT, RIGHT])
    assert rect == on_right and not rescued
    rect, rescued = restore_rect(saved, [LEFT])  # laptop alone: the right monitor is gone
    assert rescued and is_reachable(rect, [LEFT])
    assert (rect.w, rect.h) == (380, 600) and rect.right <= LEFT.right
    # a layout-specific spot wins over the last one used elsewhere
    saved = remember_rect(saved, [LEFT], Rect(10, 10, 300, 300))
    saved = remember_rect(saved, [LEFT, RIGHT], on_right)
    assert restore_rect(saved, [LEFT])[0] == Rect(10, 10, 300, 300)


def test_rescue_keeps_a_grabbable_card_and_shrinks_an_oversized_one():
    partly = Rect(1800, 50, 380, 600)  # sticks out to the right, title strip visible
    assert rescue_rect(partly, [LEFT]) == partly
    above = Rect(100, -900, 380, 600)
    moved = rescue_rect(above, [LEFT])
    assert moved.y == 0 and moved.x == 100
    huge = Rect(5000, 5000, 4000, 3000)
    moved = rescue_rect(huge, [LEFT])
    assert moved == Rect(0, 0, 1920, 1080)


def test_a_place_from_another_layout_is_wholly_on_this_screen():
    """380 x 600 near the left at 100 % (1600 x 1000), opened at 200 % (800 x 500
    logical): the card stuck out below the screen, grabbable so kept. From another layout
    it is moved and shrunk onto this screen; the user's own place here is kept as it was,
    unless no screen can show it whole."""
    at_100 = Rect(0, 0, 1600, 1000)
    at_200 = Rect(0, 0, 800, 500)
    saved = remember_rect({}, [at_100], Rect(300, 24, 380, 600))
    rect, rescued = restore_rect(saved, [at_200])
    assert rescued and rect == Rect(300, 0, 380, 500)
    own = Rect(500, 200, 380, 450)  # put there by the user at 200 %: grabbable, kept
    saved = remember_rect(saved, [at_200], own)
    assert restore_rect(saved, [at_200]) == (own, False)
    saved = remember_rect(saved, [at_200], Rect(0, 0, 380, 600))  # saved taller than it
    assert restore_rect(saved, [at_200]) == (Rect(0, 0, 380, 500), True)


def test_restore_defaults_to_top_right_and_ignores_garbage():
    rect, rescued = restore_rect({"last|card": [1, 2, "x", 4]}, [LEFT])
    assert not rescued and rect.right == LEFT.right - 24 and rect.y == NOTIFICATION_BAND
    glance, _ = restore_rect(None, [LEFT], glance=True)
    assert glance.h < rect.h


# --------------------------------------------------------------------- journal and sources


# starting and ending rounds is the day's: tests/core/test_day_model.py


ONE_PAGER = """# Dana Lee — Site reliability engineer

## Who I am (10 s)

I keep payment systems up for forty million people daily.

## Strongest evidence (30 s)

Cut checkout outages by 80% in one year.
"""


def test_sources_show_nothing_of_their_own_before_the_user_writes_any(db):
    assert cue_sources.pitch_outline_lines(db) == ([], "")
    assert cue_sources.planned_question_lines(db, None, ("peer",)) == []
    loop_id = loops.create_loop(db, "Acme")
    assert cue_sources.planned_question_lines(db, loop_id, ("peer",)) == []


def test_pitch_outline_comes_from_the_saved_one_pager(db, clock):
    from companion.core.about import store as about_store
    from companion.core.about.segments import SEGMENTS

    about_store.save_text(db, ONE_PAGER, clock.now())
    about_store.set_words_per_minute(db, 120)
    lines, note = cue_sources.pitch_outline_lines(db)
    assert [line.text for line in lines] == [spec.title for spec in SEGMENTS]
    # ten words at 120 a minute: 5 s; eight words: 4 s; segments not written: empty
    assert lines[0] == CardLine(
        "Who I am",
        detail="I keep payment systems up for forty million people daily.",
        meta="5 s / 10 s",
    )
    assert lines[1] == CardLine(
        "Strongest evidence", detail="Cut checkout outages by 80% in one year.", meta="4 s / 30 s"
    )
    assert lines[2].detail == ""
    assert note == "From About me: about 9 s spoken."
    about_store.save_text(db, "   ", clock.now())
    assert cue_sources.pitch_outline_lines(db) == ([], "")


def test_planned_questions_are_the_real_planner_rows_not_yet_asked(db, clock):
    from companion.core.selfcheck import planner

    loop_id = loops.create_loop(db, "Acme")
    planner.add_custom(db, loop_id, "How is on-call?", "peer", at=clock.now())
    asked, _ = planner.add_custom(db, loop_id, "What do you deploy?", "peer", at=clock.now())
    planner.mark_asked(db, asked, None, clock.now())
    planner.add_custom(db, loop_id, "How is success measured?", "hiring-manager", at=clock.now())
    assert cue_sources.planned_question_lines(db, loop_id, ("peer",)) == [
        CardLine("How is on-call?")
    ]
    both = cue_sources.planned_question_lines(db, loop_id, ("peer", "hiring-manager"))
    assert [line.text for line in both] == ["How is on-call?", "How is success measured?"]


@pytest.mark.parametrize("value", [0, 1000, "45", None])
def test_round_minutes_are_clamped(value, content):
    coding = find_round(round_infos(content), "coding")
    state = CueState(minutes={"coding": value} if isinstance(value, int) else {})
    assert 5 <= state.round_minutes(coding) <= 240


def test_the_card_and_the_page_each_change_only_what_they_name():
    store = DictStore()
    page, card = CardMemory(store), CardMemory(store)
    page.change(loop_id=7, opacity=50, minutes={"design": 50})  # the Cue page
    # the card's copy has not seen the page's changes: it names only its own
    stale = CueState(round_type="coding", opacity=95, minutes={"coding": 30}, steps={"coding": 2})
    stored = card.change(round_type=stale.round_type, minutes=stale.minutes, steps=stale.steps)
    assert (stored.loop_id, stored.opacity, stored.round_type) == (7, 50, "coding")
    assert stored.minutes == {"design": 50, "coding": 30}  # another type's length kept
    assert page.change(opacity=1).opacity == 30 and load_state(store) == page.load()  # clamped


def test_merge_keeps_the_other_writers_fields():
    from companion.core.cue.state import merge_state

    fresh = CueState(loop_id=7, round_type="design", opacity=50)  # the Cue page saved these
    mine = CueState(round_type="coding", opacity=95, font_pt=15)  # the card's stale copy
    merged = merge_state(fresh, mine, {"round_type", "font_pt"})
    assert (merged.loop_id, merged.round_type, merged.opacity, merged.font_pt) == (
        7,
        "coding",
        50,
        15,
    )


def test_rescue_uses_the_usable_area():
    panel_free = Rect(0, 40, 1920, 1040)  # a top panel takes 40 px
    rect, _ = restore_rect({}, [LEFT], usable=[panel_free])
    assert rect.y == 40 + NOTIFICATION_BAND
    saved = remember_rect({}, [LEFT, RIGHT], Rect(2500, 100, 380, 600))
    rect, rescued = restore_rect(saved, [LEFT], usable=[panel_free])
    assert rescued and rect.y >= 40


def test_a_card_wider_than_its_saved_size_is_moved_back_inside_the_screen():
    from companion.core.cue.placement import Rect, fit_rect

    screen = Rect(0, 0, 1200, 800)
    # the default top-right spot, but a 200% font makes the card 560 wide
    placed = fit_rect(Rect(796, 24, 380, 600), 560, 300, [screen])
    assert placed.w == 560 and placed.right <= screen.right and placed.x >= 0
    assert placed.y == 24
    # already inside: untouched
    assert fit_rect(Rect(10, 10, 300, 300), 200, 200, [screen]) == Rect(10, 10, 300, 300)
