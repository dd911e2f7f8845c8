"""Checking text before it is stored: one rule for every feature.

Two rules live here. :func:`clean_text` is for what the user types. The field rule is
for text that comes from a file (a journal import): tab, newline and carriage return are
kept; the other C0 controls (NUL included) and DEL are stripped and counted; a lone
surrogate, which cannot be stored as UTF-8, is refused with its position. C1 controls,
BOMs inside a string and every other character are kept as they are.

The field rule has a second form over a JSON file's bytes, :func:`json_plain`: whether
no string of the file can hold a character the rule strips or refuses. Both forms are
here so that they change together (tests/core/test_text.py checks every code point).
"""

from __future__ import annotations

import re

MAX_TEXT = 200_000  # characters; a generous cap so a pasted novel cannot bloat the journal

# the field rule (see the module docstring)
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # stripped
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")  # refused
UNUSUAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")  # either of them
# the only ways such a character gets into strict JSON text: a \u, \b or \f escape, or a
# raw DEL (the strict parser refuses raw C0 controls; a raw surrogate is not UTF-8)
_JSON_ESCAPES = (b"\\u", b"\\b", b"\\f")
_JSON_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class FieldTextError(ValueError):
    """A field's text breaks the field rule; the message says how (not where)."""


def lone_surrogate(value: str) -> str | None:
    """What is wrong when ``value`` holds a lone surrogate (its code and position), else
    None: the part of the field rule every checker of a file's text applies."""
    lone = LONE_SURROGATE.search(value)
    if lone is None:
        return None
    return f"holds a lone surrogate (U+{ord(lone.group()):04X}) at position {lone.start()}"


def clean_field(value: str) -> tuple[str, int]:
    """``value`` under the field rule: (the text kept, how many characters were
    stripped); :class:`FieldTextError` for a lone surrogate."""
    if not UNUSUAL.search(value):  # the common case: one scan, nothing to strip
        return value, 0
    problem = lone_surrogate(value)
    if problem:
        raise FieldTextError(problem)
    return CONTROL_CHARS.subn("", value)


def json_plain(data: bytes) -> bool:
    """Whether no string of this strict JSON text can hold a character the field rule
    strips or refuses (True: no string needs :func:`clean_field`). A few byte
    searches: under 0.5 s for 65 MB."""
    if b"\x7f" in data:
        return False
    return b"\\" not in data or not any(e in data for e in _JSON_ESCAPES)


def json_may_hold_lone_surrogate(data: bytes) -> bool:
    """Whether some string (a key too) of this JSON text may hold a lone surrogate: only
    a ``\\uD800``-``\\uDFFF`` escape can put one there (a raw one is not UTF-8)."""
    return b"\\" in data and _JSON_SURROGATE_ESCAPE.search(data) is not None


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


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """``1 round``, ``4 rounds``: a count with its noun, singular or plural."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
