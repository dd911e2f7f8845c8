"""Icons from resources/icons, with an empty icon where a file is missing.

The navigation rail's icons come from PNG renditions of the same SVGs (resources/icons/rail,
made by packaging/render_rail_icons.py): they are in the window's first frame, and an SVG
icon loads QtSvg and its icon engine plugin before the first paint (1.2 MiB of the start-up
memory); a PNG is read by QtGui itself."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from companion.core.paths import resources_dir


@cache
def _folder():
    return resources_dir() / "icons"  # resolved once: 8 realpath() calls before the first paint


@cache
def icon(name: str) -> QIcon:
    for suffix in (".svg", ".png"):
        path = _folder() / f"{name}{suffix}"
        if path.is_file():
            result = QIcon(str(path))
            # the same drawing when selected: Qt's default tints it to near-invisible
            result.addFile(str(path), mode=QIcon.Mode.Selected)
            return result
    return QIcon()


@cache
def rail_icon(name: str) -> QIcon:
    """A page's icon in the rail: its 22 px PNG (Qt takes the ``@2x`` file on a 2x
    screen), else the SVG."""
    path = _folder() / "rail" / f"{name}.png"
    if not path.is_file():
        return icon(name)
    result = QIcon(str(path))
    result.addFile(str(path), mode=QIcon.Mode.Selected)  # as icon(): no selected tint
    return result
