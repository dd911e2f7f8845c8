"""Headless sub-commands. Each module defines ``register(sub)``; see companion/cli.py."""

from __future__ import annotations

COMMANDS = [
    "doctor",
    "content",
    "about",
    "cue",
    "today",
    "review",
    "stories",
    "debrief",
    "schedule",
    "dnd",
    "export",
    "journal",
    "mic",
    "hotkeys",
    "preflight",
]

INT64_MAX = 2**63 - 1  # the largest integer SQLite (and so the journal) holds


def whole_number(low: int = -INT64_MAX, high: int = INT64_MAX, what: str = "a whole number"):
    """An argparse ``type`` for an integer option, bounded to ``low``..``high`` (by default
    what SQLite holds): `--delete 9223372036854775808` is a usage error, not an
    OverflowError. cli.py gives every bare ``type=int`` this bound too."""

    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text.strip()) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {what}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not {what} ({low:,} to {high:,})")
        return value

    parse.__name__ = what  # argparse names the type in some of its messages
    return parse
