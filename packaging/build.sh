#!/usr/bin/env bash
# Build the one-folder bundle dist/companion/ (and, unless --no-tarball, the tarball
# dist/interview-companion-<version>-<os>-<arch>.tar.gz). Run from anywhere.
# Environment: PY (the venv's python, default .venv/bin/python), DIST (default dist),
# BUILD (default build). PyInstaller is installed into that venv if it is missing.
set -euo pipefail

APP_ID=io.github.interviewcompanion.Companion
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
DIST=${DIST:-dist}
BUILD=${BUILD:-build}
tarball=1
[[ ${1:-} == --no-tarball ]] && tarball=0

if [[ ! -x $PY ]]; then
    echo "build.sh: no Python at $PY (create the venv first: make venv, or set PY)" >&2
    exit 1
fi
version=$("$PY" -c 'import re,pathlib; print(re.search(r"__version__ = \"([^\"]+)\"", pathlib.Path("companion/__init__.py").read_text()).group(1))')
os_name=$(uname -s | tr '[:upper:]' '[:lower:]')
arch=$(uname -m)

if ! "$PY" -m PyInstaller --version >/dev/null 2>&1; then
    echo "build.sh: installing PyInstaller into $("$PY" -c 'import sys; print(sys.prefix)')"
    "$PY" -m pip install --quiet "pyinstaller>=6.10"
fi

# hearing is an optional extra of the package, but the bundle ships it (the voice extra)
if ! "$PY" -c 'import pocketsphinx' >/dev/null 2>&1; then
    echo "build.sh: installing the voice extra (pocketsphinx) into $("$PY" -c 'import sys; print(sys.prefix)')"
    "$PY" -m pip install --quiet "$(grep -o 'pocketsphinx==[0-9.]*' pyproject.toml)"
fi

start=$(date +%s)
if ! ls "$BUILD"/icons/*x*/apps/"$APP_ID".png >/dev/null 2>&1; then
    QT_QPA_PLATFORM=offscreen "$PY" packaging/render_icons.py resources/icons/app.svg \
        "$BUILD/icons" --name "$APP_ID" >/dev/null
fi
bash packaging/stage-share.sh "$BUILD/share" "$BUILD/icons"

"$PY" -m PyInstaller --noconfirm --log-level WARN \
    --distpath "$DIST" --workpath "$BUILD/pyinstaller" packaging/companion.spec

bundle=$DIST/companion
cp -r "$BUILD/share" "$bundle/share"
install -m755 packaging/install-desktop.sh "$bundle/install-desktop.sh"
echo "$version" >"$bundle/VERSION"

echo "bundle: $bundle ($(du -sh "$bundle" | cut -f1), built in $(($(date +%s) - start)) s)"
if ((tarball)); then
    name=interview-companion-$version-$os_name-$arch
    tar -C "$DIST" --transform "s,^companion,$name," -czf "$DIST/$name.tar.gz" companion
    echo "tarball: $DIST/$name.tar.gz ($(du -h "$DIST/$name.tar.gz" | cut -f1))"
fi
