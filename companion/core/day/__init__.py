"""Day: see the README's architecture map."""
