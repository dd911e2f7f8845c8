"""The Journal page's parts on their own, without the page: each is built with what it
needs handed in and answers through its public methods and signals."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from companion.core.day.loops import add_round, create_loop, list_loops
from companion.core.journal import entries as journal
from companion.core.journal.detail import loop_detail
from companion.core.journal.search import search

pytestmark = pytest.mark.gui


@pytest.fixture
def two_loops(ctx):
    db = ctx.db
    acme = create_loop(db, "Acme", "SRE", starts_on="2026-12-01")
    rid = add_round(db, acme, "design")
    ids = [
        journal.add_asked(db, acme, rid, "Shard a KV cache", "consistent hashing"),
        journal.add_flub(db, acme, rid, "Burst load", "no 429s", 2),
        journal.add_went_well(db, acme, rid, "Rapport"),
    ]
    globex = create_loop(db, "Globex", starts_on="2026-11-20")
    # Globex's one round holds one entry
    ids.append(journal.add_asked(db, globex, add_round(db, globex, "coding"), "Implement an LRU"))
    return acme, globex, rid, ids


def _loop_list(qtbot, ctx):
    from companion.ui.journal.loop_list import LoopList

    part = LoopList()
    qtbot.addWidget(part)
    part.set_loops(list_loops(ctx.db))
    part.show()
    return part


def test_the_loop_list_signals_a_loop_the_user_moves_to_not_one_it_is_told(qtbot, ctx, two_loops):
    acme, globex, _rid, _ids = two_loops
    part = _loop_list(qtbot, ctx)
    chosen = []
    part.loop_chosen.connect(chosen.append)
    assert part.select_row(part.row_of(acme)) == acme
    assert chosen == [] and part.current_loop_id() == acme
    part.view.setFocus()
    other = part.row_of(globex)
    qtbot.keyClick(part.view, Qt.Key.Key_Down if other > part.row_of(acme) else Qt.Key.Key_Up)
    assert chosen == [globex] and part.current_loop_id() == globex


def test_the_loop_list_shows_hits_and_a_hit_chooses_its_loop(qtbot, ctx, two_loops):
    acme, globex, _rid, _ids = two_loops
    part = _loop_list(qtbot, ctx)
    part.select_row(part.row_of(acme))
    chosen = []
    part.loop_chosen.connect(chosen.append)
    part.show_hits(search(ctx.db, "LRU"))
    assert part.currentWidget() is part.results_view
    part.results_view.activated.emit(part.results_model.index(0, 0))
    assert chosen[-1] == globex and part.current_loop_id() == globex
    part.show_hits([])
    assert part.currentWidget() is part.results_empty
    part.show_loops()
    assert part.currentWidget() is part.view


def test_the_loop_list_says_no_loops_until_there_are_some(qtbot, ctx):
    part = _loop_list(qtbot, ctx)
    part.show_no_loops()
    assert part.currentWidget() is part.empty
    part.leave_no_loops()
    assert part.currentWidget() is part.view
    part.show_hits([])
    part.leave_no_loops()  # only the "no loops" line gives way
    assert part.currentWidget() is part.results_empty


def _kind_and_id(row) -> tuple[str, int] | None:
    """A row as (its class's name, its id): the ids of a fresh journal's tables coincide."""
    return (type(row).__name__, row.id) if row is not None else None


def _rounds(qtbot, ctx, loop_id):
    from companion.ui.journal.rounds_pane import RoundsPane

    part = RoundsPane()
    qtbot.addWidget(part)
    part.show_detail(loop_detail(ctx.db, loop_id), {})
    return part


def test_the_rounds_pane_selects_the_asked_row_else_the_first(qtbot, ctx, two_loops):
    acme, _globex, rid, ids = two_loops
    part = _rounds(qtbot, ctx, acme)
    part.select(None, ("flub", ids[1]))
    assert _kind_and_id(part.selected_object()) == ("Flub", ids[1])
    assert _kind_and_id(part.selected_round()) == ("Round", rid)  # the round above it
    part.select(("flub", 999), ("round", 0))  # neither is shown: the first row
    assert _kind_and_id(part.selected_object()) == ("Round", rid)
    assert _kind_and_id(part.first_round()) == ("Round", rid) and part.has_rows()


def test_the_rounds_pane_names_the_entry_to_select_after_a_delete(qtbot, ctx, two_loops):
    acme, globex, _rid, ids = two_loops
    part = _rounds(qtbot, ctx, acme)
    asked, flub, went_well, lone = ids
    part.select(("flub", flub))
    assert _kind_and_id(part.neighbour_entry()) == ("WentWell", went_well)  # below
    part.select(("went_well", went_well))
    assert _kind_and_id(part.neighbour_entry()) == ("Flub", flub)  # none below: above
    part.select(("asked", asked))  # above it is its round, not an entry
    assert _kind_and_id(part.neighbour_entry()) == ("Flub", flub)
    other = _rounds(qtbot, ctx, globex)
    other.select(("asked", lone))
    assert _kind_and_id(other.selected_object()) == ("Asked", lone)
    assert other.neighbour_entry() is None  # its round above is not an entry


def test_the_rounds_pane_of_a_loop_with_nothing_written_says_so(qtbot, ctx):
    part = _rounds(qtbot, ctx, create_loop(ctx.db, "Initech"))
    assert part.currentWidget() is part.empty and not part.has_rows()
    assert part.selected_object() is None and part.first_round() is None
