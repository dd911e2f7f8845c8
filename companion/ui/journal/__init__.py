"""Journal: see the README's architecture map."""
