"""The strict JSON reader of journal files, one loop at a time.

``json.loads`` of a 200 MB export builds every loop's dicts at once (gigabytes of
objects). This reader walks the top-level object itself and hands each element of
``"loops"`` to a callback as soon as it is parsed, so only one loop's objects live at a
time. The rules are those of :func:`load_json`: duplicate keys, huge numbers, NaN and
Infinity are refused, and errors name the line and column.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.decoder import WHITESPACE, scanstring


class JournalImportError(ValueError):
    """The file is not a journal this version can read; the message says where, as a
    sentence (callers append "Nothing was imported.")."""

    def __str__(self) -> str:
        text = super().__str__()
        return text if text.endswith((".", "?", "!")) else f"{text}."


MAX_INT_DIGITS = 18


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JournalImportError(f"a number with {len(text)} digits is not a journal value")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):  # 1e400: strict JSON has no infinity
        raise JournalImportError(f"the number {text[:40]} is too large to be a journal value")
    return value


def _parse_constant(name: str):
    raise JournalImportError(f"{name} is not a journal value")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise JournalImportError(f"the key {key[:40]!r} appears twice in one object")
            seen.add(key)
    return out


_DECODER = json.JSONDecoder(
    object_pairs_hook=_no_duplicates,
    parse_int=_parse_int,
    parse_float=_parse_float,
    parse_constant=_parse_constant,
)


def _errors(fn):
    """Turn the JSON module's errors into one-line :class:`JournalImportError`."""
    try:
        return fn()
    except JournalImportError:
        raise
    except json.JSONDecodeError as exc:
        raise JournalImportError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    except RecursionError:
        raise JournalImportError("it nests too deeply; not a journal export") from None
    except ValueError as exc:
        raise JournalImportError(str(exc).split("\n")[0]) from None


def load_json(text: str) -> object:
    """Parse a whole journal file strictly: duplicate keys, huge numbers, NaN/Infinity and
    nesting deeper than Python's recursion limit are refused with
    :class:`JournalImportError`."""
    return _errors(lambda: _DECODER.decode(text))


def _value(text: str, pos: int) -> tuple[object, int]:
    try:
        return _DECODER.scan_once(text, pos)
    except StopIteration as stop:
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None


def _skip(text: str, pos: int) -> int:
    return WHITESPACE.match(text, pos).end()


STREAMED = object()  # the value of "loops" in the returned head: handed to on_loop


def _expect(text: str, pos: int, char: str, what: str) -> int:
    if text[pos : pos + 1] != char:
        raise json.JSONDecodeError(what, text, pos)
    return _skip(text, pos + 1)


def scan_document(
    text: str, on_head: Callable[[dict], None], on_loop: Callable[[int, object], None]
) -> dict | None:
    """Read a journal document, streaming its ``"loops"``.

    ``on_head(head)`` is called with the top-level keys read so far once ``"loops"`` is
    reached (it checks the format and version first); then ``on_loop(n, loop)`` for each
    loop. Returns the top-level keys (``"loops"`` maps to :data:`STREAMED`). A document that is not an object, or whose
    ``"loops"`` is not a list or comes before the format and version, is returned whole as
    ``None`` from here, and the caller falls back to :func:`load_json`."""
    return _errors(lambda: _scan(text, on_head, on_loop))


def _scan(text, on_head, on_loop) -> dict | None:
    pos = _skip(text, 0)
    if text[pos : pos + 1] != "{":
        return None
    head: dict = {}
    pos = _skip(text, pos + 1)
    if text[pos : pos + 1] == "}":
        pos += 1
    else:
        while True:
            if text[pos : pos + 1] != '"':
                raise json.JSONDecodeError(
                    "Expecting property name enclosed in double quotes", text, pos
                )
            key, pos = scanstring(text, pos + 1)
            if key in head:
                raise JournalImportError(f"the key {key[:40]!r} appears twice in one object")
            pos = _expect(text, _skip(text, pos), ":", "Expecting ':' delimiter")
            if key == "loops" and text[pos : pos + 1] == "[":
                if "format" not in head or "version" not in head:
                    return None  # an unusual order: read it whole, check it whole
                on_head(head)
                pos = _loops(text, pos, on_loop)
                head[key] = STREAMED
            else:
                head[key], pos = _value(text, pos)
            pos = _skip(text, pos)
            if text[pos : pos + 1] == ",":
                pos = _skip(text, pos + 1)
                continue
            if text[pos : pos + 1] != "}":
                raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
            pos += 1
            break
    pos = _skip(text, pos)
    if pos != len(text):
        raise json.JSONDecodeError("Extra data", text, pos)
    return head


def _loops(text: str, pos: int, on_loop) -> int:
    """Parse the array at ``pos`` element by element; return the position after it."""
    pos = _skip(text, pos + 1)
    if text[pos : pos + 1] == "]":
        return pos + 1
    n = 0
    while True:
        loop, pos = _value(text, pos)
        on_loop(n, loop)
        n += 1
        pos = _skip(text, pos)
        if text[pos : pos + 1] == ",":
            pos = _skip(text, pos + 1)
            continue
        if text[pos : pos + 1] != "]":
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
        return pos + 1
