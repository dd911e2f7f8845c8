"""Quick post-round capture: what was asked and what was flubbed, in under a minute.

Keyboard first: type a line and press Enter to add it; Tab moves between the lists;
Ctrl+Enter saves and closes. Closing with Esc saves nothing and loses nothing: what was
typed is kept as a draft (in the preferences) that the next capture restores. A topic is
tagged inline in every list alike: "Shard a KV cache #consistent hashing" (core rule:
companion.core.journal.capture_lines).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import Change
from companion.core.content.audiences import audience_of
from companion.core.context import AppContext
from companion.core.day.loops import current_loop, get_loop, get_round
from companion.core.day.model import round_title
from companion.core.journal import entries as journal
from companion.core.journal.capture_lines import asked_parts, flub_parts, split_topic
from companion.core.selfcheck import planner
from companion.ui.journal.capture_draft import forget_draft, keep_draft, restore_draft
from companion.ui.widgets.type_scale import type_role

__all__ = ["CaptureDesk", "CaptureDialog", "split_topic"]


class _LineList(QWidget):
    """A one-line entry that adds to a list on Enter; Delete removes the selected line."""

    def __init__(self, label: str, placeholder: str, parent=None):
        super().__init__(parent)
        self.entry = QLineEdit()
        self.entry.setPlaceholderText(placeholder)
        self.entry.setAccessibleName(f"{label}: type and press Enter")
        self.list = QListWidget()
        self.list.setAccessibleName(f"{label}: added so far")
        self.list.setMaximumHeight(90)
        # a long line wraps to the list's width: no sideways scroll hiding "(2 noticeable)"
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.entry.returnPressed.connect(self.add_current)
        remove = QShortcut(QKeySequence.StandardKey.Delete, self.list, self._remove_selected)
        remove.setContext(Qt.ShortcutContext.WidgetShortcut)  # one Delete per list, not window
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.entry)
        layout.addWidget(self.list)
        self.lines_raw: list[str] = []
        self.extra: list = []  # per-line extra value (severity for flubs)
        # a combo whose value goes with each line added (the flub's severity); a widget,
        # not a closure over the dialog: that made a reference cycle, and an unparented
        # dialog was then deleted by Python's collector, whenever it ran (mid-paint)
        self.extra_from: QComboBox | None = None

    def add_current(self) -> None:
        text = self.entry.text().strip()
        if not text:
            return
        label = text
        if self.extra_from is not None:
            label = f"{text}  ({self.extra_from.currentText()})"
            self.extra.append(self.extra_from.currentData())
        self.list.addItem(label)
        self.lines_raw.append(text)
        self.entry.clear()

    def _remove_selected(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)
            del self.lines_raw[row]
            if self.extra:
                del self.extra[row]

    def pending(self) -> list[str]:
        """Everything added, plus a line typed but not yet added with Enter."""
        lines = list(self.lines_raw)
        if self.entry.text().strip():
            lines.append(self.entry.text().strip())
        return lines

    def clear_all(self) -> None:
        self.list.clear()
        self.lines_raw.clear()
        self.extra.clear()
        self.entry.clear()


class CaptureDialog(QDialog):
    """Non-modal; ``round_id`` 0 means no round was recorded (entries go to the current loop)."""

    captured = Signal(int)  # saved: the round id (0 for none), for the debrief

    def __init__(self, ctx: AppContext, bus, round_id: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.round = get_round(ctx.db, round_id) if round_id else None
        if self.round is not None and self.round.loop_id is not None:
            self.loop = get_loop(ctx.db, self.round.loop_id)
        elif self.round is None:
            self.loop = current_loop(ctx.db, ctx.now().date())
        else:
            self.loop = None
        self.round_id = self.round.id if self.round is not None else 0
        self.saved = False
        self.setModal(False)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setWindowTitle("Write down what was asked")
        self.setAccessibleName("Quick capture after a round")

        where = self.loop.company if self.loop else "no loop"
        what = "Round"
        if self.round is not None:  # named as the card and Today name it
            what = round_title(self.round, ctx.content.round_titles())
        header = QLabel(f"<b>{escape(what)}</b> · {escape(where)}")
        header.setTextFormat(Qt.TextFormat.RichText)
        hint = QLabel(
            "Type, Enter adds a line · Ctrl+Enter saves · end a line with #topic to tag it"
        )
        hint.setObjectName("hint")
        type_role(hint, "hint")

        self.asked = _LineList("What they asked", "What did they ask?  #topic")
        self.flubbed = _LineList("What you flubbed", "What did you flub?  #topic")
        self.severity = QComboBox()
        self.severity.setAccessibleName("How bad was the flub")
        for value, name in ((1, "1 minor"), (2, "2 noticeable"), (3, "3 bad")):
            self.severity.addItem(name, value)
        self.severity.setCurrentIndex(1)
        self.flubbed.extra_from = self.severity
        self.went_well = _LineList("What went well", "What went well?")
        self.asked_them = None
        if self.loop is not None:
            self.asked_them = _LineList("What you asked them", "A question you asked them")
        self.notes = QPlainTextEdit()
        self.notes.setAccessibleName("Notes")
        self.notes.setPlaceholderText("Anything else (optional)")
        self.notes.setMaximumHeight(70)
        self.notes.setTabChangesFocus(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setVisible(False)

        form = QFormLayout()
        form.addRow("&Asked", self.asked)
        flub_row = QHBoxLayout()
        flub_row.addWidget(self.flubbed, 1)
        flub_row.addWidget(self.severity, 0, Qt.AlignmentFlag.AlignTop)
        form.addRow("&Flubbed", flub_row)
        form.addRow("&Went well", self.went_well)
        if self.asked_them is not None:
            form.addRow("You as&ked them", self.asked_them)
        form.addRow("&Notes", self.notes)
        self._buddies(form)

        save = QPushButton("Save  (Ctrl+Enter)")
        save.setAccessibleName("Save and close")
        save.setDefault(False)
        save.setAutoDefault(False)
        save.clicked.connect(self.save_and_close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(save)

        # the fields scroll when the screen is small (a 1600x900 screen at 200%)
        body = QWidget()
        inner = QVBoxLayout(body)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(header)
        inner.addWidget(hint)
        inner.addLayout(form)
        inner.addWidget(self.message)
        inner.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from field to field
        scroll.setAccessibleName("Capture fields")
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addLayout(buttons)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.save_and_close)
        # Tab from the flub line goes to its severity, then on to the list
        QWidget.setTabOrder(self.flubbed.entry, self.severity)
        QWidget.setTabOrder(self.severity, self.flubbed.list)
        QWidget.setTabOrder(self.flubbed.list, self.went_well.entry)
        if restore_draft(self.ctx.settings, self, self.round_id):
            self.message.setText("Restored what you typed last time; it is not saved yet.")
            self.message.setVisible(True)
        self.asked.entry.setFocus()
        self.resize(560, 580)

    def _buddies(self, form: QFormLayout) -> None:
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label is None or field is None or label.widget() is None:
                continue
            target = field.widget()
            if target is None and field.layout() is not None:
                target = field.layout().itemAt(0).widget()
            if isinstance(target, _LineList):
                target = target.entry
            if target is not None:
                label.widget().setBuddy(target)

    def has_pending(self) -> bool:
        lists = [self.asked, self.flubbed, self.went_well] + (
            [self.asked_them] if self.asked_them else []
        )
        return any(lst.pending() for lst in lists) or bool(self.notes.toPlainText().strip())

    def save(self) -> bool:
        """Write everything typed; on failure keep it all in the form and say why."""
        db = self.ctx.db
        now = self.ctx.now()
        loop_id = self.loop.id if self.loop else None
        round_id = self.round.id if self.round else None
        severities = list(self.flubbed.extra)
        planned = bool(self.asked_them is not None and self.asked_them.pending())
        try:
            with db.atomic():
                for line in self.asked.pending():
                    question, topic = asked_parts(line)
                    journal.add_asked(db, loop_id, round_id, question or line, topic, at=now)
                for n, line in enumerate(self.flubbed.pending()):
                    topic, detail = flub_parts(line)
                    severity = severities[n] if n < len(severities) else self.severity.currentData()
                    journal.add_flub(db, loop_id, round_id, topic or line, detail, severity, at=now)
                for line in self.went_well.pending():
                    journal.add_went_well(db, loop_id, round_id, line, at=now)
                if self.asked_them is not None:
                    audience = audience_of(self.round.interviewer_role if self.round else "")
                    for line in self.asked_them.pending():
                        planner.record_asked(db, loop_id, line, audience, round_id, now)
                notes = self.notes.toPlainText().strip()
                if notes:
                    if self.round is not None:
                        joined = "\n".join(p for p in (self.round.notes, notes) if p)
                        journal.set_round_notes(db, self.round.id, joined)
                    elif self.loop is not None:
                        joined = "\n".join(p for p in (self.loop.notes, notes) if p)
                        journal.set_loop_notes(db, self.loop.id, joined)
                    else:
                        raise ValueError("There is no loop or round to keep these notes in.")
        except Exception as exc:  # keep the text so nothing typed is lost
            self.message.setText(f"Not saved: {exc} Your text is still here.")
            self.message.setVisible(True)
            return False
        for lst in (self.asked, self.flubbed, self.went_well, self.asked_them):
            if lst is not None:
                lst.clear_all()
        self.notes.clear()
        forget_draft(self.ctx.settings, self.round_id)
        self.saved = True
        kinds = ("capture", "plan") if planned else ("capture",)  # "plan": you asked them
        self.bus.announce(Change.of(*kinds, ids=[self.round_id], origin=self))
        self.captured.emit(self.round_id)
        return True

    def save_and_close(self) -> None:
        if self.save():
            self.accept()

    def lists(self) -> dict:
        found = {"asked": self.asked, "flubbed": self.flubbed, "went_well": self.went_well}
        if self.asked_them is not None:
            found["asked_them"] = self.asked_them
        return found

    def _keep_as_draft(self) -> None:
        if self.has_pending() and not self.saved:
            keep_draft(self.ctx.settings, self, self.round_id)

    def reject(self) -> None:
        # Esc or the window's close button: nothing is saved behind the user's back, and
        # nothing typed is lost: it is kept as a draft that the next capture restores
        self._keep_as_draft()
        super().reject()

    def closeEvent(self, event) -> None:  # noqa: N802
        self._keep_as_draft()
        super().closeEvent(event)


class CaptureDesk(QObject):
    """The session's captures: one per round, in front of the cue card, focused in
    "Asked". Opening a round whose capture is open brings that one forward instead."""

    changed = Signal()  # a capture opened or closed
    captured = Signal(int)  # a capture was saved: its round id (the debrief follows)

    def __init__(self, ctx: AppContext, bus, parent_widget: QWidget | None = None):
        super().__init__(parent_widget)
        self.ctx = ctx
        self.bus = bus
        self.parent_widget = parent_widget
        self.dialogs: dict[int, CaptureDialog] = {}

    def open(self, round_id: int) -> CaptureDialog:
        dialog = self.dialogs.get(round_id)
        if dialog is not None and dialog.isVisible():
            self._forward(dialog)
            return dialog
        dialog = CaptureDialog(self.ctx, self.bus, round_id, self.parent_widget)
        # above the always-on-top card: the capture is what matters once a round ends
        dialog.setWindowFlag(Qt.WindowType.WindowStaysOnTopHint, True)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.finished.connect(lambda _r, rid=round_id, d=dialog: self._closed(rid, d))
        dialog.captured.connect(self.captured)
        self.dialogs[round_id] = dialog
        fit_on_screen(dialog)
        self._forward(dialog)
        # once more when it is mapped: a window manager may refuse to activate a window
        # that is not on screen yet (and the card that asked never takes the focus)
        QTimer.singleShot(0, lambda d=dialog: self._forward_if_open(d))
        self.changed.emit()
        return dialog

    def open_one(self) -> CaptureDialog | None:
        """The capture on screen now (the newest), if any."""
        for dialog in reversed(list(self.dialogs.values())):
            try:
                if dialog.isVisible():
                    return dialog
            except RuntimeError:  # Qt deleted it
                continue
        return None

    def bring_forward(self) -> bool:
        dialog = self.open_one()
        if dialog is None:
            return False
        self._forward(dialog)
        return True

    def _forward(self, dialog: CaptureDialog) -> None:
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        dialog.asked.entry.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _forward_if_open(self, dialog: CaptureDialog) -> None:
        try:
            if dialog.isVisible() and not dialog.isActiveWindow():
                self._forward(dialog)
        except RuntimeError:  # closed and deleted meanwhile
            pass

    def _closed(self, round_id: int, dialog: CaptureDialog) -> None:
        if self.dialogs.get(round_id) is dialog:
            del self.dialogs[round_id]
        self.changed.emit()

    def close_all(self) -> None:
        for dialog in list(self.dialogs.values()):
            dialog.close()


def fit_on_screen(dialog: QWidget, screen=None) -> None:
    """Size the dialog to fit the usable area of its screen (the one under the cursor),
    centred there: every field on screen at 100% and 200%."""
    from PySide6.QtGui import QCursor

    screen = screen or QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area = screen.availableGeometry()
    margin = 24
    width = min(dialog.width(), area.width() - 2 * margin)
    height = min(dialog.height(), area.height() - 2 * margin - 40)  # the frame's title bar
    dialog.resize(max(width, 200), max(height, 200))
    dialog.move(
        area.x() + (area.width() - dialog.width()) // 2,
        area.y() + max(margin, (area.height() - dialog.height()) // 2),
    )
