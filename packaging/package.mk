# Packaging and desktop integration targets. The top-level Makefile includes this file;
# it also works alone from the repository root: make -f packaging/package.mk package
#
#   make icons              PNG icon sizes from resources/icons/app.svg into $(BUILD)/icons
#   make bundle             the one-folder bundle $(DIST)/companion/ (PyInstaller)
#   make package            the bundle and $(DIST)/interview-companion-<version>-<os>-<arch>.tar.gz
#   make install-desktop    menu entry, icons and metainfo at ${XDG_DATA_HOME:-~/.local/share}
#                           (PREFIX=/usr/local puts them under $(PREFIX)/share; DESTDIR stages)
#   make uninstall-desktop  removes what install-desktop put there

VENV ?= .venv
PY ?= $(VENV)/bin/python
PYTHON ?= python3
DIST ?= dist
BUILD ?= build
APP_ID := io.github.interviewcompanion.Companion
ICON_SIZES ?= 16 24 32 48 64 128 256 512
# The program the menu entry starts: the venv's console script when there is one.
DESKTOP_EXEC ?= $(if $(wildcard $(VENV)/bin/companion),$(abspath $(VENV)/bin/companion),companion)

.PHONY: icons bundle package install-desktop uninstall-desktop

# On a fresh clone the venv does not exist yet: make it (and install the app) the way
# `make run` does, with its own stamp so this file also works alone (make -f ...).
$(VENV)/.installed-package: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[voice]'
	touch $@

icons: $(BUILD)/icons/.stamp

$(BUILD)/icons/.stamp: resources/icons/app.svg packaging/render_icons.py | $(VENV)/.installed-package
	QT_QPA_PLATFORM=offscreen $(PY) packaging/render_icons.py $< $(BUILD)/icons \
		--name $(APP_ID) --sizes $(ICON_SIZES) >/dev/null
	touch $@

bundle: icons
	PY=$(PY) DIST=$(DIST) BUILD=$(BUILD) bash packaging/build.sh --no-tarball

package: icons
	PY=$(PY) DIST=$(DIST) BUILD=$(BUILD) bash packaging/build.sh

install-desktop: icons
	bash packaging/stage-share.sh $(BUILD)/share $(BUILD)/icons
	SHARE_SRC=$(BUILD)/share EXEC="$(DESKTOP_EXEC)" bash packaging/install-desktop.sh install

uninstall-desktop:
	bash packaging/install-desktop.sh uninstall
