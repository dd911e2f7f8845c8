"""The Qt binding must not leak references to Python's singletons.

PySide6 6.12.0 on CPython 3.11 returned None/True/False without a new reference; a few
thousand Qt calls later the interpreter aborted (none_dealloc). pyproject.toml pins a
working release; this test fails if a broken one comes back.
"""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QObject, Signal

pytestmark = pytest.mark.gui


class _Emitter(QObject):
    fired = Signal()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None/True/False are immortal on 3.12+")
def test_void_calls_and_emits_keep_singleton_refcounts(qapp):
    obj = _Emitter()
    obj.fired.connect(lambda: None)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(500):
        obj.setObjectName("x")
        obj.fired.emit()
    # a little slack for unrelated interpreter activity, far below the 500 a leak loses
    assert sys.getrefcount(None) >= none_before - 20
    assert sys.getrefcount(True) >= true_before - 20
