"""Windows shows a process's notifications (the tray's too) under its AppUserModelID;
without one they are grouped under python.exe, and toasts from an id with no Start-menu
shortcut are dropped. Set before the first window, as the app's own id."""

from __future__ import annotations

import sys


def set_app_user_model_id(app_id: str, shell32=None) -> bool:
    """Give this process ``app_id``; False off Windows or when Windows refused."""
    import ctypes  # here: this module loads before the first paint, ctypes need not

    if shell32 is None:
        if sys.platform != "win32":
            return False
        shell32 = ctypes.windll.shell32
    return shell32.SetCurrentProcessExplicitAppUserModelID(ctypes.c_wchar_p(app_id)) == 0
