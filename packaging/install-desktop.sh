#!/usr/bin/env bash
# Install (or remove) the menu entry, icons and AppStream metainfo of Interview Companion
# for the current user, at the XDG locations.
#
# Usage: install-desktop.sh [install|uninstall]
# Environment:
#   SHARE_SRC  the share/ tree to install from (default: share/ beside this script, as in
#              the bundle; `make install-desktop` stages one in build/share)
#   EXEC       the program the menu entry starts (default: the bundle's `companion` beside
#              this script, else `companion` from PATH)
#   PREFIX     install under PREFIX/share (and link the bundle's program as PREFIX/bin/companion)
#              instead of ${XDG_DATA_HOME:-~/.local/share} and ~/.local/bin
#   DESTDIR    stage everything under DESTDIR (packagers, tests); desktop caches are left alone
set -euo pipefail

APP_ID=io.github.interviewcompanion.Companion
action=${1:-install}
here=$(cd "$(dirname "$0")" && pwd)
src=${SHARE_SRC:-$here/share}
if [[ -n ${PREFIX:-} ]]; then
    datadir=$PREFIX/share
    bindir=$PREFIX/bin
else
    datadir=${XDG_DATA_HOME:-$HOME/.local/share}
    bindir=$HOME/.local/bin
fi
dest=${DESTDIR:-}
root=$dest$datadir
bundle_exe=""
if [[ -f $here/companion && -x $here/companion && -d $here/_internal ]]; then
    bundle_exe=$here/companion
fi

refresh_caches() {
    [[ -n $dest ]] && return 0
    if command -v update-desktop-database >/dev/null; then
        update-desktop-database -q "$root/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null && [[ -f $root/icons/hicolor/index.theme ]]; then
        gtk-update-icon-cache -q -t -f "$root/icons/hicolor" 2>/dev/null || true
    fi
    touch "$root/icons/hicolor" 2>/dev/null || true
}

do_install() {
    if [[ ! -f $src/applications/$APP_ID.desktop ]]; then
        echo "install-desktop: $src/applications/$APP_ID.desktop is missing" \
            "(run 'make install-desktop' from the source tree, or this script from the bundle)" >&2
        exit 1
    fi
    local exec=${EXEC:-${bundle_exe:-companion}}
    case $exec in
        *[\"\`\$\\]* | *$'\n'*)
            echo "install-desktop: EXEC must not contain quotes, backquotes, \$ or backslashes: $exec" >&2
            exit 1
            ;;
    esac
    install -d "$root/applications" "$root/metainfo"
    # The shipped entry says Exec=companion; point it at the real program when we know it.
    awk -v exec="$exec" '
        /^Exec=/    { print (exec == "companion" ? $0 : "Exec=\"" exec "\""); next }
        /^TryExec=/ { print "TryExec=" exec; next }
        { print }
    ' "$src/applications/$APP_ID.desktop" >"$root/applications/$APP_ID.desktop"
    chmod 644 "$root/applications/$APP_ID.desktop"
    install -m644 "$src/metainfo/$APP_ID.metainfo.xml" "$root/metainfo/$APP_ID.metainfo.xml"
    local icon rel
    while IFS= read -r icon; do
        rel=${icon#"$src/"}
        install -Dm644 "$icon" "$root/$rel"
    done < <(find "$src/icons" -type f -name "$APP_ID.*")
    echo "installed $root/applications/$APP_ID.desktop (Exec: $exec)"
    echo "installed $root/metainfo/$APP_ID.metainfo.xml"
    echo "installed icons under $root/icons/hicolor"
    if [[ -n $bundle_exe && -z ${EXEC:-} ]]; then
        local link=$dest$bindir/companion
        if [[ -e $link && ! -L $link ]]; then
            echo "install-desktop: $link exists and is not a link; left it alone" >&2
        else
            install -d "$dest$bindir"
            ln -sfn "$bundle_exe" "$link"
            echo "linked $link -> $bundle_exe"
        fi
    fi
    refresh_caches
}

do_uninstall() {
    rm -f "$root/applications/$APP_ID.desktop" "$root/metainfo/$APP_ID.metainfo.xml"
    rm -f "$root"/icons/hicolor/*/apps/"$APP_ID".png "$root"/icons/hicolor/*/apps/"$APP_ID".svg
    local link=$dest$bindir/companion
    # Remove the link only when it points into a bundle (a folder with _internal/), or at a
    # bundle's companion that is gone.
    local target
    target=$(readlink "$link" 2>/dev/null || true)
    if [[ -L $link && (-d $(dirname "$target")/_internal || (! -e $link && $target == */companion)) ]]; then
        rm -f "$link"
        echo "removed $link"
    fi
    echo "removed $APP_ID desktop files from $root"
    refresh_caches
}

case $action in
    install) do_install ;;
    uninstall) do_uninstall ;;
    *)
        echo "usage: install-desktop.sh [install|uninstall]" >&2
        exit 2
        ;;
esac
