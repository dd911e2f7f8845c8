"""The round-type and interviewer-role pickers that every round dialog uses."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QSpinBox, QWidget

from companion.core.content.audiences import BY_ID
from companion.core.content.loader import slug
from companion.core.day.loops import INTERVIEWER_ROLES, MAX_ROUND_MINUTES


def role_title(role: str) -> str:
    if not role:
        return "(not known)"
    return BY_ID[role].role if role in BY_ID else role


def round_type_combo(
    types: list[tuple[str, str]], current: str = "", *, label: str = ""
) -> QComboBox:
    """Round types from the content, editable so a user can name their own; a custom
    type (``current`` not listed) shows its ``label``, the words the user typed."""
    combo = QComboBox()
    combo.setEditable(True)
    # Enter in the text field must not add the typed name as a list item without an id
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    combo.setAccessibleName("Round type")
    for type_id, title in types:
        combo.addItem(title, type_id)
    found = combo.findData(current)
    if found >= 0:
        combo.setCurrentIndex(found)
    elif label or current:
        combo.setEditText(label or current)
    return combo


def chosen_round_type(combo: QComboBox) -> str:
    """The picked type's id, or a typed name made into an id ("" when empty)."""

    index = combo.currentIndex()
    text = combo.currentText().strip()
    if index >= 0 and combo.itemText(index) == text and combo.itemData(index):
        return combo.itemData(index)
    return slug(text) if text else ""


def chosen_round_label(combo: QComboBox) -> str:
    """The user's own words for a type not in the list ("" for a listed type)."""
    index = combo.currentIndex()
    text = " ".join(combo.currentText().split())
    if index >= 0 and combo.itemText(index) == text and combo.itemData(index):
        return ""
    return text


def role_combo(current: str = "") -> QComboBox:
    """The interviewer roles, keeping one the journal holds that this list does not."""
    combo = QComboBox()
    combo.setAccessibleName("Interviewer role")
    roles = list(INTERVIEWER_ROLES)
    if current not in roles:
        roles.append(current)
    for role in roles:
        combo.addItem(role_title(role), role)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


LENGTHS = (30, 45, 60)  # minutes offered; anything else is "Other"


class LengthPicker(QWidget):
    """A round's length: 30, 45 or 60 minutes, or Other with its own number of minutes."""

    picked = Signal()  # the user chose a length (not set from code)

    def __init__(self, minutes: int, parent=None):
        super().__init__(parent)
        self.combo = QComboBox()
        self.combo.setAccessibleName("Round length")
        for value in LENGTHS:
            self.combo.addItem(f"{value} min", value)
        self.combo.addItem("Other…", 0)
        self.other = QSpinBox()
        self.other.setAccessibleName("Round length in minutes")
        self.other.setRange(1, MAX_ROUND_MINUTES)
        self.other.setSuffix(" min")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.other)
        layout.addStretch(1)
        self.setFocusProxy(self.combo)
        # a label's mnemonic (the dialogs' "&Length:") focuses only a buddy that takes focus
        self.setFocusPolicy(self.combo.focusPolicy())
        self.set_minutes(minutes)
        self.combo.activated.connect(self._chosen)
        self.other.editingFinished.connect(self.picked.emit)

    def set_minutes(self, minutes: int) -> None:
        index = self.combo.findData(minutes) if minutes in LENGTHS else self.combo.count() - 1
        self.combo.setCurrentIndex(index)
        self.other.setValue(max(1, int(minutes or 45)))
        self.other.setVisible(minutes not in LENGTHS)

    def _chosen(self, index: int) -> None:
        value = self.combo.itemData(index)
        self.other.setVisible(not value)
        if not value:
            self.other.setFocus()
            self.other.selectAll()
        self.picked.emit()

    def minutes(self) -> int:
        return int(self.combo.currentData() or self.other.value())
