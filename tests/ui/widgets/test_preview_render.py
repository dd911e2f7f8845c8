"""The preview never blocks the GUI thread: a long text renders on a worker while the
event loop keeps ticking, and a stale render is dropped for the latest text."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

pytestmark = pytest.mark.gui

# about 3,000 headings and paragraphs, inside the guard's limits: one of its slowest
# renders (0.3-0.6 s here), which froze the window for that long on the GUI thread
WORST = "# h\n\nword word\n\n" * 1_500


@pytest.fixture
def page(qtbot, ctx, bus):
    from companion.ui.about.page import AboutPage

    widget = AboutPage(ctx, bus)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.shutdown()


def _busiest(qtbot, until) -> float:
    """Run the loop until ``until()``; the most CPU time the GUI thread spent between two
    ticks of a 5 ms timer (CPU, not wall time: a loaded machine stretches the gaps, not
    the work done in one)."""
    stamps = [time.thread_time()]
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: stamps.append(time.thread_time()))
    timer.start()
    qtbot.waitUntil(until, timeout=60_000)
    timer.stop()
    stamps.append(time.thread_time())
    return max(b - a for a, b in zip(stamps, stamps[1:]))


# one section of 90 paragraphs of 100 emphasis marks each (36 KB, inside the guard's
# limits): Qt took 0.29 s of the GUI thread to show it in one go
DENSE = ("*a* " * 100 + "\n\n") * 90


@pytest.mark.parametrize("text", [WORST, DENSE], ids=["sections", "dense"])
def test_the_event_loop_keeps_ticking_while_a_long_text_renders(qtbot, page, text):
    page.preview.show_message("old")
    page.editor.setPlainText(text)
    page.refresh()
    assert "old" in page.preview.toPlainText()  # refresh() did not wait for the render
    preview = page.preview
    shown = lambda: "old" not in preview.toPlainText() and not preview.displaying  # noqa: E731
    busiest = _busiest(qtbot, shown)
    assert preview.slices_shown > 3  # shown in slices, the loop running between them
    assert busiest < 0.05, busiest  # at most a few frames of CPU at once (whole: 0.29 s)


def test_a_stale_render_is_dropped_for_the_latest_text(qtbot, page):
    page.editor.setPlainText(WORST)
    page.refresh()
    page.editor.setPlainText(WORST.replace("word word", "latest text"))
    page.refresh()
    qtbot.waitUntil(lambda: "latest text" in page.preview.toPlainText(), timeout=30_000)
    page.editing.preview_render.wait()
    # the workers are done: what they emitted is queued, and arrives (and is dropped) now
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    assert "latest text" in page.preview.toPlainText()
    assert "word word" not in page.preview.toPlainText()


def test_a_short_text_still_renders_at_once(page):
    page.editor.setPlainText("# Me\n\nI build things.")
    page.refresh()
    assert "I build things." in page.preview.toPlainText()


def test_a_refused_long_text_says_why_in_the_preview(qtbot, page):
    page.editor.setPlainText("# h\n\nword word\n\n" * 6_000)  # past the guard's elements
    page.refresh()
    qtbot.waitUntil(lambda: "Preview paused" in page.preview.toPlainText(), timeout=30_000)


def _blocks(document) -> list[tuple]:
    """Each non-empty block's text, size, margins, list and heading-ness."""
    out, block = [], document.begin()
    while block.isValid():
        if block.text():
            fmt = block.blockFormat()
            char = block.begin().fragment().charFormat()
            listed = block.textList()
            out.append(
                (
                    block.text(),
                    char.fontPointSize(),
                    char.fontItalic(),
                    fmt.topMargin(),
                    fmt.bottomMargin(),
                    listed.format().style() if listed is not None else None,
                )
            )
        block = block.next()
    return out


MIXED = (
    "# Me {identity}\n\nSome *words* and `code`.\n\n"
    + "## Part\n\n- one\n- two\n  - deeper\n\n1. first\n2. second\n\n> quoted\n\n"
    + "| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nx = 1\n  y\n```\n\n---\n\n"
    + ("A paragraph with *emphasis* of some length, word word word word.\n\n" * 40)
) * 12


@pytest.mark.parametrize("many", [False, True], ids=["framed", "one-document"])
def test_a_sliced_display_matches_the_whole_document(qtbot, many):
    from PySide6.QtGui import QTextDocument

    from companion.core.about.render import PAGE_CSS, SafeRenderer
    from companion.ui.about.editor import MAX_FRAMES, SafePreview

    text = MIXED + ("# h\n\nword\n\n" * (MAX_FRAMES + 1) if many else "")
    sections = SafeRenderer().render_sections(text)
    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.resize(600, 400)
    preview.show_sections(sections)
    assert preview.displaying  # long: shown in slices
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    assert preview.slices_shown > 1
    whole = QTextDocument()
    whole.setDefaultStyleSheet(PAGE_CSS)
    whole.setHtml("\n".join(sections))
    assert "\u200b" not in preview.toPlainText()
    shown, expected = _blocks(preview.document()), _blocks(whole)
    if not many:  # a frame's first block takes the frame's own margins (as before slices)
        shown, expected = [b[:3] + b[5:] for b in shown], [b[:3] + b[5:] for b in expected]
    assert shown == expected


def test_a_newer_result_replaces_one_still_being_shown(qtbot):
    from companion.core.about.render import SafeRenderer
    from companion.ui.about.editor import SafePreview

    renderer = SafeRenderer()
    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.show_sections(renderer.render_sections(DENSE.replace("a", "stale")))
    assert preview.displaying
    preview.show_sections(renderer.render_sections(DENSE.replace("a", "fresh")))
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    qtbot.wait(20)  # no slice of the stale one comes after
    shown = preview.toPlainText()
    assert "fresh" in shown and "stale" not in shown


def test_the_view_keeps_its_width_while_a_long_text_is_shown(qtbot):
    """The scroll bar appearing mid-display narrowed the view, and Qt laid out all the text
    shown so far again in that one slice (16 ms at idle for 36 KB of emphasis)."""
    from companion.core.about.render import SafeRenderer
    from companion.ui.about.editor import SafePreview

    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.resize(600, 400)
    preview.show()
    preview.show_sections(SafeRenderer().render_sections(DENSE))
    widths = {preview.viewport().width()}
    preview._slice_timer.timeout.connect(lambda: widths.add(preview.viewport().width()))
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    assert preview.slices_shown > 3
    assert preview.verticalScrollBar().maximum() > 0  # it did outgrow the view
    assert widths == {preview.viewport().width()}


def test_the_view_is_painted_once_when_a_long_text_is_shown(qtbot):
    """A repaint after each slice while the text was in view: ~10 ms for a view of dense
    links, and with the slice 16 ms between two turns of the event loop."""
    from PySide6.QtCore import QEvent, QObject

    from companion.core.about.render import SafeRenderer
    from companion.ui.about.editor import SafePreview

    class Paints(QObject):
        during, after = 0, 0

        def eventFilter(self, _watched, event):  # noqa: N802 (Qt API)
            if event.type() == QEvent.Type.Paint:
                if preview.displaying:
                    self.during += 1
                else:
                    self.after += 1
            return False

    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.resize(600, 400)
    preview.show()
    qtbot.waitExposed(preview)
    paints = Paints()
    preview.viewport().installEventFilter(paints)
    preview.show_sections(SafeRenderer().render_sections(DENSE))
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    qtbot.waitUntil(lambda: paints.after > 0, timeout=5_000)
    assert preview.slices_shown > 3
    assert paints.during == 0


def test_a_sliced_display_keeps_the_scroll_position(qtbot):
    from companion.core.about.render import SafeRenderer
    from companion.ui.about.editor import SafePreview

    renderer = SafeRenderer()
    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.resize(500, 300)
    preview.show()
    preview.show_sections(renderer.render_sections(WORST))
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    bar = preview.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    position = bar.value()
    assert position > 1_000
    preview.show_sections(renderer.render_sections(WORST.replace("word word", "word more", 1)))
    assert preview.displaying
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    assert bar.value() == position
    assert preview.toPlainText().count("word more") == 1


def test_the_reader_scrolling_during_a_sliced_display_is_left_alone(qtbot):
    from companion.core.about.render import SafeRenderer
    from companion.ui.about.editor import SafePreview

    renderer = SafeRenderer()
    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.resize(500, 300)
    preview.show()
    preview.show_sections(renderer.render_sections(WORST))
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    bar = preview.verticalScrollBar()
    bar.setValue(bar.maximum())
    preview.show_sections(renderer.render_sections(WORST.replace("word word", "word more", 1)))
    qtbot.waitUntil(lambda: bar.maximum() > 50, timeout=60_000)
    bar.setValue(20)  # the reader scrolls while it is still being shown
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    assert bar.value() == 20


@pytest.mark.parametrize("page_name", ["about", "stories"])
def test_both_previews_show_in_slices_and_leave_the_editor_alone(qtbot, ctx, bus, page_name):
    """The About and Stories pages share the sliced display; the editor's undo and cursor
    and the preview's settings are as they were."""
    if page_name == "about":
        from companion.ui.about.page import AboutPage as Page
    else:
        from companion.ui.stories.page import StoriesPage as Page
    page = Page(ctx, bus)
    qtbot.addWidget(page)
    page.resize(1000, 700)
    page.show()
    qtbot.waitExposed(page)
    page.editor.setPlainText("")
    page.editor.insertPlainText(WORST)  # undoable, unlike setPlainText
    page.editor.moveCursor(page.editor.textCursor().MoveOperation.Start)
    page.refresh()
    qtbot.waitUntil(
        lambda: page.preview.slices_shown > 1 and not page.preview.displaying, timeout=60_000
    )
    assert page.editor.document().isUndoAvailable()
    assert page.editor.textCursor().position() == 0
    assert not page.preview.document().isUndoRedoEnabled()
    assert page.preview.viewport().updatesEnabled()
    page.shutdown()


@pytest.mark.parametrize(
    "text, paused",
    [
        ("word " * 38_000, True),  # one paragraph of 190 KB: 73-78 ms laid out whole
        ("word " * 1_900, False),
        ("    code line\n" * 10_000, False),  # a code block: each line its own block
        ("    " + "x" * 20_000 + "\n", True),
        ("- " + "word " * 4_000 + "\n", True),
    ],
    ids=["prose", "short-prose", "code-lines", "code-line", "list-item"],
)
def test_a_paragraph_too_long_to_lay_out_in_a_frame_pauses_the_preview(qtbot, text, paused):
    from companion.core.about.render import SafeRenderer
    from companion.ui.about.editor import SafePreview

    preview = SafePreview()
    qtbot.addWidget(preview)
    preview.show_sections(SafeRenderer().render_sections(text))
    qtbot.waitUntil(lambda: not preview.displaying, timeout=60_000)
    shown = preview.toPlainText()
    assert shown.startswith("Preview paused: one paragraph is") is paused, shown[:100]
    assert "\n" not in shown or not paused


def test_a_short_text_full_of_links_renders_on_the_worker(qtbot, page):
    """Under SYNC_CHARS, but links cost their number times the paragraph's length:
    2,000 characters of images took 40-70 ms of the GUI thread, several frames."""
    page.preview.show_message("old")
    page.editor.setPlainText(("![a](x.png) " * 200)[:1_999])
    page.refresh()
    assert "old" in page.preview.toPlainText()  # refresh() did not render it itself
    preview = page.preview
    qtbot.waitUntil(lambda: "old" not in preview.toPlainText() and not preview.displaying)
