"""Synthetic but realistic journal data, for screenshots, demos and benchmarks.

Deterministic for a seed. Each loop gets three to five rounds with what was asked
(about five per round), a flub or two, what went well, a thank-you and now and then a
weak topic: about ten journal rows per loop. Rows are inserted in bulk inside one
transaction; the search index is filled by the triggers as usual.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from sqlite_utils import Database

from companion.core.journal.entries import topic_key
from companion.core.timeutil import to_stored_utc

COMPANIES = (
    "Acme Robotics",
    "Globex",
    "Initech",
    "Umbrella Compute",
    "Hooli",
    "Stark Industries",
    "Wayne Enterprises",
    "Tyrell Systems",
    "Cyberdyne",
    "Soylent AI",
    "Aperture Labs",
    "Massive Dynamic",
    "Nakatomi Cloud",
    "Wonka Data",
    "Oscorp",
    "Pied Piper",
    "Vandelay GPU",
    "Blue Sun",
    "Monarch Networks",
    "Zorg Infra",
    "Müller & Søn",
    "Café Olé Analytics",
    "東京クラウド",
    "Δelta Serving",
)
ROLES = (
    "Staff ML Infrastructure Engineer",
    "Senior Software Engineer, Inference",
    "Principal Engineer, GPU Platform",
    "Engineering Manager, Serving",
    "Senior SRE",
)
ROUNDS = {
    "opening": "hiring-manager",
    "design": "peer",
    "coding": "peer",
    "hiring-manager": "hiring-manager",
}
NAMES = ("Dana", "Priya", "Marcus", "Yuki", "Sofia", "Omar", "Lena", "Chen", "Ines", "Kwame", "Zoë")
QUESTIONS = {
    "opening": [
        ("Tell me about yourself", "pitch"),
        ("Why are you leaving your current role?", "motivation"),
        ("What is the hardest system you have shipped?", "impact"),
        ("Why this team?", "motivation"),
    ],
    "design": [
        ("Design a multi-tenant GPU inference service", "multi-tenant isolation"),
        ("How would you handle burst load on the serving tier?", "burst load"),
        ("How do you measure GPU utilization properly?", "GPU utilization"),
        ("Shard a KV cache across nodes", "consistent hashing"),
        ("What does this design cost per million requests?", "cost math"),
        ("How do you roll out a new model version safely?", "canary rollout"),
        ("Where is the single point of failure?", "failure modes"),
    ],
    "coding": [
        ("Implement an LRU cache", "LRU cache"),
        ("Merge k sorted streams", "heaps"),
        ("Rate limiter with a token bucket", "rate limiting"),
        ("Find the median of a data stream", "heaps"),
        ("Parse and evaluate an expression", "parsing"),
        ("Top-k frequent items in a sliding window", "sliding window"),
    ],
    "hiring-manager": [
        ("Tell me about a conflict with a peer", "conflict"),
        ("How do you decide what not to build?", "prioritisation"),
        ("Describe a project that failed", "failure story"),
        ("How do you grow engineers on your team?", "mentoring"),
    ],
}
FLUBS = {
    "opening": [("Pitch ran long", "Went past two minutes, lost the hand-back")],
    "design": [
        ("Burst load", "Forgot 429s and load shedding until asked"),
        ("GPU utilization", 'Said "utilization" without SM-active vs DRAM-active'),
        ("Consistent hashing", "Could not explain virtual nodes"),
        ("Cost math", "No number, no way to validate it"),
        ("Multi-tenant isolation", "Promised MPS isolation it does not give"),
        ("Failure modes", "Declared done without failure modes"),
    ],
    "coding": [
        ("Heaps", "Mixed up heapq push/pop order under pressure"),
        ("Sliding window", "Off-by-one at the window edge"),
        ("Rate limiting", "Token refill math wrong"),
        ("Timebox", "Did not check in before running over"),
    ],
    "hiring-manager": [
        ("Failure story", "Blamed the previous stack"),
        ("Prioritisation", "No concrete example, all principles"),
    ],
}
WENT_WELL = (
    "Clear requirements pass up front",
    "Named the trade-off and my corner of the triangle",
    "Good recovery after the hint",
    "Closing question landed; they smiled",
    "Ran the example by hand before coding",
    "Calm, steady pace",
)


@dataclass(frozen=True)
class DemoSummary:
    loops: int
    rounds: int
    journal_rows: int  # asked + flubs + went well + weak topics + thank-yous


def generate(
    db: Database, loops: int, *, seed: int = 7, today: dt.date | None = None
) -> DemoSummary:
    """Add ``loops`` synthetic loops (ending before ``today``, most recent first in time)."""
    if loops < 0:
        raise ValueError("The number of loops cannot be negative.")
    rng = random.Random(seed)
    today = today or dt.date.today()
    tz = dt.datetime.now().astimezone().tzinfo
    next_loop = (db.execute("SELECT COALESCE(MAX(id), 0) FROM loops").fetchone()[0]) + 1
    next_round = (db.execute("SELECT COALESCE(MAX(id), 0) FROM rounds").fetchone()[0]) + 1
    loop_rows, round_rows, asked, flubs, well, weak, thanks = [], [], [], [], [], [], []
    for n in range(loops):
        loop_id = next_loop + n
        # spread loops back in time: the most recent a day ago, older every ~half day
        day = today - dt.timedelta(days=1 + n // 2 + rng.randint(0, 1))
        company = rng.choice(COMPANIES)
        created = dt.datetime.combine(day - dt.timedelta(days=14), dt.time(10), tz)
        loop_rows.append(
            (
                loop_id,
                company,
                rng.choice(ROLES),
                day.isoformat(),
                day.isoformat(),
                rng.choice(("done", "done", "offer", "rejected")),
                "",
                to_stored_utc(created),
            )
        )
        start = dt.datetime.combine(day, dt.time(9, 30), tz)
        kinds = ["opening"] + rng.sample(
            ["design", "coding", "coding", "hiring-manager"], rng.randint(2, 4)
        )
        for kind in kinds:
            rid = next_round
            next_round += 1
            end = start + dt.timedelta(minutes=45)
            name = rng.choice(NAMES) if rng.random() < 0.7 else ""
            round_rows.append(
                (
                    rid,
                    loop_id,
                    kind,
                    ROUNDS[kind],
                    name,
                    start.isoformat(),
                    start.isoformat(),
                    end.isoformat(),
                    "",
                )
            )
            at = to_stored_utc(end + dt.timedelta(minutes=10))
            for question, topic in rng.sample(
                QUESTIONS[kind], min(len(QUESTIONS[kind]), rng.randint(1, 2))
            ):
                asked.append((loop_id, rid, question, topic, at))
            if rng.random() < 0.35:
                topic, detail = rng.choice(FLUBS[kind])
                # older loops: most flubs already studied
                studied = (
                    to_stored_utc(end + dt.timedelta(days=3))
                    if n > 30 and rng.random() < 0.8
                    else None
                )
                flubs.append(
                    (loop_id, rid, topic, topic_key(topic), detail, rng.randint(1, 3), at, studied)
                )
            if rng.random() < 0.3:
                well.append((loop_id, rid, rng.choice(WENT_WELL), at))
            start = end + dt.timedelta(minutes=15)
        if rng.random() < 0.1:
            topic, _detail = rng.choice(FLUBS[rng.choice(kinds)])
            studied = to_stored_utc(start + dt.timedelta(days=4)) if n > 30 else None
            weak.append(
                (
                    loop_id,
                    None,
                    topic,
                    topic_key(topic),
                    "Read up before the next loop",
                    to_stored_utc(start),
                    studied,
                )
            )
        sent = to_stored_utc(start + dt.timedelta(hours=20)) if n > 0 else None
        thanks.append(
            (
                loop_id,
                name or "the team",
                f"Thank you for the conversation about {topic}.",
                sent,
                to_stored_utc(start),
            )
        )
    with db.atomic():
        c = db.conn
        c.executemany(
            "INSERT INTO loops(id, company, role, starts_on, ends_on, status, notes, created_at) "
            "VALUES (?,?,?,?,?,?,?,?)",
            loop_rows,
        )
        c.executemany(
            "INSERT INTO rounds(id, loop_id, type, interviewer_role, interviewer_name, "
            "scheduled_at, started_at, ended_at, notes) VALUES (?,?,?,?,?,?,?,?,?)",
            round_rows,
        )
        c.executemany(
            "INSERT INTO asked(loop_id, round_id, question, topic, created_at) VALUES (?,?,?,?,?)",
            asked,
        )
        c.executemany(
            "INSERT INTO flubs(loop_id, round_id, topic, topic_key, detail, severity, created_at, "
            "studied_at) VALUES (?,?,?,?,?,?,?,?)",
            flubs,
        )
        c.executemany(
            "INSERT INTO went_well(loop_id, round_id, text, created_at) VALUES (?,?,?,?)", well
        )
        c.executemany(
            "INSERT INTO weak_topics(loop_id, round_id, topic, topic_key, note, created_at, "
            "studied_at) VALUES (?,?,?,?,?,?,?)",
            weak,
        )
        c.executemany(
            "INSERT INTO thank_yous(loop_id, to_whom, draft, sent_at, updated_at) "
            "VALUES (?,?,?,?,?)",
            thanks,
        )
    db.execute("ANALYZE")
    return DemoSummary(
        loops=len(loop_rows),
        rounds=len(round_rows),
        journal_rows=len(asked) + len(flubs) + len(well) + len(weak) + len(thanks),
    )
