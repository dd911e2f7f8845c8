"""Every setting's one home and one writer, declared once.

Two stores hold settings: ``prefs.json`` (:mod:`companion.core.prefs`) for what start-up
needs before the database opens (the main window as it was left, the hotkeys) and what
the user edits there by hand; the database's ``settings`` table
(:mod:`companion.core.settings`) for everything else. Both stores refuse a key that is
not declared here for them, and ``tests/core/test_setting_homes.py`` walks the code for
keys used in the wrong store or written from a second module.

A key that changes home is moved once, when the database opens
(:func:`companion.core.settings.adopt_from_prefs`): the value found in ``prefs.json``
goes into the database unless the database has one already, and leaves the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.paths import PREFS_NAME as PREFS

DATABASE = "database"
#: the app only reads it: the user sets it in ``prefs.json`` (docs/reference.md)
BY_HAND = "by hand"


@dataclass(frozen=True)
class Setting:
    key: str
    home: str  # PREFS or DATABASE
    writer: str  # the one module that writes it (dotted name), or BY_HAND
    family: bool = False  # also ``key.<n>``: one slot per round


SETTINGS = (
    # start-up, before the database: the main window as it was left (saved at quit;
    # the Journal's splitter with it, moved by the pixel while dragged)
    Setting("main.page", PREFS, "companion.ui.mainwindow"),
    Setting("main.geometry", PREFS, "companion.ui.mainwindow"),
    Setting("journal.splitter", PREFS, "companion.ui.journal.page"),
    Setting("hotkeys", PREFS, "companion.core.hotkeys"),
    # the user's own, set in the file (docs/reference.md): no window writes them
    Setting("day.start_soon_through_dnd", PREFS, BY_HAND),
    Setting("day.auto_dnd", PREFS, BY_HAND),
    Setting("dnd.adapter", PREFS, BY_HAND),
    Setting("dnd.macos_on_shortcut", PREFS, BY_HAND),
    Setting("dnd.macos_off_shortcut", PREFS, BY_HAND),
    # the rest: the database (those an older version kept in prefs.json move once)
    Setting("cue.state", DATABASE, "companion.core.cue.state"),
    Setting("cue.ghost", DATABASE, "companion.ui.cue.ghost"),
    Setting("cue.geometry", DATABASE, "companion.ui.cue.geometry"),
    Setting("about.words_per_minute", DATABASE, "companion.core.about.store"),
    Setting("today.shown_loop", DATABASE, "companion.ui.day.service"),
    Setting("day.dnd_round", DATABASE, "companion.core.dnd.rounds"),
    Setting("invite.my_address", DATABASE, "companion.core.day.invite_people"),
    Setting("voice.record_rehearsal", DATABASE, "companion.ui.voice.take_recorder"),
    Setting("voice.follow_pitch", DATABASE, "companion.ui.voice.follow"),
    Setting("voice.silence_nudge_rounds", DATABASE, "companion.core.voice.nudge"),
    Setting("proof.hotkey", DATABASE, "companion.core.preflight.proofs"),
    Setting("proof.notification", DATABASE, "companion.core.preflight.proofs"),
    Setting("capture.draft", DATABASE, "companion.ui.journal.capture_draft", family=True),
    Setting("files.last_folder", DATABASE, "companion.core.last_folder"),
)

BY_KEY = {s.key: s for s in SETTINGS}


class SettingHomeError(KeyError):
    """A key used in a store that is not its home (or declared nowhere)."""

    def __str__(self) -> str:
        return str(self.args[0])


def declared(key: str) -> Setting | None:
    """The declaration of ``key``: its own, else its family's (``capture.draft.7``)."""
    found = BY_KEY.get(key)
    if found is not None:
        return found
    head, _, tail = key.rpartition(".")
    family = BY_KEY.get(head)
    return family if family is not None and family.family and tail else None


def check_home(key: str, home: str) -> None:
    """Raise :class:`SettingHomeError` unless ``key`` is declared to live in ``home``."""
    setting = declared(key)
    if setting is None:
        raise SettingHomeError(
            f"setting {key!r} is not declared in companion/core/setting_homes.py"
        )
    if setting.home != home:
        raise SettingHomeError(f"setting {key!r} lives in the {setting.home}, not in the {home}")


def moved_to_database() -> tuple[Setting, ...]:
    """The database's settings: any of them still in ``prefs.json`` (an older version's
    file) is moved over once."""
    return tuple(s for s in SETTINGS if s.home == DATABASE)
