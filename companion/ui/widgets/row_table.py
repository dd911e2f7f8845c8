"""A read-only table of whole rows, as the side panels list segments and stories."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

# rows sized to their wrapped text up to this many; past it (a bank far past the pack's 12
# stories) one line each: sizing 1,600 rows to their text took ~200 ms a refresh and
# ~130 ms a step of a splitter drag
FIT_ROWS_UP_TO = 100


def row_table(headers: list[str], name: str, *, stretch: tuple[int, ...] = (0,)) -> QTableWidget:
    """Rows picked one at a time and never edited; Tab moves on past the table (the arrows
    move between its cells). The columns in ``stretch`` share the width, the others are as
    wide as their contents; rows are as tall as their text while few (:func:`fit_rows`)."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setAccessibleName(name)
    table.setTabKeyNavigation(False)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    header = table.horizontalHeader()
    shared, fitted = QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.ResizeToContents
    for column in range(len(headers)):
        header.setSectionResizeMode(column, shared if column in stretch else fitted)
    fit_rows(table)
    return table


def fit_rows(table: QTableWidget) -> None:
    """After filling ``table``: its rows as tall as their wrapped text at the columns'
    current widths while there are few of them (:data:`FIT_ROWS_UP_TO`), else as they are.
    Sized once when filled, a story's title was cut to "[A title yo…" once the panel was
    laid out at 200 %."""
    few = table.rowCount() <= FIT_ROWS_UP_TO
    mode = QHeaderView.ResizeMode.ResizeToContents if few else QHeaderView.ResizeMode.Interactive
    table.verticalHeader().setSectionResizeMode(mode)
