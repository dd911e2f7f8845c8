"""The visual system is the app's default: create_application applies its colours and type
in the system's scheme before the first paint, the application adds the style's drawing
right after it; the environment can force a scheme, and a change while running is
followed.

The platforms here (offscreen, Xvfb without a desktop) report no colour scheme and ignore
requests for one, so the system's change is the real QStyleHints signal emitted by the
test, as the platform theme would emit it."""

from __future__ import annotations

import contrast
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from companion.ui.app import Application, create_application
from companion.ui.theme import SCHEME_ENV, apply_scheme, apply_theme, follow_system, is_dark

pytestmark = pytest.mark.gui


@pytest.fixture
def restored(qapp):
    """Put the test application's look back as the other UI tests see it. The system
    scheme's followers an earlier test's window connected (follow_system, at its first
    paint) are dropped first: in a parallel run any test may come before these."""
    import warnings

    from PySide6.QtCore import QCoreApplication, QEvent

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nothing connected: PySide warns
        try:
            qapp.styleHints().colorSchemeChanged.disconnect()
        except (RuntimeError, TypeError):
            pass
    yield qapp
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # no restyle of them
    qapp.styleHints().unsetColorScheme()
    apply_scheme(qapp, apply_theme(qapp, {}))


@pytest.fixture
def plain(restored):
    """The application as Qt makes it: Fusion, the platform's palette, no style sheet."""
    restored.setStyleSheet("")
    restored.setStyle("Fusion")
    restored.setPalette(QPalette())
    for name in ("companionStyle", "companionScheme"):
        restored.setProperty(name, None)
    return restored


def _check_box_outline(qtbot) -> float:
    """The contrast of a fresh unticked check box's edge against the window, as drawn."""
    from PySide6.QtWidgets import QCheckBox

    box = QCheckBox("Unticked")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    return contrast.check_box_outline(box)


def test_the_app_starts_in_its_visual_system_without_any_setting(plain, monkeypatch, qtbot, ctx):
    monkeypatch.delenv(SCHEME_ENV, raising=False)
    assert _check_box_outline(qtbot) < 3  # what plain Fusion draws: 1.65:1
    qapp = create_application(["companion"])
    # before the first paint: the palette (the platforms here are light), and no style
    # sheet on the app: the type scale is fonts, so a scheme switch restyles no widget
    assert qapp.property("companionScheme") == "light" and not is_dark(qapp.palette())
    assert qapp.palette().color(QPalette.ColorRole.Highlight).name() == "#1f6fb2"
    assert qapp.styleSheet() == ""
    app = Application(ctx, qapp)
    qtbot.addWidget(app.window)
    with qtbot.waitSignal(app.window.first_painted, timeout=10_000):
        app.window.show()
    qtbot.waitUntil(lambda: ctx._store is not None, timeout=10_000)  # the deferred start ran
    # after it: the style's drawing, the palette kept
    assert _check_box_outline(qtbot) >= 3
    assert qapp.palette().color(QPalette.ColorRole.Highlight).name() == "#1f6fb2"
    app.shutdown()


def test_the_environment_forces_dark(restored, monkeypatch):
    monkeypatch.setenv(SCHEME_ENV, "Dark")
    app = create_application(["companion"])
    assert app.property("companionScheme") == "dark"
    assert is_dark(app.palette())


def test_an_unknown_scheme_says_so_and_follows_the_system(restored, capsys):
    assert apply_theme(restored, {SCHEME_ENV: "purple"}) == "light"
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{SCHEME_ENV}='purple' is not dark, light or system; following the system."]


def test_a_dark_platform_palette_gives_the_dark_scheme(restored):
    from companion.ui.theme import dark_palette

    restored.setProperty("companionScheme", None)  # as at start: nothing applied yet
    restored.setPalette(dark_palette())  # what a dark desktop's platform theme hands over
    assert apply_theme(restored, {}) == "dark"
    assert is_dark(restored.palette())


def test_a_scheme_change_while_running_is_followed(restored):
    apply_theme(restored, {})
    follow_system(restored, {})
    hints = restored.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert is_dark(restored.palette())
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Unknown)  # says nothing: no change
    assert is_dark(restored.palette())
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not is_dark(restored.palette())
    hints.colorSchemeChanged.disconnect()


def test_a_scheme_change_while_running_repaints_without_restyling(restored, qtbot):
    """The system turns dark while the window is up: every widget takes the dark colours
    (under the app's style sheet a palette alone does not reach a line edit), and the
    style is kept (a new one repolished every widget once more: 8 s of CPU with every
    page built, 3 s without)."""
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

    apply_scheme(restored, "light")
    window = QWidget()
    qtbot.addWidget(window)
    field = QLineEdit("typed")
    QVBoxLayout(window).addWidget(field)
    window.show()
    qtbot.waitExposed(window)
    style = restored.style()
    apply_scheme(restored, "dark")
    qtbot.waitUntil(lambda: is_dark(field.palette()) and is_dark(window.palette()), timeout=10_000)
    base = field.grab().toImage().pixelColor(field.width() // 2, 3)
    assert base.lightness() < 128, base.name()  # drawn dark, not only told so
    assert restored.style() is style


def test_a_forced_scheme_is_not_changed_by_the_system(restored):
    apply_theme(restored, {SCHEME_ENV: "dark"})
    follow_system(restored, {SCHEME_ENV: "dark"})
    restored.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert is_dark(restored.palette())


def test_the_light_palette_is_fusions_own_but_for_the_selection_and_placeholder(qapp):
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QStyleFactory

    from companion.ui.theme import light_palette

    fusion = QStyleFactory.create("Fusion").standardPalette()
    ours = light_palette()
    roles = QPalette.ColorRole
    changed = {roles.Highlight, roles.HighlightedText, roles.PlaceholderText, roles.Accent}
    differ = [
        (group.name, role.name, ours.color(group, role).name(), fusion.color(group, role).name())
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Disabled)
        for role in roles
        if role not in changed and role != roles.NColorRoles
        if ours.color(group, role).rgba() != fusion.color(group, role).rgba()
    ]
    assert differ == []
    assert ours.color(roles.Highlight) == QColor("#1f6fb2")


def test_the_start_look_costs_no_qstyle_enums():
    """Before the first paint nothing may build QStyle's Python enums (~10 ms): a fresh
    interpreter runs create_application and the start look, then checks PySide's lazy
    type table for QStyle."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "from companion.ui.app import create_application\n"
        "app = create_application(['companion'])\n"
        "import PySide6.QtWidgets as w\n"
        "print('QStyle' in w.__dict__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    ).stdout.split()
    assert out[-1] == "False"


def test_page_titles_and_hints_follow_the_type_scale(qtbot, restored):
    from PySide6.QtWidgets import QLabel

    apply_theme(restored, {})
    base = restored.font().pointSizeF()
    from companion.ui.widgets.type_scale import type_role

    title, hint, body = QLabel("Study list"), QLabel("Ctrl+Enter saves"), QLabel("text")
    type_role(title, "pageTitle")
    type_role(hint, "hint")
    for label in (title, hint, body):
        qtbot.addWidget(label)
        label.show()
    assert title.font().pointSizeF() == pytest.approx(base * 1.4, abs=0.1)
    assert title.font().weight() >= 600
    assert hint.font().pointSizeF() == pytest.approx(base * 0.9, abs=0.1)
    assert body.font().pointSizeF() == pytest.approx(base)


@pytest.mark.parametrize("title", ["Now", "Now: before the round", "Before each round — now"])
def test_a_section_header_has_room_for_its_semibold_title(qtbot, title):
    """Group box titles are drawn semibold; the style measured them in the regular
    weight, and "Now: before the round" was cut to "...rounc"."""
    from PySide6.QtGui import QFont, QFontMetrics
    from PySide6.QtWidgets import QGroupBox, QStyle, QStyleOptionGroupBox

    box = QGroupBox(title)
    qtbot.addWidget(box)
    box.resize(600, 100)
    box.show()
    option = QStyleOptionGroupBox()
    box.initStyleOption(option)
    label = box.style().subControlRect(
        QStyle.ComplexControl.CC_GroupBox, option, QStyle.SubControl.SC_GroupBoxLabel, box
    )
    semibold = QFont(box.font())
    semibold.setWeight(QFont.Weight.DemiBold)
    assert label.width() >= QFontMetrics(semibold).horizontalAdvance(title)


def _ring_across(widget, focused_image, plain_image, start: int = 0) -> tuple[int, float]:
    """Along the widget's middle row, from the left: how many pixels wide the focus ring
    is (pixels drawn only with the focus) and its weakest contrast against what is around
    it: the window outside and the first pixel inside."""
    from PySide6.QtGui import QColor

    from companion.ui.theme import contrast_ratio

    y = focused_image.height() // 2
    ring: list[QColor] = []
    inside = None
    for x in range(max(0, start), min(start + 12, focused_image.width())):
        on, off = focused_image.pixel(x, y), plain_image.pixel(x, y)
        if on != off:
            ring.append(QColor.fromRgb(on))
        elif ring:
            inside = QColor.fromRgb(on)
            break
    window = widget.palette().color(QPalette.ColorRole.Window)
    around = [window] + ([inside] if inside is not None else [])
    weakest = min((contrast_ratio(c, g) for c in ring for g in around), default=1.0)
    return len(ring), weakest


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_is_seen_at_a_glance(qtbot, restored, scheme):
    """A button, a check box and a line edit reached with Tab wear a ring at least two
    pixels wide that stands 3:1 against what it is drawn over, in light and dark."""
    from PySide6.QtWidgets import QCheckBox, QLineEdit, QPushButton, QVBoxLayout, QWidget

    apply_scheme(restored, scheme)
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    first = QLineEdit("start here")
    button, box, edit = QPushButton("Save the plan"), QCheckBox("Ticked by hand"), QLineEdit("x")
    for widget in (first, button, box, edit):
        layout.addWidget(widget)
    host.show()
    qtbot.waitExposed(host)
    host.activateWindow()
    qtbot.waitUntil(host.isActiveWindow)
    plain = {id(w): w.grab().toImage() for w in (button, box, edit)}
    first.setFocus(Qt.FocusReason.OtherFocusReason)
    for widget in (button, box, edit):
        qtbot.keyClick(host.focusWidget(), Qt.Key.Key_Tab)
        qtbot.waitUntil(widget.hasFocus)
        start = 0
        if widget is box:  # the ring goes round the label, right of the indicator
            from PySide6.QtWidgets import QStyle, QStyleOptionButton

            option = QStyleOptionButton()
            box.initStyleOption(option)
            focus_rect = box.style().subElementRect(
                QStyle.SubElement.SE_CheckBoxFocusRect, option, box
            )
            start = focus_rect.left() - 1
        image = widget.grab().toImage()
        width, weakest = _ring_across(widget, image, plain[id(widget)], start)
        name = type(widget).__name__
        assert width >= 2, f"{scheme}: {name} ring {width} px wide"
        assert weakest >= 3.0, f"{scheme}: {name} ring {weakest:.2f}:1"


def _middle(widget, x: int | None = None, y: int | None = None):
    image = widget.grab().toImage()
    return image.pixelColor(
        image.width() // 2 if x is None else x, image.height() // 2 if y is None else y
    )


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no raise
def test_the_card_and_the_rail_take_the_new_scheme_while_shown(restored, qtbot, ctx, day_service):
    """A light/dark switch with the main window and the card up: the rail, the card's
    header, its round tabs and its outline are drawn in the new colours, and back. Their
    own sheets are set again for the new palette (the app has no sheet to repolish all)."""
    from PySide6.QtWidgets import QToolButton, QWidget

    from companion.ui.cue.window import CueCardWindow
    from companion.ui.mainwindow import MainWindow

    apply_scheme(restored, "light")
    bus = day_service.bus
    window = MainWindow(ctx, bus, day=lambda: day_service)
    qtbot.addWidget(window)
    window.resize(900, 600)
    window.show()
    qtbot.waitUntil(lambda: window._painted)
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    card.resize(360, 560)
    card.show()
    qtbot.waitExposed(card)
    handle = card.findChild(QWidget, "cueHandle")
    strip = card.findChild(QWidget, "cueStrip")
    tab = next(b for b in strip.findChildren(QToolButton) if not b.isChecked())

    def colours():
        return {
            "rail": _middle(window.rail, x=4),
            "handle": _middle(handle, x=2, y=2),
            "tab": _middle(tab, x=3),
            "outline": _middle(card, x=0),
            "page": _middle(card.findChild(QWidget, "cueRoundPage"), x=6),
        }

    light = colours()
    apply_scheme(restored, "dark")
    qtbot.wait(20)
    dark = colours()
    apply_scheme(restored, "light")
    qtbot.wait(20)
    again = colours()
    for part in light:
        assert light[part].lightness() > dark[part].lightness() + 40, (
            part,
            light[part].name(),
            dark[part].name(),
        )
        assert again[part] == light[part], part
