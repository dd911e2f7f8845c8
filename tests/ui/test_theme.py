"""The visual system is the app's default: create_application applies it in the system's
scheme, the environment can force one, and a scheme change while running is followed.

The platforms here (offscreen, Xvfb without a desktop) report no colour scheme and ignore
requests for one, so the system's change is the real QStyleHints signal emitted by the
test, as the platform theme would emit it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from companion.ui.app import create_application
from companion.ui.theme import SCHEME_ENV, apply_theme, follow_system, is_dark

pytestmark = pytest.mark.gui


@pytest.fixture
def restored(qapp):
    """Put the test application's look back as the other UI tests see it."""
    yield qapp
    qapp.styleHints().unsetColorScheme()
    apply_theme(qapp, {})


def _check_box_outline(qtbot) -> float:
    """The contrast of an unticked check box's edge against the window, as drawn."""
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QCheckBox, QStyle, QStyleOptionButton

    from companion.ui.theme import contrast_ratio

    box = QCheckBox("Unticked")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    option = QStyleOptionButton()
    box.initStyleOption(option)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    window = box.palette().color(QPalette.ColorRole.Window)
    return max(
        contrast_ratio(QColor.fromRgb(image.pixel(x, y)), window)
        for x in range(rect.left(), rect.right() + 1)
        for y in (rect.top(), rect.bottom())
    )


def test_the_visual_system_is_applied_without_any_setting(restored, monkeypatch, qtbot):
    monkeypatch.delenv(SCHEME_ENV, raising=False)
    app = create_application(["companion"])
    assert app.property("companionScheme") == "light"
    assert _check_box_outline(qtbot) >= 3  # plain Fusion draws it at 1.65:1
    assert 'role="sectionHeader"' in app.styleSheet()
    # the platforms here are light: the light palette with the darker selection
    assert not is_dark(app.palette())
    assert app.palette().color(QPalette.ColorRole.Highlight).name() == "#1f6fb2"


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


def test_a_forced_scheme_is_not_changed_by_the_system(restored):
    apply_theme(restored, {SCHEME_ENV: "dark"})
    follow_system(restored, {SCHEME_ENV: "dark"})
    restored.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert is_dark(restored.palette())
