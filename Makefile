# The two commands of the README: `make run` starts the bot, `make test` runs every check.
# Both set up .venv first (again whenever pyproject.toml or a lock file changes).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run migrate test lint bench gallery mutation lock

# Installs come from the lock files (requirements*.lock, made by `make lock`): the same
# versions everywhere. `make run` needs only the bot's own; `make test` adds the tools.
$(VENV)/.runtime: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed: $(VENV)/.runtime requirements-dev.lock
	$(BIN)/pip install --quiet -r requirements-dev.lock
	touch $@

run: $(VENV)/.runtime
	$(BIN)/python -m bot

# The lock files again, after a change to the dependencies in pyproject.toml (uv resolves
# them for Python 3.11 on every platform).
lock: $(VENV)/.installed
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --no-header --quiet -o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11 --no-header --quiet -o requirements-dev.lock

# Bring the database schema up to date without starting the bot (the bot also does it at
# start-up). A downgrade: `.venv/bin/python -m bot migrate --to REVISION`, plus
# `--allow-data-loss` when it would delete data (README, "The database and upgrades").
migrate: $(VENV)/.runtime
	$(BIN)/python -m bot migrate

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m lang check

test: lint
	$(BIN)/pytest

# The benchmark, the capacity at human pace for each game with Discord's rate limits on (N
# stepped up until press-to-result p95 passes 250 ms, then the gap to the last step that
# passed halved down to 25 games; at most about 20 minutes a game; each step also reports
# the requests the bot made and issue 34's targets), and for two shard processes on one
# PostgreSQL, then the issue-sized playouts that are
# too long for `make test` (about 35 minutes in all on two cores), the Toss bin measurement,
# the bot during a SQLite lock held from outside (`tests/lock_bench.py`), a writer's waits
# while revision 0004 indexes a 2 M-row outbox (`tests/migration_bench.py`), the workers'
# memory over an eight-minute soak of the four games (`tests/worker_soak.py`) and storage
# over a soak with retention (`tests/storage_bench.py`), and the AI levels' strength, each
# level against two normal seats (`tests/ai_strength.py`, docs/ai.md; hours on two cores).
bench: $(VENV)/.installed
	$(BIN)/python -m tests.bench
	$(BIN)/python -m tests.capacity --game trashwar --max-channels 800 --seconds 40
	$(BIN)/python -m tests.capacity --game rumble --max-channels 800 --seconds 40
	$(BIN)/python -m tests.capacity --game brawl --max-channels 800 --seconds 40
	$(BIN)/python -m tests.capacity --game toss --max-channels 800 --seconds 40
	$(BIN)/python -m tests.capacity --game trashwar --max-channels 600 --seconds 40 --shards 2
	$(BIN)/python -m tests.capacity --game rumble --max-channels 600 --seconds 40 --shards 2
	$(BIN)/python -m tests.capacity --game brawl --max-channels 600 --seconds 40 --shards 2
	PLAYOUT_GAMES=1000 $(BIN)/pytest -q -rP tests/rules/test_rumble_playouts.py \
		tests/rules/test_trashwar_playouts.py tests/rules/test_brawl_playouts.py
	PLAYOUT_GAMES=500 $(BIN)/pytest -q -rP tests/rules/test_toss_playouts.py
	$(BIN)/python -m tests.toss_measure --games 20 --random-games 400 --quiet
	$(BIN)/python -m tests.ai_strength --games 300
	$(BIN)/python -m tests.lock_bench
	$(BIN)/python -m tests.migration_bench
	$(BIN)/python -m tests.cpu_per_press --workers 0 2
	$(BIN)/python -m tests.worker_soak
	$(BIN)/python -m tests.storage_bench

# Every game's pictures as players see them, in gallery/ (tests/gallery.py).
gallery: $(VENV)/.installed
	$(BIN)/python -m tests.gallery gallery

# Mutation testing of the engines with mutmut (docs/mutation.md): each engine's code changed
# one small way at a time, its fast tests run on each change, and the score printed (caught
# over caught and missed). `make mutation GAME=rumble` for one engine, `make mutation` for
# the four one after another. On this machine (2 cores, under `nice -n 19`), 2026-11-27:
# rumble (1208 mutants) 4 min 15 s, trashwar (2460) 2 min 33 s, toss (1613) 8 min 31 s;
# brawl (3066) 14 min 50 s beside another run, so the four together about 35 min.
# mutmut keeps its copies and results in mutants/; `.venv/bin/mutmut show <name>` shows one
# mutant, `.venv/bin/mutmut browse` all of them.
GAME ?= brawl rumble toss trashwar
mutation: $(VENV)/.installed
	for game in $(GAME); do $(BIN)/mutmut run "rules.$$game.*" || exit 1; done
	$(BIN)/mutmut results --all true | $(BIN)/python -m tests.mutation_score $(GAME)
