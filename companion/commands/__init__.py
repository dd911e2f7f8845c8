"""Headless sub-commands. Each module defines ``register(sub)``; see companion/cli.py."""

COMMANDS = [
    "doctor",
    "content",
    "about",
    "cue",
    "today",
    "review",
    "schedule",
    "dnd",
    "export",
    "journal",
    "demo",
    "mic",
    "hotkeys",
]
