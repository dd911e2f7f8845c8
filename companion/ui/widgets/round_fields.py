"""The round-type and interviewer-role pickers that every round dialog uses."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from companion.core.day.loops import INTERVIEWER_ROLES

ROLE_TITLES = {
    "": "(not known)",
    "hiring-manager": "Hiring manager",
    "peer": "Peer",
    "leadership": "Leadership",
}


def role_title(role: str) -> str:
    return ROLE_TITLES.get(role, role)


def round_type_combo(types: list[tuple[str, str]], current: str = "") -> QComboBox:
    """Round types from the content, editable so a user can name their own."""
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
    elif current:
        combo.setEditText(current)
    return combo


def chosen_round_type(combo: QComboBox) -> str:
    """The picked type's id, or a typed name made into an id ("" when empty)."""
    from companion.core.content import slug

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
