from pathlib import Path

from companion.core.last_folder import KEY, remember, start_folder
from companion.core.settings import Settings
from companion.core.storage.store import open_memory_store


def test_the_last_folder_chosen_is_where_the_next_dialog_opens(tmp_path):
    settings = Settings(open_memory_store().db)
    home = tmp_path / "home"
    assert start_folder(settings, home) == home
    (tmp_path / "exports").mkdir()
    remember(settings, tmp_path / "exports" / "about-me.pdf")
    assert start_folder(settings, home) == tmp_path / "exports"


def test_a_folder_since_removed_or_a_bad_value_falls_back(tmp_path):
    home = tmp_path / "home"
    settings = Settings(open_memory_store().db)
    for saved in (str(tmp_path / "gone"), "relative/dir", "a\0b", 42, ""):
        settings.set(KEY, saved)
        assert start_folder(settings, home) == home
    assert start_folder(None, home) == home
    remember(None, Path("/x/y"))  # no settings: nothing to keep, no error
