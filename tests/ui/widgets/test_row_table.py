"""The side panels' table of whole rows: read-only, one row at a time, and each row as
tall as its wrapped text at the width the table has now (a story's title was cut short
at 200 % when rows were sized once, before the panel had its width)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractItemView, QTableWidgetItem

from companion.ui.widgets.row_table import row_table

pytestmark = pytest.mark.gui


def test_a_row_grows_when_its_wrapped_text_needs_more_lines(qtbot):
    table = row_table(["Story", "Tags"], "Stories", stretch=(0, 1))
    qtbot.addWidget(table)
    table.setWordWrap(True)
    table.setRowCount(1)
    table.setItem(0, 0, QTableWidgetItem("A title you would say out loud " * 3))
    table.setItem(0, 1, QTableWidgetItem("ownership, impact"))
    table.resize(900, 300)
    table.show()
    qtbot.waitExposed(table)
    wide = table.rowHeight(0)
    table.resize(220, 300)
    qtbot.waitUntil(lambda: table.rowHeight(0) >= 2 * wide)
    assert table.accessibleName() == "Stories" and not table.tabKeyNavigation()
    assert table.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers
    assert table.selectionMode() == QAbstractItemView.SelectionMode.SingleSelection
