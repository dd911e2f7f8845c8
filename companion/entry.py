"""The console script's and ``python -m companion``'s entry: it imports nothing of its own,
so a Ctrl+C while the command line's modules load ends it with 130 and no traceback (the
script imported ``companion.cli`` before any handler could run)."""

from __future__ import annotations


def main() -> int:
    try:
        from companion.cli import main as cli_main  # seam: commands
    except KeyboardInterrupt:
        return 130
    return cli_main()
