"""The Cue card page: pick the round type, the loop and the round length, then open the
always-on-top card beside the call."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from companion.core.content import lengths
from companion.core.context import AppContext
from companion.core.cue import rounds as cue_rounds
from companion.core.cue import state as cue_state
from companion.core.day import loops
from companion.ui.bus import AppBus
from companion.ui.widgets.type_scale import type_role
from companion.ui.widgets.vertical_scroll import VerticalScroll

HELP = (
    "<p>The card stays above other windows and never takes focus from the call. "
    "Click into it to use the keys: <b>1-9</b> round type, <b>\u2190 \u2192</b> or "
    "<b>Space</b> step, <b>G</b> glance mode, <b>Ctrl+Enter</b> start or end the round, "
    "<b>+ / -</b> text size, <b>[ ]</b> opacity.</p>"
    "<p><b>Screen sharing:</b> the card shows up in a shared screen; the app does not hide "
    "it from capture. Share a single window, or keep the card on a screen you do not share.</p>"
    "<p><b>Wayland:</b> the compositor decides stacking; if the card does not stay on top, "
    "add a window rule (KWin: Keep above; sway: "
    '<code>for_window [app_id="io.github.interviewcompanion.Companion" title="Cue card"] floating enable, sticky enable</code>).</p>'
)


class CuePage(QWidget):
    def __init__(self, ctx: AppContext, bus: AppBus, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.setAccessibleName("Cue card page")
        # the settings and their help scroll: at 200 % the help's last lines were cut off
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(24, 18, 24, 18)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(VerticalScroll(body, "Cue card settings, scrollable", tab_stop=True))
        title = QLabel("Cue card")
        type_role(title, "pageTitle")
        layout.addWidget(title)
        form = QFormLayout()
        self.round_combo = QComboBox()
        self.round_combo.setAccessibleName("Round type")
        self.round_combo.setToolTip("The round the card opens on (keys 1-9 on the card)")
        self.loop_combo = QComboBox()
        self.loop_combo.setAccessibleName("Interview loop")
        self.loop_combo.setToolTip("Where Start and End on the card record the round")
        self.minutes = QSpinBox()
        self.minutes.setRange(lengths.MIN_MINUTES, lengths.MAX_MINUTES)
        self.minutes.setSuffix(" min")
        self.minutes.setAccessibleName("Round length in minutes")
        self.minutes.setToolTip("The timebox length for this round type")
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(cue_state.OPACITY_MIN, cue_state.OPACITY_MAX)
        self.opacity.setSingleStep(10)
        self.opacity.setPageStep(10)
        self.opacity.setAccessibleName("Card opacity")
        self.opacity.setToolTip("Card opacity, 30-100% ([ and ] on the card)")
        self.font_size = QSpinBox()
        self.font_size.setRange(cue_state.FONT_MIN, cue_state.FONT_MAX)
        self.font_size.setSuffix(" pt")
        self.font_size.setAccessibleName("Card text size")
        self.font_size.setToolTip("Card text size (+ and - on the card)")
        form.addRow("Round type", self.round_combo)
        form.addRow("Loop", self.loop_combo)
        form.addRow("Round length", self.minutes)
        form.addRow("Opacity", self.opacity)
        form.addRow("Text size", self.font_size)
        layout.addLayout(form)
        self.open_button = QPushButton("Open the cue card")
        self.open_button.setAccessibleName("Open the cue card")
        self.open_button.setToolTip("Show the always-on-top card for this round type")
        self.open_button.clicked.connect(self.open_card)
        layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        help_text = QLabel(HELP)
        help_text.setWordWrap(True)
        help_text.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(help_text)
        layout.addStretch(1)
        self._loading = False
        self.round_combo.currentIndexChanged.connect(self._round_chosen)
        self.loop_combo.currentIndexChanged.connect(self._loop_chosen)
        self.minutes.valueChanged.connect(self._minutes_chosen)
        self.opacity.valueChanged.connect(lambda v: self._update(opacity=v))
        self.font_size.valueChanged.connect(lambda v: self._update(font_pt=v))
        self.load()

    def on_shown(self) -> None:
        self.load()

    def load(self) -> None:
        """Fill the controls from the content, the journal and the saved card state."""

        self._loading = True
        try:
            state = cue_state.load_state(self.ctx.settings)
            self.infos = cue_rounds.round_infos(self.ctx.content)
            self.round_combo.clear()
            for info in self.infos:
                self.round_combo.addItem(f"{info.key} · {info.title}", info.id)
            index = max(0, self.round_combo.findData(state.round_type))
            self.round_combo.setCurrentIndex(index)
            self.loop_combo.clear()
            self.loop_combo.addItem("Today's loop (automatic)", None)
            for lp in loops.list_loops(self.ctx.db):
                when = f" · {lp.starts_on}" if lp.starts_on else ""
                self.loop_combo.addItem(f"{lp.company}{when}", lp.id)
            self.loop_combo.setCurrentIndex(max(0, self.loop_combo.findData(state.loop_id)))
            self.opacity.setValue(state.opacity)
            self.font_size.setValue(state.font_pt)
            self._show_minutes(state)
            self.open_button.setEnabled(bool(self.infos))
        finally:
            self._loading = False

    def _current_info(self) -> cue_rounds.RoundInfo | None:
        return cue_rounds.find_round(self.infos, self.round_combo.currentData())

    def _show_minutes(self, state: cue_state.CueState) -> None:
        info = self._current_info()
        fallback = self.ctx.content.round_defaults().minutes
        self.minutes.setValue(state.round_minutes(info) if info else fallback)
        self.minutes.setEnabled(info is not None and "@timebox" in info.sections)

    def _update(self, **changes) -> None:
        """Load, change, save: the card may have saved newer values meanwhile."""
        if self._loading:
            return
        cue_state.CardMemory(self.ctx.settings).change(**changes)

    def _round_chosen(self) -> None:
        info = self._current_info()
        if info is None or self._loading:
            return
        self._picked = info.id  # chosen here this session: the card opens on it
        self._update(round_type=info.id)
        self._loading = True
        try:
            self._show_minutes(cue_state.load_state(self.ctx.settings))
        finally:
            self._loading = False

    def _loop_chosen(self) -> None:
        self._update(loop_id=self.loop_combo.currentData())

    def _minutes_chosen(self, value: int) -> None:
        info = self._current_info()
        if info is not None:
            self._update(minutes={info.id: value})

    def open_card(self) -> None:
        """Open the card: on the type picked here, else on the day's own round (the one
        running, or the next one due), as the card follows the day."""
        self.bus.show_cue_card.emit(getattr(self, "_picked", ""))
