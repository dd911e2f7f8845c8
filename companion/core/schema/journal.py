"""Journal tables: loops and their rounds. The journal feature extends this set."""

from sqlite_utils import Migrations

migrations = Migrations("companion.journal")


@migrations()
def m001_loops_and_rounds(db):
    db["loops"].create(
        {
            "id": int,
            "company": str,
            "role": str,
            "starts_on": str,  # ISO date
            "ends_on": str,  # ISO date
            "status": str,  # planned, active, done, offer, rejected, withdrawn
            "notes": str,
            "created_at": str,  # ISO timestamp, UTC
        },
        pk="id",
        not_null={"company", "created_at"},
        defaults={"role": "", "status": "planned", "notes": ""},
    )
    db["rounds"].create(
        {
            "id": int,
            "loop_id": int,
            "type": str,  # a round type id from the content (design, coding, ...)
            "interviewer_role": str,  # hiring-manager, peer, leadership, ...
            "interviewer_name": str,
            "scheduled_at": str,  # ISO timestamp, local time with offset
            "started_at": str,
            "ended_at": str,
            "notes": str,
        },
        pk="id",
        foreign_keys=[("loop_id", "loops", "id")],
        defaults={"interviewer_role": "", "interviewer_name": "", "notes": ""},
    )
    db["rounds"].create_index(["loop_id"])
