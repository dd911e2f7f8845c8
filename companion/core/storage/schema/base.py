"""Settings: plain JSON values by key (never pickled objects)."""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.base")


@migrations()
def m001_settings(db):
    db["settings"].create({"key": str, "value": str}, pk="key")
