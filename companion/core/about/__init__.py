"""About: see the README's architecture map."""
