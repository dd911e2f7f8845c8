"""The pack's numbers reach every part of the app: a user pack that changes one changes
the analysis, the template, the CLI and the rest (one test per number)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from companion.core.about import pitch
from companion.core.content.loader import Content, default_folders, load_content
from companion.core.content.plans import FALLBACK_PITCH, FALLBACK_PLANNER, PlanSegment

DATA = (
    next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
    / "tests"
    / "data"
)
SHORT_PITCH = (DATA / "short-pitch.md").read_text(encoding="utf-8")

ONE_PAGER = (DATA / "short-one-pager.md").read_text(encoding="utf-8")


def user_pack(data_dir: Path, name: str, text: str) -> Content:
    folder = data_dir / "content"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    content, errors = load_content(default_folders(folder))
    assert errors == []
    return content


def test_the_shipped_pitch_plan(content: Content) -> None:
    plan = content.pitch_plan()
    assert [(s.id, s.title, s.seconds) for s in plan.segments] == [
        (s.id, s.title, s.seconds) for s in FALLBACK_PITCH.segments
    ]
    assert plan.target == (60, 90)


def test_a_user_pitch_pack_changes_the_plan_and_the_analysis(data_dir: Path) -> None:
    content = user_pack(data_dir, "pitch.md", SHORT_PITCH)
    plan = content.pitch_plan()
    assert [s.seconds for s in plan.segments] == [5, 20, 10, 5, 5]
    assert plan.target == (30, 50)
    result = pitch.analyze(ONE_PAGER, 140, plan)
    assert [s.budget_seconds for s in result.segments] == [5, 20, 10, 5, 5]
    assert result.target == (30.0, 50.0)
    report = pitch.format_report(result)
    assert "30-50" in report and "60-90" not in report
    outline = pitch.pitch_outline(ONE_PAGER, 140, plan)
    assert [s.budget_seconds for s in outline] == [5, 20, 10, 5, 5]


def test_companion_about_analyze_reports_the_packs_budgets(data_dir: Path, tmp_path, capsys):
    from companion.cli import main

    content = user_pack(data_dir, "pitch.md", SHORT_PITCH)
    source = tmp_path / "me.md"
    source.write_text(ONE_PAGER, encoding="utf-8")
    assert main(["about", "analyze", str(source), "--wpm", "140", "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)
    assert [s["budget_seconds"] for s in reported["segments"]] == [5, 20, 10, 5, 5]
    core = pitch.analyze(ONE_PAGER, 140, content.pitch_plan())
    assert [s["status"] for s in reported["segments"]] == [s.status for s in core.segments]
    assert main(["about", "analyze", str(source), "--wpm", "140"]) == 0
    table = capsys.readouterr().out
    assert "30-50" in table
    assert [line.split()[-2] for line in table.splitlines()[2:7]] == ["5", "20", "10", "5", "5"]


def test_the_template_takes_the_packs_headings_and_budgets(data_dir: Path) -> None:
    from companion.core.about.template import fill_template
    from companion.core.paths import resources_dir

    content = user_pack(data_dir, "pitch.md", SHORT_PITCH)
    raw = (resources_dir() / "templates" / "about-me.md").read_text(encoding="utf-8")
    text = fill_template(raw, content.pitch_plan())
    assert "## Who I am (5 s)" in text and "## Strongest evidence (20 s)" in text
    assert "spoken in 30-50 seconds" in text


def test_a_pack_label_names_a_heading_the_analysis_finds() -> None:
    plan = FALLBACK_PITCH.__class__(
        (PlanSegment("identity", "Opening salvo", 10),), FALLBACK_PITCH.target
    )
    result = pitch.analyze("## Opening salvo\nHello there.\n", 140, plan)
    assert result.segment("identity").present and result.segment("identity").words == 2


def test_without_a_pitch_section_the_fallback_is_used() -> None:
    assert Content().pitch_plan() == FALLBACK_PITCH


def test_planner_rules_come_from_the_questions_section(content: Content, data_dir: Path):
    rules = content.planner_rules()
    assert (rules.min_questions, rules.max_questions) == (3, 4)
    assert rules.count_text == "three or four"
    assert rules.rule == content.section("questions").meta["rule"]
    assert Content().planner_rules() == FALLBACK_PLANNER


def test_windows_come_from_the_after_loop_checklist(content: Content) -> None:
    assert content.capture_window == dt.timedelta(hours=1)
    assert content.thank_you_after == dt.timedelta(hours=24)


def test_before_round_steps_are_the_timed_items(content: Content) -> None:
    steps = content.before_round_steps()
    assert [s.minutes for s in steps] == [15, 15, 10, 8, 5, 3]
    assert steps[-1].text.startswith("Bathroom break")


def shipped_with(name: str, old: str, new: str) -> str:
    """A shipped content file with one value changed."""
    from companion.core.paths import shipped_content_dir

    text = (shipped_content_dir() / name).read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_a_user_pick_changes_the_planners_warning(data_dir: Path, db, clock) -> None:
    from companion.core.day import loops
    from companion.core.selfcheck import planner

    content = user_pack(data_dir, "q.md", shipped_with("50-questions.md", "pick: 3-4", "pick: 1-2"))
    rules = content.planner_rules()
    assert (rules.min_questions, rules.max_questions, rules.count_text) == (1, 2, "one or two")
    loop_id = loops.create_loop(db, "Acme", "ML infra")
    for text in ("Why now?", "Who decides?"):
        planner.add_custom(db, loop_id, text, "peer", at=clock.now())
    assert planner.check_plan(db, loop_id, rules) == []
    planner.add_custom(db, loop_id, "What next?", "peer", at=clock.now())
    (warning,) = planner.check_plan(db, loop_id, rules)
    assert "3 questions are planned; keep it to one or two" in warning.message
    assert planner.check_plan(db, loop_id, Content().planner_rules()) == []  # 3-4 fallback


def test_a_user_capture_window_changes_the_capture_due_time(data_dir: Path, db, clock) -> None:
    from companion.core.day.actions import load_view
    from companion.core.day.loops import create_loop, end_round, start_round
    from companion.core.day.rules import day_rules

    content = user_pack(
        data_dir,
        "after.md",
        shipped_with("13-after-loop.md", "within_hours: 1\n", "within_hours: 3\n"),
    )
    assert content.capture_window == dt.timedelta(hours=3)
    now = clock.now()
    loop = create_loop(db, "Acme", "Staff engineer")
    rid = start_round(db, "design", now - dt.timedelta(hours=3), loop_id=loop)
    end_round(db, rid, now - dt.timedelta(hours=2))
    view = load_view(db, day_rules(content), now)
    assert (view.capture_round_id, view.capture_due_by) == (rid, now + dt.timedelta(hours=1))


def test_a_user_thank_you_delay_changes_the_due_time(data_dir: Path, db, clock) -> None:
    from companion.core.day.actions import load_view, thank_you_due
    from companion.core.day.loops import create_loop, end_round, start_round
    from companion.core.day.rules import day_rules

    content = user_pack(
        data_dir,
        "after.md",
        shipped_with("13-after-loop.md", "within_hours: 24\n", "within_hours: 48\n"),
    )
    assert content.thank_you_after == dt.timedelta(hours=48)
    now = clock.now()
    loop = create_loop(db, "Acme", "Staff engineer", starts_on="2026-12-01")
    rid = start_round(db, "design", now - dt.timedelta(hours=2), loop_id=loop)
    end_round(db, rid, now - dt.timedelta(hours=1))
    rules = day_rules(content)
    assert thank_you_due(db, rules, now, loop) == now + dt.timedelta(hours=47)
    assert load_view(db, rules, now, loop).thank_you_due_by == now + dt.timedelta(hours=47)
    later = now + dt.timedelta(hours=30)  # 17 h left: not yet reminded, unlike with 24 h
    (note,) = [d for d in load_view(db, rules, later, loop).due if d.kind == "thank-you"]
    assert note.due_at > later


LUNCH_ROUNDS = (DATA / "lunch-rounds.md").read_text(encoding="utf-8")


def test_a_user_round_length_and_timer_nudges(data_dir: Path, db) -> None:
    from companion.core.cue import rounds as cue_rounds
    from companion.core.cue import timebox as cue_timebox
    from companion.core.day.actions import load_view
    from companion.core.day.loops import add_round, create_loop
    from companion.core.day.rules import day_rules

    content = user_pack(data_dir, "rounds.md", LUNCH_ROUNDS)
    defaults = content.round_defaults()
    assert (defaults.minutes, defaults.wrap_up_before_end) == (30, 5)
    (lunch,) = cue_rounds.round_infos(content)
    assert lunch.minutes == 30
    timebox = cue_rounds.build_sections(content, lunch)[0]
    assert [(line.text, line.meta) for line in timebox.lines] == [
        ("5 minutes to go: land it.", "25 min"),
        ("Stop here.", "30 min"),
    ]
    status = cue_timebox.timebox_status(
        dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 2, 10, 26, tzinfo=dt.UTC),
        30,
        cue_timebox.timebox_nudges(None, 30, defaults),
        defaults.wrap_up_before_end,
    )
    assert status.phase == "near-end"
    # the schedule: a round of a type with no length of its own lasts the pack's 30 min
    loop = create_loop(db, "Acme", "SRE")
    start = dt.datetime(2026, 12, 2, 10, tzinfo=dt.UTC)
    add_round(db, loop, "lunch", scheduled_at=start)
    view = load_view(db, day_rules(content), start - dt.timedelta(hours=1), loop)
    assert view.rounds[0].ends_at == start + dt.timedelta(minutes=30)


def test_reminder_texts_are_the_packs(content: Content) -> None:
    assert content.reminder_text("night-before") == content.section("night-before").meta["reminder"]
    assert Content().reminder_text("after-loop") == "The after loop checklist is ready."
