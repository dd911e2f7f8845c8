"""Tables of the about feature: the one-pager, its revisions and rehearsal results."""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.about")


@migrations()
def m001_about_document(db):
    # The current one-pager: a single row (id = 1), rewritten by every autosave.
    db["about_document"].create(
        {"id": int, "text": str, "saved_at": str, "revision_id": int},
        pk="id",
        not_null={"text", "saved_at"},
    )
    # Snapshots the user can browse and restore; reason: autosave, save, restore, import, close.
    db["about_revisions"].create(
        {"id": int, "text": str, "saved_at": str, "reason": str, "words": int, "chars": int},
        pk="id",
        not_null={"text", "saved_at"},
        defaults={"reason": "autosave"},
    )
    db["about_revisions"].create_index(["saved_at"])
    # One row per finished rehearsal; results is JSON [{id, title, budget, seconds}].
    db["about_rehearsals"].create(
        {"id": int, "started_at": str, "total_seconds": float, "results": str},
        pk="id",
        not_null={"started_at", "results"},
    )


@migrations()
def m002_rehearsal_takes(db):
    # One row per take the user kept (Keep): its figures as JSON, never its audio.
    db.execute(
        """
        CREATE TABLE rehearsal_takes (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            seconds REAL,
            figures TEXT NOT NULL DEFAULT '{}',
            UNIQUE (at, figures)
        )
        """
    )
