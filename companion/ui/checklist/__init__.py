"""Checklist: see the README's architecture map."""
