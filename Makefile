# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY ?= $(VENV)/bin/python
ARGS ?=

.PHONY: run test test-fast test-gc lint unit soak bench clean

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

# pytest-xdist workers: twice the cores, since many tests wait on a subprocess or a daemon
# (JOBS=0 runs in one process). Tests that share one X session (a module's fixture) are
# kept on one worker by their xdist_group mark; every other daemon is one per test.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) * 2 )))
PYTEST = QT_QPA_PLATFORM=offscreen $(PRIVATE_BUS) $(PY) -m pytest -q -p no:cacheprovider \
	$(if $(filter-out 0,$(JOBS)),-n $(JOBS) --dist loadgroup)

## test: install test dependencies; ruff, import-linter and the whole suite, headless,
## in parallel; prints the 15 slowest tests (ARGS="tests/ui" to run one group)
test: $(VENV)/.installed-test lint
	$(PYTEST) --durations=15 $(ARGS)

## test-fast: the suite without the `system` tests (real X, audio, dunst, mutter,
## LibreOffice, packaging), for the edit-test loop
test-fast: $(VENV)/.installed-test
	$(PYTEST) -m "not system" $(ARGS)

## test-gc: the GUI tests with the garbage collector run inside every paint event
## (slow: ARGS="tests/ui/journal/test_capture.py" to run some)
test-gc: $(VENV)/.installed-test
	COMPANION_GC_IN_PAINT=1 $(PYTEST) $(or $(ARGS),tests/ui)

## test-explore: the property tests with random examples, more of them (finds become @example)
.PHONY: test-explore
test-explore: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=explore QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider -m "not gui" $$(grep -rl --include='test_*.py' hypothesis tests)

## lint: ruff, import-linter, and mypy as if on Windows and macOS (tests/platform_lint.py):
## a call those systems lack (os.geteuid, fcntl...) outside companion/*/platform fails
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check companion tests benchmarks packaging
	$(VENV)/bin/ruff format --check companion tests benchmarks packaging
	$(VENV)/bin/lint-imports --no-cache
	$(PY) tests/platform_lint.py

## unit: the Qt-free core tests only
unit: $(VENV)/.installed-test
	$(PY) -m pytest -q -m "not gui and not slow"

## soak: longer fuzzing and kill storms than `make test` runs
soak: $(VENV)/.installed-test
	COMPANION_SOAK=1 QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q tests/resilience

## bench: the benchmark table within 5 minutes (smaller journals, fewer rounds; ARGS="--only startup")
bench: $(VENV)/.installed-test
	$(PY) benchmarks/run_all $(ARGS)

## bench-long: every benchmark at full size, the day and voice runs too (most of an hour)
.PHONY: bench-long
bench-long: $(VENV)/.installed-test
	BENCH_LONG=1 $(PY) benchmarks/run_all $(ARGS)

## fuzz: each fuzz target (tests/fuzz) under atheris for FUZZ_SECONDS (default 60); exit 1 on a finding
.PHONY: fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: $(VENV)/.installed-fuzz
	FUZZ_SECONDS=$(FUZZ_SECONDS) QT_QPA_PLATFORM=offscreen $(PY) tests/fuzz/run.py $(FUZZ_TARGETS)

# atheris is its own extra: a wheel on Linux x86_64, a libFuzzer build elsewhere
$(VENV)/.installed-fuzz: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,fuzz]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed

clean:
	rm -rf build dist .pytest_cache .ruff_cache

-include packaging/package.mk
