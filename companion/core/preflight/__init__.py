"""Preflight: the minutes before a round, checked in one pass. Each check says what it
saw and the one thing to do; ``ok`` is True, False, or None when it could not tell."""

from companion.core.preflight.checks import Check, exit_status, preflight_json

__all__ = ["Check", "exit_status", "preflight_json"]
