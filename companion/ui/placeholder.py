"""Shown where a page's module is not available in this copy of the app."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class PlaceholderPage(QWidget):
    def __init__(self, title: str, reason: str, parent: QWidget | None = None):
        super().__init__(parent)
        label = QLabel(f"<h2>{title}</h2><p>{reason}</p>")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
