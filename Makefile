# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY ?= $(VENV)/bin/python
ARGS ?=

.PHONY: run test lint unit soak bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Stamps: reinstall only when the package metadata changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

## run: make the virtual environment, install, launch the app (ARGS="--data-dir DIR" to pass options)
run: $(VENV)/.installed
	$(PY) -m companion $(ARGS)

# The GUI tests run on a private D-Bus session when dbus-run-session is installed: without a
# session bus, Qt on a machine with dbus-x11 autolaunches a bus daemon per process. Its
# config activates no installed service (tests start the ones they need).
PRIVATE_BUS ?= $(if $(and $(shell command -v dbus-run-session 2>/dev/null),$(shell command -v dbus-daemon 2>/dev/null)),dbus-run-session --config-file=tests/private-bus.conf --,)

## test: install test dependencies; ruff, import-linter and the whole suite, headless
test: $(VENV)/.installed-test lint
	QT_QPA_PLATFORM=offscreen $(PRIVATE_BUS) $(PY) -m pytest -q -p no:cacheprovider

## test-explore: the property tests with random examples, more of them (finds become @example)
.PHONY: test-explore
test-explore: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=explore QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider -m "not gui" $$(grep -rl --include='test_*.py' hypothesis tests)

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check companion tests benchmarks packaging
	$(VENV)/bin/ruff format --check companion tests benchmarks packaging
	$(VENV)/bin/lint-imports --no-cache

## unit: the Qt-free core tests only
unit: $(VENV)/.installed-test
	$(PY) -m pytest -q -m "not gui and not slow"

## soak: longer fuzzing and kill storms than `make test` runs
soak: $(VENV)/.installed-test
	COMPANION_SOAK=1 QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q tests/resilience

## bench: every benchmark, one table
bench: $(VENV)/.installed-test
	$(PY) benchmarks/run_all

clean:
	rm -rf build dist .pytest_cache .ruff_cache

-include packaging/package.mk
