"""The cue card's Stories fold (hiring-manager, peer and leadership rounds as the pack
says): each story's title with one line per part, filtered to one question type on
demand, and a key (U) that marks the selected story told in this round.

:class:`StoriesFold` only renders lines and emits ``used(story_id)``; :class:`StoriesPart`
joins it to the core (:mod:`companion.core.stories.rounds`) and the round the card shows.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QListWidget, QListWidgetItem, QVBoxLayout

from companion.core.changes import Change
from companion.core.content.stories import story_pack
from companion.core.stories import DatabaseError
from companion.core.stories.document import STORIES
from companion.core.stories.parse import PART_TITLES, PARTS, parse_stories
from companion.core.stories.rounds import card_stories, shows_stories, toggle_used, used_stories
from companion.ui.cue.sections import label, tool_button

MARK = "\u2713 "  # a story told in this round
MAX_LIST_LINES = 14  # the list's height at most, in lines of text


class _StoryList(QListWidget):
    mark = Signal()
    resized = Signal()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.resized.emit()  # the wrapped rows' heights change with the width

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        if event.key() in (Qt.Key.Key_U, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.mark.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class StoriesFold(QFrame):
    """A header button that folds a list of stories; rendering only."""

    used = Signal(str)  # the story id the user marked (or unmarked) told
    toggled = Signal(bool)  # opened (True) or folded

    def __init__(self, parent=None):
        super().__init__(parent)

        self.setObjectName("cueStories")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.setSpacing(2)
        self.header = tool_button(
            "\u25b8 Stories",
            "Stories",
            "Your stories for this round (U marks one told)",
            checkable=True,
        )
        self.header.setObjectName("cueSectionHeader")
        self.header.toggled.connect(self._toggled)
        layout.addWidget(self.header)
        self.filter = label("", "small")
        layout.addWidget(self.filter)
        self.list = _StoryList()
        self.list.setAccessibleName("Stories for this round")
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)  # tall items
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.mark.connect(self.mark_current)
        self.list.resized.connect(self._fit)
        self.list.itemDoubleClicked.connect(lambda _item: self.mark_current())
        layout.addWidget(self.list)
        self.empty = label("", "hint")
        layout.addWidget(self.empty)
        self._ids: list[str] = []
        self._set_open(False)

    @property
    def is_open(self) -> bool:
        return self.header.isChecked()

    def set_open(self, on: bool) -> None:
        self.header.setChecked(on)

    def _toggled(self, on: bool) -> None:
        self._set_open(on)
        self.toggled.emit(on)

    def _set_open(self, on: bool) -> None:
        text = self.header.text()[2:]
        self.header.setText(("\u25be " if on else "\u25b8 ") + text)
        # opened with no stories: the hint alone (an empty list showed as a blank box)
        ids = getattr(self, "_ids", [])
        self.filter.setVisible(on and bool(self.filter.text()))
        self.list.setVisible(on and bool(ids))
        self.empty.setVisible(on and not ids)

    def show_stories(
        self, stories: list[tuple[str, str, list[str], bool]], filter_text: str, empty: str
    ) -> None:
        """``stories``: (id, title, part lines, used) each; ``filter_text`` says which
        question type is shown ("" for all); ``empty`` is shown when there is none."""
        current = self.current_id()
        self._ids = [s[0] for s in stories]
        told = sum(1 for s in stories if s[3])
        self.header.setText(
            ("\u25be " if self.is_open else "\u25b8 ")
            + f"Stories ({len(stories)}{f', {told} told' if told else ''})"
        )
        self.filter.setText(filter_text)
        self.filter.setVisible(self.is_open and bool(filter_text))
        self.list.clear()
        for story_id, title, lines, used in stories:
            item = QListWidgetItem(
                (MARK if used else "") + title + "".join(f"\n   {line}" for line in lines)
            )
            item.setData(Qt.ItemDataRole.UserRole, story_id)
            item.setToolTip("U or Enter: mark told in this round")
            font = item.font()
            font.setBold(used)
            item.setFont(font)
            self.list.addItem(item)
        if self._ids:
            row = self._ids.index(current) if current in self._ids else 0
            self.list.setCurrentRow(row)
        self.empty.setText(empty)
        self.empty.setVisible(self.is_open and not stories)
        self.list.setVisible(self.is_open and bool(stories))
        self._fit()

    def _fit(self) -> None:
        """About as tall as its stories' lines, wrapped at the list's width, at most
        MAX_LIST_LINES of text (then it scrolls); again whenever the width changes."""
        from PySide6.QtGui import QFontMetrics

        self.list.ensurePolished()  # the card's style sheet sets the font size
        font = self.list.font()
        font.setBold(True)  # the widest case: a story marked told
        metrics = QFontMetrics(font)
        bar = self.list.style().pixelMetric(self.list.style().PixelMetric.PM_ScrollBarExtent)
        width = max(self.list.viewport().width() - bar - 8, 120)
        lines = 0
        for row in range(self.list.count()):
            for line in self.list.item(row).text().split("\n"):
                lines += 1 + metrics.horizontalAdvance(line) // width
        lines += 1 + lines // 8  # slack for words wrapped early
        height = min(MAX_LIST_LINES, lines) * metrics.lineSpacing()
        self.list.setFixedHeight(height + 2 * self.list.frameWidth() + 4)

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def mark_current(self) -> None:
        story_id = self.current_id()
        if story_id is not None:
            self.used.emit(story_id)


def part_lines(story) -> list[str]:
    """One line per part the story has: 'S: the first sentence'."""
    return [f"{PART_TITLES[p][0]}: {story.part_line(p)}" for p in PARTS if story.part_line(p)]


class StoriesPart:
    """The card's stories: which to show for the round on screen, the question-type
    filter the hotkey steps through, and marking a story used (stored, announced)."""

    def __init__(self, ctx, bus, parent=None):
        self.ctx = ctx
        self.bus = bus
        self.fold = StoriesFold(parent)
        self.fold.used.connect(self.toggle_used)
        self.pack = story_pack(ctx.content)
        self._bank = None
        self.round_type = ""
        self.round_id: int | None = None
        self.filter_index = -1  # -1: every story; else the n-th question of the round

    def stale(self) -> None:
        """The bank or the journal changed: read the bank again at the next render."""
        self._bank = None

    @property
    def bank(self):
        if self._bank is None:
            try:
                self._bank = parse_stories(STORIES.load_text(self.ctx.db))
            except DatabaseError:
                self._bank = parse_stories("")
        return self._bank

    def _questions(self):
        return self.pack.questions_for(self.round_type)

    def render(self, round_type: str, round_id: int | None) -> None:
        """Show the fold for ``round_type`` (hidden outside the pack's card rounds);
        ``round_id`` is the day's round on screen, None when there is none to mark."""

        if round_type != self.round_type:
            self.filter_index = -1
        self.round_type, self.round_id = round_type, round_id
        visible = shows_stories(self.pack, round_type)
        self.fold.setVisible(visible)
        if not visible:
            return
        questions = self._questions()
        question = questions[self.filter_index] if 0 <= self.filter_index < len(questions) else None
        used = frozenset()
        if round_id is not None:
            try:
                used = used_stories(self.ctx.db, round_id)
            except DatabaseError:
                used = frozenset()
        listed = card_stories(
            self.bank,
            self.pack,
            round_type,
            question_id=question.id if question else None,
            used=used,
        )
        if question is not None:
            where = f"{self.filter_index + 1}/{len(questions)}"
            filter_text = f"Question {where}: {question.text}"
        else:
            filter_text = ""
        if question is not None and question.answer_with:
            empty = self.pack.text("pitch_answer")  # "Tell me about yourself": the pitch
        elif question is not None and not listed:
            empty = (
                f"No story answers this yet (a gap): write one tagged {', '.join(question.tags)}."
            )
        elif not self.bank.stories:
            empty = "No stories yet: write them in About me \u2192 Stories."
        else:
            empty = ""
        if round_id is None and listed:
            filter_text = (
                filter_text + "\n" if filter_text else ""
            ) + "Start the round to mark a story told."
        self.fold.show_stories(
            [(c.story.id, c.story.title, part_lines(c.story), c.used) for c in listed],
            filter_text,
            empty,
        )

    def shown(self) -> bool:
        """The round on screen has the fold (shown, or only while the card is hidden)."""
        return self.fold.isVisibleTo(self.fold.window())

    def mark_current(self) -> None:
        """The U key: the story under the cursor told in the round on screen, or not."""
        self.fold.mark_current()

    def next_filter(self) -> None:
        """The hotkey: open the fold, or step to the next question type (then all again)."""
        if not self.fold.is_open:
            self.fold.set_open(True)
            self.filter_index = 0 if self._questions() else -1
        else:
            count = len(self._questions())
            self.filter_index = self.filter_index + 1 if self.filter_index + 1 < count else -1
        self.render(self.round_type, self.round_id)

    def toggle_used(self, story_id: str) -> bool | None:
        """Mark the story told in the round on screen, or unmark it; None when there is
        no round of the day to mark it in."""

        story = self.bank.story(story_id)
        if story is None or self.round_id is None:
            return None
        now_used = toggle_used(self.ctx.db, self.round_id, story, self.ctx.now())
        self.bus.announce(Change.of("capture", ids=[self.round_id], origin=self))
        self.render(self.round_type, self.round_id)
        return now_used
