"""Contrast of the text painted inside item views (lists, trees, tables) and their headers.

A label's text colour can be read from its palette, but an item view paints its cells
through a delegate that may pick any colour (a model's ForegroundRole, an item's
setForeground, a delegate's own quieter second line). So the cells are judged as drawn:
for each visible cell, the background is the colour around its text and each line of
text is a horizontal band of rows holding other colours, its colour the band's pixel
that stands out most. Every line needs 4.5:1 (WCAG 2.1 AA, 1.4.3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from PySide6.QtCore import QModelIndex, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeView,
    QWidget,
)

from companion.ui.theme import contrast_ratio

NEEDED = 4.5
INK = 1.1  # a pixel this far from the background is part of something drawn on it
MIN_BAND = 4  # rows: thinner runs are frame lines, underlines or the dot of an i
INSET = 2  # pixels trimmed off a whole cell: the focus frame and grid lines
FOCUSED = " (focused)"  # after a view's name when it was judged with the focus in it


@dataclass
class Tally:
    """What the audit looked at, so a test can prove it was not vacuous."""

    lines: Counter = field(default_factory=Counter)  # view name -> lines of text judged

    def total(self) -> int:
        return sum(self.lines.values())


class Pixels:
    """An image's pixels as 0xAARRGGBB integers, row after row, read once."""

    def __init__(self, image: QImage):
        image = image.convertToFormat(QImage.Format.Format_RGB32)
        self.data = memoryview(bytes(image.constBits())).cast("I")
        self.stride = image.bytesPerLine() // 4
        self.rect = QRect(0, 0, image.width(), image.height())
        self.ratio = image.devicePixelRatio() or 1


class _Ratios(dict):
    """contrast_ratio(colour, background) per colour, computed once."""

    def __init__(self, background: int):
        super().__init__()
        self.background = QColor.fromRgb(background)

    def __missing__(self, rgb: int) -> float:
        self[rgb] = ratio = contrast_ratio(QColor.fromRgb(rgb), self.background)
        return ratio


def _background(pixels: memoryview, stride: int, rect: QRect) -> int:
    """The most common colour just inside the edges of ``rect``, where no text reaches (the
    text itself can be the most common colour inside a narrow header section, whose
    background is a gradient) and past the frame a style may draw around it."""
    if rect.width() > 4 and rect.height() > 4:
        rect = rect.adjusted(1, 1, -1, -1)
    counts: Counter = Counter()
    for y in (rect.top(), rect.bottom()):
        start = y * stride
        counts.update(pixels[start + rect.left() : start + rect.right() + 1])
    for y in range(rect.top() + 1, rect.bottom()):
        counts.update((pixels[y * stride + rect.left()], pixels[y * stride + rect.right()]))
    return counts.most_common(1)[0][0] & 0xFFFFFF


def judge(image: Pixels, text_area: QRect) -> list[tuple[QColor, QColor, float]]:
    """(text, background, ratio) for each line of text drawn in ``text_area`` (in the
    image's pixels). The background is the one around the text (the text's own rect, not
    the cell: a selected list item fills its text rect apart from its icon); a line is
    a band of rows holding other colours, its text colour the one there that stands out
    most, so a quieter second line is judged on its own."""
    pixels, stride = image.data, image.stride
    area = text_area & image.rect
    if area.isEmpty():
        return []
    ratios = _Ratios(_background(pixels, stride, area))
    rows: list[tuple[int, set[int]]] = []  # (y, its colours) for the rows with ink on them
    for y in range(area.top(), area.bottom() + 1):
        start = y * stride
        row = {p & 0xFFFFFF for p in pixels[start + area.left() : start + area.right() + 1]}
        if max(ratios[p] for p in row) >= INK:
            rows.append((y, row))
    bands: list[list[tuple[int, set[int]]]] = []
    for y, row in rows:
        if bands and bands[-1][-1][0] == y - 1:
            bands[-1].append((y, row))
        else:
            bands.append([(y, row)])
    lines = []
    for band in bands:
        if len(band) < MIN_BAND:
            continue  # a frame line, an underline, the dot of an i
        text = max(set().union(*(row for _, row in band)), key=ratios.__getitem__)
        lines.append((QColor.fromRgb(text), ratios.background, ratios[text]))
    return lines


# where the cells are -------------------------------------------------------------------


def _indexes(view: QAbstractItemView, parent: QModelIndex) -> Iterator[QModelIndex]:
    model = view.model()
    if isinstance(view, QListView):
        columns = [view.modelColumn()]
    else:
        columns = [
            c
            for c in range(model.columnCount(parent))
            if not (isinstance(view, QTreeView | QTableView) and view.isColumnHidden(c))
        ]
    for row in range(model.rowCount(parent)):
        if isinstance(view, QTreeView) and view.isRowHidden(row, parent):
            continue
        if isinstance(view, QListView | QTableView) and view.isRowHidden(row):
            continue
        for column in columns:
            yield model.index(row, column, parent)
        first = model.index(row, 0, parent)
        if isinstance(view, QTreeView) and view.isExpanded(first):
            yield from _indexes(view, first)


def _row_name(index: QModelIndex) -> str:
    rows = []
    while index.isValid():
        rows.append(str(index.row()))
        index = index.parent()
    return ".".join(reversed(rows))


def _paints_standard(delegate) -> bool:
    """Whether the delegate paints like QStyledItemDelegate (text where the style says)."""
    return isinstance(delegate, QStyledItemDelegate) and type(delegate).paint is (
        QStyledItemDelegate.paint
    )


def _text_area(view: QAbstractItemView, index: QModelIndex, cell: QRect) -> QRect:
    """Where the text of ``index`` goes: the style's text rect for a standard delegate,
    else the whole cell less its frame (a custom delegate may paint several lines)."""
    delegate = view.itemDelegateForIndex(index)
    if not _paints_standard(delegate):
        return cell.adjusted(INSET, INSET, -INSET, -INSET)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = cell
    delegate.initStyleOption(option, index)
    style = view.style()
    return style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)


def _scaled(rect: QRect, ratio: float) -> QRect:
    return QRect(
        round(rect.x() * ratio),
        round(rect.y() * ratio),
        round(rect.width() * ratio),
        round(rect.height() * ratio),
    )


def _as_drawn(widget: QWidget, shot: QImage) -> QImage:
    """The widget as on screen (backgrounds its parents paint included) when it is all in
    view, else as it draws itself."""
    if widget.visibleRegion().boundingRect().size() == widget.size():
        top_left = widget.mapTo(widget.window(), QPoint(0, 0))
        return shot.copy(_scaled(QRect(top_left, widget.size()), shot.devicePixelRatio()))
    return widget.grab().toImage()


def _problem(where, name, what, text, background, ratio) -> str:
    return (
        f"{where}: {name}: {what}: text {text.name()} on {background.name()}"
        f" is {ratio:.2f}:1 (needs {NEEDED})"
    )


def _display(index: QModelIndex) -> str:
    text = str(index.data(Qt.ItemDataRole.DisplayRole) or "").replace("\n", " ")
    return text if len(text) <= 40 else text[:39] + "…"


def _cells(view: QAbstractItemView, where: str, name: str, shot: QImage, tally: Tally):
    viewport = view.viewport()
    image = Pixels(_as_drawn(viewport, shot))
    problems = []
    for index in _indexes(view, view.rootIndex()):
        cell = view.visualRect(index) & viewport.rect()
        if cell.height() < MIN_BAND or cell.width() < 4:
            continue
        area = _text_area(view, index, view.visualRect(index)) & cell
        lines = judge(image, _scaled(area, image.ratio))
        text = _display(index)
        what = f"row {_row_name(index)} {text!r}"
        in_view = cell == view.visualRect(index)
        problems += _report(where, name, what, text, in_view, "cell", lines, tally)
    return problems


def _sections(header: QHeaderView, where: str, name: str, shot: QImage, tally: Tally):
    image = Pixels(_as_drawn(header, shot))
    model = header.model()
    horizontal = header.orientation() == Qt.Orientation.Horizontal
    problems = []
    for logical in range(header.count()):
        if header.isSectionHidden(logical):
            continue
        start, size = header.sectionViewportPosition(logical), header.sectionSize(logical)
        if horizontal:
            cell = QRect(start, 0, size, header.height())
        else:
            cell = QRect(0, start, header.width(), size)
        whole = QRect(cell)
        cell &= header.rect()
        if cell.height() < MIN_BAND or cell.width() < 4:
            continue
        # a section's edges are its separator lines, and Fusion shades its top and bottom
        area = cell.adjusted(3, 3, -3, -3)
        lines = judge(image, _scaled(area, image.ratio))
        text = str(model.headerData(logical, header.orientation()) or "")
        what = f"header section {logical} {text!r}"
        problems += _report(where, name, what, text, cell == whole, "section", lines, tally)
    return problems


def _report(where, name, what, text, in_view, kind, lines, tally: Tally) -> list[str]:
    """Each judged line under 4.5:1, and a cell or section whose text cannot be seen."""
    problems = []
    if text.strip() and not lines and in_view:
        problems.append(f"{where}: {name}: {what}: no text to be seen in the {kind}")
    for color, background, contrast in lines:
        tally.lines[name.removesuffix(FOCUSED)] += 1
        if contrast < NEEDED:
            problems.append(_problem(where, name, what, color, background, contrast))
    return problems


def _focus(view: QAbstractItemView, *, focused: bool) -> None:
    """Put the keyboard focus in ``view`` (the style then draws its current item's focus
    frame) or take it out."""
    QApplication.processEvents()  # a window shown just now takes its focus first
    if focused:
        view.window().activateWindow()
        view.setFocus(Qt.FocusReason.TabFocusReason)
    else:
        view.clearFocus()
    view.viewport().update()
    QApplication.processEvents()
    assert view.hasFocus() == focused, f"{view.accessibleName()}: the focus would not move"


def _views(root: QWidget) -> list[QAbstractItemView]:
    return [
        view
        for view in [root, *root.findChildren(QAbstractItemView)]
        if isinstance(view, QAbstractItemView)
        and not isinstance(view, QHeaderView)
        and not isinstance(view.window(), QComboBox)
        and view.isVisible()
        and view.isEnabled()
        and view.model() is not None
    ]


def item_view_problems(
    root: QWidget,
    where: str,
    describe: Callable[[QWidget], str],
    tally: Tally,
    *,
    focused: bool = False,
) -> list[str]:
    """Low-contrast text in the visible item views under ``root`` (included) and in their
    headers, each view judged without the focus or, if ``focused``, with the focus in it
    (a style may draw the current item's focus frame over its text). ``describe`` names a
    view that has no accessible name."""
    problems = []
    for view in _views(root):
        name = view.accessibleName() or describe(view)
        _focus(view, focused=focused)
        suffix = FOCUSED if focused else ""
        shot = root.window().grab().toImage()
        problems += _cells(view, where, name + suffix, shot, tally)
        headers = []
        if isinstance(view, QTreeView):
            headers = [view.header()]
        elif isinstance(view, QTableView):
            headers = [view.horizontalHeader(), view.verticalHeader()]
        for header in headers:
            if header.isVisible():
                problems += _sections(header, where, f"{name} header{suffix}", shot, tally)
    return problems


def edge_contrast(widget: QWidget, rect: QRect) -> float:
    """The strongest contrast between a pixel on ``rect``'s top or bottom edge, as
    ``widget`` draws itself, and its window colour: an outline or a focus ring needs 3:1
    (WCAG 2.1, 1.4.11)."""
    from PySide6.QtGui import QPalette

    from companion.ui.theme import contrast_ratio

    image = widget.grab().toImage()
    window = widget.palette().color(QPalette.ColorRole.Window)
    best = 1.0
    for x in range(rect.left(), rect.right() + 1):
        for y in (rect.top(), rect.bottom()):
            if 0 <= x < image.width() and 0 <= y < image.height():
                best = max(best, contrast_ratio(QColor.fromRgb(image.pixel(x, y)), window))
    return best


def check_box_outline(box) -> float:
    """``edge_contrast`` of an unticked check box's indicator (the box shown already)."""
    from PySide6.QtWidgets import QStyleOptionButton

    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    return edge_contrast(box, indicator)
