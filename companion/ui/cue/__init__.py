"""Cue: see the README's architecture map."""
