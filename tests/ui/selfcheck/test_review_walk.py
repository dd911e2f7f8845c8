"""The night before, walked: a question flagged in Self-check and a flub written in the
journal both show in the review before the loop (Study list and Self-check), the
checklist's "re-skim the answer keys" opens that list, and ratings move it."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt

from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries

pytestmark = pytest.mark.gui

TZ = dt.timezone(dt.timedelta(hours=1))


@pytest.fixture
def evening(ctx, clock):
    """A loop whose first round is tomorrow 10:00; now is 19:00 the evening before."""
    clock.set(dt.datetime(2026, 12, 1, 19, 0, tzinfo=TZ))
    loop = create_loop(ctx.db, "Acme", "SRE", starts_on="2026-12-02")
    first = add_round(
        ctx.db, loop, "coding", scheduled_at=dt.datetime(2026, 12, 2, 10, 0, tzinfo=TZ)
    )
    add_round(ctx.db, loop, "design", scheduled_at=dt.datetime(2026, 12, 2, 13, 0, tzinfo=TZ))
    return loop, first


def _flag_first_question(qtbot, win, open_page):
    page = open_page(win, "selfcheck")
    panel = page.quiz
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    question = panel.session.current.question
    qtbot.keyClick(panel.card, Qt.Key.Key_F)
    assert panel.card.flag_button.isChecked()
    return page, question


def test_the_night_before_shows_a_flagged_question_and_a_flub(
    qtbot, main_window, open_page, ctx, bus, evening
):
    loop, first = evening
    pack = len(ctx.content.quiz())  # the pack's questions, new ones on the list before a loop
    win = main_window()
    page, question = _flag_first_question(qtbot, win, open_page)
    panel = page.quiz
    assert "to review before the loop" in panel.review_label.text()
    assert "first round Wed 02 Dec 10:00" in panel.review_label.text()
    assert panel.review_button.text() == f"&Review before the loop ({pack})"

    entries.add_flub(
        ctx.db, loop, first, "Consistent hashing", "forgot virtual nodes", 3, at=ctx.now()
    )
    from companion.core.changes import Change

    bus.announce(Change.of("capture", ids=[first]))  # what the capture announces

    # the checklist's night-before item "Re-skim the chapter-15 answer keys" opens the list
    checklist = open_page(win, "checklist")
    group = checklist.groups["night-before"]
    item = next(i for i in group.phase_list.items if i.link == "review-list")
    assert "answer keys" in item.text
    group.link_buttons[item.key].click()
    qtbot.waitUntil(lambda: win.current_key() == "study")
    study = win.page("study")
    qtbot.waitUntil(lambda: study.stack.currentWidget() is study.review)
    rows = [study.review_view.item(n).text() for n in range(study.review_view.count())]
    assert len(rows) == pack + 1, rows
    assert any(question.question[:100] in r and "question · flagged" in r for r in rows), rows
    assert any("Consistent hashing" in r and "topic · due" in r for r in rows), rows
    assert sum("question · new" in r for r in rows) == pack - 1, rows
    assert study.review_box.isChecked() and study.review_box.text().endswith(f"({pack + 1})")
    # the flagged question and the new ones are due now; the flub, an Again a moment ago,
    # in a minute
    assert f"{pack} due now · {pack + 1} items to review before" in study.review_line.text()
    _screenshot(win, "review-night-before.png")

    # rate the flub Good: it is studied for tonight, and leaves the list
    topic_row = next(n for n, r in enumerate(rows) if "Consistent hashing" in r)
    study.review_view.setCurrentRow(topic_row)
    assert study.rate_buttons["good"].isEnabled()
    with qtbot.waitSignal(bus.changed) as sent:
        study.rate_buttons["good"].click()
    assert sent.args[0].kinds == {"review"}
    rows = [study.review_view.item(n).text() for n in range(study.review_view.count())]
    assert any("Consistent hashing" in r for r in rows)  # learning step: 10 minutes
    # a quiz row cannot be rated here
    study.review_view.setCurrentRow(
        next(n for n, r in enumerate(rows) if question.question[:100] in r)
    )
    assert not study.rate_buttons["good"].isEnabled()

    # Self-check runs a pass over exactly the review list's questions
    page = open_page(win, "selfcheck")
    page.quiz.review_button.click()
    others = [q.id for q in ctx.content.quiz() if q.id != question.id]
    assert [i.question.id for i in page.quiz.session.items] == [question.id, *others]
    _screenshot(win, "review-selfcheck.png")
    assert page.quiz.card.reason_label.text().startswith(
        "Review before the loop · recall at the round 0%"
    )
    qtbot.keyClick(page.quiz.card, Qt.Key.Key_Space)
    with qtbot.waitSignal(bus.changed):
        qtbot.keyClick(page.quiz.card, Qt.Key.Key_4)  # Easy
    assert page.quiz.card.reason_label.text().startswith(
        "Review before the loop · new question, not answered yet"
    )
    # answered, no longer new; flagged, it stays on the list until the flag is cleared
    assert page.quiz.review_button.text() == f"&Review before the loop ({pack})"


def test_a_new_users_night_before_review_is_the_packs_questions(
    qtbot, main_window, open_page, ctx, evening
):
    """A new user's "Review before the loop" landed on "0 questions to review"."""
    questions = ctx.content.quiz()
    win = main_window()
    checklist = open_page(win, "checklist")
    group = checklist.groups["night-before"]
    item = next(i for i in group.phase_list.items if i.link == "review-list")
    group.link_buttons[item.key].click()
    qtbot.waitUntil(lambda: win.current_key() in ("selfcheck", "study"))
    panel = open_page(win, "selfcheck").quiz
    n = len(questions)
    assert panel.review_label.text().startswith(f"{n} due now · {n} questions to review")
    assert panel.review_button.isEnabled()
    assert panel.review_button.text() == f"&Review before the loop ({n})"
    panel.review_button.click()
    assert [i.question.id for i in panel.session.items] == [q.id for q in questions]
    assert not panel.card.answer_label.isVisible()  # one at a time, the answer on request
    assert "new question" in panel.card.reason_label.text()


def _screenshot(win, name: str) -> None:
    """Saved for a person to look at when COMPANION_SHOTS names a folder."""
    import os
    from pathlib import Path

    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        win.grab().save(str(Path(folder) / name))


def test_review_for_n_minutes_shows_the_evening_before_only(
    qtbot, main_window, open_page, ctx, clock, evening
):
    from companion.core.content.loader import QuizQuestion
    from companion.core.review.ahead import review_ahead
    from companion.core.selfcheck import quiz

    loop, first = evening
    earlier = dt.datetime(2026, 11, 20, 9, 0, tzinfo=TZ)
    for n in range(15):
        question = QuizQuestion(f"ahead{n}", f"Ahead question {n}?", "A.", (), "basics")
        quiz.record_mark(ctx.db, question, "got", earlier + dt.timedelta(days=n % 5, hours=n))
    entries.add_flub(ctx.db, loop, first, "Consistent hashing", "virtual nodes", 3, at=earlier)
    win = main_window()
    panel = open_page(win, "selfcheck").quiz
    panel.refresh_review()
    button = panel.review_line.ahead_button
    assert not button.isHidden() and button.text() == "Review for 10 &minutes"
    expected = review_ahead(ctx.db, ctx.now(), 10)
    button.click()
    assert list(panel._review) == [i.id for i in expected.items if i.kind == "quiz"]
    assert 0 < len(panel._review) <= 10
    study = open_page(win, "study")
    study.refresh()
    assert not study.ahead_button.isHidden()
    study.ahead_button.click()
    qtbot.waitUntil(lambda: study.stack.currentWidget() is study.review)
    rows = [study.review_view.item(n).text() for n in range(study.review_view.count())]
    assert len(rows) == len(expected.items) < 16
    _screenshot(win, "review-ahead.png")
    # two days before, there is no button
    clock.set(dt.datetime(2026, 11, 29, 19, 0, tzinfo=TZ))
    panel.refresh_review()
    study.refresh()
    assert panel.review_line.ahead_button.isHidden() and study.ahead_button.isHidden()
