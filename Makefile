# Tasks for working on tikal (see CONTRIBUTING.md). CI runs `.ci/run`, which installs the
# system packages too; these targets assume `pip install -e '.[test]'` was done.
PYTHON ?= python3
PYTEST ?= $(PYTHON) -m pytest
FAST = not browser and not pg and not slow

.PHONY: help lint types fast browser pg all ci fixtures bench durations

help:
	@echo "make lint      ruff on src and tests"
	@echo "make types     mypy (strict on src/tikal)"
	@echo "make fast      the fast lane: every test without a browser, PostgreSQL or a long run"
	@echo "make browser   the end-to-end tests in Chromium (/usr/bin/chromium)"
	@echo "make pg        the PostgreSQL tests on a throwaway server (.ci/postgres.sh)"
	@echo "make all       lint, types and the whole suite (PostgreSQL started for it)"
	@echo "make ci        exactly what CI runs: bash .ci/run (installs system packages)"
	@echo "make fixtures  re-record the wire and record fixtures after a deliberate change"
	@echo "make bench     the engine's and the server's speed (tikal bench)"
	@echo "make durations the whole suite, storing each test's time (tests/durations.json: the fast lane leaves out tests of 0.75 s or more)"

lint:
	$(PYTHON) -m ruff check src tests

types:
	$(PYTHON) -m mypy

fast:
	$(PYTEST) -q -m "$(FAST)"

browser:
	$(PYTEST) -q -m browser

pg:
	TIKAL_TEST_PG="$$(bash .ci/postgres.sh start)" $(PYTEST) -q -m pg

all: lint types
	TIKAL_TEST_PG="$$(bash .ci/postgres.sh start)" $(PYTEST) -q

ci:
	bash .ci/run

fixtures:
	$(PYTHON) tests/wire_fixtures.py
	$(PYTHON) tests/record_fixtures.py

bench:
	tikal bench
	tikal bench --server

durations:
	$(PYTEST) -q --store-durations
