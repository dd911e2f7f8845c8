"""The story tests' shared bank, pack and round."""

from __future__ import annotations

import pytest

from companion.core.content.stories import story_pack

THREE = """# Stories

## Story: Cut GPU cost
Tags: ownership, impact

### Situation
The training bill doubled in a quarter.
### Task
Bring it down without slowing research.
### Action
I built a bin-packing scheduler and moved batch jobs to spot.
### Result
Spend fell 40% in three months.
### Differently
Ask finance for the bill earlier.

## Story: The schema fight
Tags: conflict, influence

**Situation:** Two teams wanted different schemas.
**Task:** Pick one.
**Action:** I wrote both up and ran a review.
**Result:** We shipped one schema and everyone moved on.

## Story: Dropped the migration
Tags: failure

Situation: I underestimated a migration.
Result: It slipped 2 weeks; I added a dry run to every migration since.
"""


@pytest.fixture
def three():
    """A bank of three stories: two with a number in the result, one in bold labels."""
    return THREE


@pytest.fixture
def pack(content):
    return story_pack(content)


@pytest.fixture
def loop_round():
    """Makes a loop with one round of the type given: (loop id, round id)."""

    def make(db, round_type="hiring-manager"):
        from companion.core.day.loops import add_round, create_loop

        loop_id = create_loop(db, "Acme")
        return loop_id, add_round(db, loop_id, round_type)

    return make
