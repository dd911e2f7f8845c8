"""One home per setting (issue 66): every ``prefs``/``settings`` ``.get``/``.set`` in
companion/ with a literal or constant key names a declared key, in its declared store,
and only its declared writer sets it; the stores themselves refuse a key from elsewhere;
a key that moved to the database is carried over from an older prefs.json once."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from companion.core import setting_homes as homes
from companion.core.context import AppContext
from companion.core.prefs import Prefs
from companion.core.settings import Settings, adopt_from_prefs
from companion.core.storage.store import open_memory_store

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
STORES = {"prefs": homes.PREFS, "_prefs": homes.PREFS}
STORES |= {"settings": homes.DATABASE, "_settings": homes.DATABASE}


# --------------------------------------------------------------------------- the scan


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class _Module:
    """A module's string constants and what its imported names stand for."""

    def __init__(self, name: str, tree: ast.Module):
        self.name = name
        self.tree = tree
        self.constants: dict[str, str] = {}
        self.imported: dict[str, str] = {}  # local name -> dotted name (module or module.NAME)
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.constants[target.id] = value.value
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imported[alias.asname] = alias.name


def _modules(sources: dict[str, str]) -> dict[str, _Module]:
    return {name: _Module(name, ast.parse(text)) for name, text in sources.items()}


def _constant(modules: dict[str, _Module], dotted: str) -> str | None:
    module, _, name = dotted.rpartition(".")
    found = modules.get(module)
    if found is None:
        return None
    if name in found.constants:
        return found.constants[name]
    if name in found.imported:  # a constant imported on: follow it
        return _constant(modules, found.imported[name])
    return None


def _key(modules: dict[str, _Module], here: _Module, node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in here.constants:
            return here.constants[node.id]
        if node.id in here.imported:
            return _constant(modules, here.imported[node.id])
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        module = here.imported.get(node.value.id)
        if module is not None:
            return _constant(modules, f"{module}.{node.attr}")
    return None


def _receiver(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):  # Settings(db).get
        return {"Settings": "settings", "Prefs": "prefs"}.get(node.func.id)
    return None


def uses(sources: dict[str, str]) -> list[tuple[str, int, str, str, str]]:
    """(module, line, store, "get"/"set", key) of every settings call with a key the
    AST names (a literal, or a constant here or imported)."""
    modules = _modules(sources)
    found = []
    for module in modules.values():
        for node in ast.walk(module.tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("get", "set", "keep") or not node.args:
                continue
            store = STORES.get(_receiver(node.func.value) or "")
            key = _key(modules, module, node.args[0])
            if store and key is not None:
                op = "get" if node.func.attr == "get" else "set"  # keep: a set that says why not
                found.append((module.name, node.lineno, store, op, key))
    return found


def problems(sources: dict[str, str]) -> list[str]:
    out = []
    for module, line, store, op, key in uses(sources):
        where = f"{module}:{line}"
        setting = homes.declared(key)
        if setting is None:
            out.append(f"{where}: {key!r} is not declared in core/setting_homes.py")
        elif setting.home != store:
            out.append(f"{where}: {key!r} lives in the {setting.home}, used in the {store}")
        elif op == "set" and module != setting.writer:
            out.append(f"{where}: {key!r} is written by {setting.writer}, not here")
    return out


def _package_sources() -> dict[str, str]:
    return {_module_name(p): p.read_text() for p in sorted(PACKAGE.rglob("*.py"))}


# --------------------------------------------------------------------------- the tests


def test_every_settings_call_in_the_app_uses_a_declared_key_in_its_home_from_its_writer():
    assert problems(_package_sources()) == []


def test_the_scan_sees_every_declared_setting_written_by_its_writer_and_none_by_hand():
    written = {(key, module) for module, _l, _s, op, key in uses(_package_sources()) if op == "set"}
    read = {key for _m, _l, _s, op, key in uses(_package_sources()) if op == "get"}
    for setting in homes.SETTINGS:
        if setting.writer == homes.BY_HAND:
            assert setting.key in read and not any(k == setting.key for k, _ in written)
        elif not setting.family:  # a family's keys are made by a function (draft_key)
            assert (setting.key, setting.writer) in written, setting.key


def test_the_scan_catches_an_undeclared_key_a_wrong_store_and_a_second_writer():
    sources = {
        "companion.core.a": 'KEY = "cue.state"\n',
        "companion.ui.b": (
            "from companion.core.a import KEY\n"
            "import companion.core.a as a\n"
            "def f(ctx, prefs):\n"
            '    ctx.settings.set("no.such.key", 1)\n'
            '    prefs.get("cue.geometry")\n'
            "    ctx.settings.set(KEY, {})\n"
            "    ctx.settings.get(a.KEY)\n"
        ),
    }
    assert problems(sources) == [
        "companion.ui.b:4: 'no.such.key' is not declared in core/setting_homes.py",
        "companion.ui.b:5: 'cue.geometry' lives in the database, used in the prefs.json",
        "companion.ui.b:6: 'cue.state' is written by companion.core.cue.state, not here",
    ]


def test_the_stores_refuse_a_key_from_elsewhere_or_nowhere(tmp_path):
    prefs = Prefs(tmp_path / "prefs.json")
    settings = Settings(open_memory_store().db)
    with pytest.raises(homes.SettingHomeError, match="lives in the database"):
        prefs.set("cue.state", {})
    with pytest.raises(homes.SettingHomeError, match="lives in the prefs.json"):
        settings.set("main.page", "today")
    with pytest.raises(homes.SettingHomeError, match="not declared"):
        settings.get("main.pagee")
    prefs.set("main.page", "study")
    settings.set("cue.geometry", {"last|card": [1, 2, 3, 4]})
    assert prefs.get("main.page") == "study"
    assert settings.get("cue.geometry") == {"last|card": [1, 2, 3, 4]}


def test_a_family_key_is_declared_by_its_family_only():
    assert homes.declared("capture.draft.7") is homes.BY_KEY["capture.draft"]
    assert homes.declared("main.page.7") is None
    assert homes.declared("capture.draft.") is None


# --------------------------------------------------------------------------- the move


def _moved_key() -> str:
    """A key older versions kept in prefs.json that lives in the database now."""
    assert homes.declared("voice.follow_pitch").home == homes.DATABASE
    return "voice.follow_pitch"


def test_a_setting_an_older_version_kept_in_prefs_moves_into_the_database_once(tmp_path):
    draft = {"notes": "asked about on-call"}
    older = {"main.page": "study", _moved_key(): True, "capture.draft.7": draft}
    (tmp_path / "prefs.json").write_text(json.dumps(older))
    ctx = AppContext(tmp_path)
    assert ctx.settings.get(_moved_key()) is True
    assert ctx.settings.get("capture.draft.7") == draft  # a family's key too
    on_disk = json.loads((tmp_path / "prefs.json").read_text())
    assert on_disk == {"main.page": "study"}  # gone from the file, the rest kept
    ctx.close()
    again = AppContext(tmp_path)  # and the next start finds it where it went
    assert again.settings.get(_moved_key()) is True
    again.close()


def test_a_stale_copy_in_prefs_never_overwrites_the_databases_value(tmp_path):
    settings = Settings(open_memory_store().db)
    settings.set(_moved_key(), False)
    (tmp_path / "prefs.json").write_text(json.dumps({_moved_key(): True}))
    prefs = Prefs(tmp_path / "prefs.json")
    assert adopt_from_prefs(settings, prefs) == [_moved_key()]
    assert settings.get(_moved_key()) is False
    assert json.loads((tmp_path / "prefs.json").read_text()) == {}


def test_a_read_only_journal_leaves_prefs_as_they_are(tmp_path):
    first = AppContext(tmp_path)
    first.store  # noqa: B018 - a journal to open read-only
    first.close()
    text = json.dumps({_moved_key(): True})
    (tmp_path / "prefs.json").write_text(text)
    ctx = AppContext(tmp_path)
    ctx.use_read_only_store()
    ctx.store  # noqa: B018 - opened
    assert (tmp_path / "prefs.json").read_text() == text
    ctx.close()


def test_a_refused_write_is_one_line_and_changes_nothing(tmp_path):
    first = AppContext(tmp_path)
    first.store  # noqa: B018 - a journal
    first.close()
    ctx = AppContext(tmp_path)
    ctx.use_read_only_store()  # as an export opens it: every write refused
    problem = ctx.settings.keep(_moved_key(), True)
    assert problem and "\n" not in problem and "Traceback" not in problem
    assert ctx.settings.get(_moved_key()) is None
    ctx.close()
