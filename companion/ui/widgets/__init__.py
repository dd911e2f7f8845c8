"""Widgets: see the README's architecture map."""
