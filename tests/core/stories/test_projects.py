"""Stories made from the one-pager's projects."""

from __future__ import annotations

from companion.core.stories.parse import parse_stories


def test_projects_become_stories_once():
    from companion.core.stories.projects import stories_from_projects

    one_pager = (
        "## Three projects\n\n### GPU scheduler\n\n- Problem: jobs waited hours\n"
        "- My part: I wrote the scheduler\n- Result: queue time fell from 3 h to 20 min\n\n"
        "### Cache\n\nRewrote it. Hit rate went from 60% to 92%.\n\n### Tooling\n"
    )
    text, added = stories_from_projects(one_pager, "")
    assert added == 3
    bank = parse_stories(text)
    assert [s.title for s in bank.stories] == ["GPU scheduler", "Cache", "Tooling"]
    assert bank.stories[0].parts["situation"] == "jobs waited hours"
    assert bank.stories[0].has_number and bank.stories[1].has_number
    assert not bank.stories[2].has_number  # the placeholder is no number
    assert stories_from_projects(one_pager, text) == (text, 0)


def test_from_projects_keeps_every_number_of_projects_written_as_list_items():
    from companion.core.about.pitch import analyze
    from companion.core.stories.projects import stories_from_projects

    one_pager = (
        "# Ann\n\n## Three projects\n\n"
        "- Payments cache: cut checkout p99 from 800 ms to 120 ms.\n"
        "- Migration — moved 120 services in 3 months\n"
        "  I wrote the runbook; 40 engineers used it.\n"
        "- **Spend**: cut cloud spend by 30%\n"
    )
    text, added = stories_from_projects(one_pager, "")
    assert added == 3
    stories = parse_stories(text).stories
    for project, story in zip(analyze(one_pager).projects, stories, strict=True):
        assert project.numbers
        for number in project.numbers:
            assert number in story.parts["result"], (number, story.parts)
