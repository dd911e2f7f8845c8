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
import sys
import unicodedata

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


def topic_key(topic: str) -> str:
    """The grouping key of a topic: case, accents, punctuation and spacing ignored."""
    text = unicodedata.normalize("NFKD", topic)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    return " ".join(re.findall(r"\w+", text))


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """``1 round``, ``4 rounds``: a count with its noun, singular or plural."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


# --- text for a terminal -------------------------------------------------------------
# What a command prints may hold a stranger's text (an invitation's title, an imported
# journal's story): an ESC or BEL there would drive the terminal (set its title, clear
# it, write the clipboard with OSC 52). Every control but tab and newline, the C1 range,
# the bidi overrides and lone surrogates are shown as ``\uXXXX``: visible to a reader and,
# inside a JSON string, the same character once parsed.
_TERMINAL_UNSAFE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    r"\u2066-\u2069\ud800-\udfff]"
)
# what a human reads on a terminal whose encoding lacks the character (ascii, latin-1)
_PLAIN_FORMS = {
    "\u2014": "-",
    "\u2013": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2026": "...",
    "\u2192": "->",
    "\u2190": "<-",
    "\u2022": "*",
    "\u00b7": "*",
    "\u00d7": "x",
    "\u2212": "-",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
}


def _escaped(char: str) -> str:
    """``char`` as JSON's ``\\uXXXX`` (a surrogate pair above the BMP)."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def for_terminal(text: str, encoding: str | None = "utf-8", *, data: bool = False) -> str:
    """``text`` safe to write to a terminal in ``encoding``: controls made visible (see
    above), and a character the encoding lacks given a plain form (``—`` as ``-``) or a
    ``?``; ``data`` (JSON) keeps the data instead: ``\\uXXXX``, which parses back."""
    text = _TERMINAL_UNSAFE.sub(lambda m: _escaped(m.group()), text)
    encoding = encoding or "utf-8"
    try:
        text.encode(encoding)
        return text
    except (UnicodeEncodeError, LookupError) as exc:
        if isinstance(exc, LookupError):
            encoding = "ascii"
    out = []
    for char in text:
        try:
            char.encode(encoding)
            out.append(char)
        except UnicodeEncodeError:
            if data:
                out.append(_escaped(char))
            else:
                out.append(_PLAIN_FORMS.get(char, "?"))
    return "".join(out)


def say(text: object = "", *, err: bool = False, data: bool = False, end: str = "\n") -> None:
    """Write ``text`` and ``end`` to standard output (``err``: standard error), made safe by
    :func:`for_terminal` for the stream's encoding (every line a command writes comes
    here: tests/commands/test_output.py checks); ``data`` for JSON (escapes that parse
    back). A closed stream (None) takes nothing."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    stream.write(for_terminal(f"{text}{end}", getattr(stream, "encoding", None), data=data))
    if err:
        stream.flush()
