"""Ctrl+C held back while Qt loads (stdlib only: used before PySide6 is imported)."""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def deferred_sigint():
    """Hold a Ctrl+C back until the block is done, then raise KeyboardInterrupt. PySide6's
    import does not survive one: shiboken aborted (exit 134) or turned it into 'ImportError:
    libshiboken: could not import module PySide6.QtGui'."""
    import signal

    pending: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: pending.append(1))
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    if previous is signal.SIG_IGN:  # started with Ctrl+C ignored: keep it so
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        raise KeyboardInterrupt
