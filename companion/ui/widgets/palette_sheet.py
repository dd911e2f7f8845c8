"""A widget's own style sheet in the application's colours, through a light/dark switch.

Qt resolves a sheet's ``palette(...)`` colours when the sheet is set, so a widget styled
that way keeps the old scheme's colours after ``QApplication.setPalette`` (and gets no
``PaletteChange``: its palette is the sheet's). Setting the sheet again when the app's
palette changes restyles that widget and its children alone; the app itself has no style
sheet, so a switch never restyles every widget.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget


class _FollowPalette(QObject):
    def __init__(self, widget: QWidget, sheet: str):
        super().__init__(widget)
        self.widget = widget
        self.sheet = sheet
        widget.setStyleSheet(sheet)
        # the receiver is this object: the connection ends with the widget
        QGuiApplication.instance().paletteChanged.connect(self.follow)

    @Slot(object)
    def follow(self, _palette=None) -> None:
        self.widget.setStyleSheet(self.sheet)


# the widget's property that holds its follower: found without widget.children(), which
# wraps every child in Python (a list view's model, delegate and scroll bars, each a PySide
# type built on first sight: ~2 ms before the first paint, for the rail)
FOLLOWER = "paletteSheetFollower"


def palette_sheet(widget: QWidget, sheet: str) -> None:
    """Give ``widget`` the style sheet ``sheet`` and keep its ``palette()`` colours those
    of the application's palette: the sheet is set again each time that changes."""
    follower = widget.property(FOLLOWER)
    if isinstance(follower, _FollowPalette):
        follower.sheet = sheet
        follower.follow()
        return
    widget.setProperty(FOLLOWER, _FollowPalette(widget, sheet))
