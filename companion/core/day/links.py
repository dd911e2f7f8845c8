"""The call link of a round: only an http(s) address is offered to the desktop.

The app never opens a connection itself; it hands a link to the desktop's handler (the
browser, the video-call app). Anything else a calendar may hold in LOCATION or URL
("Room 4B", ``file:``, ``javascript:``, a phone number) is never offered as a link.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

MAX_LINK = 2000
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"'()\[\]{}]+", re.IGNORECASE)


def call_link(text: str | None) -> str:
    """``text`` when it is one http(s) address with a host, else ""."""
    text = (text or "").strip()
    if not text or len(text) > MAX_LINK or any(c.isspace() or ord(c) < 32 for c in text):
        return ""
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not host:
        return ""
    return text


def first_link(text: str | None) -> str:
    """The first http(s) address written in ``text`` ("Zoom: https://… (pw 123)"), or ""."""
    for found in _URL_IN_TEXT.finditer(text or ""):
        link = call_link(found.group(0).rstrip(".,;:!?"))
        if link:
            return link
    return ""


#: hosts of the video-call services whose links an invitation's text carries
MEETING_HOSTS = (
    "zoom.us",
    "zoomgov.com",
    "meet.google.com",
    "teams.microsoft.com",
    "teams.live.com",
    "webex.com",
    "chime.aws",
    "meet.jit.si",
    "whereby.com",
)


def _meeting_host(host: str) -> bool:
    host = host.lower().rstrip(".")
    return any(host == h or host.endswith("." + h) for h in MEETING_HOSTS)


def meeting_link(text: str | None) -> str:
    """The first video-call link (Zoom, Meet, Teams, Webex, Chime, Jitsi, Whereby) written
    in ``text`` (a DESCRIPTION), or ""; any other address in it is not a call link."""
    for found in _URL_IN_TEXT.finditer(text or ""):
        link = call_link(found.group(0).rstrip(".,;:!?"))
        if link and _meeting_host(urlsplit(link).hostname or ""):
            return link
    return ""
