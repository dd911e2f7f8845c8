#!/usr/bin/env bash
# CI: build the one-folder bundle and prove it starts without Python: run its --version and
# --self-test with an empty environment (no venv, no PYTHON* variables, a minimal PATH).
# Usage: bash packaging/ci-bundle-check.sh   (PY, DIST, BUILD as for packaging/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${DIST:-dist}
start=$(date +%s)
PY=${PY:-.venv/bin/python} DIST=$DIST BUILD=${BUILD:-build} bash packaging/build.sh --no-tarball
exe=$DIST/companion/companion
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT

run_bare() {
    env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
        COMPANION_HOME="$home/data" "$exe" "$@"
}

for plugin in imageformats/libqsvg.so platforms/libqoffscreen.so platforms/libqxcb.so; do
    if [[ ! -f $DIST/companion/_internal/PySide6/Qt/plugins/$plugin ]]; then
        echo "ci-bundle-check: the bundle lacks the Qt plugin $plugin" >&2
        exit 1
    fi
done
if [[ ! -f $DIST/companion/_internal/pocketsphinx/model/en-us/cmudict-en-us.dict ]]; then
    echo "ci-bundle-check: the bundle lacks pocketsphinx's en-us model" >&2
    exit 1
fi
for folder in content resources; do
    if [[ ! -d $DIST/companion/_internal/$folder ]]; then
        echo "ci-bundle-check: the bundle lacks $folder/" >&2
        exit 1
    fi
done
version=$(run_bare --version)
expected="companion $(sed -n 's/^__version__ = "\(.*\)"/\1/p' companion/__init__.py)"
if [[ $version != "$expected" ]]; then
    echo "ci-bundle-check: --version said '$version', expected '$expected'" >&2
    exit 1
fi
run_bare --self-test
run_bare content check >/dev/null
echo "ci-bundle-check: ok ($version, $(du -sh "$DIST/companion" | cut -f1), $(($(date +%s) - start)) s)"
