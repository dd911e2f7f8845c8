"""A write says what it changed, and each view redraws only what it shows of it: at most
once per affected view, never for one that shows nothing of it (benchmarks/bench_redraws.py
measures the same walk), the always-on-top card included."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_redraws.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("_bench_redraws_for_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), size hints
def test_each_view_redraws_at_most_once_and_only_for_what_it_shows(qapp, bench, tmp_path):
    table = bench.measure(tmp_path / "data")
    too_many = {
        (action, view): table[action][view]
        for action in bench.ACTIONS
        for view in bench.VIEWS
        if table[action][view] > (1 if view in bench.AFFECTED[action] else 0)
    }
    assert too_many == {}
    # and the views that show the change did redraw (a page that stopped listening fails)
    assert table["Start"]["journal"] == table["Start"]["today"] == 1
    assert table["capture save"]["study"] == 1
    assert table["quiz mark"]["quiz"] == 1
    assert table["End"]["card"] == 1  # it followed the day (and rebuilt nothing twice)


def test_the_planner_knows_its_own_echo_without_a_flag(qtbot, ctx, bus):
    from companion.core.changes import Change
    from companion.core.day.loops import create_loop
    from companion.ui.selfcheck.planner import PlannerPanel

    loop = create_loop(ctx.db, "Acme")
    panel = PlannerPanel(ctx, bus)
    qtbot.addWidget(panel)
    panel.ensure_loaded()
    assert not hasattr(panel, "_own_change")
    before = panel.redraws
    bus.announce(Change.of("plan", ids=[loop], origin=panel))  # its own: drawn already
    assert panel.redraws == before
    bus.announce(Change.of("round", ids=[loop]))  # nothing it shows
    assert panel.redraws == before
    bus.announce(Change.of("plan", ids=[loop]))  # a plan changed elsewhere (the capture)
    assert panel.redraws == before + 1
