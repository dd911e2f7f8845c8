"""Tables of the day model: what a round needs beyond its times, and sent reminders."""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.day")


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


@migrations()
def m003_round_people_and_invitation_uid(db):
    # the invitation's people: ORGANIZER's name (the recruiter, usually) and every
    # ORGANIZER/ATTENDEE as JSON [{"name", "email", "organizer"}]; the interviewer stays
    # in interviewer_name
    rounds = db["rounds"]
    rounds.add_column("organizer", str, not_null_default="")
    rounds.add_column("people", str, not_null_default="")
    # which invitation event the round is: a later SEQUENCE (or DTSTAMP) of the same UID
    # moves or cancels it instead of adding a round
    rounds.add_column("ics_uid", str, not_null_default="")
    rounds.add_column("ics_sequence", int, not_null_default=0)
    rounds.add_column("ics_stamp", str, not_null_default="")
    rounds.add_column("skip_reason", str, not_null_default="")  # "cancelled by the organizer"


@migrations()
def m004_round_invitation_start(db):
    # the invitation's own start, at its own offset ("...T10:00:00-05:00"): scheduled_at
    # is stored at the machine's offset, and preflight shows both when they differ
    db["rounds"].add_column("ics_start", str, not_null_default="")
