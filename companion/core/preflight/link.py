"""The next round: its call link and its time, local and, when it differs, in the zone
the invitation gave (the invitation's own start, kept on import, else the offset stored
with the round's scheduled time)."""

from __future__ import annotations

import datetime as dt

from companion.core.day.links import call_link
from companion.core.day.loops import Round, get_round
from companion.core.preflight.checks import Check
from companion.core.timeutil import parse_stored

RECENT = dt.timedelta(hours=2)  # a round started this long ago and not ended is still on


def next_round(db, now: dt.datetime) -> Round | None:
    """The round running now, else the next scheduled one (not ended, not skipped)."""
    rows = db.execute(
        "SELECT id FROM rounds WHERE skipped_at IS NULL AND (ended_at IS NULL OR ended_at = '') "
        "AND scheduled_at IS NOT NULL AND scheduled_at != ''"
    ).fetchall()
    best = None
    for (round_id,) in rows:
        found = get_round(db, round_id)
        at = found.scheduled if found else None
        if at is None or at < now - RECENT:
            continue
        if best is None or at < best.scheduled:
            best = found
    return best


def _when(moment: dt.datetime, local: dt.tzinfo | None) -> tuple[str, str | None]:
    mine = moment.astimezone(local)
    text = f"{mine:%a %d %b %H:%M} local"
    if moment.utcoffset() != mine.utcoffset():
        offset = f"{moment:%z}"
        return text, f"{moment:%H:%M} UTC{offset[:3]}:{offset[3:]}"
    return text, None


def round_info(found: Round | None, local: dt.tzinfo | None = None) -> dict | None:
    if found is None or found.scheduled is None:
        return None
    moment = parse_stored(found.scheduled_at)
    invited = parse_stored(found.ics_start)
    if invited is not None and invited == moment:  # the same instant at the invitation's offset
        moment = invited
    local_text, theirs = _when(moment, local)
    return {
        "id": found.id,
        "type": found.type_label or found.type,
        "at": moment.astimezone(local).isoformat(timespec="seconds"),
        "invitation_at": moment.isoformat(timespec="seconds"),
        "link": call_link(found.link),
        "when": local_text + (f" ({theirs} in the invitation)" if theirs else ""),
    }


def link_check(info: dict | None) -> Check:
    if info is None:
        return Check("link", None, "No round ahead: nothing to join.")
    if not info["link"]:
        return Check("link", False, f"Round {info['when']}: no call link; find it in the mail.")
    return Check("link", True, f"Round {info['when']}: {info['link']}")
