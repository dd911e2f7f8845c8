"""The quick check of a plain loop of a journal file: the rows of a loop whose every value
is the export's own shape, or :class:`NotPlain` and the careful check
(:mod:`.check_fields`) names the place of the problem."""

from __future__ import annotations

import datetime as dt

from companion.core.journal.check_fields import ENTRY_KINDS, MAX_YEAR, MIN_YEAR
from companion.core.text import MAX_TEXT, UNUSUAL

# A journal file the app wrote holds only plain values, and checking 20,000 loops field
# by field through the careful checker (check_fields, which builds each value's place name and
# a dict per entry) took most of an import's time. plain_reader accepts exactly what the
# careful check accepts unchanged and gives the same rows; anything else (a wrong type,
# a character to strip, a time that does not parse, a bad round) raises NotPlain and
# the careful check runs on that loop, so every message still names its place.


class NotPlain(Exception):
    pass


def _never(_value: str) -> None:
    return None


def plain_reader(default: str, plain: bool):
    """The quick check of one loop: its rows (loop row, rounds, entries by kind,
    asked_them, thank_you or None), or NotPlain. ``plain``: the file's bytes were seen
    by :func:`~companion.core.text.json_plain` to hold no character the field rule strips
    or refuses, so strings are not searched again (a claim only the file's bytes make)."""
    unusual = _never if plain else UNUSUAL.search
    fromiso = dt.datetime.fromisoformat

    def text(obj: dict, key: str, required: bool = False) -> str:
        value = obj.get(key, "")
        if value is None:
            value = ""
        elif value.__class__ is not str or len(value) > MAX_TEXT or unusual(value):
            raise NotPlain  # the careful check names what is wrong
        if required and not value.strip():
            raise NotPlain
        return value

    def stamp(obj: dict, key: str, empty: str | None = None) -> str | None:
        """A time, or ``empty`` for a missing one (None, or "" where it is not null)."""
        value = obj.get(key)
        if value is None or value == "":
            return empty
        if value.__class__ is not str or unusual(value):
            raise NotPlain
        try:
            year = fromiso(value).year
        except ValueError:
            raise NotPlain from None
        if not MIN_YEAR <= year <= MAX_YEAR:
            raise NotPlain
        return value

    def objects(obj: dict, key: str) -> list:
        value = obj.get(key)
        if value is None:
            return []
        if value.__class__ is not list:
            raise NotPlain
        for entry in value:
            if entry.__class__ is not dict:
                raise NotPlain
        return value

    def ref_in(entry: dict, refs: set[int]) -> int | None:
        ref = entry.get("round")
        if ref is None:
            return None
        if ref.__class__ is not int or ref not in refs:
            raise NotPlain
        return ref

    # per kind, each field's check: 0 text, 1 required text, 2 severity, 3 created_at
    plans = {
        name: [
            (key, 2 if key == "severity" else 3 if key == "created_at" else int(required))
            for key in fields
            for required in [key in ("question", "text") or (key == "topic" and name != "asked")]
        ]
        for name, (_table, fields, _optional) in ENTRY_KINDS.items()
    }

    def entry(index: int, plan: list, optional: tuple, e: dict, refs: set[int]) -> tuple:
        row = [index, ref_in(e, refs)]
        dated = True
        for key, check in plan:
            if check < 2:
                row.append(text(e, key, check))
            elif check == 2:
                sev = e.get("severity", 2)
                if sev.__class__ is not int or not 1 <= sev <= 3:
                    raise NotPlain
                row.append(sev)
            else:
                at = stamp(e, key, "")
                dated = bool(at)
                row.append(at or default)
        for key in optional:
            row.append(stamp(e, key))
        row.append(dated)
        return tuple(row)

    def loop_rows(loop: dict, index: int):
        """The rows of the loop that will be ``index`` in the journal's list of loops."""
        company = text(loop, "company", required=True).strip()
        role, notes = text(loop, "role"), text(loop, "notes")
        status = text(loop, "status") or "planned"
        created = stamp(loop, "created_at", "")
        starts, ends = stamp(loop, "starts_on"), stamp(loop, "ends_on")
        row = (company, role, starts, ends, status, notes, created or default, bool(created))
        rounds, refs = [], set()
        for r in objects(loop, "rounds"):
            ref = r.get("ref")
            if ref.__class__ is not int or ref in refs:
                raise NotPlain
            refs.add(ref)
            rounds.append(
                (
                    index,
                    ref,
                    text(r, "type"),
                    text(r, "interviewer_role"),
                    text(r, "interviewer_name"),
                    stamp(r, "scheduled_at"),
                    stamp(r, "started_at"),
                    stamp(r, "ended_at"),
                    text(r, "notes"),
                    text(r, "organizer"),
                )
            )
        entries = {
            name: [entry(index, plans[name], optional, e, refs) for e in objects(loop, name)]
            for name, (_table, _fields, optional) in ENTRY_KINDS.items()
        }
        asked_them = [
            (
                index,
                ref_in(q, refs),
                text(q, "text", True),
                text(q, "audience"),
                stamp(q, "asked_at"),
            )
            for q in objects(loop, "asked_them")
        ]
        ty = loop.get("thank_you")
        if ty is not None:
            if ty.__class__ is not dict:
                raise NotPlain
            ty = (index, text(ty, "to_whom"), text(ty, "draft"), stamp(ty, "sent_at"))
        return row, rounds, entries, asked_them, ty

    return loop_rows
