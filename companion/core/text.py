"""Checking text the user typed before it is stored: one rule for every feature."""

from __future__ import annotations

MAX_TEXT = 200_000  # characters; a generous cap so a pasted novel cannot bloat the journal


def clean_text(text: str, what: str, *, required: bool = False) -> str:
    """``text`` without NULs and outer spaces; ValueError names ``what`` when it is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be text.")
    text = text.replace("\x00", "").strip()
    if required and not text:
        raise ValueError(f"{what} is empty; write a few words.")
    if len(text) > MAX_TEXT:
        raise ValueError(f"{what} is {len(text):,} characters; the limit is {MAX_TEXT:,}.")
    return text
