"""Exporting the one-pager as Markdown or standalone HTML (PDF and printing need Qt and
live in companion.ui.about.export)."""

from __future__ import annotations

from pathlib import Path

from companion.core.about.render import SafeRenderer, document_title, html_page
from companion.core.storage.files import atomic_write_text

FORMATS = ("pdf", "html", "md")
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


def html_document(text: str, renderer: SafeRenderer | None = None) -> str:
    renderer = renderer or SafeRenderer()
    return html_page(renderer.render(text), document_title(text))


def export_markdown(text: str, path: Path) -> None:
    atomic_write_text(Path(path), text if text.endswith("\n") or not text else text + "\n")


def export_html(text: str, path: Path) -> None:
    atomic_write_text(Path(path), html_document(text))
