"""The story bank's Markdown document, kept exactly like the one-pager (current text plus
revisions, :mod:`companion.core.about.store`) in its own tables (schema/stories.py)."""

from __future__ import annotations

import datetime as dt

from sqlite_utils import Database

from companion.core.about import store as about_store
from companion.core.content.numbers import fill, values


class DocumentStore:
    """The about store's document functions bound to one document; the About page's
    editor, autosave and history take it in place of the module."""

    def __init__(self, doc: str) -> None:
        if doc not in about_store.DOCUMENTS:
            raise ValueError(f"No document {doc!r}")
        self.doc = doc

    def load_document(self, db: Database) -> str | None:
        return about_store.load_document(db, doc=self.doc)

    def load_text(self, db: Database) -> str:
        return about_store.load_text(db, doc=self.doc)

    def save_text(self, db: Database, text: str, now: dt.datetime, *, reason: str = "autosave"):
        return about_store.save_text(db, text, now, reason=reason, doc=self.doc)

    def snapshot(self, db: Database, text: str, now: dt.datetime, reason: str):
        return about_store.snapshot(db, text, now, reason, doc=self.doc)

    def list_revisions(self, db: Database):
        return about_store.list_revisions(db, doc=self.doc)

    def revision_text(self, db: Database, revision_id: int) -> str:
        return about_store.revision_text(db, revision_id, doc=self.doc)

    def words_per_minute(self, db: Database) -> float:
        return about_store.words_per_minute(db)


STORIES = DocumentStore("stories")


STARTER = """# Stories

{story_range} stories of about {story_budget} each. Press From projects to start from the
three projects of your one-pager.

## Story: [A title you would say out loud]
Tags: ownership, impact

### Situation
[Where you were, and what was wrong]

### Task
[What was yours to do]

### Action
[What you did, in the first person]

### Result
[What changed, with a number]

### Differently
[What you would do differently next time]
"""


def starter(content) -> str:
    """The template with the pack's numbers in it ("8 to 12 stories of about 2 minutes")."""

    return fill(STARTER, values(content))
