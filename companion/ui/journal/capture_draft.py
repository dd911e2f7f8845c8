"""The capture's draft: text typed and then closed with Esc, kept for the next capture.

Stored in the preferences under ``capture.draft``: {list name: [lines], "severities":
[...], "notes": text}. Restoring puts each line back in its list; a list the next dialog
does not have (no loop: no "You asked them") gives its lines to the notes.
"""

from __future__ import annotations

KEY = "capture.draft"


def keep_draft(prefs, dialog) -> None:
    draft = {name: lst.pending() for name, lst in dialog.lists().items() if lst.pending()}
    draft["severities"] = list(dialog.flubbed.extra)
    draft["notes"] = dialog.notes.toPlainText().strip()
    prefs.set(KEY, draft)
    prefs.save()


def forget_draft(prefs) -> None:
    if prefs.get(KEY) is not None:
        prefs.set(KEY, None)
        prefs.save()


def restore_draft(prefs, dialog) -> bool:
    """Fill ``dialog`` from the draft; whether there was one."""
    draft = prefs.get(KEY)
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
