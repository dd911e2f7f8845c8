"""Render an SVG icon to the hicolor PNG sizes with Qt's SVG renderer, offscreen.

Usage: python packaging/render_icons.py SVG OUTDIR [--name NAME] [--sizes 16 32 ...]
Writes OUTDIR/<N>x<N>/apps/<NAME>.png for each size, ready to copy under icons/hicolor.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DEFAULT_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render_image(svg: Path, size: int):
    """The SVG drawn at ``size`` px square by Qt's SVG renderer, as a QImage (a
    QGuiApplication must exist); ValueError on an unreadable SVG."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: not a valid SVG image")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def render(
    svg: Path, out_dir: Path, name: str, sizes: tuple[int, ...] = DEFAULT_SIZES
) -> list[Path]:
    """Write one PNG per size and return their paths; raise ValueError on an unreadable SVG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    written: list[Path] = []
    for size in sizes:
        image = render_image(svg, size)
        target = out_dir / f"{size}x{size}" / "apps" / f"{name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        written.append(target)
    del app
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("svg", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--name", help="icon name (default: the SVG file's stem)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    args = parser.parse_args(argv)
    if not args.svg.is_file():
        print(f"render_icons: {args.svg}: no such file", file=sys.stderr)
        return 2
    try:
        paths = render(args.svg, args.out_dir, args.name or args.svg.stem, tuple(args.sizes))
    except (ValueError, OSError) as exc:
        print(f"render_icons: {exc}", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
