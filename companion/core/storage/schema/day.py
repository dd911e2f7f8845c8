"""Tables of the day model: what a round needs beyond its times, and sent reminders."""

from sqlite_utils import Migrations

migrations = Migrations("companion.day")


@migrations()
def m001_round_flags_and_sent_reminders(db):
    rounds = db["rounds"]
    # a custom round type keeps its own words; the type column then holds its slug
    rounds.add_column("type_label", str, not_null_default="")
    rounds.add_column("length_minutes", int)  # from the invitation's end; NULL: content's
    rounds.add_column("skipped_at", str)
    # one row per reminder sent (or capture opened): a restart never repeats one
    db["day_sent"].create(
        {"key": str, "sent_at": str},
        pk="key",
        not_null={"key", "sent_at"},
    )


@migrations()
def m002_round_call_link(db):
    # the call link from the invitation (LOCATION/URL) or typed in the round dialog
    db["rounds"].add_column("link", str, not_null_default="")
