"""Journal tables: loops and their rounds. The journal feature extends this set."""

from companion.core.storage.schema.steps import Steps

migrations = Steps("companion.journal")


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


# --- journal feature (issue 7) -------------------------------------------------------
# Times in these tables are UTC ISO strings ("...+00:00") so they sort as text.

_ENTRY_TABLES = [
    """CREATE TABLE asked (
        id INTEGER PRIMARY KEY,
        loop_id INTEGER REFERENCES loops(id) ON DELETE CASCADE,
        round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
        question TEXT NOT NULL,
        topic TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE flubs (
        id INTEGER PRIMARY KEY,
        loop_id INTEGER REFERENCES loops(id) ON DELETE CASCADE,
        round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
        topic TEXT NOT NULL,
        topic_key TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '',
        severity INTEGER NOT NULL DEFAULT 2 CHECK (severity BETWEEN 1 AND 3),
        created_at TEXT NOT NULL,
        studied_at TEXT
    )""",
    """CREATE TABLE went_well (
        id INTEGER PRIMARY KEY,
        loop_id INTEGER REFERENCES loops(id) ON DELETE CASCADE,
        round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE weak_topics (
        id INTEGER PRIMARY KEY,
        loop_id INTEGER REFERENCES loops(id) ON DELETE CASCADE,
        round_id INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
        topic TEXT NOT NULL,
        topic_key TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        studied_at TEXT
    )""",
    """CREATE TABLE thank_yous (
        id INTEGER PRIMARY KEY,
        loop_id INTEGER NOT NULL UNIQUE REFERENCES loops(id) ON DELETE CASCADE,
        to_whom TEXT NOT NULL DEFAULT '',
        draft TEXT NOT NULL DEFAULT '',
        sent_at TEXT,
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE study_marks (
        id INTEGER PRIMARY KEY,
        topic_key TEXT NOT NULL,
        topic TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'journal',
        studied_at TEXT NOT NULL
    )""",
    "CREATE INDEX asked_loop ON asked(loop_id)",
    "CREATE INDEX asked_round ON asked(round_id)",
    "CREATE INDEX flubs_loop ON flubs(loop_id)",
    "CREATE INDEX flubs_round ON flubs(round_id)",
    # covering index for the study list: open flubs grouped by topic
    "CREATE INDEX flubs_open ON flubs(topic_key, created_at, severity, topic) WHERE studied_at IS NULL",
    "CREATE INDEX went_well_loop ON went_well(loop_id)",
    "CREATE INDEX went_well_round ON went_well(round_id)",
    "CREATE INDEX weak_loop ON weak_topics(loop_id)",
    "CREATE INDEX weak_round ON weak_topics(round_id)",
    "CREATE INDEX weak_open ON weak_topics(topic_key, created_at, topic) WHERE studied_at IS NULL",
    "CREATE INDEX study_marks_key ON study_marks(topic_key, studied_at)",
    "CREATE INDEX rounds_ended ON rounds(ended_at)",
]

# Full-text index over every piece of journal text. rowid = source id * 8 + kind code,
# so triggers find a row by rowid without scanning.
FTS_SOURCES = {
    # kind: (code, table, loop id expression, text expression)
    "loop": (1, "loops", "{r}.id", "{r}.company || ' ' || {r}.role || ' ' || {r}.notes"),
    "round": (
        2,
        "rounds",
        "{r}.loop_id",
        "{r}.type || ' ' || {r}.interviewer_role || ' ' || {r}.interviewer_name || ' ' || {r}.notes",
    ),
    "asked": (3, "asked", "{r}.loop_id", "{r}.question || ' ' || {r}.topic"),
    "flub": (4, "flubs", "{r}.loop_id", "{r}.topic || ' ' || {r}.detail"),
    "went_well": (5, "went_well", "{r}.loop_id", "{r}.text"),
    "weak": (6, "weak_topics", "{r}.loop_id", "{r}.topic || ' ' || {r}.note"),
    "thank_you": (7, "thank_yous", "{r}.loop_id", "{r}.to_whom || ' ' || {r}.draft"),
}


def _coalesced(expr: str, alias: str) -> str:
    # NULL-safe concatenation: wrap every column reference in COALESCE
    import re

    return re.sub(rf"{alias}\.(\w+)", rf"COALESCE({alias}.\1, '')", expr)


def _fts_statements() -> list[str]:
    out = [
        "CREATE VIRTUAL TABLE journal_fts USING fts5("
        "kind UNINDEXED, loop_id UNINDEXED, body, "
        "prefix='2 3', tokenize='unicode61 remove_diacritics 2')"
    ]
    for kind, (code, table, loop_expr, text_expr) in FTS_SOURCES.items():
        ins = (
            f"INSERT INTO journal_fts(rowid, kind, loop_id, body) VALUES "
            f"(new.id * 8 + {code}, '{kind}', {loop_expr.format(r='new')}, "
            f"{_coalesced(text_expr.format(r='new'), 'new')});"
        )
        dele = f"DELETE FROM journal_fts WHERE rowid = old.id * 8 + {code};"
        out.append(f"CREATE TRIGGER {table}_fts_ai AFTER INSERT ON {table} BEGIN {ins} END")
        out.append(f"CREATE TRIGGER {table}_fts_ad AFTER DELETE ON {table} BEGIN {dele} END")
        out.append(f"CREATE TRIGGER {table}_fts_au AFTER UPDATE ON {table} BEGIN {dele} {ins} END")
        out.append(
            f"INSERT INTO journal_fts(rowid, kind, loop_id, body) SELECT id * 8 + {code}, "
            f"'{kind}', {loop_expr.format(r='t')}, {_coalesced(text_expr.format(r='t'), 't')} "
            f"FROM {table} AS t"
        )
    return out


@migrations()
def m002_journal_entries(db):
    for statement in _ENTRY_TABLES:
        db.execute(statement)


@migrations()
def m003_journal_search(db):
    for statement in _fts_statements():
        db.execute(statement)
