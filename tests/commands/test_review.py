"""`companion review`: the review list as JSON in the documented shape, sorted by predicted
recall at the next round; bad options are one line."""

from __future__ import annotations

import contextlib
import datetime as dt
import json

import pytest

from companion.cli import main
from companion.core.content.loader import QuizQuestion
from companion.core.context import AppContext
from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries
from companion.core.selfcheck import quiz

TZ = dt.timezone(dt.timedelta(hours=1))


@pytest.fixture
def filled(data_dir):
    ctx = AppContext(data_dir)
    db = ctx.db
    start = dt.datetime(2026, 11, 20, 9, 0, tzinfo=TZ)
    question = QuizQuestion("q1", "What is a quorum?", "A majority.", (), "basics")
    for days in (0, 8, 20):
        quiz.record_mark(db, question, "got", start + dt.timedelta(days=days))
    quiz.set_flag(db, QuizQuestion("q2", "Why Raft?", "", (), "basics"), True, start)
    entries.add_flub(db, None, None, "Consistent hashing", at=start + dt.timedelta(days=20))
    loop = create_loop(db, "Acme", "SRE", starts_on="2026-12-15")
    add_round(db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 15, 10, 0, tzinfo=TZ))
    ctx.close()
    return data_dir


def test_json_is_the_documented_shape_sorted_by_recall(filled, capsys):
    argv = ["--data-dir", str(filled), "review", "--at", "2026-12-14T20:00+01:00", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"next_round_at", "items"}
    first = dt.datetime.fromisoformat(doc["next_round_at"])
    assert first == dt.datetime(2026, 12, 15, 10, 0, tzinfo=TZ)
    assert first.utcoffset() == first.astimezone().utcoffset()  # this machine's clock
    seen = [i for i in doc["items"] if not i["new"]]
    assert [(i["kind"], i["id"]) for i in seen] == [
        ("quiz", "q2"),  # flagged, never reviewed: no recall yet
        ("topic", "consistent hashing"),
        ("quiz", "q1"),
    ]
    for item in doc["items"]:
        assert set(item) == {"kind", "id", "title", "recall_at_round", "due", "new"}
        assert dt.datetime.fromisoformat(item["due"]).tzinfo is not None
    recalls = [i["recall_at_round"] for i in doc["items"]]
    assert recalls == sorted(recalls) and 0 <= recalls[0] < recalls[-1] <= 1
    assert main([*argv, "--limit", "1"]) == 0
    assert len(json.loads(capsys.readouterr().out)["items"]) == 1


def test_a_new_users_night_before_lists_the_packs_questions(data_dir, capsys):
    """`companion review` said "nothing to review" the night before a new user's loop."""
    ctx = AppContext(data_dir)
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on="2026-12-15")
    add_round(ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 15, 10, 0, tzinfo=TZ))
    pack = [q.question for q in ctx.content.quiz()]
    ctx.close()
    argv = ["--data-dir", str(data_dir), "review", "--at", "2026-12-14T20:00+01:00"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "nothing to review" not in lines[0]
    assert lines[0].endswith(f"{len(pack)} items, {len(pack)} due now")
    assert all(line.endswith(f"{text} (new)") for line, text in zip(lines[1:], pack, strict=True))
    assert main([*argv, "--json"]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    assert [i["title"] for i in items] == pack and all(i["new"] for i in items)


def test_text_and_no_loop(filled, capsys):
    assert main(["--data-dir", str(filled), "review", "--at", "2027-03-01T20:00+01:00"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review now (no loop starts ahead)")
    argv = ["--data-dir", str(filled), "review", "--at", "2027-03-01T20:00", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["next_round_at"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--at", "nonsense"], "--at 'nonsense' is not an ISO-8601 time"),
        (["--limit", "0"], "0 is not a count of items (1 to "),
    ],
)
def test_bad_options_are_one_line(data_dir, capsys, argv, message):
    # argparse refuses --limit itself (exit 2); --at is refused by the command
    with pytest.raises(SystemExit) if argv[0] == "--limit" else contextlib.nullcontext():
        code = main(["--data-dir", str(data_dir), "review", *argv])
        assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_ahead_json_fits_the_time_box_lowest_recall_first(filled, capsys):
    argv = ["--data-dir", str(filled), "review", "--at", "2026-12-14T20:00+01:00", "--json"]
    assert main([*argv, "--ahead", "10"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"minutes", "estimated_minutes", "items"} <= set(doc)
    assert doc["minutes"] == 10 and 0 < doc["estimated_minutes"] <= 10
    recalls = [i["recall_at_round"] for i in doc["items"]]
    assert recalls == sorted(recalls) and len(recalls) == 3
    for item in doc["items"]:
        assert dt.datetime.fromisoformat(item["due_if_reviewed"]) <= dt.datetime(
            2026, 12, 15, 10, 0, tzinfo=TZ
        )
    assert main([*argv, "--ahead", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["estimated_minutes"] <= 1
    assert (
        main(
            ["--data-dir", str(filled), "review", "--ahead", "1", "--at", "2026-12-14T20:00+01:00"]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("Review for 1 minutes")


def test_ahead_bad_minutes_is_one_line(filled, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--data-dir", str(filled), "review", "--ahead", "soon"])
    assert exit_.value.code == 2
    assert "'soon' is not a number of minutes" in capsys.readouterr().err


def test_a_loop_under_way_is_not_called_unscheduled(data_dir, capsys):
    """With the loop's first round begun, the review said "no loop scheduled"."""
    from companion.core.day.loops import add_round, create_loop

    ctx = AppContext(data_dir)
    loop = create_loop(ctx.db, "Acme", starts_on="2027-03-01")
    at = dt.datetime(2027, 3, 1, 9, 0, tzinfo=TZ)
    add_round(ctx.db, loop, "coding", scheduled_at=at)
    add_round(ctx.db, loop, "design", scheduled_at=at + dt.timedelta(hours=2))
    ctx.close()
    argv = ["--data-dir", str(data_dir), "review", "--at", (at + dt.timedelta(hours=1)).isoformat()]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "no loop scheduled" not in out and out.startswith("Review now (no loop starts ahead)")
