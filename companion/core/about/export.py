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
    """Why ``text`` is too long to lay out as a PDF (one line), or None."""
    if len(text) <= PDF_LIMIT_CHARS:
        return None
    return (
        f"the one-pager is {len(text):,} characters; a PDF is made from at most "
        f"{PDF_LIMIT_CHARS:,} (about 100 pages; a one-pager is about 5,000), because laying "
        "out more takes minutes. Trim it, or export it as HTML or Markdown."
    )


def html_document(text: str, renderer: SafeRenderer | None = None) -> str:
    renderer = renderer or SafeRenderer()
    return html_page(renderer.render(text), document_title(text))


def export_markdown(text: str, path: Path) -> None:
    atomic_write_text(Path(path), text if text.endswith("\n") or not text else text + "\n")


def export_html(text: str, path: Path) -> None:
    atomic_write_text(Path(path), html_document(text))
