"""Markdown bounded before Python-Markdown sees it: deep nesting refused in a line, bracket
runs escaped or refused, and the cost linear in the size (checked as a ratio of times
between an input and one eight times its size, in CPU time, never as an absolute time)."""

from __future__ import annotations

import time

import pytest

from companion.core.about import guard
from companion.core.about.guard import RenderRefused
from companion.core.about.render import SafeRenderer
from companion.core.stories.parse import parse_stories


def best_time(fn, arg, runs: int = 7) -> float:
    """The least CPU time of this thread over ``runs`` calls: time.thread_time does not
    count the time a parallel run holds the core, which wall-clock time did."""
    best = float("inf")
    for _ in range(runs):
        start = time.thread_time()
        fn(arg)
        best = min(best, time.thread_time() - start)
    return best


def growth(fn, make, n: int) -> float:
    """How much more each character costs in ``make(8n)`` than in ``make(n)``: about 1
    when the cost is linear in the size, 8 when quadratic (a quadratic break reads about
    7 against the bound of 3), measured in CPU time, best of 7."""
    small, large = make(n), make(8 * n)
    fn(small)  # warm caches
    ratio = best_time(fn, large) / max(best_time(fn, small), 1e-6)
    return ratio / (len(large) / len(small))


def render_or_refuse(text: str) -> None:
    try:
        SafeRenderer().convert(text)
    except RenderRefused:
        pass


@pytest.mark.parametrize(
    "text",
    [
        "".join("  " * i + "- item\n" for i in range(500)),  # 250 KB; 600 levels: RecursionError
        "- " * 2048 + "x",
        "> " * 700 + "x",
        "".join("    " * i + "1. item\n" for i in range(200)),
    ],
    ids=["indented-list", "dash-run", "quotes", "numbered"],
)
def test_deep_nesting_is_refused_in_one_line_naming_the_line(text):
    with pytest.raises(RenderRefused) as caught:
        SafeRenderer().convert(text)
    message = str(caught.value)
    assert "\n" not in message and "levels deep" in message and "line " in message


def test_ordinary_nesting_renders():
    text = "".join("    " * i + f"- level {i}\n" for i in range(6))
    assert SafeRenderer().convert(text).count("<ul>") == 6


@pytest.mark.parametrize(
    "text, shown",
    [
        ("a [ b", "a [ b"),
        ("[a](b", "[a](b"),
        ("see [x](http://e.com) and [y", 'href="http://e.com"'),
        ("[[[[[a]]]]](http://e.com)", "[[[[a]]]]</a>"),
        (r"\[a](b)", "[a](b)"),
        ("[a](http://e.com 'title')", 'title="title"'),
    ],
)
def test_escaping_keeps_what_python_markdown_shows(text, shown):
    assert shown in SafeRenderer().convert(text)


def test_links_and_references_survive_the_guard():
    text = "[a](http://e.com) [b][r] [r]\n\n[r]: http://r.example\n"
    html = SafeRenderer().convert(text)
    assert html.count("<a ") == 3


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "[" * n,
        lambda n: "[a](" * n,
        lambda n: "![" * n,
        lambda n: "[a](x'" * n,
        lambda n: "[[a]](" * n,
        lambda n: "[" * n + "]" * n,
        lambda n: "*a* " * n,
        lambda n: "[[[[[[[[[[\n" * (n // 10),
    ],
    ids=["open", "link-open", "image-open", "quote", "nested", "balanced", "emph", "lines"],
)
def test_render_cost_grows_linearly(make):
    assert growth(render_or_refuse, make, 4000) < 3.0


@pytest.mark.parametrize(
    "make",
    [lambda n: "a\n===\n" * n, lambda n: "a\n---\n" * n, lambda n: "a\n- - -\n" * n],
    ids=["setext-1", "setext-2", "dash-rules"],
)
def test_underlines_in_one_block_cost_linear_time(make):
    """Python-Markdown splits a paragraph again at each setext underline or rule in it:
    4,000 in 24 KB took 2.5-2.8 s, 30,000 (180 KB) ran past a minute."""
    assert growth(render_or_refuse, make, 500) < 3.0


def test_everything_up_to_the_limit_renders_or_is_refused():
    with pytest.raises(RenderRefused, match="characters"):
        SafeRenderer().convert("word " * (guard.MAX_CHARS // 5 + 1))


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "## Story: a\nTags: x\n" + "".join("  " * i + "- Result\n" for i in range(n)),
        lambda n: "## Story: a\nTags: x\n" + "".join("- " * i + "Result\n" for i in range(n)),
        lambda n: "## Story: a" + " " * (n * 50) + "b\n### Result" + " " * (n * 50) + "x\n",
    ],
    ids=["indented", "dashes", "heading-blanks"],
)
def test_stories_parser_grows_linearly_in_the_size(make):
    assert growth(parse_stories, make, 300) < 3.0


def test_stories_labels_still_read():
    bank = parse_stories("## Story: A  ##\nTags: x\n- **  Result:** 5 users\n  Action: I did\n")
    story = bank.stories[0]
    assert story.title == "A"
    assert story.parts == {"result": "5 users", "action": "I did"}


def test_about_export_of_deep_markdown_is_one_line_and_writes_nothing(tmp_path, capsys):
    from companion.cli import main

    deep = tmp_path / "deep.md"
    deep.write_text("- " * 2048 + "x\n")
    out = tmp_path / "out.html"
    assert (
        main(
            [
                "--data-dir",
                str(tmp_path / "d"),
                "about",
                "export",
                "--input",
                str(deep),
                "-o",
                str(out),
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "levels deep" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(
    "text",
    [
        "## t {identity}\n" * 12_000,  # one block of headings: 16.7 s
        ("# H\n\n- **a** [b](c) `d`\n  - e [f\n\n> q ![i](j)\n\n") * 4_000,  # 4.2 s
        ("|a" * 5000 + "|\n" + "|-" * 5000 + "|\n") * 3,
    ],
    ids=["headings", "many-elements", "wide-table"],
)
def test_element_heavy_text_is_refused_in_one_line(text):
    with pytest.raises(RenderRefused) as caught:
        SafeRenderer().convert(text)
    assert "\n" not in str(caught.value)


def test_a_bank_repeating_one_title_reads_in_one_pass():
    bank = parse_stories("## Story: a\n" * 3 + "## Story: a-2\n")
    assert [s.id for s in bank.stories] == ["a", "a-2", "a-3", "a-2-2"]
    assert growth(parse_stories, lambda n: "## Story: a\n" * n, 1500) < 3.0


# --- closed links and images: the parser's work per link is the whole paragraph ---------


def _markdown_bracket_passes(text: str) -> int:
    """How many times Python-Markdown finds every bracket end of a text again (once per
    link it makes): the work the guard bounds, counted in the parser itself."""
    from markdown.inlinepatterns import LinkInlineProcessor

    calls = []
    real = LinkInlineProcessor._findBracketEnds

    def counted(data):
        calls.append(len(data))
        return real(data)

    LinkInlineProcessor._findBracketEnds = staticmethod(counted)
    try:
        SafeRenderer().convert(text)
    finally:
        LinkInlineProcessor._findBracketEnds = staticmethod(real)
    return sum(calls)


@pytest.mark.parametrize(
    "text",
    [
        "[a](https://e.x/) " * 1_000,
        "![a](x.png) " * 2_000,
        ("[a](https://e.x/) " + "word " * 300) * 60,
        ("[a](https://e.x/) " * 50 + "\n\n") * 150,
    ],
)
def test_many_closed_links_in_long_paragraphs_are_refused_in_one_line(text):
    with pytest.raises(RenderRefused) as refused:
        guard.prepared(text)
    assert "\n" not in str(refused.value) and "links" in str(refused.value)


@pytest.mark.parametrize(
    "text",
    [
        "[a](https://e.x/) " * 280,
        "![a](x.png) " * 320,
        ("[a](https://e.x/) " * 50 + "\n\n") * 35,
        "- a [b](c) *d*\n" * 2_000,  # list items: each its own inline pass
    ],
)
def test_the_link_work_the_guard_lets_through_is_what_the_parser_does(text):
    passes = _markdown_bracket_passes(text)
    bound = sum(guard.link_cost(block) for block in text.split("\n\n"))
    assert bound <= guard.LINK_BUDGET
    assert passes <= bound + len(text)  # the count is an upper bound on the parser's work


def test_a_hundred_thousand_open_brackets_are_called_square_brackets():
    with pytest.raises(RenderRefused) as refused:
        guard.prepared("[" * 100_000)
    assert "square brackets" in str(refused.value) and "emphasis" not in str(refused.value)


@pytest.mark.parametrize(
    "text",
    [
        "[a](" * 500,  # the guard escapes each "](" that never closes: no link is made
        "\\[a](b) " * 2_000,  # escaped: text to the parser
        "[a] " * 5_000,  # no "[a]: URL" defines them: the parser leaves the text as it is
        "[a][b] " * 300,
    ],
)
def test_brackets_that_cannot_become_links_are_not_counted_as_links(text):
    guard.prepared(text)  # not refused
    # a few passes for each of the parser's six link and image patterns (12.75 for the
    # first), whatever the number of pairs: not one a pair (500 here)
    assert _markdown_bracket_passes(text) <= 16 * len(text)


def test_defined_references_count_as_links():
    text = "[a] " * 5_000 + "\n\n[a]: https://e.x/\n"
    with pytest.raises(RenderRefused) as refused:
        guard.prepared(text)
    assert "5,000 links" in str(refused.value)


def test_a_long_paragraph_of_brackets_is_not_called_emphasis():
    with pytest.raises(RenderRefused) as refused:
        guard.prepared("[a](" * 5_000)
    assert "square brackets" in str(refused.value) and "emphasis" not in str(refused.value)
