# Arbiter: the two commands a new user needs are `make play` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install play test lint typecheck scenarios bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/arbiter play --players 4 --seed 1 --variant free_for_all --db arbiter-play.sqlite

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy libs services tests tools benchmarks

scenarios: $(STAMP)
	$(BIN)/arbiter scenario run tests/scenarios

test: $(STAMP) lint
	$(BIN)/pytest -n 2 tests
	$(BIN)/arbiter scenario run tests/scenarios

bench: $(STAMP)
	$(BIN)/python -m benchmarks.engine

clean:
	rm -rf $(VENV) build *.egg-info arbiter-play.sqlite
