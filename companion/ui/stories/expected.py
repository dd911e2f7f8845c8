"""The round dialog's Expected topics: what it shows (the round's, or the prefill from
the round type and the study list) and storing what the user typed."""

from __future__ import annotations

from companion.core.content.stories import story_pack
from companion.core.stories import DatabaseError
from companion.core.stories.rounds import expected_for, load_expected, save_expected, study_top


def dialog_topics(ctx, rnd=None) -> dict:
    """Keyword arguments for :class:`RoundDialog`: ``topics`` (the round's, None for a new
    round or one never set) and ``suggest`` (round type -> the prefill)."""

    pack = story_pack(ctx.content)
    try:
        topics = load_expected(ctx.db, rnd.id) if rnd is not None else None
        study = study_top(ctx.db, ctx.now(), pack.expect_from_study)
    except DatabaseError:
        return {}
    return {"topics": topics, "suggest": lambda round_type: expected_for(pack, round_type, study)}


def save_dialog_topics(ctx, round_id: int, dialog) -> None:
    """Store the dialog's expected topics on the round (nothing when it showed none)."""

    topics = dialog.expected_topics()
    if round_id and topics is not None:
        save_expected(ctx.db, round_id, topics)
