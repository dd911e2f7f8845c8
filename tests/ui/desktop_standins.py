"""Stand-ins for desktop commands the tests cannot run for real here (shared by the
Today and Preflight tests): ``gsettings`` as GNOME's do-not-disturb adapter calls it."""

from __future__ import annotations

from companion.core.dnd.base import CommandResult


class FakeGsettings:
    def __init__(self):
        self.banners = True
        self.calls = []

    def __call__(self, argv):
        self.calls.append(argv)
        if argv[1] == "get":
            return CommandResult(0, "true\n" if self.banners else "false\n")
        self.banners = argv[-1] == "true"
        return CommandResult(0)
