"""The About me page with pytest-qt: editing, preview, autosave, bad input, rehearsal,
calibration, history, export and shortcuts."""

from __future__ import annotations

import argparse
import re

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QAbstractButton, QToolButton

from companion.core.about import store as about_store
from companion.core.about.rehearsal import against_target

pytestmark = pytest.mark.gui


@pytest.fixture
def page(about_page):
    return about_page(1200)


def type_at_end(qtbot, page, text: str) -> None:
    page.editor.moveCursor(QTextCursor.MoveOperation.End)
    for index, line in enumerate(text.split("\n")):
        if index:
            qtbot.keyClick(page.editor, Qt.Key.Key_Return)
        qtbot.keyClicks(page.editor, line)


def wait_saved(qtbot, page, ticker) -> None:
    """Let the debounced autosave fire: advance the fake clock past the idle delay."""
    ticker.t += 1.0
    qtbot.waitUntil(lambda: not page.editing.dirty, timeout=10_000)


def test_new_user_starts_from_the_template(page, ctx):
    text = page.editor.toPlainText()
    assert "## Who I am" in text and "## Three projects" in text
    assert page.is_new
    assert about_store.load_document(ctx.db) is None  # nothing saved until the user edits
    assert page.panel.table.rowCount() == 5
    assert page.panel.table.item(0, 0).text() == "Who I am"
    assert "Whole pitch" in page.panel.total_label.text()
    assert "no number" in page.panel.projects_label.text()


def test_typing_updates_preview_and_analysis_and_autosaves(qtbot, page, ctx, ticker):
    page.editor.clear()
    type_at_end(qtbot, page, "## Who I am\nHello there friends")
    ticker.t += 1.0
    qtbot.waitUntil(lambda: "Hello there friends" in page.preview.toPlainText(), timeout=10_000)
    assert page.analysis.segment("identity").words == 3
    assert page.panel.table.item(0, 1).text() == "3"
    qtbot.waitUntil(
        lambda: about_store.load_text(ctx.db) == page.editor.toPlainText(), timeout=10_000
    )
    assert page.status.text().startswith("Saved")


def test_autosave_runs_on_the_real_clock(qtbot, ctx, bus):
    """The page's saver is driven by a real timer: typing is saved with no fake tick.
    How soon (within a second) is the core's rule, checked on a fake clock in
    tests/core/about/test_store.py; a timed wait here would only measure the machine."""
    from companion.ui.about.page import AboutPage

    page = AboutPage(ctx, bus)  # the real monotonic clock
    qtbot.addWidget(page)
    page.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(page.editor, "x")
    qtbot.waitUntil(lambda: about_store.load_text(ctx.db).endswith("x"), timeout=10_000)
    page.shutdown()


def test_raw_html_is_shown_as_text_and_nothing_is_fetched(qtbot, page, ticker):
    page.editor.setPlainText(
        '<b>bold?</b> <img src="http://127.0.0.1:9/pixel.png"> ![pic](https://example.com/a.png)'
    )
    page.refresh()
    shown = page.preview.toPlainText()
    assert "<b>bold?</b>" in shown  # escaped, not interpreted
    assert "image not loaded" in shown
    assert "<img" not in page.preview.toHtml()


def test_preview_refuses_every_resource(qtbot, page):
    url = QUrl("http://127.0.0.1:9/tracker.png")
    assert page.preview.loadResource(int(QTextDocument.ResourceType.ImageResource), url) is None
    page.preview.blocked.clear()
    page.preview.setHtml('<p>x</p><img src="http://127.0.0.1:9/direct.png">')
    qtbot.waitUntil(lambda: bool(page.preview.blocked), timeout=10_000)
    assert "http://127.0.0.1:9/direct.png" in page.preview.blocked


def test_links_are_not_followed(page):
    page.editor.setPlainText("[site](https://example.com)")
    page.refresh()
    assert not page.preview.openLinks() and not page.preview.openExternalLinks()


def test_undo_and_redo(qtbot, page):
    page.editor.clear()
    qtbot.keyClicks(page.editor, "abc")
    page.editor.undo()
    assert page.editor.toPlainText() == ""
    page.editor.redo()
    assert page.editor.toPlainText() == "abc"
    page.editor.replace_all("replaced")
    assert page.editor.toPlainText() == "replaced"
    qtbot.keyClick(page.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.editor.toPlainText() == "abc"
    qtbot.keyClick(
        page.editor,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert page.editor.toPlainText() == "replaced"


def test_binary_junk_paste_is_cleaned_and_reported(qtbot, page):
    page.editor.clear()
    mime = QMimeData()
    mime.setText("good\x00\x01\x02 text\x7f")
    page.editor.insertFromMimeData(mime)
    assert page.editor.toPlainText() == "good text"
    assert "Removed 4 control character" in page.notice.text()
    assert page.notice_row.isVisible()


def test_five_megabyte_paste_pauses_live_view_but_keeps_every_character(qtbot, page, ctx, ticker):
    big = ("word " * 11 + "\n") * 90_000  # about 5.4 MB
    page.editor.clear()
    mime = QMimeData()
    mime.setText(big)
    page.editor.insertFromMimeData(mime)
    page.refresh()
    assert "Timing paused" in page.panel.total_label.text()
    assert page.preview.toPlainText().startswith("Preview paused")
    assert page.editing.save_now()
    assert about_store.load_text(ctx.db) == big
    page.editor.setPlainText("## Who I am\nsmall again")
    page.refresh()
    assert page.analysis.segment("identity").words == 2


def test_empty_document_has_a_clear_empty_state_and_is_saved_as_empty(qtbot, page, ctx, bus):
    page.editor.selectAll()
    qtbot.keyClick(page.editor, Qt.Key.Key_Delete)
    page.refresh()
    assert page.editor.toPlainText() == ""
    assert "Nothing to time yet" in page.panel.total_label.text()
    assert page.editor.placeholderText()
    assert page.editing.save_now()
    assert about_store.load_document(ctx.db) == ""
    from companion.ui.about.page import AboutPage

    again = AboutPage(ctx, bus)
    qtbot.addWidget(again)
    assert again.editor.toPlainText() == ""  # not silently replaced by the template


def test_invalid_utf8_import_keeps_the_old_text(qtbot, page, ctx, tmp_path):
    page.editor.setPlainText("my precious draft")
    page.editing.save_now()
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"## Who I am\nna\xefve\n")
    assert page.documents.import_file(bad)
    assert page.editor.toPlainText() == "## Who I am\nna\ufffdve\n"
    assert "line 2, column 3" in page.notice.text()
    texts = [about_store.revision_text(ctx.db, r.id) for r in about_store.list_revisions(ctx.db)]
    assert "my precious draft" in texts
    page.editor.undo()
    assert page.editor.toPlainText() == "my precious draft"


def test_binary_import_is_refused_without_touching_the_text(page, tmp_path):
    page.editor.setPlainText("keep me")
    junk = tmp_path / "junk.md"
    junk.write_bytes(bytes(range(256)) * 4)
    assert not page.documents.import_file(junk)
    assert page.editor.toPlainText() == "keep me"
    assert "binary" in page.notice.text() and "unchanged" in page.notice.text()


def test_history_restore(qtbot, page, ctx, clock):
    page.editor.setPlainText("first version")
    page.editing.save_now()
    clock.advance(minutes=1)
    page.editor.setPlainText("second version")
    page.editing.save_now()
    page.documents.open_history()
    dialog = page.documents.history_dialog
    assert dialog.list.count() == 2
    dialog.list.setCurrentRow(1)
    assert dialog.view.toPlainText() == "first version"
    dialog.restore_button.click()
    assert page.editor.toPlainText() == "first version"
    assert about_store.load_text(ctx.db) == "first version"
    page.editor.undo()
    assert page.editor.toPlainText() == "second version"


def test_rehearsal_walks_segments_highlights_and_keeps_results(qtbot, page, ctx, ticker):
    page.rehearsal.start()
    bar = page.rehearse_bar
    assert bar.isVisible() and page.editor.isReadOnly()
    assert "Who I am" in bar.title.text()
    assert page.editor.extraSelections(), "the current segment is highlighted"
    spoken = [12, 28, 25, 20, 5]
    for seconds in spoken:
        ticker.t += seconds
        bar._tick()
        bar.next_segment()
    assert not bar.isVisible() and not page.editor.isReadOnly()
    assert not page.editor.extraSelections()
    record = about_store.last_rehearsal(ctx.db)
    assert [s.seconds for s in record.segments] == spoken
    text = page.panel.rehearsal_label.text()
    assert "Last rehearsal" in text and "5 s over" in text and "5 s under" in text
    assert "Over budget: Who I am (+2 s), Current depth (+5 s)." in page.notice.text()
    lo, hi = ctx.content.pitch_plan().target
    assert f"90 s in all, {against_target(90, (lo, hi))}." in page.notice.text()
    assert "target" in page.notice.text()


def test_a_new_rehearsal_clears_the_last_ones_summary(qtbot, page, ctx, ticker):
    page.rehearsal.start()
    ticker.t += 5
    page.rehearse_bar.stop()
    assert page.notice_row.isVisibleTo(page) and "Rehearsal" in page.notice.text()
    page.rehearsal.start()
    assert not page.notice_row.isVisibleTo(page)
    page.rehearse_bar.stop()


def test_a_heading_after_a_list_stays_a_heading_when_its_section_is_edited(page):
    from companion.ui.about.documents import template_text

    text = template_text(None)
    page.preview.show_sections(page.editing.renderer.render_sections(text))
    edited = text.replace("[Project one]", "[Project 1]")
    page.preview.show_sections(page.editing.renderer.render_sections(edited))
    block = page.preview.document().begin()
    seen = {}
    while block.isValid():
        if block.text() in ("[Project 1]", "[Project two]", "Three projects"):
            seen[block.text()] = block.textList() is None
        block = block.next()
    assert seen == {"[Project 1]": True, "[Project two]": True, "Three projects": True}


def test_escape_stops_a_rehearsal(qtbot, page, ctx, ticker):
    page.rehearsal.start()
    ticker.t += 7
    qtbot.keyClick(page.rehearse_bar.next_button, Qt.Key.Key_Escape)
    assert not page.rehearse_bar.running
    assert [s.seconds for s in about_store.last_rehearsal(ctx.db).segments] == [7]


def test_calibration_stores_the_rate(qtbot, page, ctx, ticker):
    page.rehearsal.open_calibrate()
    dialog = page.rehearsal.calibrate_dialog
    words = dialog.words
    assert words == page.analysis.total_words > 20
    dialog.start_button.click()
    ticker.t += words * 60 / 160  # read at 160 wpm
    dialog.stop_button.click()
    assert dialog.rate == pytest.approx(160, abs=0.2)
    dialog.use_button.click()
    assert about_store.words_per_minute(ctx.db) == pytest.approx(160, abs=0.2)
    assert page.panel.rate.value() == 160


def test_calibration_rejects_an_implausible_reading(page, ticker):
    page.rehearsal.open_calibrate()
    dialog = page.rehearsal.calibrate_dialog
    dialog.start_button.click()
    ticker.t += 1
    dialog.stop_button.click()
    assert dialog.rate is None and not dialog.use_button.isEnabled()
    assert "too short" in dialog.result.text()
    dialog.reject()


def test_rate_spinbox_changes_estimates(page, ctx):
    before = page.analysis.total_seconds
    page.panel.rate.setValue(70)
    assert about_store.words_per_minute(ctx.db) == 70
    assert page.analysis.total_seconds == pytest.approx(before * 2, rel=0.01)


def test_export_formats_and_one_page_warning(page, tmp_path):
    assert page.documents.export_to(tmp_path / "me.md", "md") is None
    assert (tmp_path / "me.md").read_text(encoding="utf-8") == page.editor.toPlainText()
    assert page.documents.export_to(tmp_path / "me.html", "html") is None
    assert "<h2>Who I am (10 s)</h2>" in (tmp_path / "me.html").read_text(encoding="utf-8")
    assert page.documents.export_to(tmp_path / "me.pdf", "pdf") is None
    pdf = (tmp_path / "me.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    page.editor.setPlainText(page.editor.toPlainText() * 3)
    warning = page.documents.export_to(tmp_path / "long.pdf", "pdf")
    assert warning and "pages" in warning
    assert len(re.findall(rb"/Type\s*/Page\b", (tmp_path / "long.pdf").read_bytes())) > 1


def test_cli_pdf_export(qapp, ctx, tmp_path, capsys):
    from companion.commands import about as about_cli

    about_store.save_text(ctx.db, "# Me\n\n## Who I am\nHi.\n", ctx.now())
    parser = argparse.ArgumentParser()
    about_cli.register(parser.add_subparsers().add_parser("about"))
    args = parser.parse_args(["about", "export", "--format", "pdf", "-o", str(tmp_path / "a.pdf")])
    assert args.func(args, ctx) == 0
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")
    assert "warning" not in capsys.readouterr().err


def test_shortcuts(qtbot, page, ctx):
    shortcuts = {a.text(): a.shortcut().toString() for a in page.actions()}
    assert shortcuts["Save now"] == "Ctrl+S"
    assert shortcuts["Export…"] == "Ctrl+E"
    assert shortcuts["Rehearse"] == "Ctrl+R"
    page.editor.setFocus()
    type_at_end(qtbot, page, "!")
    qtbot.keyClick(page.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert about_store.list_revisions(ctx.db)[0].reason == "save"
    qtbot.keyClick(page.editor, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert page.rehearse_bar.running
    page.rehearse_bar.stop()


def test_every_control_has_an_accessible_name_or_text(page):
    for button in page.findChildren(QAbstractButton):
        if button.objectName().startswith("qt_") or (
            isinstance(button, QToolButton) and button.defaultAction() is None
        ):
            continue  # Qt's own parts: the toolbar extension arrow, the table corner
        assert button.accessibleName() or button.text(), button
    for widget in (page.editor, page.preview, page.panel.rate, page.panel.table, page.status):
        assert widget.accessibleName()


def test_shutdown_saves_unsaved_typing(qtbot, page, ctx):
    type_at_end(qtbot, page, "last words")
    assert page.editing.dirty
    page.shutdown()
    assert about_store.load_text(ctx.db).endswith("last words")


def test_about_changed_is_emitted_on_save(qtbot, page, bus):
    with qtbot.waitSignal(
        bus.changed, timeout=10_000, check_params_cb=lambda c: c.touches("about")
    ):
        page.editing.save_now()


def test_incremental_preview_matches_a_full_render(qtbot, page):
    """After edits that touch one section, add a section and remove one, the preview shows
    the same text as a from-scratch render of the final text."""
    page.editor.setPlainText("# Me\n\n## Who I am\n\nhello\n\n## Hand back\n\nbye\n")
    page.refresh()
    frames = page.preview._frames
    assert len(frames) == 3
    page.editor.moveCursor(QTextCursor.MoveOperation.End)
    page.editor.insertPlainText("more words\n")
    page.refresh()
    # only the edited section's content was replaced: the frames are the same ones
    assert all(a is b for a, b in zip(page.preview._frames, frames, strict=True))
    page.editor.insertPlainText("\n## Three projects\n\n- p99 from 800 ms to 120 ms\n")
    page.refresh()
    page.editor.setPlainText(page.editor.toPlainText().replace("## Who I am\n\nhello\n\n", ""))
    page.refresh()
    fresh = QTextDocument()
    fresh.setHtml(page.editing.renderer.convert(page.editor.toPlainText()))

    def words(text: str) -> list[str]:
        return text.split()

    assert words(page.preview.toPlainText()) == words(fresh.toPlainText())
    assert "hello" not in page.preview.toPlainText()


def test_preview_stays_faithful_through_random_edits(page):
    import random

    rng = random.Random(4)
    rebuilds = []
    real_rebuild = page.preview._rebuild
    page.preview._rebuild = lambda sections: (rebuilds.append(1), real_rebuild(sections))
    pieces = ["## Who I am", "## New part", "", "- item 5 ms", "text words", "### Sub", "| a |"]
    fresh = QTextDocument()
    for _ in range(60):
        lines = page.editor.toPlainText().split("\n")
        at = rng.randrange(len(lines) + 1)
        if rng.random() < 0.4 and lines:
            del lines[min(at, len(lines) - 1)]
        else:
            lines[at:at] = [rng.choice(pieces), ""] if rng.random() < 0.5 else [rng.choice(pieces)]
        page.editor.setPlainText("\n".join(lines))
        page.refresh()
        fresh.setHtml(page.editing.renderer.convert(page.editor.toPlainText()))
        assert page.preview.toPlainText().split() == fresh.toPlainText().split()
    assert len(rebuilds) < 30, "most edits should update the preview in place"


def test_the_preview_follows_the_segment_being_rehearsed(qtbot, page, ticker):
    page.resize(900, 300)  # a short preview, so the later segments are scrolled to
    bar = page.preview.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    page.rehearsal.start()
    positions = [bar.value()]
    while page.rehearse_bar.isVisible() and len(positions) < 8:
        page.rehearse_bar.next_segment()
        if page.rehearse_bar.isVisible():
            positions.append(bar.value())
    assert positions == sorted(positions) and positions[-1] > positions[0], positions
    assert page.preview.textCursor().block().text() == "Hand back (10 s)"


def test_history_template_and_import_have_their_own_alt_letters(page):
    from test_shortcuts import mnemonic

    toolbar_texts = {
        mnemonic(b.text()): b.text().replace("&", "")
        for b in page.findChildren(QToolButton)
        if b.isVisibleTo(page)
    }
    assert toolbar_texts.get("Alt+H") == "History"
    assert toolbar_texts.get("Alt+T") == "Start from template"
    assert toolbar_texts.get("Alt+I") == "Import"


def test_export_and_import_dialogs_open_in_the_last_folder_used(page, ctx, tmp_path):
    from file_dialogs import pick

    chosen = tmp_path / "picked"
    chosen.mkdir()
    page.documents.export_dialog()
    first = pick(page, chosen / "pitch.md")
    assert first.accessibleName() == "Export the one-pager"
    assert (chosen / "pitch.md").is_file()
    page.documents.import_dialog()
    assert pick(page, None).directory().absolutePath() == str(chosen)
    page.documents.export_dialog()
    again = pick(page, None)
    assert again.directory().absolutePath() == str(chosen)
    assert again.selectedFiles() == [str(chosen / "about-me.pdf")]


def test_export_over_a_file_asks_first_without_a_nested_loop(page, tmp_path):
    from file_dialogs import open_file_dialog
    from PySide6.QtWidgets import QMessageBox

    target = tmp_path / "pitch.md"
    target.write_text("kept", encoding="utf-8")
    page.documents.export_dialog()
    dialog = open_file_dialog(page)
    dialog.selectFile(str(target))
    dialog.accept()  # returns at once: the question is open on the dialog
    (question,) = [b for b in dialog.findChildren(QMessageBox) if b.isVisible()]
    question.button(QMessageBox.StandardButton.No).click()
    assert dialog.isVisible() and target.read_text(encoding="utf-8") == "kept"
    dialog.accept()
    (question,) = [b for b in dialog.findChildren(QMessageBox) if b.isVisible()]
    question.button(QMessageBox.StandardButton.Yes).click()
    assert not dialog.isVisible() and target.read_text(encoding="utf-8") != "kept"
    assert "Exported to" in page.notice.text()


def test_import_of_a_missing_file_says_so_and_stays_open(page, tmp_path):
    from file_dialogs import open_file_dialog
    from PySide6.QtWidgets import QMessageBox

    before = page.editor.toPlainText()
    page.documents.import_dialog()
    dialog = open_file_dialog(page)
    dialog.selectFile(str(tmp_path / "gone.md"))
    dialog.accept()
    (warning,) = [b for b in dialog.findChildren(QMessageBox) if b.isVisible()]
    assert "gone.md" in warning.text()
    warning.button(QMessageBox.StandardButton.Ok).click()
    assert dialog.isVisible() and page.editor.toPlainText() == before
    dialog.reject()
