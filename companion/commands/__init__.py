"""Headless sub-commands. Each module defines ``register(sub)``; see companion/cli.py."""

COMMANDS = [
    "doctor",
    "content",
    "about",
    "cue",
    "today",
    "review",
    "stories",
    "debrief",
    "schedule",
    "dnd",
    "export",
    "journal",
    "mic",
    "hotkeys",
    "preflight",
]
