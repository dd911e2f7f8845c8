"""A PDF written through Qt's PDF writer without a window (`about export` and `stories
export`): the one place a headless command loads PySide6 for its output."""

from __future__ import annotations

from pathlib import Path

from companion.core.sigint import deferred_sigint


def export_pdf(text: str, output: Path, page_size: str, renderer=None) -> str | None:
    """Render through Qt without a window; returns the one-page warning, if any."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with deferred_sigint():  # a Ctrl+C inside PySide6's import broke it (ImportError)
        from PySide6.QtGui import QGuiApplication

        # seam: qt
        from companion.ui.about.export import export_pdf_markdown

        app = QGuiApplication.instance() or QGuiApplication(["companion"])
    result = export_pdf_markdown(text, output, page_size, renderer)
    del app
    return result.warning()
