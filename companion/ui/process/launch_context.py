"""What the window's first frame reads of the data folder: where it is and its
preferences (the window's size, the page it was on).

The whole :class:`companion.core.context.AppContext` (the journal, the content packs,
sqlite-utils) is built from it after the first paint, by
:attr:`companion.ui.app.Application.ctx`, with these same preferences: one writer of
``prefs.json``.
"""

from __future__ import annotations

from pathlib import Path

from companion.core import paths
from companion.core.prefs import Prefs


class LaunchContext:
    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.prefs = Prefs(paths.prefs_path(self.data_dir))

    def close(self) -> None:
        """Nothing is open yet (as :meth:`AppContext.close` for a context never used)."""
