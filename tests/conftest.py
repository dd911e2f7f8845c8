"""Shared fixtures. Every test runs on a temporary data folder and headless Qt."""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Hypothesis profiles. "ci" (the default: `make test`, .ci/run) draws the same examples
# every run, so a submission fails for its own change or not at all; no example database
# (a case found on one machine must become an @example, not a file); no deadline, since
# wall-clock time on a loaded machine is luck (speed belongs to benchmarks/). "explore"
# (HYPOTHESIS_PROFILE=explore, `make test-explore`) draws at random, more of them, and
# keeps what it finds in .hypothesis/ to replay: each find becomes an @example.
# A test's own @settings(max_examples=...) is kept under either; the rest inherits.
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    derandomize=False,
    deadline=None,
    max_examples=1000,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")
os.environ.pop("COMPANION_HOME", None)

REAL_HOME = Path.home().resolve()
UI_TESTS = Path(__file__).resolve().parent / "ui"


# fixtures that start a real X session, compositor, audio server or package build: a
# test using one is a ``system`` test (``make test-fast`` leaves them out)
# hearing is the voice extra: without it (`pip install .` alone) the tests that hear are
# skipped, and every other test runs
VOICE_MISSING = (
    None
    if importlib.util.find_spec("pocketsphinx") is not None
    else "the voice extra is not installed: pip install '.[voice]'"
)

SYSTEM_FIXTURES = {"xsession", "mutter", "portal", "session_server", "server", "built"}
# module-scoped ones: the module's tests share one, so pytest-xdist (--dist loadgroup)
# keeps them on one worker instead of starting one per worker (the atheris smoke runs once
# per run under a lock: spread, a second worker sat blocked on it for its 12 s)
SHARED_FIXTURES = {"xsession", "built", "atheris_smoke"}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items):
    """Every test under tests/ui needs a QApplication: its folder marks it ``gui``, so
    ``-m "not gui"`` runs the core (qutebrowser marks by fixture; we mark by folder).
    A test using a system fixture is marked ``system``, and one using a module-scoped
    shared fixture joins its module's xdist group."""
    for item in items:
        if VOICE_MISSING and item.get_closest_marker("voice"):
            item.add_marker(pytest.mark.skip(reason=VOICE_MISSING))
        if Path(item.path).resolve().is_relative_to(UI_TESTS):
            item.add_marker(pytest.mark.gui)
        used = set(getattr(item, "fixturenames", ()))
        if used & SYSTEM_FIXTURES:
            item.add_marker(pytest.mark.system)
        if used & SHARED_FIXTURES:
            item.add_marker(pytest.mark.xdist_group(Path(item.path).stem))


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")  # after xdist
def pytest_collection_modifyitems_xdist_groups(config, items):
    """pytest-xdist 3.8 groups a test by renaming ``item._nodeid`` to end in ``@group``;
    pytest 9 reads the id from ``item._id``, so the rename did nothing and every group was
    spread over the workers (each ran its module's shared fixture again). On a worker of a
    ``--dist loadgroup`` run, the rename is made where pytest 9 reads it."""
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import coerce_node_id
    except ImportError:  # an older pytest, where xdist's rename works
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})  # fmt: skip
        if names and "@" not in item.nodeid.rpartition("]")[2]:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")


def pytest_collection_finish(session):
    """What collection made (the modules, the test items, hypothesis' strategies: hundreds
    of thousands of objects that live to the end) goes to the collector's permanent
    generation, so each later collection (the UI tests run one per test) does not scan
    them again. Objects the tests make are collected as before."""
    import gc

    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _home_tripwire(tmp_path_factory, monkeypatch):
    """Point HOME and the XDG folders at a scratch folder, and fail if the real data
    folder is ever resolved: no test may touch the user's own files."""
    fake_home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(fake_home))
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(var, str(fake_home / var.lower()))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(fake_home / "runtime"))
    # no test pops a notification on the session it runs in (or starts a daemon there):
    # the reminder tests that need a daemon start their own bus and dunst
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    (fake_home / "runtime").mkdir(mode=0o700)
    from companion.core import paths

    real_default = paths.default_data_dir

    def guarded() -> Path:
        path = real_default()
        if path.resolve().is_relative_to(REAL_HOME) and not path.resolve().is_relative_to(
            fake_home
        ):
            pytest.fail(f"test touched the real data folder {path}")
        return path

    monkeypatch.setattr(paths, "default_data_dir", guarded)
    yield


@pytest.fixture(autouse=True)
def _no_lesser_qt_application():
    """Fail the test that leaves a QCoreApplication or QGuiApplication behind: later
    tests on the same xdist worker need a QApplication, and Qt allows one per process
    (a command run in-process made one and broke every GUI test after it)."""
    yield
    core = sys.modules.get("PySide6.QtCore")
    if core is None:
        return
    app = core.QCoreApplication.instance()
    if app is not None and not app.inherits("QApplication"):
        pytest.fail(
            f"the test left a {type(app).__name__}: use the qapp fixture, or run the "
            "command in a process of its own"
        )


class FakeClock:
    """A controllable clock: aware local datetimes, advanced by hand."""

    def __init__(self, start: dt.datetime | None = None):
        self._now = start or dt.datetime(
            2026, 12, 1, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))
        )

    def now(self) -> dt.datetime:
        return self._now

    __call__ = now

    def advance(self, **delta) -> dt.datetime:
        self._now += dt.timedelta(**delta)
        return self._now

    def set(self, moment: dt.datetime) -> None:
        self._now = moment


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("COMPANION_HOME", str(folder))
    return folder


@pytest.fixture
def ctx(data_dir, clock):
    from companion.core.context import AppContext

    context = AppContext(data_dir, clock=clock)
    yield context
    context.close()


@pytest.fixture
def store(ctx):
    return ctx.store


@pytest.fixture
def db(store):
    return store.db


@pytest.fixture(scope="session")
def shipped_content():
    from companion.core.content.loader import load_content
    from companion.core.paths import shipped_content_dir

    content, errors = load_content([shipped_content_dir()])
    return content, errors


@pytest.fixture
def content(shipped_content):
    return shipped_content[0]


@pytest.fixture
def bus(qapp):
    """The app's bus: changes and requests between parts, no service on it."""
    from companion.ui.bus import AppBus

    return AppBus()


@pytest.fixture
def day_service(request, ctx, bus):
    """The session's one day service, wired as the session wires it (``day_service`` in
    companion/ui/day/service.py); its notifier records instead of showing. Handed to the
    pages and the card a test builds, as the application hands it to them, with the
    test's own do-not-disturb model (a ``dnd`` fixture: a stand-in desktop) if it has one."""
    from companion.ui.day.service import day_service as make

    dnd = request.getfixturevalue("dnd") if "dnd" in request.fixturenames else None
    made = make(ctx, bus, bus, fallback=lambda _t, _m: None, dnd=dnd)
    yield made
    # stopped here, its timer cannot wake in a later test and reopen a closed journal
    made.shutdown()


@pytest.fixture
def machine_zone(monkeypatch):
    """``machine_zone("America/New_York")`` runs the test as a machine in that zone (TZ and
    tzset); the zone is put back afterwards."""

    def use(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


def _decode_each_take_once(patch) -> dict:
    """Replace ``heard.hear`` (through ``patch``, a MonkeyPatch) by one that decodes each
    take once: the same take heard again with the same script (a JSON report, then the
    text one) gets the first decode's result, which the real decoder, deterministic,
    would give again after seconds more CPU. The dict it returns holds the decodes made."""
    import hashlib

    from companion.core.voice import heard

    real, done = heard.hear, {}

    def hear(samples, sample_rate, script, pack_ids=()):
        key = (
            hashlib.sha256(memoryview(samples).cast("B")).hexdigest(),
            sample_rate,
            repr(script),
            repr(pack_ids),
        )
        if key not in done:
            done[key] = real(samples, sample_rate, script, pack_ids)
        return done[key]

    # and where it is looked up: the rehearse command and the About page's recorder
    import companion.commands.rehearse as rehearse_command

    for module in (heard, rehearse_command, sys.modules.get("companion.ui.voice.take_recorder")):
        if module is not None:
            patch.setattr(module, "hear", hear)
    return done


@pytest.fixture
def hear_each_take_once(monkeypatch):
    return _decode_each_take_once(monkeypatch)


@pytest.fixture(scope="module")
def hear_each_take_once_in_module():
    """The same for a module's tests (on one worker: its xdist group)."""
    with pytest.MonkeyPatch.context() as patch:
        yield _decode_each_take_once(patch)
