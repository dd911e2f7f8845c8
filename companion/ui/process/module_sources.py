"""The sources PySide6 reads of our modules, let go once they are imported.

Once QtCore is imported, PySide6's import hook asks of every module imported after it
whether it uses PySide6 (its ``__feature__`` support, PYSIDE-2029), by reading the
module's whole source with ``inspect.getsource``. That leaves every line in ``linecache``
for the life of the process: with every page built, 351 modules and 128,000 lines, about
10 MiB of the app's 110 MiB. The app lets them go where a burst of imports ends (the
first frame's modules, the session, each page); a traceback reads its lines again from
the file.
"""

from __future__ import annotations

import linecache


def forget_module_sources() -> None:
    linecache.clearcache()
