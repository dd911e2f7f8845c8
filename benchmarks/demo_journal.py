"""Synthetic but realistic journal data, for benchmarks, tests and screenshots; not part
of the app (it does not ship in the wheel).

    python benchmarks/demo_journal.py demo --loops N [--seed N] --data-dir DIR [--force]

fills DIR through the app's own command line (the data folder's checks, the lock, one-line
errors), and refuses a folder that holds loops it did not make, or the default data
folder, unless given ``--force``. Tests and benchmarks call :func:`generate` (rows) or
:func:`companion_with_demo` (the command line) directly.

Deterministic for a seed. The data looks like a journal kept over several job searches:

- **Topics**: a vocabulary of several thousand distinct topics (a few hundred core
  subjects, most also in a few dozen settings: "consistent hashing", "consistent
  hashing across regions", ...), drawn with a long-tailed, Zipf-like frequency: a few
  topics come up again and again, most once or twice (see :data:`ZIPF_EXPONENT`).
- **Dates**: loops spread evenly back in time over up to ten years
  (:data:`MAX_SPAN_DAYS`), the most recent a day before ``today``; flubs from long ago
  are mostly studied, recent ones mostly not.
- **Text**: companies from a long-tailed list of a few hundred, questions and flub
  details phrased around their topic, and notes of realistic length (a few sentences
  on about half the loops and rounds), thank-you drafts of a few sentences.

Each loop gets three to five rounds with what was asked, a flub now and then, what went
well, a thank-you and now and then a weak topic: about ten journal rows per loop. Rows
are inserted in bulk inside one transaction; the search index is filled by the triggers
as usual.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import random
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from demo_words import (
    COMPANY_PREFIXES,
    COMPANY_SUFFIXES,
    CORE_TOPICS,
    FLUB_FOLLOW_UPS,
    FLUB_TEMPLATES,
    HEAD_COMPANIES,
    KIND_TOPICS,
    KNOWN_QUESTIONS,
    NAMES,
    NOTE_SENTENCES,
    OUTCOMES,
    QUESTION_TEMPLATES,
    ROLES,
    ROUNDS,
    SETTINGS,
    THANK_YOU_SENTENCES,
    WENT_WELL,
)
from sqlite_utils import Database

from companion.core.journal.bulk import index_afterwards
from companion.core.text import topic_key
from companion.core.timeutil import to_stored_utc

MAX_SPAN_DAYS = 3650  # loops spread over at most ten years
DAYS_PER_LOOP = 3  # ... or three days a loop for a short journal
ZIPF_EXPONENT = 1.0  # frequency of the topic of rank r ~ 1 / r**s


@dataclass(frozen=True)
class DemoSummary:
    loops: int
    rounds: int
    journal_rows: int  # asked + flubs + went well + weak topics + thank-yous
    topics: int = 0  # distinct topics among the flubs and weak topics


@dataclass(frozen=True)
class _Vocabulary:
    topics: tuple[str, ...]  # most frequent first
    cum_weights: tuple[float, ...]  # Zipf-like, for bisect

    def pick(self, rng: random.Random) -> str:
        x = rng.random() * self.cum_weights[-1]
        return self.topics[bisect.bisect_right(self.cum_weights, x)]


def _zipf(items: tuple[str, ...]) -> _Vocabulary:
    weights = [1.0 / (rank**ZIPF_EXPONENT) for rank in range(1, len(items) + 1)]
    return _Vocabulary(items, tuple(itertools.accumulate(weights)))


@cache
def vocabulary() -> dict[str, _Vocabulary]:
    """Topics per topic family ("design", "coding", "behavioural"): the core subjects
    first, then every subject in every setting in a fixed shuffled order, all with a
    Zipf-like frequency by rank. The same for every seed."""
    shuffle = random.Random(20261201)
    out = {}
    for family, core in CORE_TOPICS.items():
        combos = [f"{topic} {setting}" for topic in core for setting in SETTINGS[family]]
        shuffle.shuffle(combos)
        out[family] = _zipf((*core, *combos))
    return out


@cache
def companies() -> _Vocabulary:
    names = [f"{a} {b}" for a in COMPANY_PREFIXES for b in COMPANY_SUFFIXES]
    random.Random(7).shuffle(names)
    return _zipf((*HEAD_COMPANIES, *names))


def _sentences(rng: random.Random, bank: tuple[str, ...], n: int, **fields: str) -> str:
    return " ".join(s.format(**fields) for s in rng.sample(bank, n))


def _studied(rng: random.Random, share: float, when: dt.datetime) -> str | None:
    """When a demo flub or weak topic was studied: ``when`` for ``share`` of them, else None."""
    return to_stored_utc(when) if rng.random() < share else None


def generate(
    db: Database, loops: int, *, seed: int = 7, today: dt.date | None = None
) -> DemoSummary:
    """Add ``loops`` synthetic loops ending before ``today``; ids (of loops, rounds and
    entries) grow with time, the newest loop last, as in a journal kept day by day."""
    if loops < 0:
        raise ValueError("The number of loops cannot be negative.")
    rng = random.Random(seed)
    today = today or dt.date.today()
    tz = dt.datetime.now().astimezone().tzinfo
    vocab = vocabulary()
    firms = companies()
    keys: dict[str, str] = {}

    def key(topic: str) -> str:
        k = keys.get(topic)
        if k is None:
            k = keys[topic] = topic_key(topic)
        return k

    span = min(MAX_SPAN_DAYS, max(1, loops) * DAYS_PER_LOOP)
    # ids from 1 here; _insert shifts them past the journal's own inside its write
    # transaction (read outside it, a second writer could take the same ids)
    next_loop = next_round = 1
    loop_rows, round_rows, asked, flubs, well, weak, thanks = [], [], [], [], [], [], []
    for n in reversed(range(loops)):  # n: how many loops are more recent than this one
        loop_id = next_loop + (loops - 1 - n)  # ids grow with time, as in a real journal
        # spread evenly back in time: the most recent a day ago, the oldest ``span`` ago
        age = 1 + int(span * (n + rng.random()) / max(1, loops))
        day = today - dt.timedelta(days=age)
        created = dt.datetime.combine(day - dt.timedelta(days=14), dt.time(10), tz)
        start = dt.datetime.combine(day, dt.time(9, 30), tz)
        kinds = ["opening"] + rng.sample(
            ["design", "coding", "coding", "hiring-manager"], rng.randint(2, 4)
        )
        # older flubs: mostly studied by now; the last month's: mostly not
        studied_share = 0.0 if n <= 30 else 0.5 if age < 30 else 0.9
        topic = ""
        name = ""
        for kind in kinds:
            family = vocab[KIND_TOPICS[kind]]
            rid = next_round
            next_round += 1
            end = start + dt.timedelta(minutes=45)
            name = rng.choice(NAMES) if rng.random() < 0.7 else ""
            topic = family.pick(rng)
            notes = ""
            if rng.random() < 0.5:
                notes = _sentences(
                    rng, NOTE_SENTENCES, rng.randint(1, 4), name=name or "They", t=topic
                )
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
                    notes,
                )
            )
            at = to_stored_utc(end + dt.timedelta(minutes=10))
            for i in range(rng.randint(1, 3)):
                t = topic if i == 0 else family.pick(rng)
                question = KNOWN_QUESTIONS.get(t) if rng.random() < 0.7 else None
                if question is None:
                    question = rng.choice(QUESTION_TEMPLATES[KIND_TOPICS[kind]]).format(t=t)
                asked.append((loop_id, rid, question, t, at))
            if rng.random() < 0.35:
                flubbed = topic if rng.random() < 0.5 else family.pick(rng)
                detail = rng.choice(FLUB_TEMPLATES).format(t=flubbed)
                follow_up = rng.choice(FLUB_FOLLOW_UPS)
                studied = _studied(rng, studied_share, end + dt.timedelta(days=3))
                flubs.append(
                    (
                        loop_id,
                        rid,
                        flubbed[:1].upper() + flubbed[1:],
                        key(flubbed),
                        f"{detail} {follow_up}".strip(),
                        rng.randint(1, 3),
                        at,
                        studied,
                    )
                )
            if rng.random() < 0.3:
                well.append((loop_id, rid, rng.choice(WENT_WELL), at))
            start = end + dt.timedelta(minutes=15)
        if rng.random() < 0.1:
            family = vocab[KIND_TOPICS[rng.choice(kinds)]]
            weak_topic = family.pick(rng)
            studied = _studied(rng, studied_share, start + dt.timedelta(days=4))
            weak.append(
                (
                    loop_id,
                    None,
                    weak_topic,
                    key(weak_topic),
                    "Read up before the next loop",
                    to_stored_utc(start),
                    studied,
                )
            )
        loop_notes = ""
        if rng.random() < 0.5:
            loop_notes = _sentences(rng, NOTE_SENTENCES, rng.randint(2, 5), name="They", t=topic)
        loop_rows.append(
            (
                loop_id,
                firms.pick(rng),
                rng.choice(ROLES),
                day.isoformat(),
                day.isoformat(),
                rng.choice(OUTCOMES),
                loop_notes,
                to_stored_utc(created),
            )
        )
        sent = to_stored_utc(start + dt.timedelta(hours=20)) if n > 0 else None
        thanks.append(
            (
                loop_id,
                name or "the team",
                _sentences(rng, THANK_YOU_SENTENCES, rng.randint(2, 4), t=topic),
                sent,
                to_stored_utc(start),
            )
        )
    _insert(db, loop_rows, round_rows, asked, flubs, well, weak, thanks)
    return DemoSummary(
        loops=len(loop_rows),
        rounds=len(round_rows),
        journal_rows=len(asked) + len(flubs) + len(well) + len(weak) + len(thanks),
        topics=len({row[3] for row in flubs} | {row[3] for row in weak}),
    )


def _insert(db: Database, loop_rows, round_rows, asked, flubs, well, weak, thanks) -> None:
    """All rows in one transaction, the search index filled in bulk for the new rows
    (:func:`bulk.index_afterwards`: several times faster than a trigger per row)."""
    with db.atomic():
        c = db.conn
        loop_base = c.execute("SELECT COALESCE(MAX(id), 0) FROM loops").fetchone()[0]
        round_base = c.execute("SELECT COALESCE(MAX(id), 0) FROM rounds").fetchone()[0]
        if loop_base or round_base:
            loop_rows = [(r[0] + loop_base, *r[1:]) for r in loop_rows]
            round_rows = [(r[0] + round_base, r[1] + loop_base, *r[2:]) for r in round_rows]
            asked, flubs, well, weak = (
                [_shifted(r, loop_base, round_base) for r in rows]
                for rows in (asked, flubs, well, weak)
            )
            thanks = [(r[0] + loop_base, *r[1:]) for r in thanks]  # (loop id, to whom, ...)
        with index_afterwards(db):
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
        # statistics for the planner, in the same transaction: run after the commit, a
        # writer arriving meanwhile made demo report "nothing saved" with every row saved
        c.execute("ANALYZE")


def _shifted(row: tuple, loop_base: int, round_base: int) -> tuple:
    """A journal row (loop id, round id or None, ...) with its ids moved past the base."""
    loop_id, round_id, *rest = row
    return (loop_id + loop_base, None if round_id is None else round_id + round_base, *rest)


# --- the command: `python benchmarks/demo_journal.py demo --loops N --data-dir DIR` ------


COMMAND, HELP = "demo", "fill a data folder with synthetic loops"


def register(parser) -> None:
    """The ``demo`` command, on the app's own parser (added by :func:`companion_with_demo`)."""
    parser.add_argument("--loops", type=int, default=20, metavar="N", help="default: 20")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default: 7)")
    parser.add_argument(
        "--force",
        action="store_true",
        help="fill it even if it is the default data folder or holds loops of your own",
    )
    parser.set_defaults(func=run)


def default_folder_refusal(folder: Path) -> str | None:
    """Said before anything is opened: the default data folder is the user's own."""
    from companion.core.paths import default_data_dir

    if folder.resolve() == default_data_dir().resolve():
        return f"{folder} is the default data folder, where your own journal lives"
    return None


def own_loops_refusal(db: Database, folder: Path) -> str | None:
    """A journal holding a loop at a company the generator never names is real data."""
    ours = set(companies().topics)
    for (company,) in db.execute("SELECT DISTINCT company FROM loops"):
        if company not in ours:
            return f"{folder} holds loops of your own (at {company})"
    return None


def run(args, ctx) -> int:
    from companion.commands.common import CommandError, open_journal
    from companion.core.text import count_of, say

    if args.loops < 0 or args.loops > 1_000_000:
        raise CommandError("--loops must be between 0 and 1,000,000", exit_code=2)
    why = None if args.force else default_folder_refusal(ctx.data_dir)
    if why is None:
        open_journal(ctx)
        why = None if args.force else own_loops_refusal(ctx.db, ctx.data_dir)
    if why:
        raise CommandError(
            f"{why}; synthetic loops go into a folder of their own (or give --force)",
            exit_code=2,
        )
    summary = generate(ctx.db, args.loops, seed=args.seed, today=ctx.now().date())
    say(
        f"Added {count_of(summary.loops, 'loop')}, {count_of(summary.rounds, 'round')} and "
        f"{count_of(summary.journal_rows, 'journal row')} to {ctx.data_dir}."
    )
    return 0


def companion_with_demo(argv: list[str] | None = None) -> int:
    """The app's command line with the ``demo`` command added (tests call it as they call
    :func:`companion.cli.main`)."""
    from companion.cli import main

    return main(sys.argv[1:] if argv is None else argv, extra=[sys.modules[__name__]])


if __name__ == "__main__":
    raise SystemExit(companion_with_demo())
