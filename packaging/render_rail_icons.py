"""Render the navigation rail's icons to PNG (22 px and @2x 44 px) with Qt's SVG renderer.

Usage: python packaging/render_rail_icons.py [ICONS_DIR]
Writes ICONS_DIR/rail/<name>.png and <name>@2x.png for every page's icon. The window's
first frame draws these: a PNG is read by QtGui itself, where an SVG icon loads QtSvg and
its icon engine plugin before the first paint. tests/ui/test_rail_icons.py checks that
they are the SVGs' own rendering (run this after changing an SVG).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from render_icons import render_image  # noqa: E402  (packaging/, this script's folder)

__all__ = ["SIZES", "render_image", "main"]
SIZES = ((22, ""), (44, "@2x"))  # the rail's icon size (mainwindow.RAIL_ICON_PX), and 2x


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    icons = Path(argv[0]) if argv else ROOT / "resources" / "icons"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtGui import QGuiApplication

    from companion.ui.pages import PAGES

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    out = icons / "rail"
    out.mkdir(exist_ok=True)
    for page in PAGES:
        for size, suffix in SIZES:
            target = out / f"{page.icon}{suffix}.png"
            if not render_image(icons / f"{page.icon}.svg", size).save(str(target), "PNG"):
                print(f"render_rail_icons: could not write {target}", file=sys.stderr)
                return 1
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
