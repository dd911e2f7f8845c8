"""`make lint`'s platform check: mypy run as if on Windows and on macOS reports only what
those systems lack (a call such as ``os.geteuid``, ``fcntl.flock``, ``os.O_DIRECTORY``)
when it is compared with the same run for Linux; mypy honours ``sys.platform`` checks, so
the platform seam's guarded branches pass and an unguarded call anywhere fails.

The comparison, not a bare run: mypy also reports the code's ordinary typing gaps (the
same ones on every platform); those are not this check's business.

    python tests/platform_lint.py [PATH ...]   (default: companion)
"""

from __future__ import annotations

import sys

from mypy import api

# --check-untyped-defs: mypy skips the body of a function without annotations otherwise
OPTIONS = [
    "--ignore-missing-imports",
    "--follow-imports=silent",
    "--check-untyped-defs",
    "--no-error-summary",
]
PLATFORMS = ("win32", "darwin")


def errors(platform: str, paths: list[str], cache_root: str = ".mypy_cache") -> set[str]:
    # a cache per platform: one shared cache is thrown away at each change of platform
    cache = f"{cache_root}/{platform}"
    out, _err, _status = api.run([*OPTIONS, "--cache-dir", cache, "--platform", platform, *paths])
    return {line for line in out.splitlines() if ": error:" in line}


def platform_only(paths: list[str], cache_root: str = ".mypy_cache") -> dict[str, list[str]]:
    """The errors each of :data:`PLATFORMS` has that Linux does not, by platform."""
    linux = errors("linux", paths, cache_root)
    return {p: sorted(errors(p, paths, cache_root) - linux) for p in PLATFORMS}


def main(argv: list[str]) -> int:
    found = platform_only(argv or ["companion"])
    for platform, lines in found.items():
        for line in lines:
            print(f"{line} (--platform {platform}: call it through companion/core/platform)")
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
