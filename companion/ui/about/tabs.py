"""About me's two documents as tabs: the one-pager, and the story bank (About me ->
Stories), built the first time its tab is chosen."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QTabWidget, QWidget

STORIES_TAB = 1


class AboutTabs(QTabWidget):
    """While the story bank shows, the one-pager's ``actions`` rest: their shortcuts
    (Ctrl+S, Ctrl+E, ...) would be ambiguous with the story bank's own."""

    def __init__(
        self,
        one_pager: QWidget,
        make_stories: Callable[[], QWidget],
        *,
        actions: Callable[[], Iterable[QAction]],
        leaving_one_pager: Callable[[], None],
        back_to_one_pager: Callable[[], None],
    ):
        super().__init__()
        self.stories: QWidget | None = None  # the StoriesPage, once built
        self._make_stories = make_stories
        self._actions = actions
        self._leaving_one_pager = leaving_one_pager
        self._back_to_one_pager = back_to_one_pager
        self._paused_actions: dict[QAction, bool] = {}
        self.setAccessibleName("About me documents")
        self.setDocumentMode(True)
        self.tabBar().setAccessibleName("One-pager or stories")
        self.addTab(one_pager, "&One-pager")
        self.addTab(QWidget(), "&Stories")
        self.currentChanged.connect(self._changed)

    def show_stories(self) -> None:
        self.setCurrentIndex(STORIES_TAB)

    def _changed(self, index: int) -> None:
        if index == STORIES_TAB and self.stories is None:
            self.stories = self._make_stories()
            self.blockSignals(True)
            self.removeTab(STORIES_TAB)
            self.insertTab(STORIES_TAB, self.stories, "&Stories")
            self.setCurrentIndex(STORIES_TAB)
            self.blockSignals(False)
        if index == STORIES_TAB and not self._paused_actions:
            self._paused_actions = {a: a.isEnabled() for a in self._actions()}
            for action in self._paused_actions:
                action.setEnabled(False)
        elif index == 0 and self._paused_actions:
            for action, enabled in self._paused_actions.items():
                action.setEnabled(enabled)
            self._paused_actions = {}
        if index == STORIES_TAB:
            self._leaving_one_pager()
            self.stories.on_shown()
        else:
            self._back_to_one_pager()

    def on_shown(self) -> None:
        if self.stories is not None and self.currentIndex() == STORIES_TAB:
            self.stories.on_shown()
        else:
            self._back_to_one_pager()

    def shutdown(self) -> None:
        if self.stories is not None:
            self.stories.shutdown()
