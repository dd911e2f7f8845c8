"""The shipped content carries every actionable item of the day-of chapter, in its own words.

COVERAGE lists each bullet or numbered line of the chapter with the phrases that must
appear (case-insensitive) in the named content section. ``test_not_pasted`` checks that no
run of 9+ consecutive words of the chapter reappears in any text file of the repository,
quiz questions included. The chapter is read from ``../shared/seed/`` beside the checkout
when it is there; the repository keeps no copy of it, and those checks skip without it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.content.items import Section
from companion.core.content.loader import Content, load_content
from companion.core.paths import shipped_content_dir

MAX_SHARED_RUN = 8  # a run of 9+ consecutive chapter words counts as pasted

# (chapter item, phrases that must all appear, section id to look in)
COVERAGE: list[tuple[str, tuple[str, ...], str]] = [
    # Night-before checklist
    ("read chapters 01 and 16", ("chapter 01", "chapter 16"), "night-before"),
    ("skim 04 (serving) and 05 (scheduling)", ("skim chapter 04", "chapter 05"), "night-before"),
    ("re-skim the 15-questions answer keys", ("re-skim", "chapter-15 answer keys"), "night-before"),
    (
        "speak the flagged answers aloud",
        ("flagged answers out loud", "link: flagged-quiz"),
        "night-before",
    ),
    ("room ready", ("water", "notebook", "pen", "charger", "second screen"), "night-before"),
    ("confirm video and mic", ("video", "mic"), "night-before"),
    (
        "one-page about-me, three projects with numbers, open on the call",
        (
            "one-page about-me",
            "three concrete projects",
            "number",
            "open on the call if you need it",
            "link: about-me",
        ),
        "night-before",
    ),
    ("sleep; another chapter at 1am is negative", ("sleep", "1am"), "night-before"),
    # Morning of
    ("reread this chapter, 10 minutes", ("reread the day-of chapter", "10 minutes"), "morning-of"),
    (
        "caffeine on the usual cadence, no new dose",
        ("caffeine", "normal schedule", "new dose"),
        "morning-of",
    ),
    (
        "light food; heavy meal in the last hour slows you",
        ("eat something light", "big meal", "slows you"),
        "morning-of",
    ),
    (
        "walk ten minutes before the first round",
        ("walk of 10 minutes", "first round", "blood moving"),
        "morning-of",
    ),
    (
        "close Slack, email, anything that pings",
        ("slack", "email", "notifies", "link: dnd"),
        "before-round",
    ),
    ("phone face-down", ("phone face-down", "rounds: first"), "before-round"),
    ("water to hand", ("water",), "before-round"),
    ("bathroom break right before", ("bathroom break", "right before"), "before-round"),
    (
        "five-minute warm-up: about-me aloud once",
        ("warm-up of 5 minutes", "about-me aloud once", "link: about-me"),
        "before-round",
    ),
    (
        "five-minute warm-up: one chapter-15 answer aloud",
        ("any one chapter-15 answer aloud", "link: one-answer", "rounds: first"),
        "before-round",
    ),
    ("minutes before each round", ("minutes_before: 15", "minutes_before: 5"), "before-round"),
    # Opening pitch
    (
        "60-90 second answer, structure not recitation",
        ("tell me about yourself", "60-90 seconds", "structure, not a script"),
        "pitch",
    ),
    (
        "10 s identity",
        ("id: identity", "seconds: 10", "years on production systems", "focused on"),
        "pitch",
    ),
    (
        "30 s strongest evidence: scale, problem, owned, outcome number",
        ("id: evidence", "seconds: 30", "scale", "problem", "owned", "outcome as a number"),
        "pitch",
    ),
    (
        "20 s current depth in the role's vocabulary",
        ("id: depth", "this role's vocabulary"),
        "pitch",
    ),
    (
        "20 s why this role, team mandate, not 'I love AI'",
        ("id: why-role", "mandate", "i love ai"),
        "pitch",
    ),
    ("10 s hand back", ("id: hand-back", "most useful"), "pitch"),
    # Design-round move
    (
        "same shape every design round; memorise; senior frame",
        ("every design round", "senior frame", "by heart"),
        "design-move",
    ),
    (
        "clarify the workload",
        (
            "clarify the workload",
            "interactive",
            "async",
            "open-weights",
            "proprietary",
            "p95 ttft",
            "throughput",
        ),
        "design-move",
    ),
    (
        "estimate compute with Little's Law",
        ("estimate compute", "per-gpu", "little's law", "concurrency"),
        "design-move",
    ),
    ("pick the stack", ("pick the stack", "justify"), "design-move"),
    ("wire orchestration", ("wire orchestration",), "design-move"),
    ("failure modes", ("id: failure-modes", "429s", "queue depth", "load shedding"), "design-move"),
    ("cost", ("id: cost", "validat", "triangle"), "design-move"),
    ("hand back", ("id: hand-back", "go deeper"), "design-move"),
    (
        "always come back to failure modes / cost before done",
        ("rule: come back to failure modes and cost", "sideways"),
        "design-move",
    ),
    # Coding round moves
    (
        "60 s setup: restate, one clarifying question, data structure, target complexity",
        (
            "minutes: 1",
            "problem in your own words",
            "single clarifying question",
            "data structure",
            "target complexity",
        ),
        "coding-moves",
    ),
    (
        "signature and data model first, bodies later",
        (
            "signature and data model first",
            "function header",
            "class fields",
            "inputs and outputs",
            "bodies",
        ),
        "coding-moves",
    ),
    (
        "edge cases out loud before coding",
        ("edge cases out loud", "empty", "single element", "backwards", "zero capacity"),
        "coding-moves",
    ),
    (
        "code in clean blocks",
        ("clean blocks", "one job per function", "problem's own vocabulary"),
        "coding-moves",
    ),
    (
        "test as you go, small assert",
        ("test as you go", "small assert", "2 minutes"),
        "coding-moves",
    ),
    (
        "discuss trade-offs (heap vs sorted list)",
        ("trade-offs", "heap", "sorted list"),
        "coding-moves",
    ),
    ("if stuck, narrate", ("narrate", "invariant", "silence"), "coding-moves"),
    (
        "coding nudge: working solution at 20, check in before optimising",
        ("at: 20", "what works", "check in before optimising"),
        "coding-nudges",
    ),
    ("coding nudge: edge cases early", ("edge cases said aloud",), "coding-nudges"),
    ("coding nudge: wrap-up", ("before_end: 5", "wrap up"), "coding-nudges"),
    # Traps
    (
        "multi-tenant isolation: MIG vs MPS promises",
        ("multi-tenant isolation", "with mig i can promise", "with mps i can promise"),
        "traps",
    ),
    (
        "don't claim a framework you haven't run",
        ("frameworks you have actually run", "not run it in production", "production reference"),
        "traps",
    ),
    (
        "queueing under burst: 429s, queue depth, load shedding before asked",
        ("burst load", "429s", "queue depth", "load shedding", "before you are asked"),
        "traps",
    ),
    ("don't conflate utilization metrics", ("sm-active or dram-active", "senior read"), "traps"),
    (
        "100% GPU utilization: decode 30% SM / 80% DRAM is saturation",
        ("100%", "30% sm-active", "80% dram-active", "saturation"),
        "traps",
    ),
    ("don't speed-read the prompt", ("speed-read", "slow down"), "traps"),
    ("don't trash your previous stack", ("previous stack", "systems they shipped"), "traps"),
    ("check in at the timebox", ("timebox", "check in", "working solution"), "traps"),
    (
        "don't fake confidence on cost math",
        ("cost math", "rough", "actual utilization curves"),
        "traps",
    ),
    (
        "name the corner of the cost-perf-reliability triangle",
        ("cost-performance-reliability triangle", "corner", "why"),
        "traps",
    ),
    # Recovery
    ("you will say something wrong; recover cleanly", ("get something wrong",), "recovery"),
    (
        "spot it yourself first",
        ("your own mistake", "right framing", "positive signal"),
        "recovery",
    ),
    (
        "corrected: thank briefly, integrate, move on",
        ("corrects you", "thanks", "move on", "don't dwell"),
        "recovery",
    ),
    (
        "unknown term: say so, closest reference, offer first principles",
        ("term you don't know", "haven't run x", "first principles"),
        "recovery",
    ),
    (
        "silent for 20 s: narrate",
        ("silent for 20 seconds", "deadlock", "beats silence"),
        "recovery",
    ),
    ("wrong path: pivot openly", ("wrong path", "let me reset", "simpler version"), "recovery"),
    ("nervous: name it once", ("nerves", "quick reset", "once", "tell"), "recovery"),
    # Questions to ask
    (
        "pick three or four across the loop",
        ("rule: pick three or four across the whole loop",),
        "questions",
    ),
    (
        "HM: fleet shape, next hardware change",
        ("fleet", "node types", "training vs inference", "hardware change"),
        "questions",
    ),
    (
        "HM: in-house vs external APIs, criteria to move",
        ("in-house", "external apis", "criteria"),
        "questions",
    ),
    (
        "HM: biggest unsolved problem, first six months, leverage",
        ("biggest unsolved problem", "first six months", "leverage"),
        "questions",
    ),
    ("HM: success at 30/90/180 days", ("30, 90 and 180 days",), "questions"),
    (
        "peer: on-call shift make-up",
        ("on-call", "driver/runtime", "scheduling", "serving", "capacity"),
        "questions",
    ),
    (
        "peer: last serious incident, what made it hard",
        ("last serious incident", "made it hard"),
        "questions",
    ),
    (
        "peer: GPU utilization picture, SM-active, reserved vs spot, idle",
        ("sm-active", "reserved versus spot", "idle"),
        "questions",
    ),
    ("peer: tooling you wish existed", ("tool do you wish existed",), "questions"),
    ("leadership: roadmap vs broader AI strategy", ("roadmap", "ai strategy"), "questions"),
    (
        "leadership: signals of success in six months",
        ("six months out", "signals", "succeeding"),
        "questions",
    ),
    # Closing
    (
        "a specific signal of interest after every round",
        ("signal of interest", "great chat", "every round"),
        "closing",
    ),
    (
        "closing line with the specific topic",
        ("{topic}", "problem i want to work on", "mandate", "keep the conversation going"),
        "closing",
    ),
    # After the loop
    (
        "note the questions asked, within the hour",
        ("write down every question", "within the hour", "link: journal-capture"),
        "after-loop",
    ),
    ("note the flubs: study list", ("flubbed", "study list", "link: study-list"), "after-loop"),
    (
        "thank-you within 24 hours, one paragraph, one specific thing",
        (
            "within 24 hours",
            "recruiter or hiring manager",
            "one paragraph",
            "one specific",
            "link: thank-you",
        ),
        "after-loop",
    ),
    ("don't relitigate", ("relitigate", "fresh chances"), "after-loop"),
    # Self-check quiz
    (
        "quiz 1: first two design moves",
        ("id: day-of-first-moves", "little's law", "see: design-move"),
        "quiz-day-of",
    ),
    (
        "quiz 2: why return to failure modes and cost",
        ("id: day-of-sideways", "happy path", "senior signal"),
        "quiz-day-of",
    ),
    (
        "quiz 3: 100 percent utilisation",
        ("id: day-of-utilization", "sm-active", "dram-active", "saturated"),
        "quiz-day-of",
    ),
    (
        "quiz 4: working brute force at minute 20",
        ("id: day-of-timebox", "check in", "see: traps, coding-moves"),
        "quiz-day-of",
    ),
    (
        "quiz 5: self-correct a wrong claim",
        ("id: day-of-self-correct", "flag it yourself", "see: recovery"),
        "quiz-day-of",
    ),
    (
        "quiz 6: questions per interviewer",
        ("id: day-of-questions", "fleet shape", "on-call", "roadmap", "three or four"),
        "quiz-day-of",
    ),
    # Takeaways
    (
        "takeaway: prepare the night before, light morning",
        ("night before", "morning light"),
        "takeaways",
    ),
    (
        "takeaway: the design move",
        (
            "workload first",
            "compute estimate",
            "stack choice",
            "orchestration",
            "failure modes",
            "cost",
            "hand-back",
        ),
        "takeaways",
    ),
    (
        "takeaway: the coding start",
        ("a setup of 1 minute", "signature first", "edge cases aloud", "small tests", "trade-offs"),
        "takeaways",
    ),
    (
        "takeaway: precise metric, queues unprompted",
        ("sm-active", "dram-active", "load shedding", "unprompted"),
        "takeaways",
    ),
    (
        "takeaway: what you have run, isolation promises",
        ("what you have run", "mig or mps"),
        "takeaways",
    ),
    (
        "takeaway: self-caught error, narrate, pivot",
        ("your own error", "narrate", "pivot"),
        "takeaways",
    ),
    (
        "takeaway: matched questions, closing, write down",
        ("match questions to the person", "signal of interest", "within the hour"),
        "takeaways",
    ),
    (
        "closing pointer: the sibling guide on paged attention",
        ("next: read next", "pagedattention from first principles", "memory system"),
        "takeaways",
    ),
]


# The chapter itself is never stored in the repository. Where the guide's text sits beside
# the checkout (``../shared/seed/*.txt``), the checks below read it from there.
REPO = next(
    p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file()
)  # at any depth
SEED_DIR = REPO / ".." / "shared" / "seed"
NO_CHAPTER = f"the guide chapter is not beside the repository ({SEED_DIR.resolve()} has no *.txt)"

# Folders and files of the checkout that are not the project's own text.
SKIP_DIRS = frozenset(
    {".git", ".venv", "venv", "build", "dist", "__pycache__", "node_modules", ".mypy_cache"}
)
MAX_SCANNED_BYTES = 2 * 1024 * 1024


def chapter_texts() -> list[str]:
    """Every seed text found beside the repository, or none."""
    if not SEED_DIR.is_dir():
        return []
    return [path.read_text(encoding="utf-8") for path in sorted(SEED_DIR.glob("*.txt"))]


def day_of_chapter() -> str | None:
    """The day-of chapter (guide chapter 16) when it is available."""
    for text in chapter_texts():
        if "Night-before checklist" in text and "✓ Check yourself" in text:
            return text
    return None


def section_text(section: Section) -> str:
    """Everything a user can see of a section, fields as ``key: value`` lines."""
    lines = [section.title, section.intro]
    lines += [f"{key}: {value}" for key, value in section.meta.items()]
    for item in section.items:
        lines.append(item.text)
        lines += [f"{key}: {value}" for key, value in item.fields.items()]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def content() -> Content:
    loaded, errors = load_content([shipped_content_dir()])
    assert errors == []
    return loaded


@pytest.mark.parametrize(("item", "phrases", "where"), COVERAGE, ids=[row[0] for row in COVERAGE])
def test_chapter_item_is_represented(content: Content, item: str, phrases, where: str) -> None:
    section = content.section(where)
    assert section is not None, f"section {where!r} is missing"
    text = section_text(section).lower()
    missing = [p for p in phrases if p.lower() not in text]
    assert not missing, f"{item!r}: {where} lacks {missing}"


def test_every_chapter_bullet_has_a_row() -> None:
    """The table is not thinner than the chapter: one row at least per bullet or numbered line."""
    chapter = day_of_chapter()
    if chapter is None:
        pytest.skip(NO_CHAPTER)
    chapter_body = chapter.split("✓ Check yourself")[0]
    bullets = [
        line
        for line in chapter_body.splitlines()
        if line.startswith("• ") or re.match(r"^\d+\. ", line)
    ]
    takeaways = [
        line for line in chapter.split("Takeaway")[-1].splitlines() if line.startswith("• ")
    ]
    quiz = re.findall(r"^\d+\. ", chapter.split("✓ Check yourself")[1], re.M)
    # bullets: night 5, morning 7, traps 10, recovery 6, after 4; numbered: pitch 5, coding 7, questions 10
    assert len(bullets) == 54
    assert len(COVERAGE) >= len(bullets) + len(quiz) + len(takeaways)


def words(text: str) -> list[str]:
    text = text.lower().replace("’", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", " ", text).split()


def shared_runs(chapter: list[str], other: list[str]) -> list[str]:
    """Each maximal run of more than MAX_SHARED_RUN consecutive words of ``other`` that also
    occurs, word for word, in ``chapter``."""
    size = MAX_SHARED_RUN + 1
    grams = {tuple(chapter[i : i + size]) for i in range(len(chapter) - size + 1)}
    runs: list[str] = []
    start = end = None
    for i in range(len(other) - size + 1):
        if tuple(other[i : i + size]) in grams:
            if end is not None and i <= end:
                end = i + size
            else:
                if start is not None:
                    runs.append(" ".join(other[start:end]))
                start, end = i, i + size
    if start is not None:
        runs.append(" ".join(other[start:end]))
    return runs


def repository_texts(root: Path):
    """(relative path, text) for every UTF-8 text file of the checkout."""
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in relative.parts):
            continue
        if not path.is_file() or path.stat().st_size > MAX_SCANNED_BYTES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files (icons, databases) hold no prose
        yield relative, text


def test_shared_runs_finds_a_copied_phrase() -> None:
    chapter = words("Silence is worse than a half-formed thought, so narrate now, always.")
    copied = words("Remember: silence is worse than a half-formed thought, so narrate now. Ok")
    assert shared_runs(chapter, copied) == [
        "silence is worse than a half formed thought so narrate now"
    ]
    assert shared_runs(chapter, words("silence is worse than a half-formed thought")) == []
    assert shared_runs(chapter, words("nothing in common")) == []


def test_repository_texts_reads_every_text_file(tmp_path: Path) -> None:
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "x.py").write_text("prose", encoding="utf-8")
    (tmp_path / "README.md").write_text("readme", encoding="utf-8")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "lib.py").write_text("skipped", encoding="utf-8")
    (tmp_path / "icon.png").write_bytes(b"\x89PNG\xff\xfe")
    found = {str(path) for path, _ in repository_texts(tmp_path)}
    assert found == {"README.md", str(Path("companion") / "x.py")}


def test_not_pasted() -> None:
    """No file of the repository (content, code, resources, README, tests) repeats a run of
    9+ consecutive chapter words, and none holds a copy of the chapter."""
    chapters = [words(text) for text in chapter_texts()]
    if not chapters:
        pytest.skip(NO_CHAPTER)
    root = REPO
    pasted = []
    for relative, text in repository_texts(root):
        own = words(text)
        for chapter in chapters:
            for run in shared_runs(chapter, own):
                pasted.append(f"{relative} repeats {len(run.split())} chapter words: {run!r}")
    assert not pasted, "\n".join(pasted)
