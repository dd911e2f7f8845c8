"""Icons from resources/icons, with an empty icon where a file is missing."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from companion.core.paths import resources_dir


@cache
def icon(name: str) -> QIcon:
    for suffix in (".svg", ".png"):
        path = resources_dir() / "icons" / f"{name}{suffix}"
        if path.is_file():
            result = QIcon(str(path))
            # the same drawing when selected: Qt's default tints it to near-invisible
            result.addFile(str(path), mode=QIcon.Mode.Selected)
            return result
    return QIcon()
