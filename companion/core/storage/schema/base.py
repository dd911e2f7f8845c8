"""Settings: plain JSON values by key (never pickled objects)."""

from sqlite_utils import Migrations

migrations = Migrations("companion.base")


@migrations()
def m001_settings(db):
    db["settings"].create({"key": str, "value": str}, pk="key")
