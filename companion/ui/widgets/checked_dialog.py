"""A dialog whose OK first checks the fields with the core rules: a mistake is shown in
the dialog, which stays open, so nothing typed is lost."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
)

from companion.ui.widgets.type_scale import type_role


class CheckedDialog(QDialog):
    """OK runs ``check()``; a ValueError is shown in the dialog and it stays open."""

    def __init__(self, title: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.form = QFormLayout()
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setAccessibleName("What is wrong")
        self.error.setWordWrap(True)
        self.error.setVisible(False)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.try_accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        hint = QLabel("Ctrl+Enter saves · Esc cancels")
        hint.setObjectName("hint")
        type_role(hint, "hint")
        row = QHBoxLayout()
        row.addWidget(hint, 1)
        row.addWidget(self.buttons)
        layout.addLayout(row)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.try_accept)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """The first field has the keyboard focus, not OK: the buttons are made before the
        fields, so Qt's first-in-chain choice was OK and typed letters went nowhere."""
        super().showEvent(event)
        focus = self.focusWidget()
        if focus is None or focus in self.buttons.buttons():
            first = self._first_field()
            if first is not None:
                first.setFocus()

    def _first_field(self):
        for row in range(self.form.rowCount()):
            item = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            widget = item.widget() if item is not None else None
            if (
                widget is not None
                and widget.isEnabled()
                and widget.focusPolicy() != Qt.FocusPolicy.NoFocus
            ):
                return widget
        return None

    def check(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def show_problem(self, message: str) -> None:
        """One line in the dialog saying what was wrong; the dialog stays open."""
        self.error.setText(message)
        self.error.setVisible(True)

    def try_accept(self) -> bool:
        try:
            self.check()
        except ValueError as exc:
            self.show_problem(str(exc))
            return False
        self.accept()
        return True
