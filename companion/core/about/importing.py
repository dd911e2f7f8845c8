"""Turning pasted or imported bytes into one-pager text, with a clear word on what was
wrong and where. Nothing the user already has is touched here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.core.fileio import read_limited
from companion.core.text import count_of

MAX_IMPORT_BYTES = 10_000_000
LIVE_LIMIT_CHARS = 200_000  # above this, live preview and timing pause (a one-pager is ~5 KB)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


@dataclass(frozen=True)
class ImportResult:
    text: str
    problems: tuple[str, ...] = ()


def clean_text(text: str) -> tuple[str, int]:
    """``text`` without control characters (tab and newlines kept); returns the count removed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    cleaned, removed = _CONTROL.subn("", text)
    return cleaned, removed


def decode_bytes(data: bytes, name: str = "the file") -> ImportResult:
    """UTF-8 (with or without a BOM) text from ``data``. Invalid bytes become U+FFFD and
    the first one is reported by line and column; binary data raises ValueError."""
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValueError(f"{name} looks like a binary file (it contains NUL bytes), not text.")
    problems: list[str] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        text = data.decode("utf-8", errors="replace")
        problems.append(
            f"{name} is not valid UTF-8: the first bad byte (0x{data[exc.start]:02x}) is at line "
            f"{line}, column {column}. Undecodable bytes were replaced by \ufffd; check "
            "the text, or re-save the file as UTF-8 and import it again."
        )
    text, removed = clean_text(text)
    if removed:
        problems.append(f"Removed {count_of(removed, 'control character')} from {name}.")
    return ImportResult(text, tuple(problems))


def read_import(path: Path) -> ImportResult:
    """Read a Markdown file to import; ValueError with a readable message on failure."""

    path = Path(path)
    data = read_limited(path, "one-pager")  # FileReadError is a ValueError
    return decode_bytes(data, path.name)
