"""The shipped content carries every actionable item of the day-of chapter, in its own words.

COVERAGE lists each bullet or numbered line of the chapter with the phrases that must
appear (case-insensitive) in the named content section. ``test_not_pasted`` checks that no
run of 9+ consecutive words of the chapter reappears in the content (quiz question texts
excepted: they may quote the chapter's questions closely).
"""

from __future__ import annotations

import re

import pytest

from companion.core.content import Content, Section, load_content
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
    ("set up the room", ("water", "notebook", "pen", "charger", "second screen"), "night-before"),
    ("confirm video and mic", ("video", "mic"), "night-before"),
    (
        "one-page about-me, three projects with numbers, open on the call",
        (
            "one-page about-me",
            "three concrete projects",
            "number",
            "open on the call",
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
        ("ten-minute walk", "first round", "blood moving"),
        "morning-of",
    ),
    (
        "close Slack, email, anything that pings",
        ("slack", "email", "notifies", "link: dnd"),
        "before-round",
    ),
    ("phone face-down", ("phone face-down",), "before-round"),
    ("water to hand", ("water",), "before-round"),
    ("bathroom break right before", ("bathroom break", "right before"), "before-round"),
    (
        "five-minute warm-up: about-me aloud once",
        ("five-minute warm-up", "about-me aloud once", "link: about-me"),
        "before-round",
    ),
    (
        "five-minute warm-up: one chapter-15 answer aloud",
        ("chapter-15 answer aloud", "link: flagged-quiz"),
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
        ("test as you go", "small assert", "two minutes"),
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
        "end each round with a specific signal of interest",
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
        "write down what was asked within an hour",
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
        ("60-second setup", "signature first", "edge cases aloud", "small tests", "trade-offs"),
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
]

# The day-of chapter (guide chapter 16), verbatim, for the coverage and "not pasted" checks.
CHAPTER = """\
Day-Of Tactics

Night-before checklist

• Read chapters 01 (the role) and 16 (this one). Skim 04 (serving) and 05 (scheduling).
• Re-skim the 15-questions answer keys. Speak the answers aloud for the ones you flagged.
• Set up the room — water, notebook, pen, charger, second screen if you have one. Confirm video/mic.
• Have ready: a one-page "about me" bullet list with three concrete projects with numbers. Open it during the call if needed.
• Sleep. The marginal value of one more chapter at 1am is negative.

Morning of

• Reread this chapter. Spend 10 minutes.
• Caffeine on your usual cadence — interview day is not the day to try a new dose.
• Light food. A heavy meal in the hour before makes you slow.
• Walk ten minutes before the first round. Get blood moving.
• Tab close. Close Slack, email, anything that pings. Phone face-down.
• Bathroom break right before. Sounds dumb; matters.
• Five-minute warmup: read your "about me" out loud once; speak any one chapter-15 answer aloud.

The opening minutes

Most rounds start with "tell me about yourself" or some variant. You should have a 60-90 second answer rehearsed. Don't recite — structure.

1. 10 seconds — identity. "I'm an infra engineer with N years on production systems, most recently focused on [X]."
2. 30 seconds — strongest evidence. One project: scale, problem, what you owned, outcome with a number.
3. 20 seconds — current depth. What you've been working on most recently, ideally in this role's vocabulary.
4. 20 seconds — why this role. Specific to this team's mandate. Not "I love AI."
5. 10 seconds — hand back. "What part would be most useful to dig into?"

The design-round structural move

Every design round in this loop follows roughly the same shape. Memorize the move.

This sequence is the senior frame. You can stop early if the interviewer pulls you sideways, but always come back to "and the failure modes / cost" before declaring done.

Coding round moves

1. 60 seconds of setup. Restate the problem in your words. Ask one clarifying question. Name the data structure. Name the target complexity.
2. Type the signature and data model first. The function header, the class fields, the inputs/outputs. Then bodies.
3. Edge cases out loud. Empty, single-element, time going backward, capacity zero. List them before coding.
4. Code in clean blocks. One responsibility per function. Names that read like the problem.
5. Test as you go. A small assert at the bottom is worth two minutes.
6. Discuss tradeoffs. "I'm using a heap because I need fast min and log insert. A sorted list would also work but the constant factor on append is worse."
7. If stuck, narrate. "Let me think about whether the invariant holds when..." Silence is worse than narration.

Traps to avoid

• Don't over-promise on multi-tenant isolation. Be precise. "I can promise X with MIG; with MPS I can promise Y but not Z." Vague guarantees get torn apart.
• Don't claim a framework you haven't run. A single follow-up will expose it. "I've used X in benchmarks but not in production; my closest production reference is Y."
• Don't ignore queueing under burst load. Many candidates design happy-path-only systems. Bring up 429s, queue depth, load shedding before they ask.
• Don't conflate utilization metrics. Say "SM-active" or "DRAM-active" when you mean it. Generic "utilization" loses you the senior read.
• Don't say "GPU utilization is 100% so we're good" — for decode it can be 30% SM-active and 80% DRAM-active and that's saturation. Get the right number.
• Don't speed-read the prompt. Slow down. The fast take is rarely the senior take.
• Don't trash your previous stack. Senior engineers don't speak that way about systems they shipped.
• Don't go past the timebox without checking in. "I have a working solution; would you like me to optimize or move on?"
• Don't fake confidence on the cost math. "My rough estimate is $X; I'd want to validate against actual utilization curves" is fine.
• Don't forget the cost-perf-reliability triangle. Name which corner you're optimizing for and why.

Recovery patterns

You will say something wrong. Recover cleanly.

• Spot it yourself first. "Wait — I said X earlier; that's not right. The correct framing is Y." This is a positive signal, not negative.
• If the interviewer corrects you: thank them briefly, integrate, move on. "Right — thank you, that's the bit I had backwards." Don't dwell.
• If you don't know a term: say so. "I haven't run X. My closest reference is Y. Want me to reason about X from first principles, or would Y be more useful?"
• If you go silent for 20 seconds: narrate. "I'm thinking about whether the queue can deadlock if..." Silence is worse than a half-formed thought.
• If you go down a wrong path: pivot openly. "Let me reset — I think I was over-complicating this. The simpler version is..."
• If you're nervous: name it once, calmly. "Quick reset, I want to make sure I'm answering your actual question." Then continue. Mentioning nerves once humanizes; doing it repeatedly is a tell.

Questions to ask them

Pick three or four total across the loop. Adjust by round type.

For the hiring manager

1. "What's the fleet shape today — node types, scale, mix of training vs inference — and what's the next hardware change you anticipate?"
2. "What workloads are running in-house today versus going to external APIs, and what's the criteria for moving a workload from external to in-house?"
3. "Where is the biggest unsolved problem in the team's first six months? Where would I have the most leverage if I joined?"
4. "What does success look like for this hire at 30 / 90 / 180 days?"

For peers / IC interviewers

1. "What does an on-call shift on this team look like? What fraction is driver/runtime vs scheduling vs serving vs capacity?"
2. "Walk me through the last serious incident the team dealt with — what made it hard?"
3. "What's the current GPU utilization picture — average SM-active, reserved vs spot, where are the biggest idle pockets?"
4. "What tooling do you wish existed that doesn't yet?"

For senior leadership

1. "How does this team's roadmap interact with the broader AI strategy at the company?"
2. "What signals would tell you, six months from now, that this team is succeeding?"

Closing statement

End each round with a brief, specific signal of interest. Not "great chat, thanks." Try:

"This was useful — the [specific topic we discussed] is exactly the kind of problem I want to be working on, and the way you described the team's mandate is what I was hoping to hear. I'd be excited to keep the conversation going."

It's a sentence. It costs nothing. It often shows up in the interviewer's notes as "candidate seemed motivated."

After the loop

• Write down what was asked — within an hour, before you forget. Useful for follow-ups and useful for your next loop.
• Note anything you flubbed — that's your study list for next time.
• Send a short thank-you to the recruiter or hiring manager within 24 hours. One paragraph; mention one specific thing from the conversation.
• Don't relitigate in your head. You did what you did. If there's a second round, you'll have new chances.

✓ Check yourself

Answer from memory before opening each one.

1. You are asked to design serving for an internal assistant at 50 requests per second, with 600-token prompts, 300-token outputs and a 1-second p95 TTFT. What do your first two moves produce?

   Show answer

   First clarify the workload: interactive or async, open-weights or proprietary, and the latency and throughput targets. Then estimate compute, using the request profile and a rough per-GPU rate, and Little's Law for concurrency. Those two numbers justify the stack choice that follows. See the design-round move.

2. The interviewer pulls you sideways into a detail halfway through a design. Why do you still return to failure modes and cost before declaring done?

   Show answer

   Happy-path-only designs are the common failure, and failure modes and cost are where seniority shows. Returning to them completes the frame, and you can stop early elsewhere. See the design-round move.

3. You say a decode service is fine because utilisation is 100 percent. What is wrong with the sentence, and what do you say instead?

   Show answer

   Generic utilisation is ambiguous, and the nvidia-smi figure only shows that a kernel ran. Say SM-active or DRAM-active. For decode, 30 percent SM-active with 80 percent DRAM-active is saturation, so name the bottleneck resource. See traps to avoid.

4. Twenty minutes into a 45-minute coding question you have a working brute-force solution. What do you say?

   Show answer

   Say what works and its complexity, then check in: ask whether to optimise or move on. Going past the timebox without checking in is a listed trap. If you optimise, name the structure and target complexity first. See traps to avoid and coding round moves.

5. Five minutes ago you called decode compute-bound. You now realise that was wrong. What do you do?

   Show answer

   Say so yourself, plainly, and give the correct framing, then continue. Self-correction reads as a positive signal, while silent rewriting or defending the error does not. If the interviewer corrects you, thank them briefly and move on. See recovery patterns.

6. You have three conversations in a loop: hiring manager, a peer and a director. Which questions go to which, and why?

   Show answer

   Give the manager questions on fleet shape, workload criteria and success at 30, 90 and 180 days, the peer questions on on-call and the last hard incident, and the director questions on roadmap and success signals. Match each question to what that person can actually answer, and choose three or four in total. See questions to ask them.

Takeaway

• Prepare the night before, and keep the morning light: reread this chapter, eat lightly, close the notifications.
• A design round follows one move: clarify the workload, estimate compute, pick the stack, wire orchestration, discuss failure modes, cost, then hand back.
• A coding round starts with 60 seconds of setup, the signature, edge cases out loud, small tests and trade-offs.
• Name the precise metric, such as SM-active or DRAM-active, and bring up queues and load shedding before you are asked.
• Say what you have run and what you have not, and keep isolation promises to what each mechanism guarantees.
• A self-caught error is a positive signal. Narrate when stuck, and pivot openly when a path is wrong.
• Ask questions matched to the person, end each round with a specific signal of interest, and write down what was asked within the hour.

That is the full guide. For the memory system underneath serving, the sibling guide builds paged attention from first principles. → PagedAttention from First Principles
"""


def section_text(section: Section, *, skip_quiz_questions: bool = False) -> str:
    """Everything a user can see of a section, fields as ``key: value`` lines."""
    lines = [section.title, section.intro]
    lines += [f"{key}: {value}" for key, value in section.meta.items()]
    for item in section.items:
        if not (skip_quiz_questions and section.kind == "quiz"):
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
    chapter_body = CHAPTER.split("✓ Check yourself")[0]
    bullets = [
        line
        for line in chapter_body.splitlines()
        if line.startswith("• ") or re.match(r"^\d+\. ", line)
    ]
    takeaways = [
        line for line in CHAPTER.split("Takeaway")[-1].splitlines() if line.startswith("• ")
    ]
    quiz = re.findall(r"^\d+\. ", CHAPTER.split("✓ Check yourself")[1], re.M)
    # bullets: night 5, morning 7, traps 10, recovery 6, after 4; numbered: pitch 5, coding 7, questions 10
    assert len(bullets) == 54
    assert len(COVERAGE) >= len(bullets) + len(quiz) + len(takeaways)


def words(text: str) -> list[str]:
    text = text.lower().replace("’", "").replace("'", "")
    return re.sub(r"[^a-z0-9]+", " ", text).split()


def longest_shared_run(chapter: list[str], other: list[str]) -> tuple[int, str]:
    """Length and text of the longest run of consecutive words found in both lists."""
    best, best_at = 0, 0
    previous = [0] * (len(other) + 1)
    for word in chapter:
        current = [0] * (len(other) + 1)
        for j, candidate in enumerate(other, 1):
            if word == candidate:
                current[j] = previous[j - 1] + 1
                if current[j] > best:
                    best, best_at = current[j], j
        previous = current
    return best, " ".join(other[best_at - best : best_at])


def test_longest_shared_run_finds_a_copied_phrase() -> None:
    chapter = words("Silence is worse than a half-formed thought, so narrate.")
    assert (
        longest_shared_run(chapter, words("Remember: silence is worse than a half-formed"))[0] == 7
    )
    assert longest_shared_run(chapter, words("nothing in common"))[0] == 0


def test_not_pasted(content: Content) -> None:
    chapter = words(CHAPTER)
    pasted = []
    for section in content.sections.values():
        own = words(section_text(section, skip_quiz_questions=True))
        run, text = longest_shared_run(chapter, own)
        if run > MAX_SHARED_RUN:
            pasted.append(f"{section.id} repeats {run} chapter words: {text!r}")
    assert not pasted, "\n".join(pasted)
