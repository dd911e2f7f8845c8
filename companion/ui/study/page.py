"""The Study list page: what to study next, ranked, each linked to the guide section
that covers it; mark studied; export for a spreadsheet, Anki, Markdown or JSON.

"Review before the loop" switches to the FSRS review list (quiz questions and topics,
lowest predicted recall at the next round first); a topic there is rated Again, Hard,
Good or Easy in place."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.core.changes import Change
from companion.core.day.loops import type_names
from companion.core.review.ahead import offer_minutes, review_ahead
from companion.core.review.cards import rate
from companion.core.review.queue import review_or_empty
from companion.core.selfcheck.quiz import quiz_intro
from companion.core.study.exports import SUFFIXES
from companion.core.study.facts import topic_facts
from companion.core.study.ranking import (
    GuideIndex,
    mark_studied,
    study_details,
    study_history,
    study_list,
)
from companion.core.text import count_of
from companion.ui.journal.files import STUDY_FILTERS, STUDY_TITLES, ExportRunner, FileDialogs
from companion.ui.journal.transfer import start_study_export
from companion.ui.selfcheck.answers import AskedQuestion, QuestionsWithHiddenAnswers
from companion.ui.study.model import StudyModel
from companion.ui.study.review import AheadButton, ReviewListView, review_summary
from companion.ui.widgets.itemdata import OBJECT
from companion.ui.widgets.type_scale import type_role

#: the change kinds the list is ranked from (a loop's name shows beside its flubs)
SHOWN = ("capture", "study", "quiz", "review", "loop")

EMPTY_TEXT = (
    "Nothing to study right now.\n\nFlubs you note after a round, topics you mark weak and "
    "self-check questions you miss show up here, most pressing first."
)


class StudyPage(QWidget):
    def __init__(self, ctx, bus, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.bus = bus
        self.file_dialogs = FileDialogs(ctx)
        self.exporter = ExportRunner(ctx, self)
        self.exporter.finished.connect(
            lambda ok, m: self.status(m if ok else f"Export failed: {m}")
        )
        self._guide = None
        self.setAccessibleName("Study list")

        title = QLabel("Study list")
        type_role(title, "pageTitle")
        self.summary = QLabel()
        self.summary.setAccessibleName("Study list summary")
        self.studied_button = QPushButton("Mark &studied")
        self.studied_button.setToolTip("Ctrl+D")
        self.studied_button.setAccessibleName("Mark the selected topic studied")
        self.studied_button.clicked.connect(self.mark_selected_studied)
        self.history_box = QCheckBox("Show &history")
        self.history_box.setAccessibleName("Show topics already studied")
        self.history_box.toggled.connect(self._toggle_history)
        self.review_box = QCheckBox("&Review before the loop")
        self.review_box.setAccessibleName("Show the review before the loop")
        self.review_box.setToolTip(
            "Questions and topics due by the next round, lowest predicted recall first"
        )
        self.review_box.toggled.connect(self._toggle_review)
        self.review_line = QLabel()
        self.review_line.setAccessibleName("Review counts")
        self.review_line.setTextFormat(Qt.TextFormat.PlainText)
        self.review_line.setWordWrap(True)
        export = QToolButton()
        export.setText("&Export")
        export.setAccessibleName("Export the study list")
        export.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(export)
        for fmt, label in STUDY_TITLES.items():
            menu.addAction(label, lambda f=fmt: self.export(f))
        export.setMenu(menu)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addWidget(self.summary, 1)
        top.addWidget(self.history_box)
        top.addWidget(self.studied_button)
        top.addWidget(export)

        self.model = StudyModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Topics to study, most pressing first")
        self.table.setTabKeyNavigation(False)  # arrows move between cells; Tab moves on
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for col in (0, 2, 3, 4, 5):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().currentRowChanged.connect(self._item_chosen)
        self.detail = QTextBrowser()
        self.detail.setAccessibleName("Topic details and the guide section that covers it")
        self.detail.setOpenLinks(False)
        self.questions = QuestionsWithHiddenAnswers()  # a self-check set: answers on request
        detail_pane = QWidget()
        detail_layout = QVBoxLayout(detail_pane)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.detail, 1)
        detail_layout.addWidget(self.questions, 2)
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setAccessibleName("The study list is empty")
        self.history = QListWidget()
        self.history.setAccessibleName("Topics studied, newest first")
        self.review = QWidget()
        self.review_view = ReviewListView()
        self.review_view.currentRowChanged.connect(lambda _r: self._review_chosen())
        self.rate_buttons = {}
        rates = QHBoxLayout()
        self.rate_hint = QLabel()
        self.rate_hint.setWordWrap(True)
        rates.addWidget(self.rate_hint, 1)
        for rating in ("again", "hard", "good", "easy"):
            button = QPushButton(rating.capitalize())
            button.setAccessibleName(f"Rate the topic {rating}")
            button.clicked.connect(lambda _c=False, r=rating: self.rate_selected(r))
            self.rate_buttons[rating] = button
            rates.addWidget(button)
        review_layout = QVBoxLayout(self.review)
        review_layout.setContentsMargins(0, 0, 0, 0)
        review_layout.addWidget(self.review_view, 1)
        review_layout.addLayout(rates)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(detail_pane)
        splitter.setSizes([280, 320])  # room for a self-check set under the facts
        self.stack = QStackedWidget()
        self.stack.addWidget(splitter)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.history)
        self.stack.addWidget(self.review)
        self.message = QLabel()
        self.message.setAccessibleName("Study list status")
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        review_row = QHBoxLayout()
        review_row.addWidget(self.review_line, 1)
        self.ahead_button = AheadButton()
        self.ahead_button.clicked.connect(self.show_ahead)
        self._ahead = None  # the pass the review view shows instead of the whole list
        review_row.addWidget(self.ahead_button)
        review_row.addWidget(self.review_box)
        layout.addLayout(review_row)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.message)
        QShortcut(QKeySequence("Ctrl+D"), self, self.mark_selected_studied)
        self.redraws = 0  # how often the list was ranked again (benchmarks/bench_redraws.py)
        bus.changed.connect(self._data_changed)
        bus.open_review.connect(self.show_review)
        # the first load is on_shown's: the main window calls it once the page is built

    @property
    def guide(self):
        if self._guide is None:
            self._guide = GuideIndex(self.ctx.content)
        return self._guide

    def on_shown(self) -> None:
        self.refresh()

    def _data_changed(self, change) -> None:
        """Flubs and weak topics (captures and their loops), study marks, quiz answers:
        what the list is ranked from. Hidden, it would be ranked for nobody: on_shown
        ranks it when it is shown."""
        if change.touches(*SHOWN) and self.isVisible():
            self.refresh()

    def status(self, text: str) -> None:
        self.message.setText(text)

    def refresh(self) -> None:
        self.redraws += 1
        keep = self.selected()
        items = study_list(self.ctx.db, self.ctx.now(), guide=self.guide)
        self.model.set_items(items)
        bad = sum(1 for i in items if i.worst == 3)
        self.summary.setText(f"{count_of(len(items), 'topic')}, {bad} bad" if items else "")
        self.studied_button.setEnabled(bool(items))
        listed = self.refresh_review()
        if self.review_box.isChecked():
            self.review_view.show_list(self._ahead or listed)
            self.stack.setCurrentWidget(self.review)
            self._review_chosen()
            return
        if self.history_box.isChecked():
            self._show_history()
            return
        if not items:
            self.stack.setCurrentWidget(self.empty)
            self._item_chosen(QModelIndex())
            return
        self.stack.setCurrentIndex(0)
        row = next((n for n, i in enumerate(items) if keep and i.key == keep.key), 0)
        self.table.selectRow(row)
        self.table.setCurrentIndex(self.model.index(row, 1))

    # the review before the loop --------------------------------------------------------

    def refresh_review(self):
        """The counts line; returns the review list it counted."""

        listed = review_or_empty(self.ctx.db, self.ctx.now(), self.ctx.content.quiz())
        self.review_line.setText(review_summary(listed, listed.due_now, len(listed.items), "item"))
        self.review_box.setText(f"&Review before the loop ({len(listed.items)})")

        self.ahead_button.offer(offer_minutes(self.ctx.db, self.ctx.now()))
        return listed

    def show_ahead(self) -> None:
        """The review view on a pass sized to the button's minutes; unticking the review
        box goes back to the whole list."""

        minutes = self.ahead_button.minutes or 10
        self._ahead = review_ahead(self.ctx.db, self.ctx.now(), minutes).as_review_list()
        self.show_review()

    def show_review(self) -> None:
        """Open on the review list (the checklist's "re-skim the answer keys" link)."""
        self.history_box.setChecked(False)
        if self.review_box.isChecked():
            self.refresh()
        else:
            self.review_box.setChecked(True)  # refreshes through toggled
        self.review_view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _toggle_review(self, on: bool) -> None:
        if not on:
            self._ahead = None
        if on and self.history_box.isChecked():
            self.history_box.blockSignals(True)
            self.history_box.setChecked(False)
            self.history_box.blockSignals(False)
        self.refresh()

    def _review_chosen(self) -> None:
        item = self.review_view.selected()
        topic = item is not None and item.kind == "topic"
        for button in self.rate_buttons.values():
            button.setEnabled(topic)
        if item is None:
            self.rate_hint.setText("")
        elif topic:
            self.rate_hint.setText("How well do you know it now?")
        else:
            self.rate_hint.setText("Rate questions in Self-check (Review before the loop).")

    def rate_selected(self, rating: str) -> None:
        item = self.review_view.selected()
        if item is None or item.kind != "topic":
            return
        row = self.review_view.currentRow()
        rate(self.ctx.db, "topic", item.id, item.title, rating, self.ctx.now(), "study")
        self.status(f"“{item.title[:80]}” rated {rating}.")
        self.bus.announce(Change.of("review", origin=self))  # this list redraws from it too
        self.review_view.setCurrentRow(min(row, self.review_view.count() - 1))

    def selected(self):
        index = self.table.currentIndex()
        return index.data(OBJECT) if index.isValid() else None

    def _item_chosen(self, current: QModelIndex, _previous=None) -> None:
        item = current.data(OBJECT) if current.isValid() else None
        self.detail.setHtml(self.describe(item) if item else "")
        self.questions.show_questions(*(self.self_check(item) if item else ("", ())))

    def describe(self, item) -> str:
        esc = html.escape
        parts = [f"<h3>{esc(item.topic)}</h3>"]
        detail = study_details(self.ctx.db, [item.key])[item.key]
        names = type_names(self.ctx.db, self.guide.round_titles)
        facts = topic_facts(item, detail, names)  # the same facts as the Markdown export
        parts.append(f"<p>{esc('; '.join(facts))}</p>")
        if detail.details:
            parts.append(
                "<ul>" + "".join(f"<li>{esc(d[:500])}</li>" for d in detail.details) + "</ul>"
            )
        guide = item.guide
        if guide is None:
            parts.append("<p><i>No guide section matches this topic.</i></p>")
        else:
            section = self.ctx.content.section(guide.section_id)
            parts.append(f"<h4>Guide: {esc(guide.section_title)}</h4>")
            if section is not None:
                rows = []
                for it in section.items:
                    if it.get("answer"):
                        continue  # a self-check question: below, its answer on request
                    text = esc(it.text)
                    if guide.item and it.text == guide.item:
                        text = f"<b>{text}</b>"
                    if it.get("say"):
                        text += f"<br><i>{esc(it.get('say'))}</i>"
                    rows.append(f"<li>{text}</li>")
                if rows:
                    parts.append("<ul>" + "".join(rows) + "</ul>")
        return "".join(parts)

    def self_check(self, item) -> tuple[str, list[AskedQuestion]]:
        """The self-check questions the topic leads to (a missed question itself, the
        guide's quiz set), each shown with its answer hidden, and the set's own words on
        answering from memory first."""
        intro, asked = "", []
        if item.key.startswith("quiz:"):
            qid = item.key.removeprefix("quiz:")
            for question in self.ctx.content.quiz():
                if question.id == qid:
                    intro = quiz_intro(self.ctx.content, question)
                    asked.append(AskedQuestion(question.question, question.answer, True))
                    break
        section = self.ctx.content.section(item.guide.section_id) if item.guide else None
        answered = [it for it in section.items if it.get("answer")] if section else []
        if answered:
            intro = " ".join(section.intro.split()) or intro
        for it in answered:
            if any(q.question == it.text for q in asked):
                continue
            current = bool(item.guide.item) and it.text == item.guide.item
            asked.append(AskedQuestion(it.text, it.get("answer") or "", current))
        return intro, asked

    def mark_selected_studied(self) -> None:
        item = self.selected()
        if item is None:
            return
        row = self.table.currentIndex().row()
        mark_studied(self.ctx.db, item, self.ctx.now())
        self.status(f"“{item.topic[:80]}” marked studied; it stays in the history.")

        self.bus.announce(Change.of("study", origin=self))  # this list redraws from it too
        if self.model.rowCount():
            row = min(row, self.model.rowCount() - 1)
            self.table.selectRow(row)
            self.table.setCurrentIndex(self.model.index(row, 1))

    def _toggle_history(self, on: bool) -> None:
        if on and self.review_box.isChecked():
            self.review_box.blockSignals(True)
            self.review_box.setChecked(False)
            self.review_box.blockSignals(False)
        if on:
            self._show_history()
        else:
            self.refresh()

    def _show_history(self) -> None:
        self.history.clear()
        marks = study_history(self.ctx.db)
        for mark in marks:
            self.history.addItem(f"{mark.studied_at[:10]}  ·  {mark.topic}")
        if not marks:
            self.history.addItem("Nothing studied yet.")
        self.stack.setCurrentWidget(self.history)

    def export(self, fmt: str) -> None:
        self.file_dialogs.save_path(
            self,
            "Export the study list",
            Path.home() / f"study-list{SUFFIXES[fmt]}",
            STUDY_FILTERS[fmt],
            lambda path: start_study_export(self, fmt, path),
        )
