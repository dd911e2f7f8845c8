"""The Study list page: ranked list, guide link, mark studied, history, export."""

from __future__ import annotations

import datetime as dt

import pytest

from companion.core.day.loops import add_round, create_loop
from companion.core.journal import entries as journal

pytestmark = pytest.mark.gui


@pytest.fixture
def flubs(ctx, clock):
    db = ctx.db
    loop = create_loop(db, "Acme")
    rid = add_round(db, loop, "design")
    journal.add_flub(db, loop, rid, "GPU utilization", "said bare utilization", 3, at=clock.now())
    journal.add_flub(db, loop, rid, "Heaps", "slow", 1, at=clock.now() - dt.timedelta(days=30))
    journal.add_weak_topic(db, "Zebra husbandry", loop_id=loop)
    return loop


def _page(qtbot, ctx, bus):
    from companion.ui.study.page import StudyPage

    page = StudyPage(ctx, bus)
    qtbot.addWidget(page)
    page.refresh()
    return page


def test_model_passes_the_model_tester(qtbot, qtmodeltester, ctx, bus, flubs):
    page = _page(qtbot, ctx, bus)
    qtmodeltester.check(page.model)


def test_ranked_list_with_guide_links(qtbot, ctx, bus, flubs):
    page = _page(qtbot, ctx, bus)
    model = page.model
    topics = [model.data(model.index(r, 1)) for r in range(model.rowCount())]
    assert topics[0] == "GPU utilization"
    assert set(topics) == {"GPU utilization", "Heaps", "Zebra husbandry"}
    assert model.data(model.index(0, 5)) == "Traps to avoid"
    assert page.selected().topic == "GPU utilization"
    html = page.detail.toPlainText()
    assert "Guide: Traps to avoid" in html and "said bare utilization" in html
    zebra = topics.index("Zebra husbandry")
    page.table.setCurrentIndex(model.index(zebra, 1))
    assert "No guide section matches" in page.detail.toPlainText()


def test_mark_studied_with_the_keyboard_then_history(qtbot, ctx, bus, flubs):
    page = _page(qtbot, ctx, bus)
    page.show()
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)
    page.table.setFocus()
    from PySide6.QtCore import Qt

    qtbot.keyClick(page.table, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    topics = [i.topic for i in page.model.items]
    assert "GPU utilization" not in topics and len(topics) == 2
    assert "marked studied" in page.message.text()
    page.history_box.setChecked(True)
    assert page.stack.currentWidget() is page.history
    assert "GPU utilization" in page.history.item(0).text()


def test_empty_state(qtbot, ctx, bus):
    page = _page(qtbot, ctx, bus)
    assert page.stack.currentWidget() is page.empty
    assert not page.studied_button.isEnabled()


def test_export_from_the_study_page(qtbot, ctx, bus, flubs, tmp_path):
    from file_dialogs import pick

    page = _page(qtbot, ctx, bus)
    page.export("anki")
    pick(page, tmp_path / "cards.txt")
    qtbot.waitUntil(lambda: not page.exporter.busy, timeout=10_000)
    text = (tmp_path / "cards.txt").read_text(encoding="utf-8")
    assert text.startswith("#separator:tab\n") and "GPU utilization" in text


def test_the_detail_pane_names_every_company_the_export_names(qtbot, ctx, bus, clock):
    from companion.core.study import exports
    from companion.core.study.ranking import study_details, study_list

    companies = [f"Company {n}" for n in range(1, 9)]
    for name in companies:
        loop = create_loop(ctx.db, name, starts_on=clock.now().date().isoformat())
        journal.add_flub(ctx.db, loop, None, "Caching", f"missed eviction at {name}", 2)
    page = _page(qtbot, ctx, bus)
    shown = page.detail.toPlainText()
    assert all(name in shown for name in companies), shown
    items = study_list(ctx.db, clock.now())
    rows = [
        exports.StudyRow(n, i, study_details(ctx.db, [i.key])[i.key])
        for n, i in enumerate(items, 1)
    ]
    markdown = exports.render_markdown(rows, clock.now())
    assert all(name in markdown for name in companies)


def test_a_self_check_set_in_the_guide_pane_shows_each_answer_only_when_asked(
    qtbot, ctx, bus, content
):
    """A flubbed "brute force" linked the pane to the day-of self-check and printed all
    six questions with their answers; the guide says to answer from memory first."""
    from PySide6.QtCore import Qt

    loop = create_loop(ctx.db, "Acme")
    journal.add_flub(ctx.db, loop, None, "brute force", "stopped at the naive loop", 3)
    page = _page(qtbot, ctx, bus)
    page.resize(900, 900)
    page.show()
    qtbot.waitExposed(page)
    section = content.section(page.selected().guide.section_id)
    answers = [it.get("answer") for it in section.items if it.get("answer")]
    assert len(answers) == 6
    shown = page.detail.toPlainText()
    assert not any(answer in shown for answer in answers)
    questions = page.questions
    assert questions.isVisible() and len(questions.toggles) == 6
    assert [q.text().split(". ", 1)[1] for q in questions.questions] == [
        it.text for it in section.items
    ]
    assert [t.answer.isVisible() for t in questions.toggles] == [False] * 6
    third = questions.toggles[2]
    assert third.accessibleName() == "Show the answer to question 3"
    assert third.focusPolicy() & Qt.FocusPolicy.TabFocus
    third.setFocus()
    qtbot.keyClick(third, Qt.Key.Key_Space)
    assert third.answer.isVisible() and third.answer.text() == answers[2]
    assert [t.answer.isVisible() for t in questions.toggles] == [0, 0, 1, 0, 0, 0]
    assert third.accessibleName() == "Hide the answer to question 3"
    qtbot.keyClick(third, Qt.Key.Key_Space)
    assert not third.answer.isVisible()


def test_a_missed_question_on_the_list_keeps_its_answer_hidden(qtbot, ctx, bus, content, clock):
    from companion.core.selfcheck import quiz

    question = next(q for q in content.quiz() if q.id == "day-of-utilization")
    quiz.record_mark(ctx.db, question, "missed", clock.now())
    page = _page(qtbot, ctx, bus)
    page.show()
    qtbot.waitExposed(page)
    assert page.selected().key == "quiz:day-of-utilization"
    assert question.answer not in page.detail.toPlainText()
    (toggle,) = page.questions.toggles
    assert page.questions.questions[0].text().endswith(question.question)
    assert not toggle.answer.isVisible()
    toggle.click()
    assert toggle.answer.isVisible() and toggle.answer.text() == question.answer


def test_a_topic_outside_the_self_check_shows_no_question_pane(qtbot, ctx, bus, flubs):
    page = _page(qtbot, ctx, bus)
    page.show()
    qtbot.waitExposed(page)
    assert page.selected().topic == "GPU utilization"
    assert not page.questions.isVisible() and page.questions.toggles == []
