"""The capture's draft: text typed and then closed with Esc, kept for the next capture
of the same round, and only of that round.

Stored in the database's settings under ``capture.draft.<round id>`` (``capture.draft`` for a
capture with no round recorded, the one slot older versions kept): {list name: [lines],
"severities": [...], "notes": text}. Restoring puts each line back in its list; a list
the dialog does not have (no loop: no "You asked them") gives its lines to the notes.
"""

from __future__ import annotations

KEY = "capture.draft"


def draft_key(round_id: int | None) -> str:
    """The draft slot of a round: a draft typed for one round never opens in another."""
    return f"{KEY}.{int(round_id)}" if round_id else KEY


def keep_draft(settings, dialog, round_id: int | None = None) -> None:
    draft = {name: lst.pending() for name, lst in dialog.lists().items() if lst.pending()}
    draft["severities"] = list(dialog.flubbed.extra)
    draft["notes"] = dialog.notes.toPlainText().strip()
    settings.keep(draft_key(round_id), draft)  # a journal that refuses it: as a closed capture


def forget_draft(settings, round_id: int | None = None) -> None:
    if settings.get(draft_key(round_id)) is not None:
        settings.keep(draft_key(round_id), None)


def restore_draft(settings, dialog, round_id: int | None = None) -> bool:
    """Fill ``dialog`` from its round's draft; whether there was one."""
    draft = settings.get(draft_key(round_id))
    if not isinstance(draft, dict):
        return False
    lists = dialog.lists()
    severities = [s for s in draft.get("severities") or [] if isinstance(s, int)]
    leftover = []
    restored = False
    for name, lines in draft.items():
        if name in ("severities", "notes") or not isinstance(lines, list):
            continue
        lines = [str(line) for line in lines if str(line).strip()]
        target = lists.get(name)
        if target is None:
            leftover += lines
            continue
        for n, line in enumerate(lines):
            target.entry.setText(line)
            if target is dialog.flubbed and n < len(severities):
                index = dialog.severity.findData(severities[n])
                if index >= 0:
                    dialog.severity.setCurrentIndex(index)
            target.add_current()
            restored = True
    dialog.severity.setCurrentIndex(max(0, dialog.severity.findData(2)))
    notes = "\n".join([str(draft.get("notes") or ""), *leftover]).strip()
    if notes:
        dialog.notes.setPlainText(notes)
        restored = True
    return restored
