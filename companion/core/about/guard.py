"""Markdown made safe to hand to Python-Markdown: nesting and pathological bracket runs
bounded before the parser sees them, in one linear pass.

Python-Markdown recurses once per level of list or quote (600 levels raise
RecursionError), and its link patterns scan from every ``[`` to the matching ``]``, and
from every ``](`` to the matching ``)``, to the end of the paragraph when there is none:
a line of 8,000 ``[`` took 6-22 s. :func:`prepared` therefore

- refuses (:class:`RenderRefused`, one line with the reason) text nested deeper than
  :data:`MAX_DEPTH` levels, longer than :data:`MAX_CHARS`, or with more than
  :data:`MAX_MARKS` marks;
- escapes (``\\[``) every bracket that could only send the parser on a long scan: a ``[``
  never closed in its paragraph, a bracket pair nested more than :data:`MAX_BRACKETS`
  deep, a ``](`` whose ``(`` is never closed, nested deeper than :data:`MAX_BRACKETS`, or
  runs more than :data:`MAX_HREF` characters. An unclosed bracket renders as itself
  either way, so ordinary text looks the same;
- refuses a paragraph so long and so full of marks that the parser's inline pass, which
  rebuilds the paragraph for every mark, would take seconds (:data:`INLINE_BUDGET`);
- in a paragraph it cannot rewrite safely (it has code spans, or may be a code block),
  counts what the scans could cost and refuses past :data:`SCAN_BUDGET`;
- refuses text whose closed links and images cost past :data:`LINK_BUDGET`: the parser
  finds bracket ends with a pass over the whole paragraph again after every link it
  makes (1,000 links in one paragraph took 36 s), so the work is links x paragraph.

What is left costs the parser at most a few scans per character, so any text up to
:data:`MAX_CHARS` renders in about a second here (``benchmarks/bench_render.py``).
"""

from __future__ import annotations

import re

MAX_CHARS = 400_000  # prose with some marks: about 1 s here; a one-pager is about 5,000
MAX_MARKS = 40_000  # marks of emphasis, code and links: each costs the parser ~15 us
# paragraphs, headings, list items, quotes and table cells: each costs ~100-250 us here
# (an element, its inline pass, the sanitiser); a one-pager has about fifty
MAX_ELEMENTS = 5_000
MAX_DEPTH = 32  # levels of list or quote on one line (a one-pager rarely nests past 3)
MAX_BRACKETS = 3  # nested [ [ [ ] ] ] or ( ( ( ) ) ) inside a link
MAX_HREF = 4_000  # characters between a link's ( and its )
SCAN_BUDGET = 1_000_000  # characters the link patterns may scan in code-span paragraphs
# marks x paragraph length over the text (see inline_cost): "*a* " repeated in one
# paragraph costs about 1.4 ns a unit here, so this is about 0.3 s at worst
INLINE_BUDGET = 200_000_000
# closed bracket pairs x the length of the paragraph or item they are in, over the text
# (see link_cost): about 0.18 us a unit here (370 images in one paragraph, 3.8M: 0.67 s),
# so at most about 0.55 s, which leaves room for INLINE_BUDGET's 0.3 s in the same text
LINK_BUDGET = 3_000_000
# the link work a text rendered on the GUI thread may cost (ui/widgets/preview_render.py):
# about 9 ms, inside a frame; 2,000 characters of links cost 4-6x that
SYNC_LINK_COST = 50_000

_ESCAPABLE = set("\\`*_{}[]()>#+-.!")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_BRACKET = re.compile(r"[\[\]()]")
_MARKER = re.compile(r"(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*")


class RenderRefused(OSError):
    """The text cannot be rendered in reasonable time; ``strerror`` says why in a line."""

    def __init__(self, reason: str) -> None:
        super().__init__(0, reason)

    def __str__(self) -> str:
        return self.strerror


def prepared(text: str) -> str:
    """``text`` ready for Python-Markdown (see the module's docstring), or
    :class:`RenderRefused`."""
    if len(text) > MAX_CHARS:
        raise RenderRefused(
            f"the text is {len(text):,} characters; at most {MAX_CHARS:,} are rendered "
            "(a one-pager is about 5,000). Trim it, or export it as Markdown."
        )
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        depth = line_depth(line)
        if depth > MAX_DEPTH:
            raise RenderRefused(
                f"line {number} nests lists or quotes {depth} levels deep; at most "
                f"{MAX_DEPTH} are rendered. Flatten it."
            )
    out: list[str] = []
    marks = 0
    elements = 0
    budget = [SCAN_BUDGET]
    inline = INLINE_BUDGET
    links = LINK_BUDGET
    references = _REFERENCE.search(text) is not None
    start = 0
    for number, line in enumerate(lines + [""]):
        if line.strip() and number < len(lines):
            continue
        if number > start:
            block = _block("\n".join(lines[start:number]), start + 1, budget)
            inline -= inline_cost(block)
            cost = link_cost(block, references)
            links -= cost
            if cost > LINK_BUDGET:
                pairs = closed_pairs(block, references)
                raise RenderRefused(
                    f"the paragraph at line {start + 1} has {pairs:,} links, images or "
                    f"other closed square brackets in {len(block):,} characters; "
                    "rendering that takes too long. Split it with blank lines."
                )
            if links < 0:
                raise RenderRefused(
                    f"the text has {text.count(']('):,} links and images, in paragraphs too "
                    f"long to render them all in reasonable time (by line {number}). Split "
                    "the long paragraphs, or export it as Markdown."
                )
            marks += _specials(block)
            elements += _elements(block)
            if elements > MAX_ELEMENTS:
                raise RenderRefused(
                    f"the text has more than {MAX_ELEMENTS:,} paragraphs, headings, list "
                    f"items and table cells by line {number}; rendering them takes too long. "
                    "Export it as Markdown."
                )
            if marks > MAX_MARKS:
                raise RenderRefused(
                    f"the text has more than {MAX_MARKS:,} marks by line {number}, most of "
                    f"them {_most_marks(text)}; rendering them takes too long. Export it as "
                    "Markdown."
                )
            if inline < 0:
                splits = len(_SPLIT_LINE.findall(block))
                what = (
                    f"{splits:,} heading underlines or rules"
                    if 8 * splits > _specials(block)
                    else f"{_specials(block):,} marks, most of them {_most_marks(block)}"
                )
                raise RenderRefused(
                    f"the paragraph at line {start + 1} is {len(block):,} characters with "
                    f"{what}; rendering that takes too long. Split it with blank lines."
                )
            out.append(block)
        if number < len(lines):
            out.append(line)
        start = number + 1
    return "\n".join(out)


_MARK_NAMES = {
    "[": "square brackets",
    "*": "asterisks (emphasis)",
    "_": "underscores (emphasis)",
    "`": "backticks (code)",
    "\\": "backslashes (escapes)",
    "&": "ampersands",
    "<": "angle brackets",
}


def _most_marks(text: str) -> str:
    """The kind of mark ``text`` has most of, in words (100,000 ``[`` are not emphasis)."""
    return _MARK_NAMES[max(_MARK_NAMES, key=text.count)]


def closed_pairs(block: str, references: bool = True) -> int:
    """How many ``[`` of ``block`` a ``]`` closes (escaped ones are text to the parser):
    an upper bound on the links, images and references the parser makes in it, each of
    which costs a pass over the paragraph. Without ``references`` (the text defines
    none), only a pair followed by ``(`` or ``[`` can become one: the parser leaves
    ``[a]`` alone, and the paragraph as it was, when no ``[a]: URL`` defines it."""
    if "]" not in block:
        return 0
    open_, pairs = 0, 0
    for m in _SQUARE.finditer(block):
        if m.group() == "[":
            open_ += 1
        elif m.group() == "]" and open_:
            open_ -= 1
            pairs += references or block.startswith(("(", "["), m.end())
    return pairs


_SQUARE = re.compile(r"\\.|[\[\]]", re.DOTALL)
# a reference definition, "[id]: URL", which makes "[text][id]" and "[id]" links
_REFERENCE = re.compile(r"(?m)^ {0,3}\[[^\]\n]+\]:")
_ELEMENT_LINE = re.compile(r"\n(?=[ \t]*(?:[#>*+|-]|\d))")


def link_cost(block: str, references: bool = True) -> int:
    """The parser's link work in ``block``: for each element in it (a paragraph's lines
    together; each list item, heading, quote line or table row alone), its closed
    bracket pairs (see :func:`closed_pairs`) times its length: after each link it makes,
    the parser finds every bracket end of the element's text again."""
    if "]" not in block:
        return 0
    cost = 0
    for part in _ELEMENT_LINE.split(block):
        pairs = closed_pairs(part, references)
        cost += pairs * (len(part) + _PLACEHOLDER * pairs)  # a link's placeholder may be longer
    return cost


_PLACEHOLDER = 16  # characters of the placeholder that stands for a link in the text


def _specials(block: str) -> int:
    return sum(block.count(c) for c in "`\\*_[&<") + block.count("  \n")


def _elements(block: str) -> int:
    starts = sum(1 for line in block.split("\n") if _starts_element(line.lstrip(" \t")))
    return 1 + starts + block.count("|")


def _starts_element(line: str) -> bool:
    return line[:1] in ("#", ">", "-", "*", "+") or line[:1].isdigit()


def inline_cost(block: str) -> int:
    """What Python-Markdown costs on one paragraph beyond a pass: it rebuilds the text
    for every inline match, and splits the block again at every heading in it (a search
    from the start each time, so a heading weighs five marks). A setext underline or a
    rule of dashes (``===``, ``---``, ``- - -``) splits it the same way and weighs more:
    4,000 of them in 24 KB took 2.5-2.8 s, and 30,000 ran past a minute."""
    headings = block.count("\n#") + block.startswith("#")
    splits = len(_SPLIT_LINE.findall(block)) if ("=" in block or "-" in block) else 0
    return (_specials(block) + 5 * headings + 8 * splits) * len(block)


_SPLIT_LINE = re.compile(r"(?m)^ {0,3}(?:=+|-[ \t-]*)$")


def line_depth(line: str) -> int:
    """Levels of quote and list a line opens: its ``>`` and list markers, plus one per two
    columns of indentation before a marker (Python-Markdown nests at two or four)."""
    stripped = line.lstrip(" \t")
    indent = len(line[: len(line) - len(stripped)].expandtabs(4))
    depth = 0
    pos = 0
    while True:
        match = _MARKER.match(stripped, pos)
        if not match:
            break
        depth += 1
        pos = match.end()
    return depth + indent // 2 if depth else 0


def _block(block: str, first_line: int, budget: list[int]) -> str:
    """One paragraph (lines between blank lines), its dangerous brackets escaped."""
    if "[" not in block:
        return block
    head = block.split("\n", 1)[0]
    code_like = len(head.expandtabs(4)) - len(head.expandtabs(4).lstrip(" ")) >= 4
    if "`" in block or code_like:
        # code spans hide brackets from the link patterns, and an escape inside one
        # would show: left as it is, and its possible cost counted
        n = len(block)
        cost = sum(n - m.start() for m in re.finditer(r"\[|\]\(", block))
        budget[0] -= cost
        if budget[0] < 0:
            raise RenderRefused(
                f"the paragraph at line {first_line} has {block.count('['):,} square "
                "brackets beside code spans, too many to render in reasonable time. "
                "Close them, or split the paragraph with blank lines."
            )
        return block
    visible = list(block)
    for m in _ESCAPE.finditer(block):
        if m.group(1) in _ESCAPABLE:  # Python-Markdown hides escaped characters first
            visible[m.start()] = visible[m.start() + 1] = "\0"
    plain = "".join(visible)
    escape: set[int] = set()
    squares: list[int] = []
    rounds: list[int] = []
    close_of: dict[int, int] = {}  # ( -> its )
    depth_of: dict[int, int] = {}  # ( -> the ( around it
    kept_close: list[int] = []  # ] of kept pairs
    for m in _BRACKET.finditer(plain):
        c, i = m.group(), m.start()
        if c == "[":
            squares.append(i)
        elif c == "]":
            if squares:
                opened = squares.pop()
                if len(squares) >= MAX_BRACKETS:
                    escape.update((opened, i))
                else:
                    kept_close.append(i)
        elif c == "(":
            depth_of[i] = len(rounds)
            rounds.append(i)
        elif rounds:
            close_of[rounds.pop()] = i
    escape.update(squares)  # never closed: the pattern would scan to the end
    for j in kept_close:
        p = j + 1
        if p >= len(plain) or plain[p] != "(":
            continue
        q = close_of.get(p)
        if (
            q is None
            or q - p > MAX_HREF
            or depth_of[p] >= MAX_BRACKETS
            or not _closes(plain, p, q, budget)
        ):
            escape.add(p)
    if not escape:
        return block
    parts = []
    last = 0
    for i in sorted(escape):
        parts.append(block[last:i])
        parts.append("\\")
        last = i
    parts.append(block[last:])
    return "".join(parts)


_TITLED = re.compile(r"""\([^'"]*(["'])(?:(?!\1).)*\1 *\)\Z""", re.DOTALL)


def _closes(plain: str, p: int, q: int, budget: list[int]) -> bool:
    """Whether Python-Markdown's link scan from the ``(`` at ``p`` stops by ``q``: always
    without quotes, and with a title in quotes before the ``)``. Any other quote (an
    apostrophe in the address) makes it run on to the end of the paragraph: allowed
    while the budget lasts."""
    window = plain[p : q + 1]
    if ("'" not in window and '"' not in window) or _TITLED.match(window):
        return True
    budget[0] -= len(plain) - p
    return budget[0] >= 0
