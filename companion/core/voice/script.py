"""What the candidate will say, as the recognizer and the aligner need it: each pitch
segment's spoken words, lower-case, figures written out as words ("40%" -> "forty
percent"), stage directions left out.

A stage direction is text in square brackets or parentheses ("[pause]", "(smile)",
"[your number]"): a note to the speaker, never matched against what was heard.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.about.pitch import analyze
from companion.core.about.segments import FENCE, HEADING
from companion.core.about.spoken import spoken_text

if TYPE_CHECKING:
    from companion.core.content.plans import PitchPlan

FILLERS = ("um", "uh")
_DIRECTION = re.compile(r"\[[^\]\n]*\]|\([^)\n]*\)")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")
_TOKEN = re.compile(r"[$€£]?\d+(?:[.,]\d+)*%?|[a-z]+(?:'[a-z]+)?")
_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10**9, "billion"), (10**6, "million"), (1000, "thousand"), (100, "hundred"))
NUMBER_WORDS = frozenset(
    _ONES[1:] + _TENS[2:] + ["hundred", "thousand", "million", "billion", "percent", "half"]
    + ["twice", "doubled", "tripled", "halved", "dozen", "dozens", "hundreds", "thousands"]
    + ["millions", "billions", "point"]
)  # fmt: skip
_MONEY = {"$": "dollars", "€": "euros", "£": "pounds"}


def number_words(n: int) -> list[str]:
    """An integer as the words people say: 1200 -> one thousand two hundred."""
    if n < 20:
        return [_ONES[n]]
    if n < 100:
        return [_TENS[n // 10]] + ([_ONES[n % 10]] if n % 10 else [])
    for size, name in _SCALES:
        if n >= size:
            head, rest = divmod(n, size)
            return number_words(head) + [name] + (number_words(rest) if rest else [])
    return [str(n)]  # unreachable: every n >= 100 has a scale


def _say_token(token: str) -> list[str]:
    if not token[0].isdigit() and token[0] not in _MONEY:
        return [token]
    money = _MONEY.get(token[0])
    token = token.lstrip("$€£")
    percent = token.endswith("%")
    token = token.rstrip("%").replace(",", "")
    whole, _, fraction = token.partition(".")
    if not whole.isdigit() or len(whole) > 12:
        return []
    out = number_words(int(whole))
    if fraction.isdigit():
        out += ["point"] + [_ONES[int(d)] for d in fraction]
    if percent:
        out.append("percent")
    if money:
        out.append(money)
    return out


def spoken_words(text: str) -> list[str]:
    """The words of ``text`` said aloud, in order (stage directions left out)."""
    text = _DIRECTION.sub(" ", text).lower().replace("’", "'")
    text = text.replace("-", " ").replace("/", " ")
    words: list[str] = []
    for token in _TOKEN.findall(text):
        words.extend(_say_token(token))
    return words


@dataclass(frozen=True)
class ScriptSegment:
    id: str
    title: str
    budget_seconds: int
    words: tuple[str, ...]
    sentences: tuple[tuple[str, ...], ...]  # for the language model


def _body(lines: list[str]) -> list[str]:
    out, fence = [], False
    for line in lines:
        if FENCE.match(line):
            fence = not fence
            continue
        if fence or line.lstrip().startswith("<!--") or HEADING.match(line):
            continue
        out.append(spoken_text(line))
    return out


def pitch_script(text: str, plan: PitchPlan | None = None) -> list[ScriptSegment]:
    """The one-pager's pitch segments with the words each one says, in the pack's order
    (segments the one-pager lacks, or that say nothing, are left out)."""

    lines = text.splitlines()
    out = []
    for report in analyze(text, plan=plan).segments:
        if report.heading_line is None:
            continue
        body = " ".join(_body(lines[report.heading_line + 1 : report.end_line]))
        sentences = tuple(
            tuple(words) for part in _SENTENCE.split(body) if (words := spoken_words(part))
        )
        words = tuple(w for s in sentences for w in s)
        if words:
            out.append(
                ScriptSegment(report.id, report.title, report.budget_seconds, words, sentences)
            )
    return out


def says_a_number(words: list[str] | tuple[str, ...]) -> bool:
    """Whether heard words include a figure (a number word, or "percent")."""
    return any(w in NUMBER_WORDS for w in words)
