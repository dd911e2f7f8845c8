"""What is said out loud: a Markdown line as spoken text, word counts, speaking time,
and the figures that make a claim concrete."""

from __future__ import annotations

import re
from functools import lru_cache

DEFAULT_WPM = 140.0
MIN_WPM = 60.0
MAX_WPM = 300.0


def clamp_wpm(words_per_minute: float) -> float:
    try:
        value = float(words_per_minute)
    except (TypeError, ValueError):
        return DEFAULT_WPM
    if value != value:  # NaN
        return DEFAULT_WPM
    return min(MAX_WPM, max(MIN_WPM, value))


LIST_ITEM = re.compile(r"^(?:[-*+]|\d{1,3}[.)])[ \t]+(.*)$")
_WORD = re.compile(r"[^\W_](?:[\w'’.%-]*[^\W_%])?%?")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^>\n]{0,200}>")
_URL = re.compile(r"https?://\S+")
_QUOTE = re.compile(r"^\s{0,3}(?:>\s*)+")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_TABLE_RULE = re.compile(r"[\s:|-]+")  # fullmatch: only blanks, pipes, colons and dashes
_SYNTAX = re.compile(r"[*_`~|#]")
SPACES = re.compile(r"\s+")
_PLAIN = re.compile(r"[\w\s,;'’\"“”?.%-]*")  # a line with nothing to strip


def spoken_text(line: str) -> str:
    """The words a line says aloud: Markdown syntax, URLs and HTML tags removed."""
    if _PLAIN.fullmatch(line) and not _BULLET.match(line):
        return line
    if "](" in line:
        line = _IMAGE.sub(" ", line)  # images are not spoken
        line = _LINK.sub(r"\1", line)  # links keep their text
    if "<" in line:
        line = _TAG.sub(" ", line)
    if "://" in line:
        line = _URL.sub(" ", line)
    line = _QUOTE.sub("", line)
    line = _BULLET.sub("", line)
    if "-" in line and _TABLE_RULE.fullmatch(line):
        return ""  # a table's delimiter row
    return _SYNTAX.sub(" ", line)


@lru_cache(maxsize=8192)
def line_words(line: str) -> int:
    """Spoken words on one line (cached: on each pause in typing most lines are unchanged)."""
    return len(_WORD.findall(spoken_text(line)))


def count_words(text: str) -> int:
    return sum(line_words(line) for line in text.splitlines())


def seconds_for(words: int, words_per_minute: float) -> float:
    return words * 60.0 / clamp_wpm(words_per_minute)


_UNIT = (
    r"(?:%|percent|pct|x|×|k|m|bn|b|tb|gb|mb|kb|pb|ms|µs|us|ns|s|sec|secs|seconds|min|mins|"
    r"minutes|h|hrs|hours|days|weeks|months|years|qps|rps|tps|req/s|rpm|users|customers|"
    r"engineers|people|services|nodes|servers|machines|gpus|clusters|regions|teams|requests|"
    r"queries|events|messages|transactions|rows|records|pages|releases|deploys|incidents|"
    r"million|billion|thousand|hundred|dollars|euros|usd|eur|gbp|points|pp|bps)"
)
_NUMBER = re.compile(
    r"(?P<money>[$€£¥]\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:million|billion|bn|k|m|b)\b)?)"
    rf"|(?P<num>(?<![\w.])\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?{_UNIT}\b|\s?%)?)",
    re.IGNORECASE,
)
_NUMBER_WORDS = re.compile(
    r"\b(?:hundreds?|thousands?|millions?|billions?|dozens?|doubled|tripled|halved|"
    r"quadrupled|tenfold|twofold|threefold|twice|half)\b",
    re.IGNORECASE,
)
_YEAR_CONTEXT = re.compile(r"(?:in|since|from|until|by|during|of|to|circa|c\.)\s*$", re.IGNORECASE)


@lru_cache(maxsize=512)
def find_numbers(text: str) -> tuple[str, ...]:
    """The figures in ``text`` that make a claim concrete; list numbering, project labels
    ("Project 2"), years ("in 2021") and bracketed template placeholders do not count."""
    found: list[str] = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+", "", line)  # list numbering
        line = re.sub(r"\b(?:project|phase|v|version|step|part|#)\s?\d+\b", " ", line, flags=re.I)
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
        line = re.sub(r"\[[^\]]*\]", " ", line)  # [placeholders] from the template
        taken: list[tuple[int, int]] = []  # a figure's words ("3 million") count once
        for match in _NUMBER.finditer(line):
            token = match.group(0).strip()
            if match.group("num") and _is_year(line, match):
                continue
            found.append(token)
            taken.append(match.span())
        found.extend(
            m.group(0)
            for m in _NUMBER_WORDS.finditer(line)
            if not any(start < m.end() and m.start() < end for start, end in taken)
        )
    return tuple(found)


def _is_year(line: str, match: re.Match[str]) -> bool:
    token = match.group(0).strip()
    if not re.fullmatch(r"(?:19|20)\d\d", token):
        return False
    before = line[: match.start()]
    after = line[match.end() :]
    return bool(_YEAR_CONTEXT.search(before)) or after.lstrip().startswith(("-", "–", ")", ","))
