"""Tables of the checklist feature."""

from sqlite_utils import Migrations

migrations = Migrations("companion.checklist")
