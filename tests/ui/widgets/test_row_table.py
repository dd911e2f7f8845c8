"""The side panels' table of whole rows: read-only, one row at a time, and each row as
tall as its wrapped text at the width the table has now (a story's title was cut short
at 200 % when rows were sized once, before the panel had its width)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidgetItem

from companion.ui.widgets.row_table import FIT_ROWS_UP_TO, fit_rows, row_table

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


def test_a_table_of_many_rows_keeps_one_line_a_row(qtbot):
    """Sizing every row to its text is for the few rows a panel shows; a bank far past its
    stories keeps its rows as they are (1,600 rows cost ~200 ms a refresh)."""
    table = row_table(["Story"], "Stories")
    qtbot.addWidget(table)
    table.setRowCount(FIT_ROWS_UP_TO)
    fit_rows(table)
    assert table.verticalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.ResizeToContents
    table.setRowCount(FIT_ROWS_UP_TO + 1)
    fit_rows(table)
    assert table.verticalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.Interactive
    table.setRowCount(3)
    fit_rows(table)
    assert table.verticalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.ResizeToContents
