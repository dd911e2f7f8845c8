"""Accessibility and keyboard audit of the whole app.

Every visible interactive widget on every page, in the cue card and in the dialogs the
pages open must be reachable with the keyboard (Tab, or a documented shortcut) and must
have a name a screen reader can speak. Each page must also fit a small laptop screen.
A failure names the widget (class, objectName, a hint of its text) and where it is.
"""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSlider,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QWidget,
)

from companion.core.loops import add_round, create_loop
from companion.ui.pages import PAGES

pytestmark = pytest.mark.gui

INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QTextEdit,
    QPlainTextEdit,
    QComboBox,
    QAbstractSpinBox,
    QSlider,
    QAbstractItemView,
    QTabBar,
)

# Widgets that are deliberately out of the Tab chain because a shortcut reaches them.
# Key: (where, objectName); where is "page:<key>", "cuecard" or "dialog:<name>".
KEYBOARD_ALLOWLIST: dict[tuple[str, str], str] = {}

# Problems on widgets owned by the journal files (pages/journal.py, journal_*.py), which
# another helper is editing: reported and skipped here, fixed by the lead afterwards.
JOURNAL_KNOWN: list[str] = []

MAX_PAGE_WIDTH = 900  # a page's minimum width, so the window fits a small laptop screen


# the audit ----------------------------------------------------------------------------


def _is_internal(widget: QWidget) -> bool:
    """Parts of a composite widget that the composite itself speaks and focuses for."""
    parent = widget.parentWidget()
    if isinstance(widget, QLineEdit) and isinstance(parent, QAbstractSpinBox | QComboBox):
        return True
    if isinstance(widget, QAbstractItemView) and isinstance(widget.window(), QComboBox):
        return True  # never visible; the popup of a combo box
    if isinstance(widget, QHeaderView) and isinstance(parent, QAbstractItemView):
        return True  # a view's header: the view speaks the column titles with each cell
    if isinstance(widget, QAbstractButton) and isinstance(parent, QAbstractItemView):
        return True  # a table's corner button (select all); Ctrl+A does the same
    if isinstance(widget, QToolButton) and isinstance(parent, QTabBar):
        return True  # the tab bar's scroll arrows; the arrow keys scroll the tabs
    return widget.objectName() == "qt_toolbar_ext_button"  # the toolbar's overflow arrow


def _buddies(window: QWidget) -> dict[int, str]:
    """id(widget) -> text of the label that names it (QLabel.setBuddy / QFormLayout rows)."""
    found: dict[int, str] = {}
    for label in window.findChildren(QLabel):
        buddy = label.buddy()
        if buddy is not None and label.text().strip():
            found[id(buddy)] = label.text()
    return found


def _spoken_name(widget: QWidget, buddies: dict[int, str]) -> str:
    if widget.accessibleName().strip():
        return widget.accessibleName()
    if isinstance(widget, QAbstractButton) and widget.text().replace("&", "").strip():
        return widget.text()
    if isinstance(widget, QTabBar) and widget.count():
        texts = [widget.tabText(i).strip() for i in range(widget.count())]
        return ", ".join(texts) if all(texts) else ""
    return buddies.get(id(widget), "")


def _reachable_by_shortcut(widget: QWidget) -> bool:
    """A tool button whose action has a shortcut is reached by that shortcut."""
    if isinstance(widget, QToolButton) and widget.defaultAction() is not None:
        return not widget.defaultAction().shortcut().isEmpty()
    return False


def describe(widget: QWidget) -> str:
    hint = ""
    if isinstance(widget, QAbstractButton):
        hint = widget.text()
    elif isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
        hint = widget.placeholderText()
    hint = hint or widget.toolTip()
    chain = []
    parent = widget.parentWidget()
    while parent is not None and len(chain) < 4:
        if parent.objectName() and not parent.objectName().startswith("qt_"):
            chain.append(parent.objectName())
        chain.append(type(parent).__name__) if not parent.objectName() else None
        parent = parent.parentWidget()
    name = widget.objectName() or "(no objectName)"
    text = f" {hint[:40]!r}" if hint else ""
    return f"{type(widget).__name__} {name}{text} in {' < '.join(chain)}"


def audit(root: QWidget, where: str) -> list[str]:
    """Problems with the visible interactive widgets under ``root`` (included)."""
    buddies = _buddies(root.window())
    widgets = [
        w
        for w in [root, *root.findChildren(QWidget)]
        if isinstance(w, INTERACTIVE) and w.isVisible() and not _is_internal(w)
    ]
    # an audit that sees nothing proves nothing: every audited surface has controls
    assert widgets, f"{where}: no visible interactive widget found to audit"
    problems = []
    for widget in widgets:
        what = f"{where}: {describe(widget)}"
        allowed = (where, widget.objectName()) in KEYBOARD_ALLOWLIST
        if not (
            widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            or _reachable_by_shortcut(widget)
            or allowed
        ):
            problems.append(f"{what}: not reachable with Tab (focus policy {widget.focusPolicy()})")
        if not _spoken_name(widget, buddies).strip():
            problems.append(f"{what}: no accessible name, text or buddy label")
    return problems


def audit_with_tabs(root: QWidget, where: str) -> list[str]:
    """Audit ``root`` once per tab of each tab widget, so hidden tabs are checked too."""
    problems = audit(root, where)
    for tabs in root.findChildren(QTabWidget):
        if not tabs.isVisible():
            continue
        start = tabs.currentIndex()
        for index in range(tabs.count()):
            if index != start:
                tabs.setCurrentIndex(index)
                QApplication.processEvents()
                problems += audit(tabs.widget(index), f"{where} tab {tabs.tabText(index)!r}")
        tabs.setCurrentIndex(start)
    return problems


def _is_journal(problem: str) -> bool:
    return problem.startswith(("page:journal", "dialog:NewLoopDialog"))


def assert_clean(problems: list[str]) -> None:
    own = [p for p in problems if not _is_journal(p)]
    known = [p for p in problems if _is_journal(p)]
    unexpected_journal = [p for p in known if p not in JOURNAL_KNOWN]
    if known:
        print("Journal problems left to the journal's owner:\n  " + "\n  ".join(known))
    assert not own, "Accessibility problems:\n  " + "\n  ".join(own)
    assert not unexpected_journal, (
        "New journal problems (add to JOURNAL_KNOWN and report):\n  "
        + "\n  ".join(unexpected_journal)
    )


# fixtures -----------------------------------------------------------------------------


@pytest.fixture
def loop(ctx, clock):
    """A loop running today, so the pages show their full, not their empty, state."""
    today = clock.now()
    loop_id = create_loop(ctx.db, "Acme", "SRE", starts_on=today.date().isoformat())
    first = add_round(
        ctx.db,
        loop_id,
        "coding",
        scheduled_at=today + dt.timedelta(hours=1),
        interviewer_role="peer",
    )
    add_round(ctx.db, loop_id, "design", scheduled_at=today + dt.timedelta(hours=3))
    return loop_id, first


@pytest.fixture
def window(qtbot, ctx, bus, loop):
    from companion.ui.mainwindow import MainWindow

    win = MainWindow(ctx, bus)
    qtbot.addWidget(win)
    win.resize(1100, 720)
    win.show()
    qtbot.waitUntil(lambda: win._painted)
    qtbot.waitUntil(lambda: win.stack.count() > 0)
    yield win
    win.close()


def open_page(qtbot, win, key: str) -> QWidget:
    win.show_page(key)
    page = win.page(key)
    qtbot.waitUntil(lambda: win.stack.currentWidget() is page)
    qtbot.wait(20)  # on_shown runs on the next turn of the event loop
    return page


# tests --------------------------------------------------------------------------------


def _about_notice_and_rehearsal(page) -> None:
    page.show_notice("A notice to dismiss.")
    page.start_rehearsal()
    assert page.notice_row.isVisible() and page.rehearse_bar.isVisible()


def _study_history(page) -> None:
    page.history_box.setChecked(True)
    assert page.history.isVisible()


def _quiz_message(page) -> None:
    page.show_flagged()  # nothing is flagged: the message with its way-out buttons
    assert page.quiz.message.isVisible()


# the states a page is in besides the one it opens in, so their controls are audited too
EXTRA_STATES = {
    "about": [_about_notice_and_rehearsal],
    "study": [_study_history],
    "selfcheck": [_quiz_message],
}


@pytest.fixture
def missed_question(ctx, clock):
    """A missed quiz question, so the Study list shows its table instead of its empty state."""
    from companion.core import quiz

    question = ctx.content.quiz()[0]
    quiz.record_mark(ctx.db, question, "missed", clock.now())
    return question


def test_the_window_and_every_page(qtbot, window, missed_question):
    problems = audit(window.rail, "window")
    for spec in PAGES:
        page = open_page(qtbot, window, spec.key)
        if spec.key == "study":
            assert page.table.isVisible(), "the study list shows its topics, not the empty text"
        problems += audit_with_tabs(page, f"page:{spec.key}")
        for state in EXTRA_STATES.get(spec.key, []):
            state(page)
            QApplication.processEvents()
            problems += audit(page, f"page:{spec.key} {state.__name__.strip('_')}")
    assert_clean(problems)


def test_the_audit_catches_what_it_looks_for(qtbot):
    """The audit itself: a nameless field and a button out of the Tab chain are reported."""
    from PySide6.QtWidgets import QPushButton, QVBoxLayout

    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    nameless = QLineEdit()
    nameless.setObjectName("nameless")
    unreachable = QPushButton("Go")
    unreachable.setObjectName("unreachable")
    unreachable.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    named = QLineEdit()
    label = QLabel("&Named:")
    label.setBuddy(named)
    for widget in (nameless, unreachable, label, named):
        layout.addWidget(widget)
    root.show()
    problems = audit(root, "probe")
    assert len(problems) == 2, problems
    assert "nameless" in problems[0] and "no accessible name" in problems[0]
    assert "unreachable" in problems[1] and "not reachable with Tab" in problems[1]


def test_every_page_fits_a_small_laptop_screen(qtbot, window):
    too_wide = []
    for spec in PAGES:
        page = open_page(qtbot, window, spec.key)
        width = page.minimumSizeHint().width()
        if width > MAX_PAGE_WIDTH:
            too_wide.append(f"page:{spec.key} needs {width} px (at most {MAX_PAGE_WIDTH})")
    assert not too_wide, "\n".join(too_wide)


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking
def test_the_cue_card(qtbot, ctx, bus, loop):
    from companion.ui.cue_sections import CollapsibleSection
    from companion.ui.cuecard_window import CueCardWindow

    card = CueCardWindow(ctx, bus)
    qtbot.addWidget(card)
    card.show()
    qtbot.waitExposed(card)
    card.reminder.setVisible(True)  # the one-off reminder and a nudge banner, as in use
    card.banner.setVisible(True)
    problems = []
    assert card.round_buttons, "the shipped content has round types"
    for round_id in card.round_buttons:
        assert card.set_round(round_id) or card.current.id == round_id
        for section in card.findChildren(CollapsibleSection):
            section.set_collapsed(False)
        QApplication.processEvents()
        problems += audit(card, f"cuecard round {round_id}")
    card.close()
    assert_clean(problems)


def _show_dialog(qtbot, dialog: QDialog) -> QDialog:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_dialogs(qtbot, ctx, bus, loop, clock):
    from companion.core import about_store
    from companion.ui.about_dialogs import CalibrateDialog, HistoryDialog
    from companion.ui.capture import CaptureDialog
    from companion.ui.cue_notes import RoundNotesBox
    from companion.ui.pages.journal import NewLoopDialog
    from companion.ui.schedule_editor import LoopDialog, RoundDialog

    loop_id, round_id = loop
    from companion.core.loops import get_round

    about_store.snapshot(ctx.db, "# Me\n\nA pitch.", clock.now(), "save")
    types = [(t.id, t.title) for t in ctx.content.round_types()]
    dialogs = {
        "CaptureDialog": CaptureDialog(ctx, bus, round_id),
        "CaptureDialog without a round": CaptureDialog(ctx, bus, 0),
        "HistoryDialog": HistoryDialog(ctx.db),
        "CalibrateDialog": CalibrateDialog(120),
        "LoopDialog": LoopDialog(clock.now().date()),
        "RoundDialog add": RoundDialog(types, clock.now()),
        "RoundDialog edit": RoundDialog(types, clock.now(), get_round(ctx.db, round_id)),
        "RoundNotesBox": RoundNotesBox(ctx, round_id),
        "NewLoopDialog": NewLoopDialog(),
    }
    problems = []
    for name, dialog in dialogs.items():
        _show_dialog(qtbot, dialog)
        problems += audit(dialog, f"dialog:{name}")
        dialog.close()
    assert_clean(problems)


def test_dialogs_opened_from_the_about_page(qtbot, window):
    page = open_page(qtbot, window, "about")
    problems = []
    page.open_history()
    qtbot.waitExposed(page.history_dialog)
    problems += audit(page.history_dialog, "dialog:about history")
    page.history_dialog.close()
    page.open_calibrate()
    qtbot.waitExposed(page.calibrate_dialog)
    problems += audit(page.calibrate_dialog, "dialog:about calibrate")
    page.calibrate_dialog.close()
    assert_clean(problems)
