"""Tables of the checklist feature: which day-of checklist items are ticked, per loop and day."""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.checklist")


@migrations()
def m001_checklist_checks(db):
    # loop_id 0 = no loop yet; round_id 0 = a list that is not tied to one round.
    db["checklist_checks"].create(
        {
            "loop_id": int,
            "day": str,  # YYYY-MM-DD: the interview day the lists are for
            "round_id": int,
            "item_key": str,  # "<section id>/<item slug>"
            "checked_at": str,  # ISO timestamp with offset
        },
        pk=("loop_id", "day", "round_id", "item_key"),
        not_null={"loop_id", "day", "round_id", "item_key", "checked_at"},
    )
