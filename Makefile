# Arbiter: the two commands a new user needs are `make play` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STORE ?= sqlite

.PHONY: install play test test-unit test-integration lint scenarios bench up down asyncapi \
        deploy-files clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,services]'
	touch $(STAMP)

install: $(STAMP)

# The embedded default: all services in one process, a SQLite event store.
play: $(STAMP)
	$(BIN)/arbiter play --players 4 --seed 1 --variant free_for_all --db arbiter-play.sqlite

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy libs services tests tools benchmarks

scenarios: $(STAMP)
	$(BIN)/arbiter scenario run tests/scenarios

# Unit, property, store (SQLite and PostgreSQL) and scenario tests, in parallel.
test-unit: $(STAMP)
	$(BIN)/pytest -n 2 -m "not integration" tests

# Services against the real Tansu broker and PostgreSQL (they start what they need).
test-integration: $(STAMP)
	$(BIN)/pytest -m integration tests/services

test: lint test-unit scenarios test-integration

bench: $(STAMP)
	$(BIN)/python -m benchmarks.engine
	$(BIN)/python -m benchmarks.store
	$(BIN)/python -m arbiter_services bench
	$(BIN)/python -m arbiter_services bench --grand-melee --players 100 --seconds 60 --full

# A local Kafka-protocol broker (Tansu) and every service as its own process.
up: $(STAMP)
	$(BIN)/python -m arbiter_services up --store $(STORE)

down: $(STAMP)
	$(BIN)/python -m arbiter_services down

asyncapi: $(STAMP)
	$(BIN)/python -m arbiter_services asyncapi --out asyncapi.yaml

deploy-files: $(STAMP)
	$(BIN)/python -m arbiter_services k8s
	$(BIN)/python -m arbiter_services compose

clean:
	rm -rf $(VENV) build *.egg-info arbiter-play.sqlite* .arbiter
