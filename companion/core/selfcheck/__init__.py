"""Selfcheck: see the README's architecture map."""
