"""Dialogs of the About me page: revision history and speaking-rate calibration."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.about import store as about_store
from companion.core.about.pitch import calibrated_rate

REASONS = {
    "autosave": "autosaved",
    "save": "saved",
    "import": "before import",
    "restore": "before restore",
    "template": "before template",
    "close": "on close",
}


class HistoryDialog(QDialog):
    """Browse revisions, newest first; Restore puts the chosen one back in the editor."""

    def __init__(self, db, parent: QWidget | None = None, *, store=None, title="One-pager history"):
        super().__init__(parent)

        self._store = store or about_store  # the story bank passes its DocumentStore
        self._db = db
        self.chosen_text: str | None = None
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.resize(760, 480)
        self._build()
        self._fill(self._store.list_revisions(db))

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        body = QHBoxLayout()
        self.list = QListWidget()
        self.list.setAccessibleName("Revisions")
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setAccessibleName("Revision text")
        body.addWidget(self.list, 1)
        body.addWidget(self.view, 2)
        layout.addLayout(body)
        self.buttons = QDialogButtonBox()
        self.restore_button = self.buttons.addButton(
            "&Restore this version", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.restore_button.setAccessibleName("Restore this version")
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.buttons.accepted.connect(self._restore)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.list.currentItemChanged.connect(self._show)

    def _fill(self, revisions) -> None:
        """The revisions, newest first; the first one shown."""
        for info in revisions:
            when = info.saved_at[:19].replace("T", " ")
            item = QListWidgetItem(
                f"{when} · {REASONS.get(info.reason, info.reason)} · {info.words} words"
            )
            item.setData(Qt.ItemDataRole.UserRole, info.id)
            self.list.addItem(item)
        if revisions:
            self.list.setCurrentRow(0)
        else:
            self.view.setPlaceholderText(
                "No revisions yet. A revision is kept every couple of minutes while you type, "
                "and whenever you press Ctrl+S."
            )
            self.restore_button.setEnabled(False)

    def _show(self, item: QListWidgetItem | None) -> None:
        if item is None:
            self.view.clear()
            return
        revision_id = item.data(Qt.ItemDataRole.UserRole)
        try:
            self.view.setPlainText(self._store.revision_text(self._db, revision_id))
        except KeyError:
            self.view.setPlainText("(This revision is no longer stored.)")

    def _restore(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return
        try:
            self.chosen_text = self._store.revision_text(
                self._db, item.data(Qt.ItemDataRole.UserRole)
            )
        except KeyError:
            return
        self.accept()


class CalibrateDialog(QDialog):
    """Time the user reading the pitch aloud; the result is their words per minute."""

    def __init__(
        self,
        pitch_words: int,
        parent: QWidget | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        super().__init__(parent)
        self.setWindowTitle("Calibrate speaking rate")
        self.setAccessibleName("Calibrate speaking rate")
        self.words = pitch_words
        self.monotonic = monotonic
        self.rate: float | None = None
        self._started: float | None = None
        layout = QVBoxLayout(self)
        self._build_readout(layout, pitch_words)
        self._build_buttons(layout)
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        if pitch_words < 20:
            self.start_button.setEnabled(False)
            self.result.setText("Write at least 20 words of pitch before calibrating.")

    def _build_readout(self, layout: QVBoxLayout, pitch_words: int) -> None:
        """What to read, the running clock and the result."""
        intro = QLabel(
            f"Your pitch has <b>{pitch_words}</b> words. Press Start, read the pitch aloud at "
            "your interview pace, then press Stop."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.clock = QLabel("0.0 s")
        self.clock.setAccessibleName("Elapsed time")
        self.clock.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.clock.font()
        font.setPointSizeF(font.pointSizeF() * 2)
        self.clock.setFont(font)
        layout.addWidget(self.clock)
        self.result = QLabel("")
        self.result.setWordWrap(True)
        self.result.setAccessibleName("Calibration result")
        layout.addWidget(self.result)

    def _build_buttons(self, layout: QVBoxLayout) -> None:
        row = QHBoxLayout()
        self.start_button = QPushButton("&Start")
        self.start_button.setAccessibleName("Start reading")
        self.stop_button = QPushButton("S&top")
        self.stop_button.setAccessibleName("Stop reading")
        self.stop_button.setEnabled(False)
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.use_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.use_button.setText("&Use this rate")
        self.use_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.start_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)

    def start(self) -> None:
        self._started = self.monotonic()
        self.rate = None
        self.use_button.setEnabled(False)
        self.result.setText("")
        self.start_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.stop_button.setFocus()
        self._timer.start()

    def _tick(self) -> None:
        if self._started is not None:
            self.clock.setText(f"{self.monotonic() - self._started:.1f} s")

    def stop(self) -> None:
        if self._started is None:
            return

        self._timer.stop()
        seconds = self.monotonic() - self._started
        self._started = None
        self.clock.setText(f"{seconds:.1f} s")
        self.start_button.setText("&Again")
        self.start_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        try:
            self.rate = calibrated_rate(self.words, seconds)
        except ValueError as exc:
            self.result.setText(str(exc))
            return
        self.result.setText(
            f"You read at <b>{self.rate:.0f}</b> words per minute. Use this rate for timing?"
        )
        self.use_button.setEnabled(True)
        self.use_button.setFocus()
