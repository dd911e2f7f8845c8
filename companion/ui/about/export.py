"""PDF export and printing of the one-pager through a QTextDocument that never loads a
resource (see :class:`SafeDocument`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF, QUrl
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

from companion.core.about.export import pdf_size_problem
from companion.core.about.render import PAGE_CSS, SafeRenderer
from companion.core.storage.files import atomic_write_bytes

PAGE_SIZES = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
MARGIN_MM = 10.0  # room for spaced headings: the template stays on one A4 or Letter page


class SafeDocument(QTextDocument):
    """A text document that never fetches a resource (images by URL stay unloaded)."""

    def loadResource(self, type_: int, url: QUrl):  # noqa: N802 (Qt override)
        return None


@dataclass(frozen=True)
class PdfResult:
    path: Path
    pages: int

    @property
    def fits(self) -> bool:
        return self.pages <= 1

    def warning(self) -> str | None:
        if self.fits:
            return None
        return (
            f"The one-pager runs to {self.pages} pages in the PDF; trim it to fit one page "
            "(the pitch plus three projects should fit comfortably)."
        )


def safe_document(html_body: str) -> SafeDocument:
    """``html_body`` in a :class:`SafeDocument` styled like the preview (PAGE_CSS)."""

    doc = SafeDocument()
    doc.setDefaultStyleSheet(PAGE_CSS)
    doc.setHtml(html_body)
    return doc


def build_document(html_body: str, page_size: str = "a4") -> tuple[SafeDocument, QPageLayout]:
    layout = QPageLayout(
        QPageSize(PAGE_SIZES[page_size]),
        QPageLayout.Orientation.Portrait,
        QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
        QPageLayout.Unit.Millimeter,
    )
    return safe_document(html_body), layout


def page_count(doc: QTextDocument, layout: QPageLayout, resolution: int = 300) -> int:
    """How many pages ``doc`` takes when laid out on ``layout``'s printable area."""
    rect = layout.paintRectPixels(resolution)
    # QTextDocument paginates in points of the paint device; use a 72-dpi equivalent.
    scale = 72.0 / resolution
    doc.setPageSize(QSizeF(rect.width() * scale, rect.height() * scale))
    return doc.pageCount()


class PdfTooLargeError(OSError):
    """The one-pager is too long to lay out as a PDF; ``strerror`` says why."""


def export_pdf_markdown(text: str, path: Path, page_size: str = "a4", renderer=None) -> PdfResult:
    """The one-pager's Markdown ``text`` as a PDF at ``path``; refused before any work
    (:class:`PdfTooLargeError`) when it is too long to lay out in seconds."""

    problem = pdf_size_problem(text)
    if problem:
        raise PdfTooLargeError(0, problem[:1].upper() + problem[1:], str(path))
    return export_pdf((renderer or SafeRenderer()).render(text), path, page_size)


def pdf_bytes(doc: QTextDocument, layout: QPageLayout) -> bytes:
    """``doc`` printed as a PDF, in memory (the file is written by the safe writer)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setPageLayout(layout)
    writer.setResolution(300)
    writer.setTitle("About me")
    writer.setCreator("Interview Companion")
    doc.print_(writer)
    del writer  # finishes the document
    buffer.close()
    return bytes(data.data())


def export_pdf(html_body: str, path: Path, page_size: str = "a4") -> PdfResult:
    """Write ``html_body`` as a PDF at ``path``; the result says whether it fit one page.

    Written through :func:`atomic_writer` like every export (a fresh 0600 temp file
    with an unpredictable name, never a planted link, FIFO or folder), and only a
    complete PDF replaces ``path``: a short write (a full disk, a file-size limit)
    raises OSError and leaves nothing behind."""

    doc, layout = build_document(html_body, page_size)
    pages = page_count(doc, layout)
    data = pdf_bytes(doc, layout)
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-32:]:
        raise OSError(0, "Qt did not produce a complete PDF", str(path))
    path = Path(path)
    atomic_write_bytes(path, data)
    return PdfResult(path, pages)


def print_document(html_body: str, printer) -> None:
    """Print through a configured QPrinter (from a QPrintDialog)."""
    safe_document(html_body).print_(printer)
