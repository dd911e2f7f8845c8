#!/usr/bin/env bash
# Lay out the desktop-integration files as a share/ tree:
#   OUT/applications/<APP_ID>.desktop
#   OUT/metainfo/<APP_ID>.metainfo.xml
#   OUT/icons/hicolor/scalable/apps/<APP_ID>.svg
#   OUT/icons/hicolor/<N>x<N>/apps/<APP_ID>.png   (from ICONS, made by render_icons.py)
# Usage: packaging/stage-share.sh OUT ICONS   (run from the repository root)
set -euo pipefail
APP_ID=io.github.interviewcompanion.Companion
out=${1:?usage: stage-share.sh OUT ICONS}
icons=${2:?usage: stage-share.sh OUT ICONS}
here=$(cd "$(dirname "$0")/.." && pwd)
res=$here/resources
if ! ls "$icons"/*x*/apps/"$APP_ID".png >/dev/null 2>&1; then
    echo "stage-share: no PNG icons under $icons (run 'make icons' first)" >&2
    exit 1
fi
rm -rf "$out"
install -Dm644 "$res/$APP_ID.desktop" "$out/applications/$APP_ID.desktop"
install -Dm644 "$res/$APP_ID.metainfo.xml" "$out/metainfo/$APP_ID.metainfo.xml"
install -Dm644 "$res/icons/app.svg" "$out/icons/hicolor/scalable/apps/$APP_ID.svg"
for png in "$icons"/*x*/apps/"$APP_ID".png; do
    size=$(basename "$(dirname "$(dirname "$png")")")
    install -Dm644 "$png" "$out/icons/hicolor/$size/apps/$APP_ID.png"
done
