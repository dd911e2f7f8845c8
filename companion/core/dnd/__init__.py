"""Do-not-disturb: pause desktop notifications for a round and always put them back.

Small adapters per notification server (:mod:`.adapters`), a record of the prior state
on disk (:mod:`.record`) and a controller that ties them together (:mod:`.controller`).
"""

from companion.core.dnd.base import Adapter, CommandResult, DndError, run_command
from companion.core.dnd.controller import (
    DndController,
    DndStatus,
    controller_for,
    detect,
    restore_after_crash,
    restore_on_quit,
)

__all__ = [
    "Adapter",
    "CommandResult",
    "DndController",
    "DndError",
    "DndStatus",
    "controller_for",
    "detect",
    "restore_after_crash",
    "restore_on_quit",
    "run_command",
]
