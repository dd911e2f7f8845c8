"""Storage: see the README's architecture map."""
