"""Headless sub-commands. Each module ``companion.commands.<name>`` defines
``register(parser)``, which declares that command's arguments on the parser cli.py made
for it; cli.py imports only the module of the command being run (see its build_parser)."""

from __future__ import annotations

# Each command and its line in `companion --help`, in that order: listing the commands
# imports none of them.
COMMANDS = {
    "doctor": "check the data folder and report its health",
    "content": "work with content packs",
    "about": "export or time the About-me one-pager",
    "cue": "open the always-on-top cue card on its own",
    "today": "the phase of the day, the current and next round, and what is due",
    "review": "what to review before the loop, weakest recall first",
    "stories": "check or export your story bank",
    "debrief": "what was asked against what you expected, and the prep recall per loop",
    "schedule": "import a calendar invitation as a loop",
    "dnd": "do-not-disturb: pause desktop notifications for a round and restore them",
    "export": "export the study list (Markdown, CSV, Anki, JSON)",
    "journal": "export or import the whole journal (JSON)",
    "mic": "check the microphone: levels, speech heard, verdict",
    "hotkeys": "list the global hotkeys in force (ACTION<TAB>KEYS); rebind them or turn them off",
    "preflight": "before a round: mic, camera, do-not-disturb, pingers, power, link",
}

INT64_MAX = 2**63 - 1  # the largest integer SQLite (and so the journal) holds


def whole_number(low: int = -INT64_MAX, high: int = INT64_MAX, what: str = "a whole number"):
    """An argparse ``type`` for an integer option, bounded to ``low``..``high`` (by default
    what SQLite holds): `--delete 9223372036854775808` is a usage error, not an
    OverflowError. cli.py gives every bare ``type=int`` this bound too."""

    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text.strip()) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {what}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not {what} ({low:,} to {high:,})")
        return value

    parse.__name__ = what  # argparse names the type in some of its messages
    return parse
