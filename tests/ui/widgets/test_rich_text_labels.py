"""No text from the user, an invitation or a content pack is ever read as HTML by a
label: a company named ``<h1 style='color:red'>EVIL CO</h1>``, an .ics SUMMARY with
markup and a content file named ``<h1><u>INJECTED.md`` show as the characters they are.
The test walks every QLabel (and every tooltip, which Qt also reads as rich text when
it looks like HTML) on every page and in the notice bar: wherever Qt would render rich
text, the injected tags must arrive escaped."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # Qt.mightBeRichText lives in QtGui
from PySide6.QtWidgets import QApplication, QLabel, QListWidget, QTreeWidget, QWidget

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support")]

EVIL_CO = "<h1 style='color:red'>EVIL CO</h1>"
EVIL_ICS = "<h1>ICS EVIL</h1>"
EVIL_FILE = "<h1><u>INJECTED"
MARKERS = ("<h1", "<u>")


def _renders_rich(fmt: Qt.TextFormat, text: str) -> bool:
    if fmt == Qt.TextFormat.RichText:
        return True
    return fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)


def _leaks(root: QWidget) -> list[str]:
    leaks = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if _renders_rich(label.textFormat(), text) and any(m in text for m in MARKERS):
            leaks.append(
                f"{type(label.parent()).__name__}/{label.objectName() or 'QLabel'}: {text[:120]!r}"
            )
    tips = [(type(w).__name__, w.toolTip()) for w in [root, *root.findChildren(QWidget)]]
    for view in root.findChildren(QListWidget):
        tips += [("list item", view.item(n).toolTip()) for n in range(view.count())]
    for tree in root.findChildren(QTreeWidget):
        items = [tree.topLevelItem(n) for n in range(tree.topLevelItemCount())]
        while items:
            item = items.pop()
            items += [item.child(n) for n in range(item.childCount())]
            tips += [("tree item", item.toolTip(c)) for c in range(tree.columnCount())]
    for where, tip in tips:
        if tip and GuiQt.mightBeRichText(tip) and any(m in tip for m in MARKERS):
            leaks.append(f"tooltip of {where}: {tip[:120]!r}")
    return leaks


def _invitation(tmp_path, now: dt.datetime):
    start = (now + dt.timedelta(hours=2)).astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    end = (now + dt.timedelta(hours=3)).astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    ics = tmp_path / "evil.ics"
    ics.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:e1\r\n"
        f"DTSTART:{start}\r\nDTEND:{end}\r\nSUMMARY:{EVIL_ICS} - {EVIL_ICS} design\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    return ics


@pytest.fixture(params=["company, round ended", "invitation, round ahead", "invitation, ended"])
def hostile(request, ctx, data_dir, tmp_path, clock):
    """A journal and a data folder full of markup, at a moment when the Today page
    shows the schedule, or the capture and thank-you reminders."""
    from companion.core.day import loops
    from companion.core.day.invitation import import_invitation
    from companion.core.day.rules import day_rules
    from companion.core.journal import entries

    now = clock.now()
    if request.param.startswith("company"):
        loop_id = loops.create_loop(
            ctx.db, EVIL_CO, "<b>ROLE</b>", starts_on=now.date().isoformat()
        )
        round_id = loops.add_round(
            ctx.db,
            loop_id,
            "coding",
            scheduled_at=now - dt.timedelta(minutes=60),
            interviewer_name="<u>Dr Evil</u>",
        )
        loops.start_round(ctx.db, "coding", now - dt.timedelta(minutes=60), round_id=round_id)
        loops.end_round(ctx.db, round_id, now - dt.timedelta(minutes=15))
        entries.add_flub(ctx.db, loop_id, round_id, "<h1>FLUB TOPIC</h1>", "<u>detail</u>")
        entries.add_asked(ctx.db, loop_id, round_id, "<h1>QUESTION</h1>?", "<u>topic</u>")
        entries.set_loop_notes(ctx.db, loop_id, "<h1>LOOP NOTES</h1>")
        entries.add_weak_topic(ctx.db, "<h1>WEAK</h1>", loop_id=loop_id, note="<u>note</u>")
    else:
        import_invitation(ctx.db, _invitation(tmp_path, now), day_rules(ctx.content))
        if request.param.endswith("ended"):
            clock.set(now + dt.timedelta(hours=3, minutes=10))
    pack = data_dir / "content"
    pack.mkdir(exist_ok=True)
    (pack / f"{EVIL_FILE}.md").write_text("---\nkind: nonsense\n---\n<h1>body</h1>\n")
    from companion.core.paths import shipped_content_dir

    traps = (shipped_content_dir() / "40-traps.md").read_text(encoding="utf-8")
    traps = traps.replace("title: Traps to avoid", 'title: "<h1><u>TRAPS</u></h1>"', 1)
    (pack / "40-traps.md").write_text(traps, encoding="utf-8")  # a pack's own title
    ctx.reload_content()
    return ctx


def test_no_label_renders_injected_markup(qtbot, hostile, bus, open_page):
    from companion.ui.app import Application
    from companion.ui.pages import PAGES

    app = Application(hostile, QApplication.instance())
    qtbot.addWidget(app.window)
    app.window.resize(1100, 720)
    app.window.show()
    qtbot.waitUntil(lambda: app.window._painted)
    app._finish_start()
    notices = " ".join(label.text() for label in app.window.findChildren(QLabel))
    assert "INJECTED" in notices, "the content error should be in the notice bar"
    leaks = []
    shown = []
    for spec in PAGES:
        page = open_page(app.window, spec.key)  # shown, built and its posted events run
        shown.append(" ".join(label.text() for label in page.findChildren(QLabel)))
        leaks += [f"{spec.key}: {leak}" for leak in _leaks(page)]
    leaks += [f"window: {leak}" for leak in _leaks(app.window)]
    app.show_cue_card("")  # the card beside the call shows the loop and its rounds too
    qtbot.waitUntil(lambda: app._cue_window is not None and app._cue_window.isVisible())
    qtbot.waitExposed(app._cue_window)
    QApplication.sendPostedEvents()  # what its first render posted
    for top in QApplication.topLevelWidgets():
        if top is not app.window and top.isVisible():
            leaks += [f"{type(top).__name__}: {leak}" for leak in _leaks(top)]
    app._cue_window.close()
    from companion.core.day import loops

    rounds = [
        r for lp in loops.list_loops(hostile.db) for r in loops.list_rounds(hostile.db, lp.id)
    ]
    app.bus.capture_round.emit(rounds[0].id)  # the quick capture names the loop and round
    qtbot.waitUntil(  # the capture is shown (checked, not assumed after a wait)
        lambda: any(t is not app.window and t.isVisible() for t in QApplication.topLevelWidgets()),
        timeout=10_000,
    )
    for top in QApplication.topLevelWidgets():
        if top is not app.window and top.isVisible():
            leaks += [f"{type(top).__name__}: {leak}" for leak in _leaks(top)]
            top.close()
    everything = " ".join(shown)
    assert "EVIL" in everything, "the hostile text is shown"
    assert leaks == [], "\n".join(leaks)


def _box_leaks(qtbot, open_box) -> list[str]:
    """Open a modal message box with ``open_box()``, walk it, close it."""
    from PySide6.QtCore import QTimer

    found: list[list[str]] = []

    def inspect() -> None:
        box = QApplication.activeModalWidget()
        if box is None:
            QTimer.singleShot(50, inspect)
            return
        found.append(_leaks(box))
        box.reject()

    QTimer.singleShot(50, inspect)
    open_box()
    qtbot.waitUntil(lambda: bool(found))
    return found[0]


def test_message_boxes_quote_user_text_as_text(qtbot, ctx, bus, day_service, tmp_path):
    """The delete confirmation quotes the entry; the .ics import names the file and
    the events: both were auto-detected rich text."""
    from companion.ui.journal.dialogs import JournalDialogs
    from companion.ui.today.schedule import ScheduleEditor

    parent = QWidget()
    qtbot.addWidget(parent)
    leaks = _box_leaks(
        qtbot,
        lambda: JournalDialogs().confirm(
            parent, "Delete?", f"Delete the flub “{EVIL_CO}”?", "Delete", lambda: None
        ),
    )
    editor = ScheduleEditor(ctx, bus, day_service)
    qtbot.addWidget(editor)
    bad = tmp_path / f"{EVIL_FILE}.ics"
    leaks += _box_leaks(qtbot, lambda: editor._show_import(bad, [], [], f"{bad.name}: {EVIL_ICS}"))
    from companion.ui.widgets.opening import ask, tell

    # the restore warning and every other question or notice quote a file name or an error
    leaks += _box_leaks(qtbot, lambda: tell(parent, "Restore", f"Could not restore {EVIL_FILE}"))
    leaks += _box_leaks(qtbot, lambda: ask(parent, "Replace?", f"{EVIL_FILE} exists.", print))
    assert leaks == [], "\n".join(leaks)
