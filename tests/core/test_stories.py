"""The story bank: parsing, timing, the question mapping and gaps, the card's list, story
use, expected topics, the debrief's recall and the journal round trip."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.about.spoken import seconds_for
from companion.core.stories.check import analyze_bank
from companion.core.stories.pack import story_pack
from companion.core.stories.parse import parse_stories

THREE = """# Stories

## Story: Cut GPU cost
Tags: ownership, impact

### Situation
The training bill doubled in a quarter.
### Task
Bring it down without slowing research.
### Action
I built a bin-packing scheduler and moved batch jobs to spot.
### Result
Spend fell 40% in three months.
### Differently
Ask finance for the bill earlier.

## Story: The schema fight
Tags: conflict, influence

**Situation:** Two teams wanted different schemas.
**Task:** Pick one.
**Action:** I wrote both up and ran a review.
**Result:** We shipped one schema and everyone moved on.

## Story: Dropped the migration
Tags: failure

Situation: I underestimated a migration.
Result: It slipped 2 weeks; I added a dry run to every migration since.
"""


@pytest.fixture
def pack(content):
    return story_pack(content)


def test_pack_holds_the_common_questions_and_limits(pack):
    ids = {q.id for q in pack.questions}
    assert {
        "about-yourself",
        "conflict",
        "failure",
        "biggest-impact",
        "why-leaving",
        "weakness",
        "why-us",
    } <= ids
    assert pack.seconds == 120 and pack.max_stories == 12
    assert "hiring-manager" in pack.card_rounds and "coding" not in pack.card_rounds


def test_parse_reads_titles_tags_and_parts():
    bank = parse_stories(THREE)
    assert [s.title for s in bank.stories] == [
        "Cut GPU cost",
        "The schema fight",
        "Dropped the migration",
    ]
    first = bank.stories[0]
    assert first.tags == ("ownership", "impact")
    assert set(first.parts) == {"situation", "task", "action", "result", "differently"}
    assert bank.stories[1].parts["result"].startswith("We shipped")
    assert bank.errors == ()


def test_timing_uses_the_spoken_words_and_the_rate(pack):
    bank = parse_stories(THREE)
    analysis = analyze_bank(bank, pack, 120)
    first = analysis.reports[0]
    # the title, the tags line and the part headings are not spoken
    spoken = (
        "The training bill doubled in a quarter. Bring it down without slowing research. "
        "I built a bin-packing scheduler and moved batch jobs to spot. Spend fell 40% in three "
        "months. Ask finance for the bill earlier."
    )
    assert bank.stories[0].words == len(spoken.split())
    assert first.seconds == pytest.approx(seconds_for(len(spoken.split()), 120))
    assert not first.over
    long = "## Story: Long\nTags: impact\nResult: 5 wins. " + "word " * 400
    assert analyze_bank(long, pack, 120).reports[0].over
    assert any("Long" in w and "120" in w for w in analyze_bank(long, pack, 120).warnings)


def test_a_result_without_a_number_is_flagged(pack):
    analysis = analyze_bank(THREE, pack, 140)
    assert [r.has_number for r in analysis.reports] == [True, False, True]
    assert any("The schema fight" in w and "number" in w for w in analysis.warnings)


def test_questions_map_to_stories_by_tag_and_the_rest_are_gaps(pack):
    analysis = analyze_bank(THREE, pack, 140)
    by_id = {m.question.id: [s.title for s in m.stories] for m in analysis.matches}
    assert by_id["conflict"] == ["The schema fight"]
    assert by_id["failure"] == ["Dropped the migration"]
    assert by_id["biggest-impact"] == ["Cut GPU cost"]
    gaps = {q.id for q in analysis.gaps}
    assert "why-leaving" in gaps and "why-us" in gaps and "conflict" not in gaps
    assert analysis.as_json()["gaps"] == [q.text for q in analysis.gaps]
    assert any("Why are you leaving" in line for line in analysis.gap_lines(pack))


def test_more_than_the_packs_limit_is_a_warning(pack):
    text = "".join(f"## Story: S{n}\nTags: impact\nResult: {n} wins\n\n" for n in range(13))
    warnings = analyze_bank(text, pack, 140).warnings
    assert any(w.startswith("13 stories") for w in warnings)
    text12 = "".join(f"## Story: S{n}\nTags: impact\nResult: {n} wins\n\n" for n in range(12))
    assert not any("stories:" in w for w in analyze_bank(text12, pack, 140).warnings)


def test_broken_tags_are_errors_with_a_line():
    bank = parse_stories("## Story: A\nTags: own@rship, impact\n\n## Story: B\nTags:\n")
    assert [e.line for e in bank.errors] == [2, 5]
    assert "own@rship" in str(bank.errors[0])
    assert bank.stories[0].tags == ("impact",)


def test_unknown_tags_and_a_missing_tags_line_are_warnings(pack):
    warnings = analyze_bank(
        "## Story: A\nResult: 3x\n\n## Story: B\nTags: juggling\n", pack, 140
    ).warnings
    assert any('"A" has no Tags line' in w for w in warnings)
    assert any('"juggling"' in w for w in warnings)


def test_titles_get_unique_ids():
    bank = parse_stories("## Story: Same\nTags: a\n## Story: Same\nTags: b\n")
    assert [s.id for s in bank.stories] == ["same", "same-2"]


def test_projects_become_stories_once():
    from companion.core.stories.projects import stories_from_projects

    one_pager = (
        "## Three projects\n\n### GPU scheduler\n\n- Problem: jobs waited hours\n"
        "- My part: I wrote the scheduler\n- Result: queue time fell from 3 h to 20 min\n\n"
        "### Cache\n\nRewrote it. Hit rate went from 60% to 92%.\n\n### Tooling\n"
    )
    text, added = stories_from_projects(one_pager, "")
    assert added == 3
    bank = parse_stories(text)
    assert [s.title for s in bank.stories] == ["GPU scheduler", "Cache", "Tooling"]
    assert bank.stories[0].parts["situation"] == "jobs waited hours"
    assert bank.stories[0].has_number and bank.stories[1].has_number
    assert not bank.stories[2].has_number  # the placeholder is no number
    assert stories_from_projects(one_pager, text) == (text, 0)


def test_card_lists_the_rounds_stories_and_filters_by_question(pack):
    from companion.core.stories.rounds import card_stories, shows_stories

    bank = parse_stories(THREE)
    assert shows_stories(pack, "hiring-manager") and not shows_stories(pack, "coding")
    listed = card_stories(bank, pack, "hiring-manager")
    assert {c.story.title for c in listed} == {s.title for s in bank.stories}
    only = card_stories(bank, pack, "hiring-manager", question_id="conflict")
    assert [c.story.title for c in only] == ["The schema fight"]
    assert card_stories(bank, pack, "hiring-manager", question_id="why-us") == []


def _loop_round(db, round_type="hiring-manager"):
    from companion.core.day.loops import add_round, create_loop

    loop_id = create_loop(db, "Acme")
    return loop_id, add_round(db, loop_id, round_type)


def test_marking_a_story_used_is_stored_and_toggles(db, clock):
    from companion.core.stories.rounds import toggle_used, use_titles, used_stories

    _, round_id = _loop_round(db)
    story = parse_stories(THREE).stories[1]
    assert toggle_used(db, round_id, story, clock.now()) is True
    assert used_stories(db, round_id) == {"the-schema-fight"}
    assert use_titles(db, round_id) == ["The schema fight"]
    assert toggle_used(db, round_id, story, clock.now()) is False
    assert used_stories(db, round_id) == frozenset()


def test_expected_topics_prefill_from_round_type_and_study_list(db, clock, pack):
    from companion.core.journal.entries import add_flub
    from companion.core.stories.rounds import load_expected, prefill_round, save_expected

    loop_id, round_id = _loop_round(db, "coding")
    add_flub(db, loop_id, None, "consistent hashing", "forgot the ring", 3)
    topics = prefill_round(db, round_id, pack, "coding", clock.now())
    # coding asks no behavioural question: its own topics, and no study topic unrelated
    # to them (consistent hashing is a design topic)
    assert topics == list(pack.round_topics["coding"])
    hm = _loop_round(db, "hiring-manager")[1]
    topics = prefill_round(db, hm, pack, "hiring-manager", clock.now())
    assert topics[:3] == ["identity", "conflict", "failure"] and "consistent hashing" in topics
    save_expected(db, hm, ["#Conflict", "conflict", " kv cache "])
    assert load_expected(db, hm) == ["Conflict", "kv cache"]
    assert prefill_round(db, hm, pack, "hiring-manager", clock.now()) == ["Conflict", "kv cache"]


def test_debrief_recall_hits_and_misses(db, clock):
    from companion.core.journal.entries import add_asked
    from companion.core.stories.debrief import all_debriefs, loop_debrief, recall
    from companion.core.stories.rounds import save_expected

    loop_id, first = _loop_round(db)
    from companion.core.day.loops import add_round

    second = add_round(db, loop_id, "coding")
    save_expected(db, first, ["conflict", "failure", "why us"])
    add_asked(db, loop_id, first, "A disagreement?", "Conflict")
    add_asked(db, loop_id, first, "Why leave?", "motivation")
    add_asked(db, loop_id, first, "Untagged question")
    debrief = loop_debrief(db, loop_id)
    r1, r2 = debrief.rounds
    assert r1.hits == ("Conflict",) and r1.misses == ("motivation",)
    assert set(r1.unasked) == {"failure", "why us"}
    assert r1.recall == 0.5
    assert r2.recall is None  # nothing asked
    assert debrief.recall == 0.5
    add_asked(db, loop_id, second, "LRU cache", "caching")
    save_expected(db, second, ["caching"])
    assert loop_debrief(db, loop_id).recall == pytest.approx(2 / 3)
    assert recall(0, 0) is None
    shape = all_debriefs(db)[0].as_json()
    assert set(shape) == {"id", "company", "recall", "rounds"}
    assert set(shape["rounds"][0]) == {
        "id",
        "type",
        "expected",
        "asked",
        "hits",
        "misses",
        "recall",
    }


def test_recall_is_zero_when_topics_were_asked_and_none_expected(db):
    """The documented rule: None only when nothing was asked; asked topics with nothing
    expected are a recall of 0.0, and count in the loop's recall."""
    from companion.core.day.loops import add_round
    from companion.core.journal.entries import add_asked
    from companion.core.stories.debrief import loop_debrief
    from companion.core.stories.rounds import save_expected

    loop_id, first = _loop_round(db)
    second = add_round(db, loop_id, "coding")
    add_asked(db, loop_id, first, "Design a cache", "caching")
    save_expected(db, second, ["graphs"])
    add_asked(db, loop_id, second, "Shortest path", "graphs")
    r1, r2 = loop_debrief(db, loop_id).rounds
    assert r1.recall == 0.0 and r1.recall is not None
    assert r2.recall == 1.0
    assert loop_debrief(db, loop_id).recall == 0.5


def test_asked_not_expected_joins_the_study_list_with_extra_weight(db, clock):
    from companion.core.journal.entries import add_asked, add_weak_topic
    from companion.core.stories.debrief import record_surprises
    from companion.core.stories.rounds import save_expected
    from companion.core.study.ranking import mark_studied, study_list

    loop_id, round_id = _loop_round(db)
    save_expected(db, round_id, ["conflict"])
    add_asked(db, loop_id, round_id, "Why leave?", "motivation", at=clock.now())
    add_weak_topic(db, "retries", loop_id=loop_id, round_id=round_id, at=clock.now())
    assert record_surprises(db, round_id, 3, clock.now()) == 1
    assert record_surprises(db, round_id, 3, clock.now()) == 1  # again: replaced, not doubled
    items = study_list(db, clock.now())
    assert [i.topic for i in items] == ["motivation", "retries"]  # severity 3 beats a weak 2
    assert items[0].sources == {"surprise"} and items[0].count == 1
    mark_studied(db, items[0], clock.now())
    assert [i.topic for i in study_list(db, clock.now())] == ["retries"]


def test_journal_export_carries_the_stories_losslessly_and_idempotently(db, clock, ctx, tmp_path):
    from companion.core.about import store as about_store
    from companion.core.context import AppContext
    from companion.core.journal.entries import add_asked
    from companion.core.journal.files import import_journal_data, journal_dict
    from companion.core.stories.debrief import record_surprises
    from companion.core.stories.rounds import load_expected, save_expected, toggle_used, use_titles

    loop_id, round_id = _loop_round(db)
    about_store.save_text(db, THREE, clock.now(), doc="stories")
    save_expected(db, round_id, ["conflict", "failure"])
    toggle_used(db, round_id, parse_stories(THREE).stories[0], clock.now())
    add_asked(db, loop_id, round_id, "Why leave?", "motivation")
    record_surprises(db, round_id, 3, clock.now())
    exported = journal_dict(db, clock.now())
    assert exported["stories"]["document"] == THREE
    assert exported["stories"]["rounds"][0]["expected"] == ["conflict", "failure"]

    (tmp_path / "other").mkdir()
    other_ctx = AppContext(tmp_path / "other")
    other = other_ctx.store
    import json

    data = json.loads(json.dumps(exported))
    first = import_journal_data(other.db, data)
    assert first.stories_added >= 3
    again = import_journal_data(other.db, json.loads(json.dumps(exported)))
    assert again.stories_added == 0
    new_round = other.db.execute("SELECT id FROM rounds").fetchone()[0]
    assert load_expected(other.db, new_round) == ["conflict", "failure"]
    assert use_titles(other.db, new_round) == ["Cut GPU cost"]
    assert about_store.load_document(other.db, doc="stories") == THREE
    back = journal_dict(other.db, clock.now())["stories"]
    assert back == exported["stories"]
    other_ctx.close()


def test_a_bad_stories_part_names_the_place_and_changes_nothing(db):
    from companion.core.journal.files import import_journal_data, journal_dict
    from companion.core.journal.validate import JournalImportError

    _loop_round(db)
    data = journal_dict(db, dt.datetime.now(dt.UTC))
    data["loops"] = []
    data["stories"] = {
        "document": None,
        "rounds": [
            {"loop": {"company": "X", "created_at": "2026-01-01T00:00:00+00:00"}, "round": 0}
        ],
    }
    before = db.execute("SELECT COUNT(*) FROM rounds").fetchone()
    with pytest.raises(JournalImportError, match=r"stories.rounds\[0\].round"):
        import_journal_data(db, data)
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone() == before


def test_prefill_missing_fills_rounds_to_come_once(db, clock, pack):
    from companion.core.day.loops import add_round, create_loop, update_round
    from companion.core.stories.rounds import load_expected, prefill_missing, save_expected

    loop_id = create_loop(db, "Acme")
    upcoming = add_round(db, loop_id, "leadership")
    done = add_round(db, loop_id, "peer")
    update_round(db, done, started_at=clock.now(), ended_at=clock.now())
    edited = add_round(db, loop_id, "peer")
    save_expected(db, edited, [])  # the user emptied them: stays empty
    assert prefill_missing(db, pack, clock.now()) == [upcoming]
    assert "leadership" in load_expected(db, upcoming)
    assert load_expected(db, done) is None and load_expected(db, edited) == []
    assert prefill_missing(db, pack, clock.now()) == []


def test_from_projects_keeps_every_number_of_projects_written_as_list_items():
    from companion.core.about.pitch import analyze
    from companion.core.stories.projects import stories_from_projects

    one_pager = (
        "# Ann\n\n## Three projects\n\n"
        "- Payments cache: cut checkout p99 from 800 ms to 120 ms.\n"
        "- Migration — moved 120 services in 3 months\n"
        "  I wrote the runbook; 40 engineers used it.\n"
        "- **Spend**: cut cloud spend by 30%\n"
    )
    text, added = stories_from_projects(one_pager, "")
    assert added == 3
    stories = parse_stories(text).stories
    for project, story in zip(analyze(one_pager).projects, stories, strict=True):
        assert project.numbers
        for number in project.numbers:
            assert number in story.parts["result"], (number, story.parts)


def test_story_renderer_keeps_each_labelled_part_its_own_paragraph():
    from companion.core.stories.render import StoryRenderer

    text = (
        "## Story: Cache\nTags: impact\nSituation: checkout was slow\nTask: fix it\n"
        "**Action:** cached the hot reads\nResult: p99 from 800 ms to 120 ms\n"
        "and a second line of the result\n\n```\nTask: inside a fence\nResult: stays\n```\n"
    )
    html = StoryRenderer().render(text)
    for part in ("Tags: impact", "Situation: checkout was slow", "Task: fix it"):
        assert f"<p>{part}</p>" in html, html
    assert "<p><strong>Action:</strong> cached the hot reads</p>" in html
    assert "<p>Result: p99 from 800 ms to 120 ms\nand a second line of the result</p>" in html
    assert "Task: inside a fence\nResult: stays" in html  # code is left as written


def test_tell_me_about_yourself_points_at_the_pitch_not_a_story():
    """The guide answers it with the 60-90 s pitch; it was listed as a two-minute story."""
    from companion.core.content.loader import load_content
    from companion.core.paths import shipped_content_dir

    content, errors = load_content([shipped_content_dir()])
    assert errors == []
    pack = story_pack(content)
    about = pack.question("about-yourself")
    assert about is not None and about.answer_with == "pitch"
    assert pack.text("pitch_answer") == "Your pitch answers this: 60-90 seconds, not a story."
    bank = "## Story: Who I am\nTags: identity, impact\nResult: 3 teams.\n"
    analysis = analyze_bank(bank, pack, 150)
    match = next(m for m in analysis.matches if m.question.id == "about-yourself")
    assert not match.gap  # with or without a story tagged identity
    assert about not in analysis_gaps(analyze_bank("", pack, 150))


def analysis_gaps(analysis):
    return analysis.gaps
