"""Tables of the quiz feature."""

from sqlite_utils import Migrations

migrations = Migrations("companion.quiz")
