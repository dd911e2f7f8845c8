"""The pitch analysis, the safe renderer and the import decoder (plain pytest, no Qt)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.about import pitch, segments, spoken
from companion.core.about.export import format_for, html_document
from companion.core.about.importing import clean_text, decode_bytes, read_import
from companion.core.about.render import SafeRenderer, document_title, strip_markers
from companion.core.paths import resources_dir

GOOD = """# Ada Lovelace — Staff engineer

## Who I am
I am a staff engineer with ten years on production systems.

## Strongest evidence
At Acme we served forty thousand requests per second and the cache fell over every
Monday. I owned the redesign and p99 latency went from 800 ms to 120 ms.

## Current depth
Lately I am deep in scheduling for GPU clusters.

## Why this role
Your team owns the inference platform.

## Hand back
Which part should I go deeper on?

## Three projects

### Cache redesign
- Cut p99 latency from 800 ms to 120 ms.

### Cost work
- Saved $2M a year on storage.

### Mentoring
- Grew the team and ran the on-call rotation.
"""


def words(n: int, word: str = "word") -> str:
    return " ".join([word] * n)


def test_template_has_all_five_segments_and_a_projects_section():
    from companion.core.about.template import fill_template
    from companion.core.content.plans import FALLBACK_PITCH

    raw = (resources_dir() / "templates" / "about-me.md").read_text(encoding="utf-8")
    text = fill_template(raw, FALLBACK_PITCH)
    assert "{{" not in text and "## Who I am (10 s)" in text and "60-90 seconds" in text
    result = pitch.analyze(text)
    assert [s.id for s in result.segments] == list(segments.SEGMENT_IDS)
    assert all(s.present and s.words > 0 for s in result.segments)
    assert result.projects_section and len(result.projects) == 3
    # the template's example figures sit in [placeholders]: unfilled projects are flagged
    assert len(result.projects_without_numbers) == 3
    assert 60 <= result.total_seconds <= 90
    assert result.timing_status == "ok"


def test_budgets_are_10_30_20_20_10():
    assert [s.budget_seconds for s in segments.SEGMENTS] == [10, 30, 20, 20, 10]


def test_words_and_seconds_per_segment_at_the_given_rate():
    text = f"## Who I am\n{words(35)}\n## Strongest evidence (30 s)\n{words(70)}\n"
    result = pitch.analyze(text, 140)
    identity = result.segment("identity")
    assert identity.words == 35
    assert identity.seconds == pytest.approx(15.0)
    assert identity.status == "over"
    assert identity.delta_seconds == pytest.approx(5.0)
    assert result.segment("evidence").seconds == pytest.approx(30.0)
    assert result.segment("evidence").status == "ok"
    assert result.segment("depth").status == "missing"
    slow = pitch.analyze(text, 70)
    assert slow.segment("identity").seconds == pytest.approx(30.0)


@pytest.mark.parametrize(
    ("heading", "segment"),
    [
        ("## Identity", "identity"),
        ("### who I AM (10 s)", "identity"),
        ("## 1. Who I am", "identity"),
        ("## Opening line {identity}", "identity"),
        ("## Anything {#evidence}", "evidence"),
        ("## Strongest evidence: scale", "evidence"),
        ("# Current depth", "depth"),
        ("## Why this role?", "why-role"),
        ("## Hand-back", "hand-back"),
        ("## Three projects", "projects"),
        ("## Projects {projects}", "projects"),
        ("## Why I hate Mondays", None),
        ("## Experience", None),
    ],
)
def test_headings_and_markers_tie_text_to_segments(heading, segment):
    (found,) = segments.scan_headings([heading])
    assert found.segment == segment
    assert "{" not in found.text


def test_segment_ends_at_next_heading_of_same_level_and_subheadings_stay_inside():
    text = "## Who I am\none two\n### detail\nthree\n## Other\nfour five six\n"
    identity = pitch.analyze(text).segment("identity")
    assert identity.words == 3  # one, two, three: headings are structure, not speech
    assert identity.end_line == 4


def test_segment_heading_ends_the_previous_segment_even_when_deeper():
    text = "# Me\n## Who I am\nalpha\n### Strongest evidence\nbeta gamma\n"
    result = pitch.analyze(text)
    assert result.segment("identity").words == 1
    assert result.segment("evidence").words == 2


def test_headings_inside_code_fences_are_ignored():
    text = "## Who I am\nhello\n```\n## Strongest evidence\n```\n"
    result = pitch.analyze(text)
    assert not result.segment("evidence").present
    assert result.segment("identity").words == 1


def test_markdown_syntax_urls_and_images_are_not_spoken():
    assert spoken.count_words("**Bold** and _it_ [link text](https://x.y/z) ![pic](a.png)") == 5
    assert spoken.count_words("- item one\n1. item two\n> quoted") == 5
    assert spoken.count_words("see https://example.com/a/b now") == 2
    assert spoken.count_words("| a | b |\n|---|---|\n| c | d |") == 4
    assert spoken.count_words("<b>raw</b> html") == 2
    assert spoken.count_words("") == 0


def test_whole_pitch_warnings_over_90_and_under_60():
    long = "\n".join(f"## {s.title}\n{words(60)}" for s in segments.SEGMENTS)  # 300 words
    result = pitch.analyze(long, 140)
    assert result.timing_status == "long"
    assert any("over the 90 s limit" in w for w in result.warnings)
    short = "\n".join(f"## {s.title}\n{words(10)}" for s in segments.SEGMENTS)
    result = pitch.analyze(short, 140)
    assert result.timing_status == "short"
    assert any("under the 60 s minimum" in w for w in result.warnings)
    ok = "\n".join(f"## {s.title}\n{words(35)}" for s in segments.SEGMENTS)
    assert pitch.analyze(ok, 140).timing_status == "ok"


def test_empty_document():
    result = pitch.analyze("")
    assert result.timing_status == "empty"
    assert result.total_words == 0
    assert not any(s.present for s in result.segments)
    assert any("No pitch segments" in w for w in result.warnings)


def test_good_pitch_flags_only_the_project_without_a_number():
    result = pitch.analyze(GOOD)
    assert [p.title for p in result.projects] == ["Cache redesign", "Cost work", "Mentoring"]
    assert [p.title for p in result.projects_without_numbers] == ["Mentoring"]
    assert any("Mentoring" in w and "no number" in w for w in result.warnings)


def test_projects_as_list_items():
    text = (
        "## Three projects\n"
        "1. Billing rewrite: moved 120 services\n"
        "2. Search: faster queries\n"
        "   continued with 3x throughput\n"
        "3. Onboarding - made it nicer\n"
    )
    result = pitch.analyze(text)
    assert [p.has_number for p in result.projects] == [True, True, False]
    assert result.projects[2].title == "Onboarding"


@pytest.mark.parametrize(
    "text",
    [
        "cut p99 to 120 ms",
        "grew revenue 40%",
        "saved $2M",
        "saved €300k a year",
        "handled 40,000 requests per second",
        "10x throughput",
        "a team of 6 engineers",
        "millions of users",
        "halved the build time",
        "3.5 TB a day",
    ],
)
def test_numbers_that_count(text):
    assert spoken.find_numbers(text)


@pytest.mark.parametrize(
    "text",
    [
        "1. Made it better",
        "Project 2: made it better",
        "in 2021 we made it better",
        "Result: [the number, e.g. 40%]",
        "v2 of the service",
        "since 2019, nicer",
    ],
)
def test_things_that_are_not_a_claim_number(text):
    assert spoken.find_numbers(text) == ()


def test_pitch_outline_gives_first_lines_and_seconds_in_order():
    outline = pitch.pitch_outline(GOOD, words_per_minute=140)
    assert [o.id for o in outline] == list(segments.SEGMENT_IDS)
    assert outline[0].first_line == "I am a staff engineer with ten years on production systems."
    assert outline[1].first_line.startswith("At Acme we served forty thousand")
    assert outline[1].budget_seconds == 30
    assert outline[1].estimated_seconds > 0
    empty = pitch.pitch_outline("")
    assert [o.first_line for o in empty] == [""] * 5


def test_calibrated_rate():
    assert pitch.calibrated_rate(150, 60) == 150
    with pytest.raises(ValueError, match="too short"):
        pitch.calibrated_rate(150, 2)
    with pytest.raises(ValueError, match="outside"):
        pitch.calibrated_rate(150, 10)
    with pytest.raises(ValueError, match="only 5 words"):
        pitch.calibrated_rate(5, 60)


def test_rate_is_clamped_to_plausible_values():
    assert spoken.clamp_wpm(10) == spoken.MIN_WPM
    assert spoken.clamp_wpm(1000) == spoken.MAX_WPM
    assert spoken.clamp_wpm(float("nan")) == spoken.DEFAULT_WPM
    assert spoken.clamp_wpm("junk") == spoken.DEFAULT_WPM


def test_format_report_lists_segments_total_and_projects():
    report = pitch.format_report(pitch.analyze(GOOD))
    assert "Who I am" in report and "whole pitch" in report
    assert "Mentoring" in report


# -- properties -------------------------------------------------------------------------

markdownish = st.lists(
    st.sampled_from(
        list("abc XYZ 123 #*_-[]()!<>{}|`~%$\n\t.:,")
        + ["## Who I am\n", "## Hand back\n", "\n- ", "## Three projects\n", "```\n", "40%"]
    ),
    max_size=200,
).map("".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=300), markdownish), wpm=st.floats(-1e6, 1e6))
def test_analysis_never_fails_and_is_consistent(text, wpm):
    result = pitch.analyze(text, wpm)
    assert len(result.segments) == 5
    assert result.total_words == sum(s.words for s in result.segments)
    assert result.total_words <= result.document_words + text.count("#")
    rate = spoken.clamp_wpm(wpm)
    for seg in result.segments:
        assert seg.seconds == pytest.approx(seg.words * 60 / rate)
        assert seg.words >= 0
        assert (seg.heading_line is None) == (not seg.present)
    assert len(pitch.pitch_outline(text, wpm)) == 5


word = st.from_regex(r"[A-Za-z]{1,10}", fullmatch=True)


@given(body=st.lists(word, max_size=60), extra=st.lists(word, min_size=1, max_size=30))
def test_adding_words_to_a_segment_adds_exactly_that_many(body, extra):
    before = f"## Why this role\n{' '.join(body)}\n## Hand back\nbye\n"
    after = f"## Why this role\n{' '.join(body)} {' '.join(extra)}\n## Hand back\nbye\n"
    a = pitch.analyze(before).segment("why-role").words
    b = pitch.analyze(after).segment("why-role").words
    assert b - a == len(extra)
    assert pitch.analyze(after).segment("hand-back").words == 1


@given(value=st.integers(1, 10**9), unit=st.sampled_from(["ms", "%", "x", "users", "TB", "k"]))
def test_any_figure_with_a_unit_is_found(value, unit):
    assert spoken.find_numbers(f"We got {value}{unit} better")


# -- rendering ------------------------------------------------------------------------


def test_render_escapes_raw_html_and_blocks_images_and_scripts():
    html = SafeRenderer().render(
        "<script>alert(1)</script>\n\nHi <b>x</b> ![pic](http://example.com/p.png) "
        "[bad](javascript:alert(1)) [ok](https://example.com)\n"
    )
    assert "<script" not in html and "&lt;script&gt;" in html
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert "<img" not in html and "image not loaded" in html
    assert 'href="javascript' not in html and "<a>bad</a>" in html
    assert 'href="https://example.com"' in html


def test_render_tables_lists_and_markers():
    html = SafeRenderer().render(
        "## Who I am {identity}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n"
    )
    assert "<table>" in html and "<td>1</td>" in html
    assert "<li>one</li>" in html
    assert "{identity}" not in html and "<h2>Who I am</h2>" in html


def test_renderer_is_reusable():
    renderer = SafeRenderer()
    assert renderer.render("# One") == "<h1>One</h1>"
    assert renderer.render("# Two") == "<h1>Two</h1>"


@settings(max_examples=200)
@given(text=st.text(max_size=300))
def test_rendered_html_never_contains_live_tags(text):
    html = SafeRenderer().render(text)
    lowered = html.lower()
    for tag in ("<script", "<img", "<iframe", "<style", "<link", "<object", "<svg", "<input"):
        assert tag not in lowered


def test_strip_markers_and_title():
    assert strip_markers("## Hello {depth}\ntext {depth}") == "## Hello\ntext {depth}"
    assert document_title("intro\n# Ada — Staff {identity}\n") == "Ada — Staff"
    assert document_title("no heading") == "About me"
    page = html_document("# Ada\n\nhi")
    assert page.startswith("<!DOCTYPE html>") and "<title>Ada</title>" in page
    assert "Content-Security-Policy" in page


def test_format_for():
    assert format_for("x.pdf") == "pdf"
    assert format_for("x.HTM") == "html"
    assert format_for("x.txt", "md") == "md"
    with pytest.raises(ValueError, match="Cannot tell the format"):
        format_for("x.txt")
    with pytest.raises(ValueError, match="Unknown format"):
        format_for("x.pdf", "docx")


# -- import ---------------------------------------------------------------------------


def test_invalid_utf8_is_reported_by_line_and_column():
    result = decode_bytes(b"# Me\nab\xffcd\n", "me.md")
    assert result.text == "# Me\nab\ufffdcd\n"
    assert "line 2, column 3" in result.problems[0]
    assert "0xff" in result.problems[0]


def test_binary_data_is_refused():
    with pytest.raises(ValueError, match="binary"):
        decode_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "pic.png")


def test_bom_crlf_and_control_characters():
    result = decode_bytes(b"\xef\xbb\xbfa\r\nb\x07c", "x.md")
    assert result.text == "a\nbc"
    assert "control character" in result.problems[0]
    assert clean_text("a\tb\x00\n") == ("a\tb\n", 1)


def test_read_import_errors(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        read_import(tmp_path / "missing.md")
    with pytest.raises(ValueError, match="folder"):
        read_import(tmp_path)
    good = tmp_path / "ok.md"
    good.write_text("# Héllo\n", encoding="utf-8")
    assert read_import(good).text == "# Héllo\n"


_pieces = st.sampled_from(
    [
        "# H\n",
        "## Who I am\n",
        "\n",
        "text line\n",
        "- item\n",
        "  indented\n",
        "    code\n",
        "```\n",
        "| a | b |\n",
        "|---|---|\n",
        "1. one\n",
        "> quote\n",
        "Setext\n",
        "===\n",
        "#nospace\n",
        "[x]: http://a\n",
        "[x][x]\n",
        "~~~\n",
        "<b>raw</b>\n",
    ]
)


@settings(max_examples=400)
@given(text=st.lists(_pieces, max_size=25).map("".join))
def test_sectioned_render_matches_a_whole_conversion(text):
    renderer = SafeRenderer()
    assert renderer.render(text) == renderer.convert(text)
    assert renderer.render(text + "tail\n") == renderer.convert(text + "tail\n")  # cached path


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("We served 3 million users", ("3 million",)),
        ("It saved $2 million a year", ("$2 million",)),
        ("Millions of users, 40% faster", ("40%", "Millions")),
        ("3 million requests and doubled the rate", ("3 million", "doubled")),
    ],
)
def test_a_figure_is_listed_once(text, numbers):
    assert spoken.find_numbers(text) == numbers
