"""Dialogs that edit the journal: an entry, a loop, a topic to mark weak, and the list of
weak topics (new loops and rounds use companion.ui.widgets.loop_dialogs). Each checks its fields with the core rules before closing, so a
mistake is shown next to the form and nothing typed is lost.

The Journal page's editor reaches these through a ``JournalDialogs`` object (``editor.dialogs``); tests swap it
for one that answers without showing anything.
"""

from __future__ import annotations

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.day.loops import LOOP_STATUSES, clean_loop_fields
from companion.core.journal.edits import clean_entry_fields
from companion.core.journal.entries import SEVERITIES
from companion.core.journal.weak import open_weak_topics
from companion.core.text import topic_key
from companion.ui.stories.expected import dialog_topics
from companion.ui.widgets.checked_dialog import CheckedDialog
from companion.ui.widgets.loop_dialogs import RoundDialog
from companion.ui.widgets.opening import open_dialog
from companion.ui.widgets.plain_text import plain_tip

NO_DATE = QDate(2000, 1, 1)  # the QDateEdit minimum, shown as "no date"
KIND_TITLES = {
    "asked": "Edit what they asked",
    "flub": "Edit a flub",
    "went_well": "Edit what went well",
    "weak": "Edit a weak topic",
}


def _text_box(text: str, name: str, height: int = 80) -> QPlainTextEdit:
    box = QPlainTextEdit(text)
    box.setAccessibleName(name)
    box.setTabChangesFocus(True)
    box.setMinimumHeight(height)
    return box


def _line(text: str, name: str, placeholder: str = "") -> QLineEdit:
    line = QLineEdit(text)
    line.setAccessibleName(name)
    line.setPlaceholderText(placeholder)
    return line


class EntryDialog(CheckedDialog):
    """Edit one entry: a question asked, a flub, a went-well note or a weak topic."""

    def __init__(self, kind: str, entry, already_weak: bool = False, parent=None):
        super().__init__(KIND_TITLES[kind], parent)
        self.kind = kind
        self.fields: dict[str, QWidget] = {}
        self.mark_weak = QCheckBox()
        self.mark_weak.setAccessibleName("Mark the topic weak")
        if kind == "asked":
            self._add("question", "&Question", _text_box(entry.question, "Question"))
            self._add("topic", "&Topic", _line(entry.topic, "Topic", "optional, e.g. caching"))
        elif kind == "flub":
            self._add("topic", "&Topic", _line(entry.topic, "Flubbed topic"))
            self._add("detail", "&Detail", _text_box(entry.detail, "What went wrong"))
            severity = QComboBox()
            severity.setAccessibleName("How bad was it")
            for value, name in SEVERITIES.items():
                severity.addItem(f"{value} {name}", value)
            severity.setCurrentIndex(max(0, severity.findData(entry.severity)))
            self._add("severity", "How &bad", severity)
        elif kind == "went_well":
            self._add("text", "&Went well", _text_box(entry.text, "What went well"))
        else:
            self._add("topic", "&Topic", _line(entry.topic, "Weak topic"))
            self._add("note", "&Note", _text_box(entry.note, "Note", 60))
        if kind in ("asked", "flub"):
            topic = self.fields["topic"]
            self.form.addRow("", self.mark_weak)
            if already_weak:
                self.mark_weak.setText("This topic is already on the study list as weak")
                self.mark_weak.setChecked(True)
                self.mark_weak.setEnabled(False)
            else:
                self.mark_weak.setText("&Mark this topic weak (adds it to the study list)")
                topic.textChanged.connect(self._topic_changed)
                self._topic_changed(topic.text())
        else:
            self.mark_weak.setVisible(False)
        self._weak_before = already_weak
        first = next(iter(self.fields.values()))
        first.setFocus()
        self.resize(480, self.sizeHint().height())

    def _add(self, name: str, label: str, widget: QWidget) -> None:
        self.fields[name] = widget
        self.form.addRow(label, widget)

    def _topic_changed(self, text: str) -> None:
        self.mark_weak.setEnabled(bool(text.strip()))
        if not text.strip():
            self.mark_weak.setChecked(False)

    def values(self) -> dict:
        out = {}
        for name, widget in self.fields.items():
            if isinstance(widget, QComboBox):
                out[name] = widget.currentData()
            elif isinstance(widget, QPlainTextEdit):
                out[name] = widget.toPlainText()
            else:
                out[name] = widget.text()
        return out

    def wants_weak(self) -> bool:
        """Whether to mark the (edited) topic weak on save."""
        return self.mark_weak.isChecked() and not self._weak_before

    def check(self) -> None:
        clean_entry_fields(self.kind, self.values())


class LoopEditDialog(CheckedDialog):
    """A loop's company, role, first and last day, status and notes."""

    def __init__(self, loop, parent=None):
        super().__init__("Edit loop", parent)
        self.loop = loop
        self.company = _line(loop.company, "Company")
        self.role = _line(loop.role, "Role", "e.g. Senior backend engineer")
        self.starts = self._date(loop.starts_on, "First day")
        self.ends = self._date(loop.ends_on, "Last day")
        self.status = QComboBox()
        self.status.setAccessibleName("Status")
        statuses = list(LOOP_STATUSES)
        if loop.status and loop.status not in statuses:
            statuses.append(loop.status)
        for status in statuses:
            self.status.addItem(status.capitalize(), status)
        self.status.setCurrentIndex(max(0, self.status.findData(loop.status)))
        self.notes = _text_box(loop.notes, "Loop notes", 100)
        self.form.addRow("&Company", self.company)
        self.form.addRow("&Role", self.role)
        days = QHBoxLayout()
        days.addWidget(self.starts)
        to = QLabel("to")
        days.addWidget(to)
        days.addWidget(self.ends)
        days.addStretch(1)
        self.form.addRow("&Dates", days)
        label = self.form.labelForField(days)
        if isinstance(label, QLabel):
            label.setBuddy(self.starts)
        self.form.addRow("&Status", self.status)
        self.form.addRow("&Notes", self.notes)
        self.company.setFocus()
        self.resize(500, self.sizeHint().height())

    @staticmethod
    def _date(value: str | None, name: str) -> QDateEdit:
        edit = QDateEdit()
        edit.setAccessibleName(f"{name} (the lowest date means no date)")
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("yyyy-MM-dd")
        edit.setMinimumDate(NO_DATE)
        edit.setSpecialValueText("no date")
        day = QDate.fromString(value or "", "yyyy-MM-dd")
        edit.setDate(day if day.isValid() else NO_DATE)
        return edit

    @staticmethod
    def _iso(edit: QDateEdit) -> str | None:
        day = edit.date()
        return None if day == NO_DATE else day.toString("yyyy-MM-dd")

    def values(self) -> dict:
        return {
            "company": self.company.text(),
            "role": self.role.text(),
            "starts_on": self._iso(self.starts),
            "ends_on": self._iso(self.ends),
            "status": self.status.currentData(),
            "notes": self.notes.toPlainText(),
        }

    def check(self) -> None:
        clean_loop_fields(self.values(), self.loop)


class WeakTopicDialog(CheckedDialog):
    """Name a topic to mark weak, with an optional note."""

    def __init__(self, topic: str = "", note: str = "", parent=None):
        super().__init__("Mark a topic weak", parent)
        self.topic = _line(topic, "Weak topic", "e.g. consistent hashing")
        self.note = _line(note, "Note", "optional: what to practise")
        self.form.addRow("&Topic", self.topic)
        self.form.addRow("&Note", self.note)
        self.topic.setFocus()
        self.topic.selectAll()
        self.resize(440, self.sizeHint().height())

    def values(self) -> tuple[str, str]:
        return self.topic.text(), self.note.text()

    def check(self) -> None:
        clean_entry_fields("weak", {"topic": self.topic.text(), "note": self.note.text()})


class JournalDialogs:
    """The real dialogs, each opened without a nested event loop (the day's timer keeps
    firing and the journal may change under it): ``then`` gets the answer once the user
    accepts, and is not called on cancel."""

    def edit_entry(self, parent, kind: str, entry, already_weak: bool, then) -> None:
        dialog = EntryDialog(kind, entry, already_weak, parent)
        self.open = open_dialog(dialog, lambda: then((dialog.values(), dialog.wants_weak())))

    def edit_loop(self, parent, loop, then) -> None:
        dialog = LoopEditDialog(loop, parent)
        self.open = open_dialog(dialog, lambda: then(dialog.values()))

    def edit_round(
        self, parent, rnd, types, focus_notes: bool = False, lengths=None, *, then
    ) -> None:
        ctx = getattr(parent, "ctx", None)
        dialog = RoundDialog(
            types,
            None,
            rnd,
            parent,
            notes=True,
            focus_notes=focus_notes,
            lengths=lengths,
            **(dialog_topics(ctx, rnd) if ctx is not None else {}),
        )

        def answered() -> None:
            values = dialog.values()
            if dialog.expected_topics() is not None:  # stored apart from the round's fields
                values["expected_topics"] = dialog.expected_topics()
            then(values)

        self.open = open_dialog(dialog, answered)

    def weak_topic(self, parent, topic: str = "", note: str = "", *, then) -> None:
        dialog = WeakTopicDialog(topic, note, parent)
        self.open = open_dialog(dialog, lambda: then(dialog.values()))

    def confirm(self, parent, title: str, text: str, action: str, then) -> None:
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(title)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the text quotes what the user typed
        box.setText(text)
        box.setInformativeText("Ctrl+Z on the Journal page brings it back.")
        yes = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(yes)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _code: then() if box.clickedButton() is yes else None)
        self.open = box
        box.open()


class WeakTopicsDialog(QDialog):
    """Every topic marked weak and not yet studied (read from ``db``); Add… and Unmark
    are asked of the page through ``add_requested`` and ``unmark_requested(key)``.
    Non-modal: it follows the journal while open."""

    add_requested = Signal()
    unmark_requested = Signal(str)

    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.db = db
        self.setWindowTitle("Weak topics")
        self.setAccessibleName("Weak topics")
        intro = QLabel(
            "Topics you marked weak stay on the study list until you mark them studied there. "
            "Unmark one that was marked by mistake."
        )
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setAccessibleName("Topics marked weak")
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.currentRowChanged.connect(lambda _row: self._update_buttons())
        QShortcut(QKeySequence(Qt.Key.Key_Delete), self.list, self.unmark_selected)
        self.empty = QLabel(
            "No topics are marked weak.\nSelect an entry on the Journal page and press "
            "“Mark topic weak”, or add one here."
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName("No weak topics")
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.empty, 1)
        layout.addLayout(self._buttons())
        self.resize(460, 380)
        self.reload()

    def _buttons(self) -> QHBoxLayout:
        self.add = QPushButton("&Add…")
        self.add.setAccessibleName("Add a weak topic")
        self.add.clicked.connect(self.add_requested)
        self.unmark = QPushButton("&Unmark")
        self.unmark.setAccessibleName("Unmark the selected weak topic")
        self.unmark.clicked.connect(self.unmark_selected)
        close = QPushButton("Close")
        close.setAccessibleName("Close the weak topics")
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        row.addWidget(self.add)
        row.addWidget(self.unmark)
        row.addStretch(1)
        row.addWidget(close)
        return row

    def reload(self) -> None:
        keep = self.selected_key()
        self.list.clear()
        seen: set[str] = set()
        for topic in open_weak_topics(self.db):
            key = topic_key(topic.topic)
            if key in seen:
                continue
            seen.add(key)
            text = topic.topic + (f" — {topic.note}" if topic.note else "")
            item = QListWidgetItem(" ".join(text.split()))
            item.setToolTip(plain_tip(text[:2000]))
            item.setData(Qt.ItemDataRole.UserRole, key)
            self.list.addItem(item)
            if key == keep:
                self.list.setCurrentItem(item)
        if self.list.count() and self.list.currentRow() < 0:
            self.list.setCurrentRow(0)
        has = self.list.count() > 0
        self.list.setVisible(has)
        self.empty.setVisible(not has)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.unmark.setEnabled(self.list.currentRow() >= 0)

    def selected_key(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def unmark_selected(self) -> None:
        key = self.selected_key()
        if key is not None:
            self.unmark_requested.emit(key)
