"""The pieces of a content pack: a file is a :class:`Section` of :class:`Item` lines, and
a malformed one a :class:`ContentError`. They live apart from the loader
(:mod:`companion.core.content.loader`) so the field checks can name them without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ContentError:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Item:
    text: str
    fields: dict[str, str] = field(default_factory=dict)
    line: int = 0
    field_lines: dict[str, int] = field(default_factory=dict, compare=False)

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.fields.get(key, default)

    def list(self, key: str) -> list[str]:
        raw = self.fields.get(key, "")
        return [part.strip() for part in raw.split(",") if part.strip()]

    def int(self, key: str, default: int = 0) -> int:
        try:
            return int(self.fields.get(key, default))
        except (TypeError, ValueError):
            return default


@dataclass(frozen=True)
class Section:
    id: str
    kind: str
    title: str
    items: tuple[Item, ...] = ()
    intro: str = ""
    order: int = 100
    meta: dict[str, str] = field(default_factory=dict)
    source: Path | None = None
    meta_lines: dict[str, int] = field(default_factory=dict, compare=False)
