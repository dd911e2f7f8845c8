"""Tab order by layout (widgets/tab_order.py) stays inside the container's own window."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog, QLineEdit, QPushButton, QVBoxLayout, QWidget

from companion.ui.widgets.tab_order import follow_layout

pytestmark = pytest.mark.gui


def test_a_dialog_open_over_the_page_is_not_chained_into_its_tab_order(qtbot):
    # the walk: Today re-rendered while its Import .ics file dialog (a child window of
    # the page) was open, and Qt warned "setTabOrder: 'first' and 'second' must be in
    # the same window" on stderr (the suite fails on that warning)
    page = QWidget()
    qtbot.addWidget(page)
    layout = QVBoxLayout(page)
    top, bottom = QPushButton("top"), QPushButton("bottom")
    layout.addWidget(top)
    layout.addWidget(bottom)
    dialog = QDialog(page)
    field = QLineEdit(dialog)
    page.show()
    dialog.show()
    qtbot.waitExposed(dialog)
    assert follow_layout(page) == [top, bottom]
    assert field not in follow_layout(page)
