"""A scroll area that scrolls up and down only and is as wide as its content needs: a
side of a splitter, or a page, that must not be squeezed below its content's width (a
window narrowed beside the cue card clipped what did not fit, with no bar to reach it)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QScrollArea, QWidget


class VerticalScroll(QScrollArea):
    def __init__(self, content: QWidget, accessible_name: str, *, tab_stop: bool = False):
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        if not tab_stop:  # a page's own scroll area is a Tab stop: the keys scroll it
            self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab moves through its fields
        self.setAccessibleName(accessible_name)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        # QScrollArea watches its content already; a content that grows (a page's body
        # built after the page) changes this area's minimum, which its layout must hear
        if event.type() == QEvent.Type.LayoutRequest and watched is self.widget():
            self.updateGeometry()
        return super().eventFilter(watched, event)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is not None:
            bar = self.verticalScrollBar().sizeHint().width()
            hint.setWidth(max(hint.width(), content.minimumSizeHint().width() + bar))
        return hint
