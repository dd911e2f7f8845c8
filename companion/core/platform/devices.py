"""Devices the app may look for without opening them: Linux lists its cameras as
``/dev/video*``; macOS and Windows list them only through their media frameworks (which
the call app uses), so there the answer is "cannot tell", never "no camera"."""

from __future__ import annotations

import sys
from pathlib import Path


def cameras(dev: Path = Path("/dev"), system: str | None = None) -> list[str] | None:
    """The camera devices' names (never opened), or None when this OS (``system``,
    default ``sys.platform``) has no such listing or it could not be read."""
    system = system or sys.platform
    if system in ("darwin", "win32"):
        return None
    try:
        return sorted(p.name for p in dev.glob("video*"))
    except OSError:
        return None
