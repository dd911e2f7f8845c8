"""How the Journal page draws its loops: two lines per loop that always fit the list's
width (elided, the full text in the tooltip), so the list never scrolls sideways."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from companion.ui.journal.models import OBJECT, loop_dates
from companion.ui.weak_calls import held_weakly

PAD = 6  # pixels around the two lines
EDIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2)


class LoopDelegate(QStyledItemDelegate):
    """Line 1: company (bold) · role. Line 2: dates · status, in a quieter colour."""

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        metrics = QFontMetrics(option.font)
        # width 1: the view gives each row its own width, never more than it has
        return QSize(1, 2 * metrics.height() + metrics.leading() + 2 * PAD)

    def paint(self, painter, option, index) -> None:
        loop = index.data(OBJECT)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        if loop is None:
            return
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        group = (
            QPalette.ColorGroup.Active
            if opt.state & QStyle.StateFlag.State_Active
            else QPalette.ColorGroup.Inactive
        )
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        color = opt.palette.color(group, text_role)
        rect = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        normal = QFont(opt.font)
        bold = QFont(opt.font)
        bold.setBold(True)
        plain_metrics = QFontMetrics(normal)
        bold_metrics = QFontMetrics(bold)
        line = plain_metrics.height()

        painter.save()
        painter.setPen(color)
        company = bold_metrics.elidedText(loop.company, Qt.TextElideMode.ElideRight, rect.width())
        painter.setFont(bold)
        first = QRect(rect.left(), rect.top(), rect.width(), line)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(first, align, company)
        used = bold_metrics.horizontalAdvance(company)
        if loop.role and used < rect.width():
            role = plain_metrics.elidedText(
                f" · {loop.role}", Qt.TextElideMode.ElideRight, rect.width() - used
            )
            painter.setFont(normal)
            painter.drawText(first.adjusted(used, 0, 0, 0), align, role)
        painter.setFont(normal)
        if not selected:
            painter.setPen(_quieter(color))
        second = QRect(rect.left(), rect.top() + line + plain_metrics.leading(), rect.width(), line)
        status = f"{loop_dates(loop)} · {loop.status}"
        painter.drawText(
            second,
            align,
            plain_metrics.elidedText(status, Qt.TextElideMode.ElideRight, rect.width()),
        )
        painter.restore()


def _quieter(color: QColor) -> QColor:
    """The text colour, partly transparent: secondary text that follows the theme."""
    out = QColor(color)
    out.setAlpha(170)
    return out


class ViewKeys(QObject):
    """Enter / F2 edits the current row of a view and Delete deletes it."""

    def __init__(self, view, edit, delete=None):
        super().__init__(view)
        self.edit = held_weakly(edit)  # the page's own methods: no cycle through the page
        self.delete = held_weakly(delete) if delete is not None else None
        view.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.KeyPress and not event.modifiers() & ~(
            Qt.KeyboardModifier.KeypadModifier
        ):
            if event.key() in EDIT_KEYS:
                self.edit()
                return True
            if event.key() == Qt.Key.Key_Delete and self.delete is not None:
                self.delete()
                return True
        return False
