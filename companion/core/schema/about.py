"""Tables of the about feature."""

from sqlite_utils import Migrations

migrations = Migrations("companion.about")
