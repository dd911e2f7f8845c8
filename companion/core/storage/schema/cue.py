"""Tables of the cue feature."""

from sqlite_utils import Migrations

migrations = Migrations("companion.cue")
