"""Headless sub-commands. Each module defines ``register(sub)``; see companion/cli.py."""

COMMANDS = ["doctor", "content", "about", "cue", "dnd", "export", "journal", "demo", "hotkeys"]
