"""The planner's "Suggested questions": the content's questions grouped by the audience
they suit, the planned ones ticked, with whom to ask the selected one. A part of the
questions-to-ask tab."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidgetItem,
    QVBoxLayout,
)

from companion.core.selfcheck.planner import audience_title, text_key
from companion.ui.selfcheck.audience_combo import audience_combo
from companion.ui.widgets.plain_text import plain_tip
from companion.ui.widgets.wrapping_tree import WrappingTree

ROLE = Qt.ItemDataRole.UserRole


class SuggestedQuestions(QGroupBox):
    """``add_wanted``: Enter, a double-click or "Add to plan" on the selected question."""

    add_wanted = Signal()

    def __init__(self, audiences, parent=None):
        super().__init__("Suggested questions", parent)
        self.audiences = audiences  # the order the groups come in
        self.tree = WrappingTree()  # each question whole: wrapped, never cut with "..."
        self.tree.setHeaderHidden(True)
        self.tree.setAccessibleName("Questions from the content, by audience")
        self.tree.setRootIsDecorated(True)
        self.no_suggestions = QLabel(
            "The content has no questions to ask (a section of kind: questions). "
            "Type your own below."
        )
        self.no_suggestions.setWordWrap(True)
        self.add_audience = audience_combo("Ask the selected question to", audiences)
        add_label = QLabel("Ask a&s:")
        add_label.setBuddy(self.add_audience)
        self.add_button = QPushButton("&Add to plan")
        self.add_button.setAccessibleName("Add the selected question to the plan")
        add_row = QHBoxLayout()
        add_row.addWidget(add_label)
        add_row.addWidget(self.add_audience)
        add_row.addStretch(1)
        add_row.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.no_suggestions)
        layout.addLayout(add_row)
        self.tree.currentItemChanged.connect(self._selected)
        self.tree.itemActivated.connect(lambda _item, _col: self.add_wanted.emit())
        self.add_button.clicked.connect(self.add_wanted)

    def render(self, suggestions, planned, people: dict) -> None:
        """``suggestions`` by audience; ``planned``: text key -> the planned question;
        ``people``: audience -> the interviewer's name ("Priya Raman")."""
        selected = self.tree.currentItem()
        selected_key = (selected.data(0, ROLE), selected.data(0, ROLE + 1)) if selected else None
        self.tree.clear()
        for audience in self.audiences:
            group = [s for s in suggestions if audience in s.audiences]
            if not group:
                continue
            who = f" — {people[audience]}" if audience in people else ""
            parent = QTreeWidgetItem([f"{audience_title(audience)}{who} ({len(group)})"])
            parent.setData(0, ROLE, None)
            parent.setData(0, ROLE + 1, audience)
            parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(parent)
            for suggestion in group:
                child = self._item(suggestion, audience, planned.get(text_key(suggestion.text)))
                parent.addChild(child)
                if (suggestion.text, audience) == selected_key:
                    self.tree.setCurrentItem(child)
            parent.setExpanded(True)
        has_suggestions = self.tree.topLevelItemCount() > 0
        self.tree.setVisible(has_suggestions)
        self.no_suggestions.setVisible(not has_suggestions)

    def _item(self, suggestion, audience: str, done) -> QTreeWidgetItem:
        """One question; ``done``: its planned copy, if planned (it says so)."""
        child = QTreeWidgetItem([("✓ " if done else "") + suggestion.text])
        child.setData(0, ROLE, suggestion.text)
        child.setData(0, ROLE + 1, audience)
        tip = [suggestion.text]
        if suggestion.topic:
            tip.append(f"Topic: {suggestion.topic}")
        tip.append("Suits: " + ", ".join(audience_title(a) for a in suggestion.audiences))
        if done:
            tip.append(f"Planned for: {audience_title(done.audience)}")
        child.setToolTip(0, plain_tip("\n".join(tip)))
        if done:
            child.setForeground(0, self.palette().placeholderText())
        return child

    def selected_text(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, ROLE) if item else None

    def audience(self) -> str:
        """Whom to ask the selected question."""
        return self.add_audience.currentData()

    def _selected(self, item, _previous=None) -> None:
        if item is None:
            return
        index = self.add_audience.findData(item.data(0, ROLE + 1))
        if index >= 0:
            self.add_audience.setCurrentIndex(index)
