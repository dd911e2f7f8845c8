from pathlib import Path

from companion.core.last_folder import KEY, remember, start_folder


class Prefs(dict):
    def set(self, key, value):
        self[key] = value


def test_the_last_folder_chosen_is_where_the_next_dialog_opens(tmp_path):
    prefs = Prefs()
    home = tmp_path / "home"
    assert start_folder(prefs, home) == home
    (tmp_path / "exports").mkdir()
    remember(prefs, tmp_path / "exports" / "about-me.pdf")
    assert start_folder(prefs, home) == tmp_path / "exports"


def test_a_folder_since_removed_or_a_bad_value_falls_back(tmp_path):
    home = tmp_path / "home"
    for saved in (str(tmp_path / "gone"), "relative/dir", "a\0b", 42, ""):
        assert start_folder(Prefs({KEY: saved}), home) == home
    assert start_folder(None, home) == home
    remember(None, Path("/x/y"))  # no prefs: nothing to keep, no error
