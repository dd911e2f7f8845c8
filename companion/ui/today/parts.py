"""Parts of the Today page: the takeaways card and the reminder rows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from companion.core.day.clock import countdown_text


def clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()
        elif item.layout() is not None:
            clear(item.layout())


def takeaways_box(content) -> QGroupBox | None:
    """The guide's takeaways (content of kind ``summary``) as one compact card."""
    from html import escape

    sections = content.by_kind("summary")
    if not sections:
        return None
    box = QGroupBox(" · ".join(s.title for s in sections))
    box.setAccessibleName("Takeaways")
    items = "".join(f"<li>{escape(i.text)}</li>" for s in sections for i in s.items)
    text = QLabel(f"<ul style='margin-left:-20px'>{items}</ul>")
    text.setTextFormat(Qt.TextFormat.RichText)
    text.setWordWrap(True)
    text.setAccessibleName("Takeaways")
    layout = QVBoxLayout(box)
    layout.addWidget(text)
    for section in sections:  # the chapter's closing pointer to the guide that follows
        if section.meta.get("next"):
            pointer = QLabel(section.meta["next"])
            pointer.setObjectName("nextGuide")
            pointer.setWordWrap(True)
            pointer.setTextFormat(Qt.TextFormat.PlainText)
            pointer.setAccessibleName("Next guide")
            layout.addWidget(pointer)
    return box


def render_reminders(page, view) -> None:
    """The capture and thank-you rows of the Today page, redrawn only when they change."""

    now = view.now
    rows = []
    if view.capture_due_by is not None and view.capture_round_id:
        left = countdown_text(view.capture_due_by - now).removeprefix("in ")
        rnd = view.round(view.capture_round_id)
        rows.append(
            (
                f"{rnd.title if rnd else 'The round'}: write down what was asked ({left} left).",
                "&Write it down",
                lambda _=False, rid=view.capture_round_id: page.bus.capture_round.emit(rid),
            )
        )
    for loop, due in view.thank_yous:
        if any(
            d.round.loop_id == loop.id and d.state in ("running", "scheduled") for d in view.rounds
        ):
            continue  # the loop is not over yet
        if not view.thank_you_open(loop.id):
            continue  # past its window
        # each loop that is over keeps its row, whatever loop comes next
        when = "now" if due <= now else f"by {due.astimezone(now.tzinfo):%a %H:%M}"
        rows.append(
            (
                f"{loop.company}: send the thank-you note {when}.",
                "Open &journal",
                lambda _=False, lid=loop.id: page.bus.open_loop.emit(lid),
            )
        )
    signature = tuple(text for text, _b, _s in rows)
    if signature == page._reminder_rows:
        return
    page._reminder_rows = signature
    clear(page.reminders_layout)
    for text, button_text, slot in rows:
        _reminder_row(page, text, button_text, slot)
    page.reminders_box.setVisible(bool(rows))


def _reminder_row(page, text: str, button_text: str, slot) -> None:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a company or round title is not HTML
    button = QPushButton(button_text)
    button.setAccessibleName(f"{button_text.replace('&', '')}: {text}")
    button.clicked.connect(slot)
    layout.addWidget(label, 1)
    layout.addWidget(button)
    page.reminders_layout.addWidget(row)
