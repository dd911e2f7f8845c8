"""What a stretch of heard words means for a pitch segment, beyond its key words: an
evidence segment is a figure and an outcome, a hand-back is a question handed back.

The recognizer hears a segment told in other words mostly as made-up words, but the
figures (the script's numbers are in its vocabulary) and the small words of a question
("would you", "which part", "where should we") come through: a retold evidence kept
"from eight hundred milliseconds to one hundred and twenty", a retold hand-back "would
you ... like me to go" (benchmarks/voice_takes.RETOLD).
"""

from __future__ import annotations

from companion.core.voice.script import NUMBER_WORDS

# a figure's outcome: a change said with the figure ("from ... to ...", "cut", "dropped")
OUTCOME = frozenset(
    "from to cut cuts reduced reduce dropped drop fell fall halved doubled tripled saved "
    "save improved improve faster slower grew increased decreased lowered raised down up "
    "result results went less more fewer".split()
)
OUTCOME_REACH = 4  # words between a figure and its outcome word
# a question handed back: an asking word followed closely by "you" or "we" ("which part
# would be most useful for you", "where would you like me to go", "what should we"), or
# one of the asking pairs
ASKING = frozenset("which where what how would should could shall do does any anything".split())
ADDRESSED = frozenset({"you", "we", "your"})
ASK_REACH = 5
ASKING_PAIRS = frozenset(
    {("would", "you"), ("could", "you"), ("do", "you"), ("should", "we"), ("shall", "we"),
     ("like", "me"), ("want", "me"), ("you", "like")}
)  # fmt: skip


def figure_with_outcome(words: list[str] | tuple[str, ...]) -> bool:
    """A number word with an outcome word within OUTCOME_REACH of it."""
    at = [i for i, w in enumerate(words) if w in NUMBER_WORDS]
    return any(
        words[j] in OUTCOME
        for i in at
        for j in range(max(0, i - OUTCOME_REACH), min(len(words), i + OUTCOME_REACH + 1))
    )


def hands_back(words: list[str] | tuple[str, ...]) -> bool:
    """Whether ``words`` ask the listener something (see ASKING)."""
    for i, w in enumerate(words):
        if i + 1 < len(words) and (w, words[i + 1]) in ASKING_PAIRS:
            return True
        if w in ASKING and any(x in ADDRESSED for x in words[i + 1 : i + 1 + ASK_REACH]):
            return True
    return False


def figures(words: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The script's figures: runs of number words ("forty thousand", "one hundred and
    twenty"; an "and" inside a run stays in it)."""
    out, run = set(), []
    for w in (*words, ""):
        if w in NUMBER_WORDS or (w == "and" and run):
            run.append(w)
            continue
        while run and run[-1] == "and":
            run.pop()
        if run:
            out.add(tuple(run))
        run = []
    return out


def figure_phrases(words: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The script's figures as said again in other words: a figure of several number
    words as it is ("forty thousand"), a one-word figure with the word it counts ("eight
    years"; "eight" alone is any stray number, or "ate"). Retold at 10 dB or in another
    voice, an opening kept "eight years" and one key word ("models") of its script
    (benchmarks/voice_paraphrase.py)."""
    out = {f for f in figures(words) if len(f) > 1}
    for i, w in enumerate(words[:-1]):
        before = [x for x in words[max(0, i - 2) : i] if x != "and"][-1:]
        joined = any(x in NUMBER_WORDS for x in (*before, words[i + 1]))
        if w in NUMBER_WORDS and not joined and words[i + 1] != "and":
            out.add((w, words[i + 1]))
    return out


def meaning_points(said: list[str], segment, last: bool) -> int:
    """Points of ``segment``'s meaning in ``said`` (the words of one piece of speech):
    each of the script's figures of it said again (figure_phrases); a figure with an
    outcome for a segment whose script has one; a question handed back for the pitch's
    ``last`` segment when its script asks one."""
    points = 0
    text = " " + " ".join(said) + " "
    for figure in figure_phrases(segment.words):
        if f" {' '.join(figure)} " in text:
            points += 1
    # only where the script itself says a figure with its outcome (the evidence): "eight
    # years" is a figure with no outcome, and a nurse's pitch at 10 dB ("fifty off it to")
    # told the opening with it and one key word
    if figure_with_outcome(segment.words) and figure_with_outcome(said):
        points += 1
    if last and hands_back(segment.words) and hands_back(said):
        points += 2
    return points
