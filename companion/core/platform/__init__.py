"""The platform seam of the core: every call that exists on one desktop only (a uid, an
advisory lock, a process table, a battery) is made here and nowhere else, behind one
small function per service. Each checks ``sys.platform`` when it runs (mypy reads those
checks, so ``make lint``'s ``--platform win32``/``darwin`` runs see each branch), with a
POSIX/Linux branch, a Windows one where it differs, and a portable one built on a
well-kept library (``filelock``, ``psutil``).

``COMPANION_PORTABLE=1`` forces the portable services on any desktop (no session bus,
no X11 grab, no portal): what a Mac or Windows build meets first, run on Linux by the
suite. The Qt side of the seam is ``companion.ui.platform``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

PORTABLE = "COMPANION_PORTABLE"


def portable_forced(env: Mapping[str, str] | None = None) -> bool:
    """Whether the portable services were asked for (``COMPANION_PORTABLE=1``)."""
    env = os.environ if env is None else env
    return env.get(PORTABLE, "").strip().lower() in ("1", "yes", "true", "on")
