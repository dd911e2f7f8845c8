"""The Qt binding must not leak references to Python's singletons.

PySide6 6.12.0 on CPython 3.11 returned None/True/False without a new reference; a few
thousand Qt calls later the interpreter aborted (none_dealloc). pyproject.toml pins a
working release; the Qt test below fails if a broken one comes back. It asks the same
probe as benchmarks/bench_editor.py (companion.ui.qt_binding_probe), and the tests
around it check that the probe fires on a real leak and not on unrelated frees.
"""

from __future__ import annotations

import ctypes
import gc
import sys

import pytest

from companion.ui.qt_binding_probe import (
    CALLS,
    LEAK_SHARE,
    ProbeResult,
    looks_like_a_leak,
    refcount_drop,
)


@pytest.mark.gui
@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None/True/False are immortal on 3.12+")
def test_void_calls_and_emits_keep_singleton_refcounts():
    from companion.ui.qt_binding_probe import probe

    results = probe()
    assert [r.name for r in results] == ["None", "True", "False"]
    assert all(r.calls == CALLS for r in results)
    assert not [r for r in results if r.leaks], [str(r) for r in results]


# --- the decision ------------------------------------------------------------------------


def test_a_drop_of_one_reference_per_call_is_a_leak():
    assert looks_like_a_leak(50_000, 40_000, 10_000)
    assert looks_like_a_leak(50_000, 41_000, 10_000)  # exactly 90%


def test_a_small_or_partial_drop_is_not():
    assert not looks_like_a_leak(50_000, 49_990, 10_000)  # garbage collected meanwhile
    assert not looks_like_a_leak(50_000, 41_001, 10_000)  # just under 90%
    assert not looks_like_a_leak(50_000, 50_000, 10_000)
    assert not looks_like_a_leak(50_000, 50_100, 10_000)  # a rise is never a leak
    assert not looks_like_a_leak(50_000, 49_000, 0)


def test_the_old_ten_call_probe_would_have_fired_on_noise():
    """What went wrong inside run_all: 10 calls and "any drop" turned a few freed
    references into a failure. The same numbers no longer do."""
    assert not looks_like_a_leak(5_355, 5_350, 10)
    assert not ProbeResult("None", 5_355, 5_350, CALLS).leaks
    assert ProbeResult("None", 15_355, 5_355, CALLS).leaks
    assert LEAK_SHARE >= 0.5 and CALLS >= 1_000


# --- the measurement ---------------------------------------------------------------------


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal on 3.12+")
def test_garbage_waiting_for_the_collector_does_not_look_like_a_leak():
    """Cycles holding None, left for the collector (as an earlier benchmark leaves them),
    are collected before the count is taken, and nothing is collected during it."""

    class Node:
        def __init__(self):
            self.me = self
            self.values = [None] * 50

    thresholds = gc.get_threshold()
    gc.disable()
    try:
        for _ in range(2_000):
            Node()  # 100,000 references to None waiting in unreachable cycles
        # the next collection comes a few hundred allocations later: mid-measurement
        gc.set_threshold(gc.get_count()[0] + 500, *thresholds[1:])
        gc.enable()
        # each call keeps a new container, which counts towards that collection
        kept: list[list] = []
        before, after = refcount_drop(lambda: kept.append([]), None, 1_000)
    finally:
        gc.set_threshold(*thresholds)
        gc.enable()
    assert before - after < 10
    assert not looks_like_a_leak(before, after, 1_000)
    assert gc.isenabled()


def test_a_callable_that_really_drops_a_reference_per_call_is_caught():
    """A stand-in for a leaking binding: each call takes one reference from an object
    (given plenty of spare references first, and given them back afterwards)."""
    sentinel = object()
    spare = [sentinel] * 5_000
    decref = ctypes.pythonapi.Py_DecRef
    decref.argtypes = [ctypes.py_object]
    incref = ctypes.pythonapi.Py_IncRef
    incref.argtypes = [ctypes.py_object]
    try:
        before, after = refcount_drop(lambda: decref(sentinel), sentinel, 2_000)
    finally:
        for _ in range(2_000):
            incref(sentinel)
    assert before - after == 2_000
    assert looks_like_a_leak(before, after, 2_000)
    assert len(spare) == 5_000


def test_the_collector_is_restored_even_when_a_call_fails():
    def boom():
        raise RuntimeError("no")

    outside = gc.isenabled()  # as the test found it
    gc.enable()
    try:
        with pytest.raises(RuntimeError):
            refcount_drop(boom, None, 3)
        assert gc.isenabled()
        gc.disable()
        refcount_drop(lambda: None, None, 3)
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable() if outside else gc.disable()
