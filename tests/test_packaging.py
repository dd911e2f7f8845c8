"""Packaging and desktop integration: the desktop entry, AppStream metainfo, icons,
the install script, and the wheel/sdist contents."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
import tarfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

import companion
from companion.ui.pages import PAGES

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
APP_ID = companion.APP_ID
DESKTOP = RESOURCES / f"{APP_ID}.desktop"
METAINFO = RESOURCES / f"{APP_ID}.metainfo.xml"
ICONS = RESOURCES / "icons"


def _icons_named_in_code() -> set[str]:
    """Literal names passed to companion.ui.icons.icon() anywhere in the package."""
    names: set[str] = set()
    for source in (ROOT / "companion").rglob("*.py"):
        names.update(re.findall(r'\bicon\(\s*"([\w.-]+)"\s*\)', source.read_text(encoding="utf-8")))
    return names


ICON_NAMES = sorted({"app", *(page.icon for page in PAGES), *_icons_named_in_code()})


def desktop_entry(path: Path = DESKTOP) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keys are case-sensitive in desktop files
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    kwargs.setdefault("timeout", 120)
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def app_identity() -> tuple[str, str]:
    """(applicationName, desktopFileName) as the real app factory sets them, in a child
    process so the test session's QApplication keeps its own name."""
    code = (
        "from companion.ui.app import create_application\n"
        "app = create_application(['companion'])\n"
        "print(app.applicationName()); print(app.desktopFileName())\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = run([sys.executable, "-c", code], env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    name, desktop_file_name = result.stdout.split()
    return name, desktop_file_name


# --- validators --------------------------------------------------------------------------


def validator(name: str, apt_package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (apt-get install {apt_package})")
    return path


@pytest.mark.system
def test_desktop_file_passes_desktop_file_validate():
    tool = validator("desktop-file-validate", "desktop-file-utils")
    result = run([tool, str(DESKTOP)])
    assert result.returncode == 0 and "error" not in result.stdout, result.stdout


@pytest.mark.system
def test_metainfo_passes_appstreamcli_validate():
    tool = validator("appstreamcli", "appstream")
    result = run([tool, "validate", "--no-net", str(METAINFO)])
    assert result.returncode == 0, result.stdout + result.stderr


# --- one application id everywhere -------------------------------------------------------


def test_app_id_is_the_same_everywhere():
    entry = desktop_entry()
    root = ET.parse(METAINFO).getroot()
    launchable = root.find("launchable")
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name == f"{APP_ID}.desktop"
    assert entry["Icon"] == APP_ID
    assert re.fullmatch(r"[a-z][a-z0-9]*(\.[A-Za-z0-9_]+){2,}", APP_ID)


def test_desktop_entry_has_the_required_keys():
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == companion.APP_NAME
    assert entry["Exec"] == "companion"  # the console script of pyproject.toml
    for key in ("Comment", "Categories", "Keywords", "StartupWMClass"):
        assert entry.get(key), f"{key} is missing from {DESKTOP.name}"


def test_startup_wm_class_and_desktop_file_name_match_the_app():
    # Qt's xcb backend sets WM_CLASS to (argv[0] basename, applicationName()); desktop
    # shells match StartupWMClass against the class part. On Wayland the app id is
    # desktopFileName().
    name, desktop_file_name = app_identity()
    assert desktop_entry()["StartupWMClass"] == name
    assert desktop_file_name == APP_ID


def test_metainfo_describes_the_current_release():
    root = ET.parse(METAINFO).getroot()
    releases = root.findall("releases/release")
    assert releases, "no <release> in the metainfo"
    assert releases[0].get("version") == companion.__version__
    assert root.findtext("project_license") == "MIT"
    assert root.find("content_rating") is not None
    assert root.findall("screenshots/screenshot/image")
    assert root.findtext("provides/binary") == "companion"


# --- icons -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ICON_NAMES)
def test_every_icon_named_by_the_code_exists(name):
    path = ICONS / f"{name}.svg"
    assert path.is_file(), f"{path} is missing"
    ET.parse(path)  # well-formed XML


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("name", [page.icon for page in PAGES])
def test_rail_icons_read_on_light_and_dark_palettes(name):
    # Qt's SVG renderer ignores currentColor, so the rail icons use one fixed mid-tone
    # that keeps the WCAG 3:1 contrast for graphics on a light and on a dark window.
    text = (ICONS / f"{name}.svg").read_text(encoding="utf-8")
    assert "currentColor" not in text
    colours = set(re.findall(r'(?:stroke|fill)="(#[0-9a-fA-F]{6})"', text))
    assert colours, f"{name}.svg names no colour"
    for colour in colours:
        assert _contrast(colour, "#ffffff") >= 3, f"{name}.svg: {colour} is faint on light"
        assert _contrast(colour, "#1e1e1e") >= 3, f"{name}.svg: {colour} is faint on dark"


@pytest.mark.gui
@pytest.mark.parametrize("name", ICON_NAMES)
def test_qt_renders_every_icon(qapp, name):
    from PySide6.QtGui import QIcon

    from companion.ui.icons import icon

    pixmap = QIcon(str(ICONS / f"{name}.svg")).pixmap(64)
    assert not pixmap.isNull(), "Qt could not render the SVG (is the qsvg plugin there?)"
    image = pixmap.toImage()
    opaque = sum(
        image.pixelColor(x, y).alpha() > 0 for x in range(0, 64, 4) for y in range(0, 64, 4)
    )
    assert opaque > 10, f"{name}.svg renders blank"
    assert not icon(name).isNull()


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def test_render_icons_writes_every_hicolor_size(tmp_path):
    out = tmp_path / "icons"
    result = run(
        [
            sys.executable,
            str(ROOT / "packaging" / "render_icons.py"),
            str(ICONS / "app.svg"),
            str(out),
            "--name",
            APP_ID,
        ],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, result.stderr
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        png = out / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert _png_size(png) == (size, size)


def test_render_icons_reports_a_bad_svg(tmp_path):
    bad = tmp_path / "bad.svg"
    bad.write_text("<svg", encoding="utf-8")
    result = run(
        [
            sys.executable,
            str(ROOT / "packaging" / "render_icons.py"),
            str(bad),
            str(tmp_path / "out"),
        ],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode != 0
    assert "bad.svg" in result.stderr and "Traceback" not in result.stderr


# --- the install script ------------------------------------------------------------------


@pytest.fixture
def share_tree(tmp_path) -> Path:
    icons = tmp_path / "png"
    run(
        [
            sys.executable,
            str(ROOT / "packaging" / "render_icons.py"),
            str(ICONS / "app.svg"),
            str(icons),
            "--name",
            APP_ID,
            "--sizes",
            "16",
            "48",
        ],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=True,
    )
    share = tmp_path / "share"
    run(["bash", str(ROOT / "packaging" / "stage-share.sh"), str(share), str(icons)], check=True)
    return share


def test_install_desktop_puts_files_at_xdg_locations_and_uninstall_removes_them(
    share_tree, tmp_path
):
    data_home = tmp_path / "xdg-data"
    exe = tmp_path / "my apps" / "companion"  # a space, as in many home folders
    env = {
        **os.environ,
        "SHARE_SRC": str(share_tree),
        "XDG_DATA_HOME": str(data_home),
        "EXEC": str(exe),
    }
    env.pop("PREFIX", None)
    env.pop("DESTDIR", None)
    script = str(ROOT / "packaging" / "install-desktop.sh")
    result = run(["bash", script, "install"], env=env)
    assert result.returncode == 0, result.stderr
    desktop = data_home / "applications" / f"{APP_ID}.desktop"
    expected = [
        desktop,
        data_home / "metainfo" / f"{APP_ID}.metainfo.xml",
        data_home / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg",
        data_home / "icons/hicolor/16x16/apps" / f"{APP_ID}.png",
        data_home / "icons/hicolor/48x48/apps" / f"{APP_ID}.png",
    ]
    for path in expected:
        assert path.is_file(), f"{path} was not installed"
    entry = desktop_entry(desktop)
    assert entry["Exec"] == f'"{exe}"'
    assert entry["TryExec"] == str(exe)
    if shutil.which("desktop-file-validate"):
        check = run(["desktop-file-validate", str(desktop)])
        assert check.returncode == 0, check.stdout

    result = run(["bash", script, "uninstall"], env=env)
    assert result.returncode == 0, result.stderr
    assert not [p for p in expected if p.exists()]


def test_install_desktop_honours_destdir_and_prefix(share_tree, tmp_path):
    stage = tmp_path / "stage"
    env = {**os.environ, "SHARE_SRC": str(share_tree), "DESTDIR": str(stage), "PREFIX": "/usr"}
    env.pop("EXEC", None)
    result = run(["bash", str(ROOT / "packaging" / "install-desktop.sh")], env=env)
    assert result.returncode == 0, result.stderr
    desktop = stage / "usr/share/applications" / f"{APP_ID}.desktop"
    assert desktop_entry(desktop)["Exec"] == "companion"
    assert (stage / "usr/share/metainfo" / f"{APP_ID}.metainfo.xml").is_file()


def test_install_desktop_refuses_an_exec_it_cannot_quote(share_tree, tmp_path):
    env = {
        **os.environ,
        "SHARE_SRC": str(share_tree),
        "XDG_DATA_HOME": str(tmp_path / "xdg"),
        "EXEC": "/opt/$HOME/companion",
    }
    result = run(["bash", str(ROOT / "packaging" / "install-desktop.sh")], env=env)
    assert result.returncode != 0
    assert "EXEC" in result.stderr
    assert not (tmp_path / "xdg" / "applications").exists()


def test_shell_scripts_parse():
    for script in sorted((ROOT / "packaging").glob("*.sh")):
        result = run(["bash", "-n", str(script)])
        assert result.returncode == 0, f"{script.name}: {result.stderr}"


# --- the frozen bundle layout ------------------------------------------------------------


def test_frozen_app_finds_content_and_resources_in_meipass(tmp_path, monkeypatch):
    from companion.core import paths

    (tmp_path / "content").mkdir()
    (tmp_path / "resources").mkdir()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.shipped_content_dir() == tmp_path / "content"
    assert paths.resources_dir() == tmp_path / "resources"
    spec = (ROOT / "packaging" / "companion.spec").read_text(encoding="utf-8")
    assert '"content"), "content")' in spec and '"resources"), "resources")' in spec


# --- wheel and sdist ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    result = run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], timeout=600)
    if result.returncode != 0:
        pytest.fail(f"python -m build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def _shipped_files(folder: str) -> list[str]:
    return sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


@pytest.mark.slow
def test_wheel_and_sdist_contain_content_and_resources(built):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = set(wheel.namelist())
    with tarfile.open(built["sdist"]) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        sdist_names = {n.removeprefix(f"{top}/") for n in sdist.getnames()}
    for folder in ("content", "resources"):
        files = _shipped_files(folder)
        assert files, f"{folder}/ is empty in the source tree"
        for rel in files:
            assert f"companion/_data/{rel}" in names, f"{rel} is missing from the wheel"
            assert rel in sdist_names, f"{rel} is missing from the sdist"
    # the demo generator makes test data: benchmarks/ and the sdist, never the app
    assert not [n for n in names if n.startswith("companion/") and "demo" in n.rsplit("/", 1)[-1]]
    assert "benchmarks/demo_journal.py" in sdist_names
    for doc in ("README.md", "DEVELOPERS.md", *_shipped_files("docs")):
        assert doc in sdist_names, f"{doc} is missing from the sdist (the README links it)"


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_runs(built, tmp_path):
    venv = tmp_path / "venv"
    # no pip of its own (ensurepip cost seconds of CPU): the test's pip installs into it
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    vpy = venv / "bin" / "python"
    result = run(
        [sys.executable, "-m", "pip", "--python", str(vpy), "install", "--quiet", "--no-deps",
         str(built["wheel"])],
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # The dependencies come from the test interpreter's environment instead of a new
    # download of PySide6; added after the install so pip never sees that environment.
    site = Path(
        run(
            [str(vpy), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
        ).stdout.strip()
    )
    (site / "_deps_from_test_env.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )

    away = tmp_path / "elsewhere"  # outside the repository: the source tree can't be picked up
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(QT_QPA_PLATFORM="offscreen", COMPANION_HOME=str(tmp_path / "data"))
    exe = str(venv / "bin" / "companion")

    version = run([exe, "--version"], cwd=away, env=env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"companion {companion.__version__}"

    where = run(
        [
            str(vpy),
            "-c",
            "import companion; from companion.core import paths; "
            "print(companion.__file__); print(paths.shipped_content_dir()); print(paths.resources_dir())",
        ],
        cwd=away,
        env=env,
    )
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert Path(line).resolve().is_relative_to(site.resolve()), f"{line} is not from the wheel"

    check = run([exe, "content", "check"], cwd=away, env=env)
    assert check.returncode == 0, check.stdout + check.stderr


X11_PROBE = r"""
"$@" >"$LOG" 2>&1 &
pid=$!
for _ in $(seq 1 150); do
    line=$(xwininfo -root -tree 2>/dev/null | grep -F "$TITLE" | grep -F '("' | head -n1)
    [ -n "$line" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
echo "$line"
"""


@pytest.mark.system
@pytest.mark.slow
def test_real_x11_window_has_the_startup_wm_class(tmp_path):
    for tool, package in (("xvfb-run", "xvfb"), ("xwininfo", "x11-utils")):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (apt-get install {package})")
    script = Path(sys.executable).parent / "companion"
    cmd = [str(script)] if script.is_file() else [sys.executable, "-m", "companion"]
    log = tmp_path / "app.log"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env.update(COMPANION_HOME=str(tmp_path / "data"), LOG=str(log), TITLE=companion.APP_NAME)
    for _attempt in range(3):
        result = run(
            ["xvfb-run", "-a", "bash", "-c", X11_PROBE, "probe", *cmd], env=env, timeout=60
        )
        output = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        # two xvfb-run -a at once (parallel workers) can pick the same display, and one
        # server never starts: that is a retry, not a machine without the X11 libraries
        if "could not connect to display" not in output:
            break
    if "could not connect to display" in output:
        pytest.skip(f"xvfb-run's X server did not start, three times: {output[:300]}")
    if "Could not load the Qt platform plugin" in output:
        pytest.skip(f"Qt's xcb plugin cannot load here (missing X11 libraries): {output[:300]}")
    match = re.search(r'\("([^"]*)" "([^"]*)"\)', result.stdout)
    assert match, f"no app window appeared under Xvfb: {result.stdout}{result.stderr}{output}"
    assert match.group(2) == desktop_entry()["StartupWMClass"]


@pytest.mark.system
@pytest.mark.parametrize(
    "argv",
    [["package"], ["install-desktop"], ["-f", "packaging/package.mk", "package"]],
)
def test_packaging_targets_create_the_venv_on_a_fresh_clone(tmp_path, argv):
    """`make package` / `make install-desktop` used to fail with `.venv/bin/python: not
    found` on a fresh clone; they now make the venv first, like `make run`."""
    import shutil
    import subprocess

    if shutil.which("make") is None:
        pytest.skip("no make")
    repo = Path(__file__).resolve().parents[1]
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(repo / name, clone / name)
    shutil.copytree(repo / "packaging", clone / "packaging")
    shutil.copytree(repo / "resources", clone / "resources")
    plan = subprocess.run(
        ["make", "-n", *argv], cwd=clone, capture_output=True, text=True, timeout=60
    )
    assert plan.returncode == 0, plan.stderr
    lines = plan.stdout.splitlines()
    make_venv = next(n for n, line in enumerate(lines) if "-m venv .venv" in line)
    first_use = next(n for n, line in enumerate(lines) if "render_icons.py" in line)
    assert make_venv < first_use
