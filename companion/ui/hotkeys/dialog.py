"""The Hotkeys dialog: rebind each global hotkey, see conflicts, and the off switch.

Opened from the cue card's menu (through ``AppBus.open_hotkeys``) or the tray menu; the
application factory passes the running :class:`HotkeyService`, which rebinds on Save.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QKeySequenceEdit,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.core import hotkeys as hk

_TO_QT_MOD = {"ctrl": "Ctrl", "alt": "Alt", "shift": "Shift", "super": "Meta"}
_TO_QT_KEY = {
    "PageDown": "PgDown",
    "PageUp": "PgUp",
    "BackSpace": "Backspace",
    "Escape": "Esc",
    "Delete": "Del",
    "Insert": "Ins",
    "BracketLeft": "[",
    "BracketRight": "]",
}


def to_qt(keys: str) -> QKeySequence:
    """``ctrl+alt+PageDown`` -> the QKeySequence Ctrl+Alt+PgDown (empty for "")."""
    if not keys:
        return QKeySequence()
    combo = hk.parse_combo(keys)
    mods = [_TO_QT_MOD[m] for m in hk.MODIFIERS if m in combo.modifiers]
    return QKeySequence.fromString(
        "+".join([*mods, _TO_QT_KEY.get(combo.key, combo.key)]),
        QKeySequence.SequenceFormat.PortableText,
    )


def from_qt(sequence: QKeySequence) -> str:
    """A QKeySequence -> our notation ("" when empty); raises HotkeyError."""
    text = sequence.toString(QKeySequence.SequenceFormat.PortableText)
    if not text:
        return ""
    if "," in text:
        raise hk.HotkeyError(f"{text!r}: one key combination only")
    return hk.normalise(text)


class HotkeysDialog(QDialog):
    def __init__(self, prefs, service=None, parent=None):
        super().__init__(parent)
        self.prefs = prefs
        self.service = service
        self.setWindowTitle("Global hotkeys")
        self.setAccessibleName("Global hotkeys")
        bindings = hk.bindings_in_force(prefs)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "These keys drive the cue card while the video call has the focus. "
            "Click a field and press the new keys; the \u2715 button unbinds."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.enabled = QCheckBox("Use global hotkeys")
        self.enabled.setChecked(bindings.enabled)
        self.enabled.setAccessibleName("Use global hotkeys")
        layout.addWidget(self.enabled)
        grid_box = QWidget()
        grid = QGridLayout(grid_box)
        grid.setContentsMargins(0, 0, 0, 0)
        self.edits: dict[str, QKeySequenceEdit] = {}
        self.notes: dict[str, QLabel] = {}
        for row, (action, text) in enumerate(hk.ACTIONS):
            name = QLabel(text)
            edit = QKeySequenceEdit(to_qt(bindings.keys.get(action, "")))
            edit.setMaximumSequenceLength(1)
            edit.setAccessibleName(f"Keys for {text}")
            edit.setToolTip(f"{action}; default {hk.DEFAULTS[action]}")
            name.setBuddy(edit)
            clear = QToolButton()
            clear.setText("\u2715")
            clear.setAccessibleName(f"Unbind {text}")
            clear.setToolTip("No key for this action")
            clear.clicked.connect(edit.clear)
            note = QLabel("")
            note.setProperty("role", "small")
            note.setWordWrap(True)
            note.setAccessibleName(f"Problem with {text}")
            grid.addWidget(name, 2 * row, 0)
            grid.addWidget(edit, 2 * row, 1)
            grid.addWidget(clear, 2 * row, 2)
            grid.addWidget(note, 2 * row + 1, 1, 1, 2)
            self.edits[action] = edit
            self.notes[action] = note
        layout.addWidget(grid_box)
        self.enabled.toggled.connect(grid_box.setEnabled)
        grid_box.setEnabled(bindings.enabled)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Hotkey status")
        layout.addWidget(self.status)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save
            | QDialogButtonBox.StandardButton.Close
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            self.restore_defaults
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.show_status()

    def restore_defaults(self) -> None:
        for action, edit in self.edits.items():
            edit.setKeySequence(to_qt(hk.DEFAULTS[action]))

    def wanted(self) -> tuple[dict[str, str], dict[str, str]]:
        """(action -> keys, action -> problem) from the fields."""
        keys: dict[str, str] = {}
        problems: dict[str, str] = {}
        used: dict[str, str] = {}
        for action, edit in self.edits.items():
            try:
                combo = from_qt(edit.keySequence())
            except hk.HotkeyError as exc:
                problems[action] = str(exc)
                continue
            if not combo:
                continue
            if combo in used:
                problems[action] = f"{combo} is already bound to {used[combo]}"
                continue
            used[combo] = action
            keys[action] = combo
        return keys, problems

    def save(self) -> bool:
        """Store the bindings and rebind; stays open to show any problem."""
        keys, problems = self.wanted()
        for action, note in self.notes.items():
            note.setText(problems.get(action, ""))
        if problems:
            self.status.setText("Nothing saved: fix the keys marked above.")
            return False
        hk.store_bindings(self.prefs, keys, self.enabled.isChecked())
        error = self.prefs.save()
        if error:
            self.status.setText(error)
            return False
        if self.service is not None:
            self.service.start()
        if self.show_status():
            return False
        self.accept()
        return True

    def show_status(self) -> bool:
        """Show the service's conflicts beside their actions; True if there are any."""
        service = self.service
        if service is None:
            self.status.setText("The hotkeys start with the app.")
            return False
        found = False
        for action, note in self.notes.items():
            text = "; ".join(p for p in service.problems if f"({action})" in p)
            note.setText(text)
            found = found or bool(text)
        if service.unavailable:
            self.status.setText(service.unavailable)
        elif not self.enabled.isChecked():
            self.status.setText("Global hotkeys are off.")
        else:
            note = f" {service.note}" if service.note else ""
            self.status.setText(f"Working through: {service.backend_name}.{note}")
        for note in self.notes.values():
            note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return found


def open_hotkeys_dialog(prefs, service, parent=None) -> HotkeysDialog:
    """Show the dialog (not modal: no nested event loop)."""
    dialog = HotkeysDialog(prefs, service, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    dialog.show()
    dialog.raise_()
    return dialog
