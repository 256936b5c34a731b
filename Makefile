# The two commands of the README: `make run` starts the bot, `make test` runs every check.
# Both set up .venv first (again whenever pyproject.toml changes).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/python -m bot

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(VENV)/.installed
	$(BIN)/python -m tests.bench
