"""The rail draws PNG renditions of its SVG icons, so the first frame loads no QtSvg; the
PNGs are the SVGs' own rendering (packaging/render_rail_icons.py makes them)."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import pytest

from companion.core.paths import resources_dir
from companion.ui.pages import PAGES

REPO = Path(__file__).resolve().parents[2]
ICONS = resources_dir() / "icons"


def _renderer():
    spec = importlib.util.spec_from_file_location(
        "render_rail_icons", REPO / "packaging" / "render_rail_icons.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted({page.icon for page in PAGES}))
def test_each_rail_png_is_its_svg_drawn_at_that_size(qapp, name):
    from PySide6.QtGui import QImage

    render = _renderer()
    for size, suffix in render.SIZES:
        png = QImage(str(ICONS / "rail" / f"{name}{suffix}.png"))
        assert (png.width(), png.height()) == (size, size), f"{name}{suffix}.png"
        drawn = render.render_image(ICONS / f"{name}.svg", size)
        png = png.convertToFormat(drawn.format())
        worst = max(
            abs(a - b)
            for x in range(size)
            for y in range(size)
            for a, b in zip(
                png.pixelColor(x, y).getRgb(), drawn.pixelColor(x, y).getRgb(), strict=True
            )
        )
        assert worst <= 2, f"{name}{suffix}.png is stale: run packaging/render_rail_icons.py"


def test_the_rail_size_is_the_size_the_pngs_are_drawn_at():
    from companion.ui import mainwindow

    assert (mainwindow.RAIL_ICON_PX, "") in _renderer().SIZES


CHILD = textwrap.dedent(
    """
    import os, sys
    from companion.cli import main

    def loaded():
        return any("libQt6Svg" in line for line in open("/proc/self/maps"))

    import companion.ui.app as app_module
    made = app_module.Application.__init__

    def spy(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.window.first_painted.connect(lambda: print("svg-at-first-paint", loaded()))

    app_module.Application.__init__ = spy
    sys.exit(main(["--data-dir", sys.argv[1]]))
    """
)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/self/maps")
def test_the_first_frame_loads_no_svg_library(tmp_path):
    from app_child import run_child

    done = run_child(
        CHILD, str(tmp_path / "data"), home=tmp_path / "home", COMPANION_EXIT_ON_FIRST_PAINT="1"
    )
    assert done.returncode == 0, done.stderr
    assert "svg-at-first-paint False" in done.stdout, done.stdout + done.stderr
