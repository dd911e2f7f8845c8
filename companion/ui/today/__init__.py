"""Today: see the README's architecture map."""
