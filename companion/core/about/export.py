"""Exporting the one-pager as Markdown or standalone HTML (PDF and printing need Qt and
live in companion.ui.about.export)."""

from __future__ import annotations

from pathlib import Path

from companion.core.about.render import SafeRenderer, document_title, html_page
from companion.core.storage.files import atomic_write_text

FORMATS = ("pdf", "html", "md")
# a PDF is laid out page by page by Qt: 200,000 characters (about 100 pages) take about
# 2 s here, the 10 MB an import allows about 5,000 pages and several minutes
PDF_LIMIT_CHARS = 200_000
SUFFIXES = {".pdf": "pdf", ".html": "html", ".htm": "html", ".md": "md", ".markdown": "md"}


def format_for(path: Path, explicit: str | None = None) -> str:
    """The export format: ``explicit`` if given, else from the file's suffix."""
    if explicit:
        if explicit not in FORMATS:
            raise ValueError(f"Unknown format {explicit!r}; use one of {', '.join(FORMATS)}.")
        return explicit
    try:
        return SUFFIXES[Path(path).suffix.lower()]
    except KeyError:
        raise ValueError(
            f"Cannot tell the format from {Path(path).name!r}; pass --format pdf, html or md."
        ) from None


def pdf_size_problem(text: str) -> str | None:
    """Why ``text`` is too long (or nested too deeply) to lay out as a PDF, or None."""
    if len(text) > PDF_LIMIT_CHARS:
        return (
            f"the one-pager is {len(text):,} characters; a PDF is made from at most "
            f"{PDF_LIMIT_CHARS:,} (about 100 pages; a one-pager is about 5,000), because "
            "laying out more takes minutes. Trim it, or export it as HTML or Markdown."
        )
    depth = nesting_depth(text)
    if depth > PDF_LIMIT_DEPTH:
        return (
            f"the one-pager nests quotes or lists {depth} levels deep; a PDF takes at most "
            f"{PDF_LIMIT_DEPTH}, because every level narrows the page and a long line then "
            "takes minutes to lay out. Flatten it, or export it as HTML or Markdown."
        )
    return None


# every level of quote or list narrows the column: 300 nested quotes and then a long word
# ran for minutes (a letter a line). Measured here (2 cores, load ~4) with 190 lines of
# 999-letter words: 5 levels 4 s, 8 levels 73 s; one 190,000-letter word: 5 levels 9 s,
# 6 levels 42 s. A one-pager rarely nests past 3.
PDF_LIMIT_DEPTH = 5


def nesting_depth(text: str) -> int:
    """The deepest nesting of block quotes and indented list items in Markdown ``text``
    (read from each line's start, so it costs one pass whatever the text)."""
    deepest = 0
    for line in text.splitlines():
        quotes = 0
        i = 0
        while i < len(line) and line[i] in "> \t":
            quotes += line[i] == ">"
            if line[i] != ">" and quotes == 0:
                break
            i += 1
        rest = line[i:]
        item = rest.lstrip(" \t")
        # a list item nests one level per 4 columns (Python-Markdown's tab length); the
        # indentation of other lines (code, a wrapped paragraph) nests nothing
        is_item = item[:2] in ("- ", "* ", "+ ") or item.split(". ", 1)[0].isdigit()
        levels = (len(rest.expandtabs(4)) - len(item)) // 4 if is_item else 0
        deepest = max(deepest, quotes + levels)
    return deepest


def html_document(text: str, renderer: SafeRenderer | None = None) -> str:
    renderer = renderer or SafeRenderer()
    return html_page(renderer.render(text), document_title(text))


def export_markdown(text: str, path: Path) -> None:
    atomic_write_text(Path(path), text if text.endswith("\n") or not text else text + "\n")


def export_html(text: str, path: Path) -> None:
    atomic_write_text(Path(path), html_document(text))
