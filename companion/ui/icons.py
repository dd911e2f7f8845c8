"""Icons from resources/icons, with an empty icon where a file is missing."""

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
