"""Do-not-disturb is handed down like the day (#66 item 3): the session's day service holds
the one model, and the pages that show it use that one, whichever opens first; none of
them fetches or builds its own."""

from __future__ import annotations

from companion.core.dnd.adapters import ManualAdapter
from companion.core.dnd.controller import DndController
from companion.core.dnd.record import record_path


def test_the_pages_use_the_day_services_model(qtbot, ctx, bus, clock):
    from PySide6.QtWidgets import QApplication

    from companion.ui.checklist.page import ChecklistPage
    from companion.ui.day.service import day_service
    from companion.ui.dnd.switch import DndModel
    from companion.ui.today.page import TodayPage

    holder = QApplication.instance()  # not under the bus: no look-up finds it there
    controller = DndController(ManualAdapter("By hand."), record_path(ctx.data_dir), clock=clock)
    model = DndModel(ctx, bus, holder, controller=controller)
    day = day_service(ctx, bus, bus, fallback=lambda _t, _m: None, dnd=model)
    try:
        checklist = ChecklistPage(ctx, bus, day=day)  # opened first
        qtbot.addWidget(checklist)
        checklist.show()
        qtbot.waitUntil(lambda: checklist._built)
        today = TodayPage(ctx, bus, day=day)
        qtbot.addWidget(today)
        today.show()
        today.on_shown()
        assert today.dnd is model
        assert today.dnd_switch.model is model
        assert {group.dnd for group in checklist.groups.values()} == {model}
        assert bus.findChildren(DndModel) == []  # no page made a second one
    finally:
        day.shutdown()
