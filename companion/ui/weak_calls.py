"""Callbacks a child keeps without keeping its owner alive."""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable


def held_weakly(callback: Callable) -> Callable:
    """``callback``, but a bound method is held by a weak reference: called once its
    object is gone, it does nothing. A child that keeps its owner's bound method (a key
    filter's edit action, a box's status line) otherwise closes a reference cycle
    through the owner, and an unparented window in a cycle is deleted by Python's
    collector whenever it next runs, inside a paint event as likely as not."""
    if not isinstance(callback, types.MethodType):
        return callback
    ref = weakref.WeakMethod(callback)

    def call(*args, **kwargs):
        method = ref()
        return None if method is None else method(*args, **kwargs)

    return call


class WeakAttribute:
    """An attribute that refers to its value weakly: for a part that names the window it
    belongs to (the window keeps the part; the part must not keep the window). Reads
    None once the value is gone."""

    def __set_name__(self, owner, name: str) -> None:
        self._slot = f"_weak_{name}"

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        ref = obj.__dict__.get(self._slot)
        return None if ref is None else ref()

    def __set__(self, obj, value) -> None:
        obj.__dict__[self._slot] = None if value is None else weakref.ref(value)
