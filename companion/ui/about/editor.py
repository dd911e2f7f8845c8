"""The one-pager's editor and its preview.

The editor cleans what is pasted (control characters and binary junk are dropped, and the
page is told how many), and can highlight a line range (the current rehearsal segment).
The preview is a QTextBrowser that never loads a resource and never follows a link.
"""

from __future__ import annotations

import re
import time

from PySide6.QtCore import QMimeData, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QTextFrameFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextBrowser, QTextEdit, QWidget

from companion.core.about.guard import RenderRefused
from companion.core.about.importing import clean_text
from companion.core.about.render import PAGE_CSS
from companion.core.text import count_of
from companion.ui.theme import soft_background

# Sections kept in frames of their own (only the edited one is laid out again); past this
# many, inserting a frame grew with the frames already there (1,500 sections: 15 s)
MAX_FRAMES = 64

# Rendered HTML up to this size is shown at once (a one-pager is 2-8 KB; at the densest,
# 100 emphasis marks a paragraph, Qt takes about 10 us a character to insert and lay it out
# here, so 4,000 stay near half a frame at idle). Larger results are shown in slices of
# about SLICE_SECONDS each from a zero timer, so the window keeps painting and reacting.
IMMEDIATE_CHARS = 4_000
SLICE_SECONDS = 0.008
# One paragraph is laid out whole, whatever the slices: 190 KB of prose in one took
# 73-78 ms of the GUI thread. Past this many characters the preview says so instead.
MAX_BLOCK_CHARS = 10_000


class PitchEditor(QPlainTextEdit):
    #: a message about something the editor changed in a paste (e.g. control characters)
    paste_cleaned = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAccessibleName("One-pager editor")
        self.setAccessibleDescription(
            "Markdown. Headings such as 'Who I am' or 'Why this role' tie text to pitch segments."
            " Tab types a tab; Ctrl+Tab moves to the next control, Ctrl+Shift+Tab back."
        )
        self.setPlaceholderText(
            'Your one-pager is empty.\n\nStart typing Markdown, or use "Start from template" '
            "for the five pitch segments and the three projects."
        )
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTabChangesFocus(False)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt API)
        # Tab is text here, so Ctrl+Tab and Ctrl+Shift+Tab leave the editor: the
        # keyboard must never be trapped in it
        if event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            backwards = event.key() == Qt.Key.Key_Backtab or bool(
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            )
            # QWidget's, not QPlainTextEdit's: that one refuses while Tab is text
            QWidget.focusNextPrevChild(self, not backwards)
            return
        super().keyPressEvent(event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:  # noqa: N802 (Qt API)
        return source.hasText()

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt API)
        if not source.hasText():
            return

        text, removed = clean_text(source.text())
        if removed:
            self.paste_cleaned.emit(
                f"Removed {count_of(removed, 'control character')} from the pasted text "
                "(binary data cannot be part of a one-pager)."
            )
        self.textCursor().insertText(text)
        self.ensureCursorVisible()

    def replace_all(self, text: str) -> None:
        """Replace the whole text as one undoable edit (Ctrl+Z brings the old text back)."""
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()

    def highlight_lines(self, first: int | None, end: int | None) -> None:
        """Shade lines [first, end) (0-based), or clear the shading when first is None."""
        if first is None:
            self.setExtraSelections([])
            return
        doc = self.document()
        start_block = doc.findBlockByNumber(first)
        end_block = doc.findBlockByNumber(max(first, (end or first + 1) - 1))
        if not start_block.isValid():
            self.setExtraSelections([])
            return
        cursor = QTextCursor(start_block)
        if end_block.isValid():
            cursor.setPosition(
                end_block.position() + max(0, end_block.length() - 1),
                QTextCursor.MoveMode.KeepAnchor,
            )
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor

        selection.format.setBackground(soft_background(self.palette()))
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        self.setExtraSelections([selection])
        view = QTextCursor(start_block)
        self.setTextCursor(view)
        self.centerCursor()

    def go_to_line(self, line: int) -> None:
        block = self.document().findBlockByNumber(line)
        if block.isValid():
            self.setTextCursor(QTextCursor(block))
            self.centerCursor()
            self.setFocus(Qt.FocusReason.OtherFocusReason)


class SafePreview(QTextBrowser):
    """A preview that fetches nothing: every resource request (images by URL, style
    sheets) returns no data, and links are not followed."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setAccessibleName("Preview")
        self.setAccessibleDescription("The one-pager as it will look when exported")
        self.blocked: list[str] = []  # URLs refused, newest last (for the curious and tests)
        self._sections: list[str] = []
        self._frames: list = []
        self._display: _Display | None = None  # a long result being shown slice by slice
        self.slices_shown = 0  # how many slices the last result took (tests, benchmarks)
        self._slice_timer = QTimer(self)
        self._slice_timer.setSingleShot(True)
        self._slice_timer.setInterval(0)
        self._slice_timer.timeout.connect(self._slice)
        # a slice that adds only below the view does not repaint it (10 ms a slice for a
        # view full of emphasis); scrolling or the end of the display repaints it
        self.verticalScrollBar().valueChanged.connect(self._thaw)
        # read-only and rebuilt on every pause in typing: an undo history would only grow
        self.document().setUndoRedoEnabled(False)

        self.document().setDefaultStyleSheet(PAGE_CSS)

    def loadResource(self, type_: int, url: QUrl):  # noqa: N802 (Qt API)
        if len(self.blocked) < 100:
            self.blocked.append(url.toString())
        return None

    def show_html(self, body: str) -> None:
        """Replace the content, keeping the scroll position."""
        self._stop_display()
        self._sections = []
        self._frames = []
        bar = self.verticalScrollBar()
        position = bar.value()
        self.setHtml(body)
        bar.setValue(min(position, bar.maximum()))

    def show_message(self, text: str) -> None:
        self._stop_display()
        self.slices_shown = 0
        self._sections = []
        self._frames = []
        self.setPlainText(text)

    def show_render(self, result) -> None:
        """A render's result, as PreviewRender hands it: its sections, or the guard's
        refusal (too deep or too heavy: the reason shows)."""

        if isinstance(result, RenderRefused):
            self.show_message(f"Preview paused: {result}")
        else:
            self.show_sections(result)

    @property
    def displaying(self) -> bool:
        """True while a long result is still being shown slice by slice."""
        return self._display is not None

    def show_sections(self, sections: list[str]) -> None:
        """Show the rendered sections, re-laying out only those that changed.

        Each section sits in its own frame. After an edit, the sections the old and new
        lists share at both ends stay as they are; the few in between are replaced, and
        frames are added or removed when a heading was added or removed. Anything larger
        rebuilds the whole document (in slices when it is long: see :meth:`_rebuild`)."""
        self._stop_display()  # a newer result replaces one still being shown
        longest = longest_block(sections)
        if longest > MAX_BLOCK_CHARS:
            self.show_message(
                f"Preview paused: one paragraph is {longest:,} characters, and the preview lays "
                f"out at most {MAX_BLOCK_CHARS:,} in one piece. Split it with blank lines; "
                "exports are not affected."
            )
            return
        old = self._sections
        if not old or not sections or not self._frames_intact():
            self._rebuild(sections)
            return
        prefix = 0
        limit = min(len(old), len(sections))
        while prefix < limit and old[prefix] == sections[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and old[len(old) - 1 - suffix] == sections[-1 - suffix]:
            suffix += 1
        old_count = len(old) - suffix - prefix
        new_middle = sections[prefix : len(sections) - suffix]
        paired = min(old_count, len(new_middle))
        if (
            old_count > 4
            or len(new_middle) > 4
            or (paired == 0 and prefix == 0)
            or sum(map(len, new_middle)) > IMMEDIATE_CHARS
        ):
            self._rebuild(sections)
            return
        frames = self._frames
        for offset in range(paired):
            frame = frames[prefix + offset]
            cursor = frame.firstCursorPosition()
            cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            _clear_into(cursor)
            cursor.insertHtml(new_middle[offset])
        added = []
        after = frames[prefix + paired - 1]
        for html in new_middle[paired:]:
            cursor = QTextCursor(self.document())
            cursor.setPosition(after.lastPosition() + 1)
            after = cursor.insertFrame(self._frame_format())
            cursor.insertHtml(html)
            added.append(after)
        for frame in frames[prefix + paired : prefix + old_count]:
            cursor = QTextCursor(self.document())
            cursor.setPosition(frame.firstPosition() - 1)
            cursor.setPosition(frame.lastPosition() + 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
        self._frames = frames[: prefix + paired] + added + frames[prefix + old_count :]
        self._sections = list(sections)
        if not self._frames_intact():  # Qt merged or split something: start over
            self._rebuild(sections)

    @staticmethod
    def _frame_format() -> QTextFrameFormat:
        frame_format = QTextFrameFormat()
        frame_format.setMargin(0)
        frame_format.setPadding(0)
        frame_format.setBorder(0)
        return frame_format

    def _rebuild(self, sections: list[str]) -> None:
        """Show ``sections`` from scratch: at once when short, else in slices."""
        bar = self.verticalScrollBar()
        position = bar.value()
        framed = len(sections) <= MAX_FRAMES  # one frame each costs more the more there are
        self.slices_shown = 0
        doc = self.document()
        doc.clear()
        self._frames, self._sections = [], []
        self._display = _Display(sections if framed else ["\n".join(sections)], framed, position)
        self._display.cursor = QTextCursor(doc)
        if sum(map(len, sections)) <= IMMEDIATE_CHARS:
            self._slice(budget=None)
        else:
            # the scroll bar is there from the start: appearing once the text outgrew the
            # view, it narrowed the view and the whole text so far was laid out again in
            # one slice (16 ms at idle for 36 KB of emphasis, where a slice took 5)
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
            # and the view keeps its last picture until the end (or until the reader
            # scrolls): one repaint of a view of dense links takes ~10 ms at idle, and one
            # after each slice came to 16 ms with it
            self.viewport().setUpdatesEnabled(False)
            self._slice()

    def _slice(self, budget: float | None = SLICE_SECONDS) -> None:
        """Insert the next pieces of the result being shown, for about ``budget`` seconds
        (None: all of it), then let the event loop run before the next slice."""
        job = self._display
        if job is None:
            return
        doc = self.document()
        started_slice = time.perf_counter()
        inserted = 0
        while True:
            if job.index < 0 or job.offset >= len(job.sections[job.index]):
                if job.index + 1 >= len(job.sections):
                    if inserted and budget is not None:
                        break  # the repaint that ends it gets a turn of its own (~10 ms)
                    self._finish_display()
                    return
                job.index += 1
                job.offset = 0
                if job.framed:
                    job.cursor.movePosition(QTextCursor.MoveOperation.End)
                    self._frames.append(job.cursor.insertFrame(self._frame_format()))
                job.first = True
            html = job.sections[job.index]
            end = len(html) if budget is None else _cut(html, job.offset, job.size)
            if budget is not None and inserted:  # would this piece overrun the slice?
                spent = time.perf_counter() - started_slice
                if spent + (end - job.offset) * job.per_char > budget:
                    break
            piece = html[job.offset : end]
            started = time.perf_counter()
            if job.first:
                job.cursor.insertHtml(piece)
            else:  # see _LEAD: the piece's first block keeps its own format
                at = job.cursor.position()
                job.cursor.insertHtml(_LEAD + piece)
                _drop_lead(doc, at)
            # laid out here, not in a later event: the piece's cost then counts its layout
            doc.documentLayout().blockBoundingRect(job.cursor.block())
            job.first = False
            job.offset = end
            inserted += 1
            job.restore(self.verticalScrollBar())
            if budget is None:
                continue
            if doc.documentLayout().blockBoundingRect(job.cursor.block()).top() > (
                self.verticalScrollBar().value() + self.viewport().height()
            ):
                self.viewport().setUpdatesEnabled(False)
            # the next piece aims at half a slice, from what this one cost a character
            job.per_char = max(time.perf_counter() - started, 1e-6) / max(len(piece), 1)
            job.size = max(200, min(50_000, int(budget / 2 / job.per_char)))
        job.slices += 1
        self._slice_timer.start()

    def _thaw(self, *_args) -> None:
        if not self.viewport().updatesEnabled():
            self.viewport().setUpdatesEnabled(True)  # and repaints it

    def _finish_display(self) -> None:
        job = self._display
        self._display = None
        self._thaw()
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        if job.framed:
            self._sections = list(job.sections)
        else:  # one document: the next text is shown whole again
            self._frames = []
        job.restore(self.verticalScrollBar(), finished=True)
        self.slices_shown = job.slices + 1

    def _stop_display(self) -> None:
        if self._display is not None:
            self._slice_timer.stop()
            self._display = None
            self._thaw()
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            self._frames, self._sections = [], []  # half shown: rebuild next time

    def _frames_intact(self) -> bool:
        """False when something else replaced the document's content since the last build."""
        return len(self.document().rootFrame().childFrames()) == len(self._frames)


class _Display:
    """A long result being shown: where the next piece starts, and the scroll position to
    come back to once the document is tall enough (unless the reader scrolled meanwhile)."""

    def __init__(self, sections: list[str], framed: bool, position: int):
        self.sections, self.framed, self.position = sections, framed, position
        self.index, self.offset, self.first = -1, 0, True
        self.size = 800  # characters of HTML in the next piece
        self.per_char = 2e-6  # seconds the last piece took a character (2 us: plain prose)
        self.slices = 0
        self.cursor: QTextCursor | None = None
        self._expected = 0  # the bar's value while nobody else has moved it

    def restore(self, bar, finished: bool = False) -> None:
        if self.position is None:
            return
        if bar.value() != self._expected:  # the reader scrolled: leave it there
            self.position = None
        elif finished or bar.maximum() >= self.position:
            bar.setValue(min(self.position, bar.maximum()))
            self.position = None


# Inserting HTML at the end of a block merges the fragment's first block into it, so the
# heading a piece starts with took the previous paragraph's format ("ab" for "<p>a</p>"
# then "<h2>b</h2>"). Each later piece leads with a block of one zero-width space: that
# block merges instead, and the space is removed at once.
_LEAD = "<p>&#8203;</p>"
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>")
_VOID = frozenset({"br", "hr", "img"})


_BLOCK_TAG = re.compile(
    r"<(/?)(p|li|h[1-6]|td|th|pre|blockquote|ul|ol|table|tr|thead|tbody|div|hr|dl|dt|dd)\b[^>]*>"
)


def longest_block(sections: list[str]) -> int:
    """The characters of HTML in the longest run Qt lays out as one block: between
    block-level tags, and between lines inside ``<pre>``."""
    longest = 0
    for html in sections:
        if len(html) <= longest:
            continue
        at, in_pre = 0, 0
        for match in [*_BLOCK_TAG.finditer(html), None]:
            end = match.start() if match else len(html)
            run = html[at:end]
            size = max(map(len, run.split("\n"))) if in_pre else len(run)
            longest = max(longest, size)
            if match:
                if match.group(2) == "pre":
                    in_pre = max(0, in_pre + (-1 if match.group(1) else 1))
                at = match.end()
    return longest


def _drop_lead(doc, at: int) -> None:
    cursor = QTextCursor(doc)
    cursor.setPosition(at)
    cursor.setPosition(at + 1, QTextCursor.MoveMode.KeepAnchor)
    if cursor.selectedText() == "\u200b":
        cursor.removeSelectedText()


def _cut(html: str, start: int, size: int) -> int:
    """The end of the first top-level element of ``html`` that ends ``size`` or more
    characters after ``start`` (elements are never cut), or the end of the HTML. The
    renderer's HTML escapes < and > in text and attributes, so every < starts a tag."""
    depth = 0
    for match in _TAG.finditer(html, start):
        if match.group(2).lower() in _VOID or match.group(3):
            if depth == 0 and match.end() - start >= size:
                return match.end()
            continue
        depth += -1 if match.group(1) else 1
        if depth <= 0:
            depth = 0
            if match.end() - start >= size:
                return match.end()
    return len(html)


def _clear_into(cursor: QTextCursor) -> None:
    """Remove the selection and leave a plain block behind: the block that remains takes
    the format of the removed text's last block, so a section ending in a list turned the
    heading inserted after it into a bullet."""
    cursor.removeSelectedText()
    text_list = cursor.currentList()
    if text_list is not None:
        text_list.remove(cursor.block())
    cursor.setBlockFormat(QTextBlockFormat())
    cursor.setBlockCharFormat(QTextCharFormat())
    cursor.setCharFormat(QTextCharFormat())
