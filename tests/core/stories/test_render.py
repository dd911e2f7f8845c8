"""The Stories page's Markdown renderer."""

from __future__ import annotations


def test_story_renderer_keeps_each_labelled_part_its_own_paragraph():
    from companion.core.stories.render import StoryRenderer

    text = (
        "## Story: Cache\nTags: impact\nSituation: checkout was slow\nTask: fix it\n"
        "**Action:** cached the hot reads\nResult: p99 from 800 ms to 120 ms\n"
        "and a second line of the result\n\n```\nTask: inside a fence\nResult: stays\n```\n"
    )
    html = StoryRenderer().render(text)
    for part in ("Tags: impact", "Situation: checkout was slow", "Task: fix it"):
        assert f"<p>{part}</p>" in html, html
    assert "<p><strong>Action:</strong> cached the hot reads</p>" in html
    assert "<p>Result: p99 from 800 ms to 120 ms\nand a second line of the result</p>" in html
    assert "Task: inside a fence\nResult: stays" in html  # code is left as written
