"""Dnd: see the README's architecture map."""
