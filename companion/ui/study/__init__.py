"""Study: see the README's architecture map."""
