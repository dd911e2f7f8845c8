"""Does this PySide6 build leak references to None/True/False?

PySide6 6.12.0 on CPython 3.11 returned None/True/False from C++ calls without a new
reference: every void call cost None one reference, and a few thousand calls later the
interpreter aborted in ``none_dealloc``. pyproject.toml pins a working release; the
editor benchmark and ``tests/ui/test_qt_binding.py`` both ask this module whether a
broken one came back, so the two can never disagree.

The probe must not fire by accident. ``sys.getrefcount(None)`` also falls whenever
anything holding None is freed (garbage from an earlier benchmark being collected, a
cache emptied), so it:

- collects garbage first and keeps the collector off while it measures,
- makes many calls (:data:`CALLS`), so a real leak loses thousands of references,
- fires only when the count falls by at least :data:`LEAK_SHARE` of the calls: a build
  that leaks loses one reference per call, unrelated activity loses a handful.

:func:`refcount_drop` is generic (any callable, any object) so the decision and the
measurement are testable without a leaking build.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from dataclasses import dataclass

CALLS = 10_000
LEAK_SHARE = 0.9  # a leak loses one reference per call; require 90% of them


def looks_like_a_leak(before: int, after: int, calls: int, *, share: float = LEAK_SHARE) -> bool:
    """True when a reference count fell from ``before`` to ``after`` by at least
    ``share`` of ``calls``: one lost reference per call, give or take a few."""
    if calls <= 0:
        return False
    return before - after >= share * calls


def refcount_drop(call: Callable[[], object], obj: object, calls: int = CALLS) -> tuple[int, int]:
    """``obj``'s reference count before and after ``calls`` calls of ``call``, measured
    with garbage collected beforehand and the collector disabled throughout."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        before = sys.getrefcount(obj)
        for _ in range(calls):
            call()
        after = sys.getrefcount(obj)
    finally:
        if was_enabled:
            gc.enable()
    return before, after


@dataclass(frozen=True)
class ProbeResult:
    name: str  # "None", "True" or "False"
    before: int
    after: int
    calls: int

    @property
    def leaks(self) -> bool:
        return looks_like_a_leak(self.before, self.after, self.calls)

    def __str__(self) -> str:
        return (
            f"{self.name}: refcount {self.before} -> {self.after} after {self.calls} calls"
            f" ({'LEAKS' if self.leaks else 'ok'})"
        )


def probe(calls: int = CALLS) -> list[ProbeResult]:
    """Measure None, True and False around ``calls`` Qt calls that return each of them
    (and a signal emit for None). Needs PySide6, not a QApplication.

    On CPython 3.12+ the singletons are immortal, so there is nothing to measure and the
    list is empty.
    """
    if sys.version_info >= (3, 12):
        return []
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        fired = Signal()

    obj = Emitter()
    obj.fired.connect(_nothing)

    def void_calls() -> None:
        obj.setObjectName("probe")  # returns None
        obj.fired.emit()

    results = [
        ProbeResult("None", *refcount_drop(void_calls, None, calls), calls),
        ProbeResult("True", *refcount_drop(lambda: obj.inherits("QObject"), True, calls), calls),
        ProbeResult("False", *refcount_drop(obj.signalsBlocked, False, calls), calls),
    ]
    obj.fired.disconnect(_nothing)
    return results


def leaking_singletons(calls: int = CALLS) -> list[ProbeResult]:
    """The singletons this PySide6 build leaks (empty when it is sound)."""
    return [r for r in probe(calls) if r.leaks]


def _nothing() -> None:
    pass
