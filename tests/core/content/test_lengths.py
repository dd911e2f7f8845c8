"""One rule for a round's length: the card, the day (and so reminders and the CLI) agree."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from companion.core.content.lengths import round_minutes, type_minutes
from companion.core.content.loader import load_content
from companion.core.cue.rounds import find_round, round_infos
from companion.core.day import actions, loops
from companion.core.day.rules import day_rules
from companion.core.paths import shipped_content_dir

TZ = dt.timezone(dt.timedelta(hours=1))
AT = dt.datetime(2026, 12, 2, 10, 0, tzinfo=TZ)


@pytest.fixture
def sixty_minute_design(tmp_path: Path):
    """The shipped pack with design's ``minutes:`` taken out and its nudges saying 60."""
    pack = tmp_path / "pack"
    shutil.copytree(shipped_content_dir(), pack)
    rounds = pack / "80-rounds.md"
    text = rounds.read_text()
    design = text.index("  id: design\n")
    block_end = text.index("\n- ", design)
    block = text[design:block_end].replace("  minutes: 45\n", "")
    rounds.write_text(text[:design] + block + text[block_end:])
    nudges = pack / "33-design-nudges.md"
    nudges.write_text(nudges.read_text().replace("minutes: 45", "minutes: 60", 1))
    content, errors = load_content([pack])
    assert not errors
    return content


def test_a_type_without_minutes_takes_its_nudges_length_everywhere(sixty_minute_design, db):
    content = sixty_minute_design
    assert type_minutes(content, "design") == 60
    assert find_round(round_infos(content), "design").minutes == 60  # the card
    rules = day_rules(content)
    assert rules.lengths["design"] == 60
    loop = loops.create_loop(db, "Acme")
    rid = loops.add_round(db, loop, "design", scheduled_at=AT)
    view = actions.load_view(db, rules, AT - dt.timedelta(hours=1), loop)  # the day, the CLI
    assert view.round(rid).minutes == 60
    assert view.round(rid).ends_at == AT + dt.timedelta(minutes=60)
    # 50 minutes in, the round still runs (45 would have ended it); the capture reminder
    # waits for the 60-minute end
    later = actions.load_view(db, rules, AT + dt.timedelta(minutes=50), loop)
    assert later.round(rid).state == "running"
    done = actions.load_view(db, rules, AT + dt.timedelta(minutes=61), loop)
    assert done.capture_due_by == AT + dt.timedelta(minutes=60) + rules.capture_window


def test_the_type_minutes_come_first_then_the_pack_default(content):
    assert type_minutes(content, "design") == 45
    assert type_minutes(content, "opening") == content.round_defaults().minutes


def test_a_rounds_own_length_comes_first():
    assert round_minutes(30, "design", {"design": 60}, 45) == 30
    assert round_minutes(None, "design", {"design": 60}, 45) == 60
    assert round_minutes(0, "unknown", {"design": 60}, 45) == 45


def test_the_length_at_start_keeps_a_rounds_own_else_the_users_for_its_type():
    from companion.core.content.lengths import start_length

    assert start_length(60, "coding", {"coding": 45}) is None  # the invitation's 60 stays
    assert start_length(None, "coding", {"coding": 25}) == 25
    assert start_length(None, "coding", {}) is None  # the type's, by the day
