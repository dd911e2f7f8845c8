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
        line = links_replaced(line, image=True)  # images are not spoken
        line = links_replaced(line)  # links keep their text
    if "<" in line:
        line = _TAG.sub(" ", line)
    if "://" in line:
        line = _URL.sub(" ", line)
    line = _QUOTE.sub("", line)
    line = _BULLET.sub("", line)
    if "-" in line and _TABLE_RULE.fullmatch(line):
        return ""  # a table's delimiter row
    return _SYNTAX.sub(" ", line)


def links_replaced(line: str, *, image: bool = False) -> str:
    """``line`` with each Markdown link ``[text](href)`` replaced by its text (with
    ``image``: each ``![alt](src)`` by a blank), as ``re.sub(r"!?\\[([^\\]]*)\\]\\([^)]*\\)")``
    would, in one pass: the regex scanned from every ``[`` to the end of the line when no
    ``)`` followed ("[a](" repeated over 200 KB took 9 s)."""
    opener = "![" if image else "["
    out: list[str] = []
    taken = start = 0
    while (i := line.find(opener, start)) >= 0:
        text = i + len(opener)
        close = line.find("]", text)
        if close < 0:
            break  # no ] after this [, so none after any later one either
        if not line.startswith("(", close + 1):
            start = close + 1  # every [ before this ] meets the same ] and fails alike
            continue
        end = line.find(")", close + 2)
        if end < 0:
            break  # no link can close after here
        out += [line[taken:i], " " if image else line[text:close]]
        taken = start = end + 1
    return "".join(out) + line[taken:] if out else line


def placeholders_replaced(line: str) -> str:
    """Each ``[...]`` replaced by a blank, as ``re.sub(r"\\[[^\\]]*\\]", " ")`` would, in
    one pass (the regex scanned from every ``[`` to the end when no ``]`` followed)."""
    out: list[str] = []
    taken = 0
    while (i := line.find("[", taken)) >= 0 and (close := line.find("]", i + 1)) >= 0:
        out += [line[taken:i], " "]
        taken = close + 1
    return "".join(out) + line[taken:] if out else line


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
        line = links_replaced(line)
        line = placeholders_replaced(line)  # [placeholders] from the template
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
