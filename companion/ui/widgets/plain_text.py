"""Text from the user or a content pack, shown by Qt exactly as typed.

A QLabel set to ``Qt.TextFormat.PlainText`` does that; a tooltip cannot be set so: Qt
reads any tooltip that looks like HTML (``Qt.mightBeRichText``) as HTML, so a company or
a note named ``<h1>...`` would be drawn as a heading. :func:`plain_tip` escapes it and
keeps its line breaks."""

from __future__ import annotations

from html import escape


def plain_tip(text: str) -> str:
    """``text`` as a tooltip (or any other auto-detected text, e.g. a static QMessageBox)
    that shows its characters, line breaks kept."""
    if not text:
        return text
    return f"<p style='white-space:pre-wrap'>{escape(text)}</p>"
