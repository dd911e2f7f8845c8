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
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QWidget,
)

from companion.core.day.loops import add_round, create_loop
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

# Widgets deliberately left out of the Tab chain because a shortcut reaches them (a menu
# or tool button), each with the reason and the shortcut. Key: (surface, objectName), the
# surface being "page:<key>", "cuecard" or "dialog:<name>". Empty today: the audit found
# no such widget (the About me toolbar, the one candidate, is now in the Tab chain).
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
    if isinstance(widget, QToolButton) and isinstance(parent, QLineEdit):
        return True  # a line edit's action (the day fields' calendar): Alt+Down opens it
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
    # anything else Tab stops at (scroll areas, focusable frames) must be named too
    stops = [
        w
        for w in [root, *root.findChildren(QWidget)]
        if w.isVisible()
        and w.focusPolicy() & Qt.FocusPolicy.TabFocus
        and not isinstance(w, INTERACTIVE)
        and not w.isWindow()
        and not _is_internal(w)
    ]
    problems = [
        f"{where}: {describe(w)}: Tab stops here but it has no accessible name"
        for w in stops
        if not _spoken_name(w, buddies).strip()
    ]
    for widget in widgets:
        what = f"{where}: {describe(widget)}"
        allowed = (where.split()[0], widget.objectName()) in KEYBOARD_ALLOWLIST
        if not (widget.focusPolicy() & Qt.FocusPolicy.TabFocus or allowed):
            problems.append(f"{what}: not reachable with Tab (focus policy {widget.focusPolicy()})")
        if not _spoken_name(widget, buddies).strip():
            problems.append(f"{what}: no accessible name, text or buddy label")
        if isinstance(widget, QAbstractItemView) and widget.tabKeyNavigation():
            problems.append(f"{what}: Tab moves between its cells, so Tab cannot leave it")
        if _tab_is_text(widget) and not _ctrl_tab_leaves(widget):
            problems.append(f"{what}: Tab is text and Ctrl+Tab does not leave it (a trap)")
    return problems


def _tab_is_text(widget: QWidget) -> bool:
    return (
        isinstance(widget, QPlainTextEdit | QTextEdit)
        and not widget.isReadOnly()
        and not widget.tabChangesFocus()
    )


def _ctrl_tab_leaves(editor: QPlainTextEdit | QTextEdit) -> bool:
    """Whether Ctrl+Tab takes the focus out of an editor that keeps Tab as text."""
    from PySide6.QtTest import QTest

    text = editor.toPlainText()
    editor.window().activateWindow()
    editor.setFocus(Qt.FocusReason.OtherFocusReason)
    if not editor.hasFocus():
        return False
    QTest.keyClick(editor, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    left = not editor.hasFocus() and editor.toPlainText() == text
    if editor.toPlainText() != text:
        editor.setPlainText(text)
    return left


def per_tab(root: QWidget, where: str, check) -> list[str]:
    """``check(widget, where)`` on ``root``, then on every other tab of its tab widgets,
    so hidden tabs are checked too."""
    problems = check(root, where)
    for tabs in root.findChildren(QTabWidget):
        if not tabs.isVisible():
            continue
        start = tabs.currentIndex()
        for index in range(tabs.count()):
            if index != start:
                tabs.setCurrentIndex(index)
                QApplication.processEvents()
                problems += check(tabs.widget(index), f"{where} tab {tabs.tabText(index)!r}")
        tabs.setCurrentIndex(start)
    return problems


def audit_with_tabs(root: QWidget, where: str) -> list[str]:
    return per_tab(root, where, audit)


def _is_journal(problem: str) -> bool:
    return problem.startswith(("page:journal", "dialog:journal "))


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
def window(main_window, loop):
    win = main_window()
    yield win
    win.close()


@pytest.fixture
def empty_window(main_window):
    """A first start: no loop, no one-pager, no answers yet."""
    win = main_window()
    yield win
    win.close()


# tests --------------------------------------------------------------------------------


def _about_notice_and_rehearsal(page) -> None:
    page.rehearsal.start()  # a rehearsal clears the last notice: show one after it
    page.show_notice("A notice to dismiss.")
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
    from companion.core.selfcheck import quiz

    question = ctx.content.quiz()[0]
    quiz.record_mark(ctx.db, question, "missed", clock.now())
    return question


def test_the_window_and_every_page(qtbot, window, missed_question, open_page):
    problems = audit(window.rail, "window")
    for spec in PAGES:
        page = open_page(window, spec.key)
        if spec.key == "study":
            assert page.table.isVisible(), "the study list shows its topics, not the empty text"
        problems += audit_with_tabs(page, f"page:{spec.key}")
        for state in EXTRA_STATES.get(spec.key, []):
            state(page)
            QApplication.processEvents()
            problems += audit(page, f"page:{spec.key} {state.__name__.strip('_')}")
    assert_clean(problems)


def test_every_page_on_a_first_start(qtbot, empty_window, open_page):
    """The empty states (how to start) have controls of their own."""
    problems = []
    for spec in PAGES:
        page = open_page(empty_window, spec.key)
        problems += audit_with_tabs(page, f"page:{spec.key} (first start)")
    assert_clean(problems)


def test_every_allowlist_entry_says_why():
    for (surface, name), reason in KEYBOARD_ALLOWLIST.items():
        assert surface and name and len(reason.split()) >= 3, (surface, name, reason)


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
    table = QTableWidget(2, 2)
    table.setObjectName("cellTrap")
    table.setAccessibleName("Cells")
    editor = QPlainTextEdit()
    editor.setObjectName("textTrap")
    editor.setAccessibleName("Notes")
    for widget in (nameless, unreachable, label, named, table, editor):
        layout.addWidget(widget)
    root.show()
    qtbot.waitExposed(root)
    problems = audit(root, "probe")
    expected = {
        "nameless": "no accessible name",
        "unreachable": "not reachable with Tab",
        "cellTrap": "Tab cannot leave it",
        "textTrap": "Ctrl+Tab does not leave it",
    }
    assert len(problems) == len(expected), problems
    for name, complaint in expected.items():
        assert any(f" {name} " in p and complaint in p for p in problems), (name, problems)
    assert editor.toPlainText() == "", "the trap check types nothing into the editor"


def test_every_page_fits_a_small_laptop_screen(qtbot, window, open_page):
    too_wide = []
    for spec in PAGES:
        page = open_page(window, spec.key)
        width = page.minimumSizeHint().width()
        if width > MAX_PAGE_WIDTH:
            too_wide.append(f"page:{spec.key} needs {width} px (at most {MAX_PAGE_WIDTH})")
    assert not too_wide, "\n".join(too_wide)


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking
def test_the_cue_card(qtbot, ctx, bus, day_service, loop):
    from companion.ui.cue.sections import CollapsibleSection
    from companion.ui.cue.window import CueCardWindow

    card = CueCardWindow(ctx, bus, day_service)
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
    if not dialog.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose):
        qtbot.addWidget(dialog)  # qtbot closes it at the end; the others delete themselves
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_dialogs(qtbot, ctx, bus, loop, clock):
    from companion.core.about import store as about_store
    from companion.ui.about.dialogs import CalibrateDialog, HistoryDialog
    from companion.ui.journal.capture import CaptureDialog
    from companion.ui.widgets.loop_dialogs import LoopDialog, RoundDialog

    loop_id, round_id = loop
    from companion.core.day.loops import get_round

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
    }
    problems = []
    for name, dialog in dialogs.items():
        _show_dialog(qtbot, dialog)
        problems += audit(dialog, f"dialog:{name}")
        dialog.close()
    assert_clean(problems)


def test_the_journal_dialogs(qtbot, ctx, bus, day_service, loop, clock):
    """Owned by the journal: problems here go to JOURNAL_KNOWN for its owner to fix."""
    from types import SimpleNamespace

    from companion.core.day.loops import get_loop, get_round
    from companion.ui.journal import dialogs as je
    from companion.ui.journal.page import JournalPage
    from companion.ui.widgets.loop_dialogs import LoopDialog, RoundDialog

    loop_id, round_id = loop
    types = [(t.id, t.title) for t in ctx.content.round_types()]
    entry = SimpleNamespace(
        question="Design a rate limiter",
        topic="rate limiting",
        detail="forgot the burst",
        severity=2,
        text="clear trade-offs",
        note="read the guide",
    )
    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    dialogs = {
        "LoopDialog (Journal)": LoopDialog(clock.now().date()),
        "LoopEditDialog": je.LoopEditDialog(get_loop(ctx.db, loop_id)),
        "RoundDialog with notes": RoundDialog(types, None, get_round(ctx.db, round_id), notes=True),
        "WeakTopicDialog": je.WeakTopicDialog("caching", "read up"),
        "WeakTopicsDialog": je.WeakTopicsDialog(ctx.db),
        **{f"EntryDialog {kind}": je.EntryDialog(kind, entry) for kind in je.KIND_TITLES},
    }
    problems = []
    for name, dialog in dialogs.items():
        _show_dialog(qtbot, dialog)
        problems += audit(dialog, f"dialog:journal {name}")
        dialog.close()
    assert_clean(problems)


def test_dialogs_opened_from_the_about_page(qtbot, window, open_page):
    page = open_page(window, "about")
    problems = []
    page.documents.open_history()
    qtbot.waitExposed(page.documents.history_dialog)
    problems += audit(page.documents.history_dialog, "dialog:about history")
    page.documents.history_dialog.close()
    page.rehearsal.open_calibrate()
    qtbot.waitExposed(page.rehearsal.calibrate_dialog)
    problems += audit(page.rehearsal.calibrate_dialog, "dialog:about calibrate")
    page.rehearsal.calibrate_dialog.close()
    assert_clean(problems)


# tab order ----------------------------------------------------------------------------


def _spoken(widget: QWidget) -> str:
    if widget.accessibleName():
        return widget.accessibleName()
    if isinstance(widget, QAbstractButton):
        return widget.text().replace("&", "")
    if isinstance(widget, QTabBar):
        return widget.tabText(widget.currentIndex())
    return type(widget).__name__


def tab_chain(qtbot, start: QWidget, *, backwards: bool = False, limit: int = 40) -> list[str]:
    """The names focus moves through with Tab (Shift+Tab) from ``start`` until it comes
    back; in an editor where Tab is text, Ctrl+Tab, which it documents, moves on."""
    key = Qt.Key.Key_Backtab if backwards else Qt.Key.Key_Tab
    shift = Qt.KeyboardModifier.ShiftModifier if backwards else Qt.KeyboardModifier.NoModifier
    start.window().activateWindow()
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus)
    seen = []
    for _ in range(limit):
        widget = QApplication.focusWidget()
        ctrl = (
            Qt.KeyboardModifier.ControlModifier
            if _tab_is_text(widget)
            else Qt.KeyboardModifier.NoModifier
        )
        qtbot.keyClick(widget, key, shift | ctrl)
        widget = QApplication.focusWidget()
        if widget is start:
            return seen
        seen.append(_spoken(widget))
    pytest.fail(f"Tab never came back to {_spoken(start)!r}: {seen}")


ABOUT_ORDER = [
    "One-pager or stories",  # the switch to the story bank (About me -> Stories)
    # the toolbar (Undo and Redo join it once there is something to undo)
    "Save now",
    "Rehearse",
    "History",
    "Start from template",
    "Import",
    "Export",
    "Print",
    # the rehearsal take's opt-in (its Play/Keep/Use buttons appear after a take)
    "Record my voice when I rehearse",
    # then the three columns, left to right
    "One-pager editor",
    "Preview",
    "Speaking rate in words per minute",
    "Calibrate speaking rate",
    "Pitch segments",
    "Pitch timing, scrollable",
]


def test_about_me_tab_order_follows_reading_order(qtbot, window, open_page):
    page = open_page(window, "about")
    text = page.editor.toPlainText()
    forward = tab_chain(qtbot, window.rail)
    assert forward == ABOUT_ORDER
    assert page.editor.toPlainText() == text, "moving through the editor typed nothing"
    assert tab_chain(qtbot, window.rail, backwards=True) == forward[::-1]

    # the notice and the rehearsal strip sit between the toolbar and the editor
    page.rehearsal.start()  # a rehearsal clears the last notice: show one after it
    page.show_notice("A notice to dismiss.")
    chain = tab_chain(qtbot, window.rail)
    after_toolbar = chain[chain.index("Print") + 1 :][:4]
    assert after_toolbar == ["Dismiss notice", "Next segment", "Stop rehearsal", "One-pager editor"]
    page.rehearse_bar.stop()


def test_self_check_tab_order_follows_reading_order(qtbot, window, open_page):
    page = open_page(window, "selfcheck")
    header = ["Self-check", "Question set", "Flagged questions only", "Start again"]
    # the loop ahead makes the pack's new questions the review before it: its button
    header.append("Review before the loop")
    assert tab_chain(qtbot, window.rail) == [
        *header,
        "Question card",
        "Show answer",
        "Flag to speak aloud",
    ]
    page.quiz.card.setFocus()
    qtbot.keyClick(page.quiz.card, Qt.Key.Key_Space)  # show the answer: the marks appear
    assert page.quiz.answer_label.isVisible()
    assert tab_chain(qtbot, window.rail) == [
        *header,
        "Question card",
        "Got it",
        "Shaky",
        "Missed",
        "Easy",
        "Flag to speak aloud",
    ]

    page.tabs.setCurrentIndex(page.PLANNER_TAB)
    qtbot.waitUntil(page.planner.isVisible)
    assert tab_chain(qtbot, window.rail) == [
        "Questions to ask",
        "Loop",
        "Questions from the content, by audience",
        "Ask the selected question to",
        "Add the selected question to the plan",
        "Planned questions",
        "Your own question",
        "Audience for your own question",
        "Add question",
    ]


# contrast (WCAG 2.1 AA) ---------------------------------------------------------------
#
# Computed from what is actually applied: each text's colour is its palette's foreground
# (a style sheet's colour lands there) or a colour inside its rich text; the background is
# read back from the widget as drawn (the most common colour of its grab). Disabled
# widgets are exempt (WCAG 1.4.3). Check boxes and the focus ring need 3:1 (WCAG 1.4.11).

import re as _re  # noqa: E402
from collections import Counter  # noqa: E402

# the item views' audit (lists, trees, tables and their headers), judged as drawn
import contrast  # noqa: E402 (tests/ui/contrast.py)
from PySide6.QtGui import QColor, QPalette  # noqa: E402
from PySide6.QtWidgets import QCheckBox  # noqa: E402

from companion.ui.theme import STATUS, apply_scheme, apply_theme, contrast_ratio, dark_palette  # noqa: E402

_SPAN_COLOR = _re.compile(r"color\s*[:=]\s*['\"]?(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}\b)")


@pytest.fixture(params=["light", "dark"])
def scheme(request, qapp):
    from PySide6.QtCore import QCoreApplication, QEvent

    apply_scheme(qapp, request.param)
    yield request.param
    # the test's windows are closed and marked for deletion by now: delete them before
    # the restyle, which otherwise repolishes each of them (15 s a test under load)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    apply_scheme(qapp, apply_theme(qapp, {}))  # back to the look the other UI tests see


def _as_drawn(widget: QWidget, shot) -> QImage:  # noqa: F821
    """The widget as it is on screen (its parents' backgrounds included) when it is all in
    view, else as it draws itself."""
    from PySide6.QtCore import QPoint, QRect

    window = widget.window()
    if widget.visibleRegion().boundingRect().size() == widget.size():
        top_left = widget.mapTo(window, QPoint(0, 0))
        ratio = shot.devicePixelRatio()
        return shot.copy(
            QRect(
                round(top_left.x() * ratio),
                round(top_left.y() * ratio),
                round(widget.width() * ratio),
                round(widget.height() * ratio),
            )
        )
    return widget.grab().toImage()


def _colors(image) -> tuple[QColor, QColor]:
    """(background, text) as drawn: the most common colour and the one that stands out
    most from it."""
    counts: Counter = Counter()
    for x in range(image.width()):
        for y in range(image.height()):
            counts[image.pixel(x, y)] += 1
    if not counts:
        return QColor("white"), QColor("black")
    background = QColor.fromRgb(counts.most_common(1)[0][0])
    text = max((QColor.fromRgb(p) for p in counts), key=lambda c: contrast_ratio(c, background))
    return background, text


def _span_colors(widget: QWidget) -> list[QColor]:
    if isinstance(widget, QLabel) and widget.textFormat() != Qt.TextFormat.PlainText:
        return [QColor(c) for c in _SPAN_COLOR.findall(widget.text())]
    return []


def contrast_problems(root: QWidget, where: str) -> list[str]:
    shot = root.window().grab().toImage()
    problems = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisible() or not widget.isEnabled() or widget.width() < 4:
            continue
        has_text = isinstance(widget, QLabel | QAbstractButton) and widget.text().strip()
        if not has_text or (isinstance(widget, QLabel) and not widget.pixmap().isNull()):
            continue
        background, text = _colors(_as_drawn(widget, shot))
        for color in [text, *_span_colors(widget)]:
            ratio = contrast_ratio(color, background)
            if ratio < 4.5:
                problems.append(
                    f"{where}: {describe(widget)}: text {color.name()} on {background.name()}"
                    f" is {ratio:.2f}:1 (needs 4.5)"
                )
    return problems


def _item_views(page: QWidget, where: str, tally, *, focused: bool = False) -> list[str]:
    """The item-view audit of ``page``, once per tab of each of its tab widgets."""
    return per_tab(
        page,
        where,
        lambda widget, at: contrast.item_view_problems(
            widget, at, describe, tally, focused=focused
        ),
    )


def _journal_search(page) -> None:
    page.top.search.setText("shard")
    page.run_search()
    assert page.loop_list.results_view.isVisible(), "the search finds the asked question"


# states with item views of their own, besides EXTRA_STATES
ITEM_VIEW_STATES = {"journal": [_journal_search]}


def _item_views_of_every_page(window, open_page, scheme: str, tally, **how) -> list[str]:
    """The rail's and each page's item views (every tab and extra state) in ``window``."""
    problems = _item_views(window.rail, f"{scheme} window", tally, **how)
    for spec in PAGES:
        page = open_page(window, spec.key)
        problems += _item_views(page, f"{scheme} page:{spec.key}", tally, **how)
        states = EXTRA_STATES.get(spec.key, []) + ITEM_VIEW_STATES.get(spec.key, [])
        for state in states:
            state(page)
            QApplication.processEvents()
            where = f"{scheme} page:{spec.key} {state.__name__.strip('_')}"
            problems += _item_views(page, where, tally, **how)
    return problems


def test_status_colours_are_readable_in_light_and_dark(qapp):
    from companion.ui.theme import light_palette

    light = light_palette()
    for name, palette in (("light", light), ("dark", dark_palette())):
        for kind, color in STATUS[name].items():
            for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
                ratio = contrast_ratio(QColor(color), palette.color(role))
                assert ratio >= 4.5, (name, kind, role, ratio)


# the item views the contrast audit must find holding text (by accessible name)
ITEM_VIEWS = [
    "Tools",
    "Rounds of this loop",
    "Pitch segments",
    "Pitch segments header",
    "Loops",
    "Rounds and what was written for each",
    "Topics to study, most pressing first",
    "Topics to study, most pressing first header",
    "Topics studied, newest first",
    "Questions from the content, by audience",
    "Planned questions",
    "Search results",
]


@pytest.fixture
def full_lists(ctx, clock, loop, missed_question):
    """Rows in every list, tree and table the pages show, selected and not: a second loop,
    an entry under a round, two study topics and a studied one, a plan with an asked
    question (its suggestion then greys out in the tree)."""
    from companion.core.journal.entries import add_asked, add_flub
    from companion.core.selfcheck import planner
    from companion.core.study.ranking import mark_studied, study_list

    loop_id, round_id = loop
    now = clock.now()
    last_month = (now - dt.timedelta(days=30)).date().isoformat()  # listed below Acme
    create_loop(ctx.db, "Globex", "Platform engineer", starts_on=last_month)
    add_asked(ctx.db, None, round_id, "How would you shard the job queue?", "sharding", at=now)
    add_flub(ctx.db, None, round_id, "consistent hashing", "forgot the ring", 3, at=now)
    add_flub(ctx.db, None, round_id, "rate limiting", "token bucket burst", 2, at=now)
    studied = [i for i in study_list(ctx.db, now) if i.topic == "rate limiting"]
    mark_studied(ctx.db, studied[0], now)
    suggestion = planner.suggestions(ctx.content)[0]
    planner.add_suggestion(ctx.db, loop_id, suggestion, suggestion.audiences[0], at=now)
    own, _ = planner.add_custom(ctx.db, loop_id, "Who carries the pager?", "peer", at=now)
    planner.mark_asked(ctx.db, own, round_id, now)
    return loop


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking
def test_contrast_of_every_page_and_the_card(
    day_service, qtbot, scheme, ctx, bus, full_lists, open_page, main_window
):
    from companion.ui.cue.window import CueCardWindow

    window = main_window()
    problems = []
    for spec in PAGES:
        page = open_page(window, spec.key)
        problems += contrast_problems(page, f"{scheme} page:{spec.key}")
    tally = contrast.Tally()
    problems += _item_views_of_every_page(window, open_page, scheme, tally)
    window.close()
    card = CueCardWindow(ctx, bus, day_service)
    qtbot.addWidget(card)
    card.show()
    qtbot.waitExposed(card)
    card.reminder.setVisible(True)
    card.banner_text.setText("Wrap up: two minutes left")
    card.banner.setVisible(True)
    QApplication.processEvents()
    problems += contrast_problems(card, f"{scheme} cuecard")
    problems += _item_views(card, f"{scheme} cuecard", tally)
    card.close()
    assert not problems, "Low contrast:\n  " + "\n  ".join(problems)
    # the item views held data, so the audit above judged their text
    empty = [name for name in ITEM_VIEWS if not tally.lines[name]]
    assert not empty, f"item views with no text judged: {empty} (judged: {dict(tally.lines)})"
    assert tally.total() >= 60, tally


# Views whose selected current item is below 4.5:1 once the view has the focus: Fusion's
# focus frame (PE_FrameFocusRect) fills the item's text rect with a translucent, lighter
# highlight, so the white text stands on a paler blue (light 4.3:1, dark 3.7 to 4.1:1).
# Any list with a selected current item is hit alike (the About history's Revisions and the
# Topics marked weak measured 4.2:1 in dark with the focus in them). The fix is in
# companion/ui/style.py (another session's file): draw an item view's focus frame as an
# outline only. Once it lands this test fails on the stale entries: empty them.
@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking
def test_contrast_of_item_views_with_the_focus_in_them(
    qtbot, scheme, full_lists, open_page, main_window
):
    """The current item with the keyboard focus: Fusion's focus frame filled it with a paler
    highlight under white text (3.7:1 in dark); CompanionStyle draws a dotted outline."""
    window = main_window()
    tally = contrast.Tally()
    problems = _item_views_of_every_page(window, open_page, scheme, tally, focused=True)
    window.close()
    assert not problems, "Low contrast with the focus in the view:\n  " + "\n  ".join(problems)
    assert tally.total() >= 60, tally


def test_check_boxes_and_the_focus_ring_stand_out(qtbot, scheme):
    from PySide6.QtWidgets import QVBoxLayout

    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    box = QCheckBox("Unticked")
    edit = QLineEdit()
    layout.addWidget(box)
    layout.addWidget(edit)
    root.show()
    qtbot.waitExposed(root)
    ratio = contrast.check_box_outline(box)
    assert ratio >= 3, f"{scheme}: an unticked check box outline is {ratio:.2f}:1 (needs 3)"
    root.activateWindow()
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    focused = contrast.edge_contrast(edit, edit.rect().adjusted(0, 0, -1, -1))
    assert focused >= 3, f"{scheme}: the focus ring is {focused:.2f}:1 (needs 3)"


def test_the_item_view_audit_catches_pale_text(qtbot, scheme):
    """The item-view audit itself: a pale item, a pale header and a delegate's pale second
    line are each reported; the readable first line and items are not."""
    from PySide6.QtWidgets import (
        QListWidget,
        QStyledItemDelegate,
        QTreeWidget,
        QTreeWidgetItem,
        QVBoxLayout,
    )

    def pale(palette) -> QColor:  # 30 % text on the base: about 2:1 in light and dark
        text, base = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
        return QColor(
            *(
                round(0.3 * t + 0.7 * b)
                for t, b in zip(text.getRgb()[:3], base.getRgb()[:3], strict=True)
            )
        )

    class TwoLines(QStyledItemDelegate):
        def sizeHint(self, option, index):  # noqa: N802 (Qt API)
            size = super().sizeHint(option, index)
            size.setHeight(2 * option.fontMetrics.height() + 12)
            return size

        def paint(self, painter, option, index):
            first = option.rect.adjusted(6, 6, -6, -option.rect.height() // 2)
            second = option.rect.adjusted(6, option.rect.height() // 2, -6, -6)
            painter.save()
            painter.setPen(option.palette.color(QPalette.ColorRole.Text))
            painter.drawText(first, Qt.AlignmentFlag.AlignLeft, index.data())
            painter.setPen(pale(option.palette))
            painter.drawText(second, Qt.AlignmentFlag.AlignLeft, "a pale second line")
            painter.restore()

    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    tree = QTreeWidget()
    tree.setAccessibleName("Probe tree")
    tree.setHeaderLabels(["Readable", "Pale"])
    tree.headerItem().setForeground(1, pale(tree.palette()))
    item = QTreeWidgetItem(["readable text", "pale text"])
    item.setForeground(1, pale(tree.palette()))
    tree.addTopLevelItem(item)
    listing = QListWidget()
    listing.setAccessibleName("Probe list")
    listing.setItemDelegate(TwoLines(listing))
    listing.addItem("the first line")
    layout.addWidget(tree)
    layout.addWidget(listing)
    root.resize(400, 300)
    root.show()
    qtbot.waitExposed(root)
    tally = contrast.Tally()
    problems = contrast.item_view_problems(root, "probe", describe, tally)
    assert len(problems) == 3, problems
    assert any("Probe tree: row 0 'pale text'" in p for p in problems), problems
    assert any("Probe tree header: header section 1 'Pale'" in p for p in problems), problems
    assert any("Probe list: row 0 'the first line'" in p for p in problems), problems
    assert tally.lines["Probe list"] == 2, "each of the delegate's lines is judged on its own"


@pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: no stacking
def test_contrast_of_the_lists_in_dialogs(qtbot, scheme, ctx, bus, day_service, full_lists, clock):
    from companion.core.about import store as about_store
    from companion.core.journal.entries import add_weak_topic
    from companion.ui.about.dialogs import HistoryDialog
    from companion.ui.journal import dialogs as je
    from companion.ui.journal.capture import CaptureDialog
    from companion.ui.journal.page import JournalPage

    loop_id, round_id = full_lists
    about_store.snapshot(ctx.db, "# Me\n\nA pitch.", clock.now(), "save")
    about_store.snapshot(ctx.db, "# Me\n\nA longer pitch.", clock.now(), "save")
    add_weak_topic(ctx.db, "caching", loop_id=loop_id, note="read up on eviction")
    capture = CaptureDialog(ctx, bus, round_id)
    for part, lines in (
        (capture.asked, ["Design a cache", "Shard a queue"]),
        (capture.flubbed, ["LRU"]),
    ):
        for line in lines:
            part.entry.setText(line)
            part.add_current()
    page = JournalPage(ctx, bus, day=day_service)
    qtbot.addWidget(page)
    dialogs = {
        "CaptureDialog": capture,
        "HistoryDialog": HistoryDialog(ctx.db),
        "WeakTopicsDialog": je.WeakTopicsDialog(ctx.db),
    }
    tally = contrast.Tally()
    problems = []
    for name, dialog in dialogs.items():
        _show_dialog(qtbot, dialog)
        problems += contrast.item_view_problems(dialog, f"{scheme} dialog:{name}", describe, tally)
        dialog.close()
    assert not problems, "Low contrast:\n  " + "\n  ".join(problems)
    lists = ["What they asked: added so far", "What you flubbed: added so far", "Revisions"]
    empty = [name for name in [*lists, "Topics marked weak"] if not tally.lines[name]]
    assert not empty, f"lists with no text judged: {empty} (judged: {dict(tally.lines)})"


def test_the_window_fits_a_small_screen_at_200_percent(qtbot, full_lists, open_page, main_window):
    """1600 x 1000 pixels at QT_SCALE_FACTOR=2 is 800 x 500: with every page built and the
    lists full, the window must not need more (the planner's two columns side by side made
    it 927 wide). The planner stacks its columns when narrow, and not when there is room."""
    window = main_window()
    for spec in PAGES:
        open_page(window, spec.key)
    needed = window.minimumSizeHint().expandedTo(window.minimumSize())
    hints = {spec.key: window.page(spec.key).minimumSizeHint() for spec in PAGES}
    sizes = {key: (hint.width(), hint.height()) for key, hint in hints.items()}
    assert needed.width() <= 800 and needed.height() <= 500, (needed, sizes)
    page = window.page("selfcheck")
    page.tabs.setCurrentWidget(page.planner)
    columns = page.planner.columns
    window.resize(800, 500)
    qtbot.waitUntil(lambda: columns.stacked)
    window.resize(1400, 800)
    qtbot.waitUntil(lambda: not columns.stacked)
