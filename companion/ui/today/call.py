"""The call link of the round the day is about, with a button that hands it to the
desktop (the browser or the video-call app). The app itself opens no connection."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from companion.core.day.links import call_link
from companion.ui.widgets.plain_text import plain_tip


def open_call_link(link: str) -> bool:
    """Hand an http(s) link to the desktop's handler; False (nothing opened) otherwise."""

    link = call_link(link)
    return bool(link) and QDesktopServices.openUrl(QUrl(link, QUrl.ParsingMode.StrictMode))


def call_link_row(day_round) -> QWidget | None:
    """ "Call: https://…  [Go to the call]" for a round with an http(s) link, else None."""
    link = day_round.link if day_round is not None else ""
    if not link:
        return None
    row = QWidget()
    row.setObjectName("callLink")
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    label = QLabel(f"Call: {link}")
    label.setTextFormat(Qt.TextFormat.PlainText)  # a link from a file is text, not HTML
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setToolTip(plain_tip(link))
    label.setAccessibleName("Call link")
    # a long address must not widen the page: the label takes the width it is given
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    button = QPushButton("&Go to the call")
    button.setAccessibleName(f"Open the call link of the {day_round.title} in the browser")
    button.setToolTip("Opens the link with the desktop's browser or call app")
    button.clicked.connect(lambda _=False: open_call_link(link))
    layout.addWidget(label, 1)
    layout.addWidget(button)
    return row
