"""Light and dark, in one visual system (companion.ui.style) that the app always applies.

The scheme follows the system (read from the platform's palette at start, then from Qt's
colour-scheme hint as it changes), or COMPANION_COLOR_SCHEME=dark|light forces one.

Nothing here imports the ``Qt`` namespace at module level: building it costs ~20 ms, and
this module runs before the window's first paint.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtGui import QColor, QPalette

from companion.ui.palette_tone import contrast_ratio as contrast_ratio  # re-exported
from companion.ui.palette_tone import is_dark as is_dark  # re-exported
from companion.ui.palette_tone import luminance as luminance  # re-exported

SCHEME_ENV = "COMPANION_COLOR_SCHEME"


def forced_scheme(environ=os.environ) -> str:
    """ "dark" or "light" when the environment forces one, else "" (follow the system)."""
    value = environ.get(SCHEME_ENV, "").strip().lower()
    return value if value in ("dark", "light") else ""


def apply_theme(app, environ=os.environ, *, fusion: bool = False) -> str:
    """The app's look at start, before the first paint: the forced scheme, else the one
    the platform's palette shows. Returns the scheme applied. ``finish_theme`` adds the
    drawing tweaks after the paint. ``fusion``: the app was made with ``-style fusion``
    (setting it by name afterwards builds QStyle's Python enums, ~10 ms)."""
    value = environ.get(SCHEME_ENV, "").strip().lower()
    if value not in ("", "dark", "light", "system"):
        print(
            f"{SCHEME_ENV}={value!r} is not dark, light or system; following the system.",
            file=sys.stderr,
        )
    if app.property("companionScheme"):  # applied before: read the desktop's palette again
        app.setPalette(QPalette())
    scheme = forced_scheme(environ) or ("dark" if is_dark(app.palette()) else "light")
    _set_colors_and_type(app, scheme, set_fusion=not fusion)
    return scheme


def finish_theme(app, environ=os.environ) -> None:
    """After the first paint: CompanionStyle's drawing tweaks (check box outline, focus
    frame, section headers), then follow the system's scheme. The style is Python code
    Qt calls to draw; importing it builds QStyle's enums (~10 ms), and nothing the first
    frame shows (the rail, an empty page) needs it: the pages are built after it."""
    _install_style(app)
    follow_system(app, environ)


def apply_scheme(app, scheme: str) -> None:
    """The whole look in ``scheme`` at once: a change while running, and the tests. The
    style is installed once: a new one made Qt repolish every widget a second time (a
    dark/light switch with every page and the card built took 8 s of CPU, now 3)."""
    if not app.property("companionStyle"):
        _install_style(app)
    _set_colors_and_type(app, scheme, set_fusion=False)


def _set_colors_and_type(app, scheme: str, *, set_fusion: bool) -> None:
    """Fusion plus an explicit palette looks the same on every platform, where
    ``QStyleHints.setColorScheme`` is only a request the platform theme may ignore."""
    if set_fusion and not app.property("companionStyle"):
        app.setStyle("Fusion")  # CompanionStyle wraps the same Fusion later
    # no style sheet on the app: under one a widget keeps the palette it was polished
    # with, and only setting the sheet again (every widget repolished: 2.3 s of CPU with
    # every page built) brought the new colours. The type scale is fonts (type_role), and
    # a widget's own sheet with palette() colours follows the palette (palette_sheet).
    if app.styleSheet():
        app.setStyleSheet("")
    app.setPalette(dark_palette() if scheme == "dark" else light_palette())
    app.setProperty("companionScheme", scheme)


def _install_style(app) -> None:
    from PySide6.QtCore import Qt

    from companion.ui.style import CompanionStyle  # seam: after the first paint

    # a widget's own style sheet sets only the colours and fonts it names, the rest
    # following the app's palette: without it every widget under a sheet (the whole
    # card) kept the old scheme's colours after a light/dark switch
    app.setAttribute(Qt.ApplicationAttribute.AA_UseStyleSheetPropagationInWidgetStyles, True)
    palette = app.palette()
    app.setStyle(CompanionStyle())
    app.setPalette(palette)  # ours, not the style's standard one
    app.setProperty("companionStyle", True)


def follow_system(app, environ=os.environ) -> None:
    """After the first paint: tell the platform a forced scheme (window decorations follow
    it), or follow the system's scheme when it changes while the app runs."""
    from PySide6.QtCore import Qt

    hints = app.styleHints()
    forced = forced_scheme(environ)
    if forced:
        hints.setColorScheme(Qt.ColorScheme.Dark if forced == "dark" else Qt.ColorScheme.Light)
        return

    def changed(scheme) -> None:
        if scheme == Qt.ColorScheme.Unknown:
            return  # the platform does not say; the palette guess at start stands
        wanted = "dark" if scheme == Qt.ColorScheme.Dark else "light"
        if app.property("companionScheme") != wanted:
            apply_scheme(app, wanted)

    hints.colorSchemeChanged.connect(changed)
    changed(hints.colorScheme())


def light_palette() -> QPalette:
    """Fusion's light palette, with a selection dark enough for white text (4.5:1) and
    visible as a focus ring on the window (3:1), and a darker placeholder. Written out here:
    asking the style for its palette before the first paint builds QStyle's Python enums
    (~10 ms); a test holds it to Fusion's own."""
    roles = QPalette.ColorRole
    p = QPalette()
    for role, name in {
        roles.WindowText: "#000000",
        roles.Button: "#efefef",
        roles.Light: "#ffffff",
        roles.Midlight: "#cacaca",
        roles.Dark: "#9f9f9f",
        roles.Mid: "#b8b8b8",
        roles.Text: "#000000",
        roles.BrightText: "#ffffff",
        roles.ButtonText: "#000000",
        roles.Base: "#ffffff",
        roles.Window: "#efefef",
        roles.Shadow: "#767676",
        roles.Highlight: "#1f6fb2",  # Fusion: #308cc6, 3.6:1 under white text
        roles.HighlightedText: "#ffffff",
        roles.Link: "#0000ff",
        roles.LinkVisited: "#ff00ff",
        roles.AlternateBase: "#f7f7f7",
        roles.ToolTipBase: "#ffffdc",
        roles.ToolTipText: "#000000",
        roles.PlaceholderText: "#6e6e6e",  # Fusion: black at half alpha
        roles.Accent: "#1f6fb2",
    }.items():
        p.setColor(role, QColor(name))
    for role, name in {
        roles.WindowText: "#bebebe",
        roles.Dark: "#bebebe",
        roles.Text: "#bebebe",
        roles.ButtonText: "#bebebe",
        roles.Base: "#efefef",
        roles.Shadow: "#b1b1b1",
    }.items():
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(name))
    return p


def dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor(30, 32, 36), QColor(40, 43, 48), QColor(228, 230, 235)
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor(46, 49, 55),
        QPalette.ColorRole.ToolTipBase: QColor(52, 55, 61),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor(140, 145, 155),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor(50, 53, 59),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 110, 110),
        QPalette.ColorRole.Light: QColor(70, 74, 82),
        QPalette.ColorRole.Midlight: QColor(60, 64, 71),
        QPalette.ColorRole.Mid: QColor(62, 66, 73),
        QPalette.ColorRole.Dark: QColor(20, 21, 24),
        QPalette.ColorRole.Shadow: QColor(0, 0, 0),
        # white on it 4.6:1, it on the window 3.1:1 (a focus ring)
        QPalette.ColorRole.Highlight: QColor(24, 116, 218),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Link: QColor(110, 170, 255),
        QPalette.ColorRole.LinkVisited: QColor(170, 140, 255),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 124, 132))
    return p


# --- contrast and status colours (WCAG 2.1) -----------------------------------------------


# status text, each at least 4.5:1 on the window and on the base of its scheme
STATUS = {
    "light": {"bad": "#b00020", "good": "#006e32", "warn": "#8a5a00"},
    "dark": {"bad": "#ff8a80", "good": "#7ddc94", "warn": "#f0c060"},
}


def status_color(kind: str, palette: QPalette | None = None) -> QColor:
    """The colour for status text of ``kind`` (bad, good, warn) in the current scheme."""
    if palette is None:
        from PySide6.QtWidgets import QApplication

        palette = QApplication.palette()
    return QColor(STATUS["dark" if is_dark(palette) else "light"][kind])


def soft_background(palette: QPalette | None = None) -> QColor:
    """A quiet background for a notice or a highlighted line: the selection colour mixed
    into the base, so the normal text stays readable on it in light and dark."""
    if palette is None:
        from PySide6.QtWidgets import QApplication

        palette = QApplication.palette()
    base = palette.color(QPalette.ColorRole.Base)
    accent = palette.color(QPalette.ColorRole.Highlight)
    mix = 0.22
    return QColor(
        round(base.red() * (1 - mix) + accent.red() * mix),
        round(base.green() * (1 - mix) + accent.green() * mix),
        round(base.blue() * (1 - mix) + accent.blue() * mix),
    )
