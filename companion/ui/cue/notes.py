"""The post-round capture for the cue card: the journal's capture dialog when this build
has it, else a plain notes box that appends to the round's notes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from companion.core.context import AppContext


class RoundNotesBox(QDialog):
    """Non-modal: what was asked, while it is fresh. Saving appends; nothing is replaced."""

    def __init__(self, ctx: AppContext, round_id: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.round_id = round_id
        self.setWindowTitle("Round notes")
        self.setAccessibleName("Round notes")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        layout = QVBoxLayout(self)
        intro = QLabel("Write down what was asked and how it went, while it is fresh.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.edit = QPlainTextEdit()
        self.edit.setAccessibleName("Notes for the round")
        self.edit.setTabChangesFocus(True)  # Tab moves on to the buttons, not into the text
        self.edit.setPlaceholderText("Questions asked, what went well, what to study next")
        layout.addWidget(self.edit, 1)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        layout.addWidget(self.message)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Save).setToolTip("Save (Ctrl+Enter)")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(420, 300)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.save()
            return
        super().keyPressEvent(event)

    def save(self) -> bool:
        from companion.core.day import loops

        text = self.edit.toPlainText().strip()
        if not text:
            self.accept()
            return True
        try:
            rnd = loops.get_round(self.ctx.db, self.round_id)
            if rnd is None:
                raise LookupError(f"round {self.round_id} is no longer in the journal")
            notes = f"{rnd.notes.rstrip()}\n\n{text}" if rnd.notes.strip() else text
            loops.update_round(self.ctx.db, self.round_id, notes=notes)
        except Exception as exc:  # keep the text in the box so nothing typed is lost
            self.message.setText(f"Could not save the notes: {exc}. Your text is still here.")
            self.message.setVisible(True)
            return False
        self.accept()
        return True


def open_capture(
    ctx: AppContext, bus, round_id: int, parent: QWidget | None = None
) -> QDialog | None:
    """Open the quick capture for ``round_id`` (nothing to capture into for 0)."""
    try:
        from companion.ui.journal.capture import CaptureDialog
    except ImportError:
        CaptureDialog = None  # noqa: N806
    if CaptureDialog is not None:
        dialog = CaptureDialog(ctx, bus, round_id, parent)
    elif round_id:
        dialog = RoundNotesBox(ctx, round_id, parent)
    else:
        return None
    dialog.show()
    return dialog
