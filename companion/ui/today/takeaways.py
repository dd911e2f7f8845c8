"""The guide's takeaways on Today, as one compact card. A part of the Today page."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout


def takeaways_box(content) -> QGroupBox | None:
    """The guide's takeaways (content of kind ``summary``) as one compact card."""
    from html import escape

    sections = content.by_kind("summary")
    if not sections:
        return None
    box = QGroupBox(" · ".join(s.title for s in sections))
    box.setAccessibleName("Takeaways")
    items = "".join(f"<li>{escape(i.text)}</li>" for s in sections for i in s.items)
    text = QLabel(f"<ul style='margin-left:-20px'>{items}</ul>")
    text.setTextFormat(Qt.TextFormat.RichText)
    text.setWordWrap(True)
    text.setAccessibleName("Takeaways")
    layout = QVBoxLayout(box)
    layout.addWidget(text)
    for section in sections:  # the chapter's closing pointer to the guide that follows
        if section.meta.get("next"):
            pointer = QLabel(section.meta["next"])
            pointer.setObjectName("nextGuide")
            pointer.setWordWrap(True)
            pointer.setTextFormat(Qt.TextFormat.PlainText)
            pointer.setAccessibleName("Next guide")
            layout.addWidget(pointer)
    return box
