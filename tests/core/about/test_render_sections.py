"""The preview renders in sections (only the edited one again), but the guard's totals
hold for the whole text: 25,000 headings and paragraphs, each section small, took 3 s."""

from __future__ import annotations

import pytest

from companion.core.about.render import RenderRefused, SafeRenderer


@pytest.mark.parametrize(
    "text",
    [
        "# h\n\nword word\n\n" * 12_000,
        "# h\n\n" + "|a|b|\n|-|-|\n|x|y|\n\n# h\n\n" * 3_000,
    ],
    ids=["headings-and-paragraphs", "tables"],
)
def test_a_text_of_many_small_sections_is_refused_as_a_whole(text):
    renderer = SafeRenderer()
    with pytest.raises(RenderRefused) as caught:
        renderer.render_sections(text)
    assert "\n" not in str(caught.value) and "by line" in str(caught.value)


def test_a_one_pager_of_sections_still_renders_each_section():
    text = "# About me\n\nI build things.\n\n## Evidence\n\n- 40% faster\n\n## Why\n\nBecause."
    parts = SafeRenderer().render_sections(text)
    assert len(parts) == 3 and "<h2>Evidence</h2>" in parts[1]
