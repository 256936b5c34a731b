# The two commands of the README: `make run` starts the bot, `make test` runs every check.
# Both set up .venv first (again whenever pyproject.toml or a lock file changes).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run migrate backup restore test lint bench gallery mutation lock

# Installs come from the lock files (made by `make lock`): the same versions everywhere, each
# file checked against the lock's hashes (--require-hashes), so a changed or substituted
# package fails the install. pip and setuptools come first, from requirements-build.lock
# (the pip a new venv comes with only installs these two). The bot itself is installed
# editable without build isolation, so it is built with the hashed setuptools rather than
# one fetched unpinned; an editable install has no file to hash, hence its own --no-deps
# step. `make run` needs only the bot's own dependencies; `make test` adds the tools.
INSTALL := $(BIN)/pip install --quiet --require-hashes --no-deps
$(VENV)/.runtime: pyproject.toml requirements-build.lock requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(INSTALL) -r requirements-build.lock
	$(INSTALL) -r requirements.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.installed: $(VENV)/.runtime requirements-dev.lock
	$(INSTALL) -r requirements-dev.lock
	touch $@

run: $(VENV)/.runtime
	$(BIN)/python -m bot

# The lock files again, after a change to the dependencies in pyproject.toml (uv resolves
# them for Python 3.11 on every platform, each with the hashes of its files). The installers'
# lock comes first and constrains the others, so setuptools is one version in all three.
LOCK := $(BIN)/uv pip compile --universal --python-version 3.11 --no-header --quiet \
	--generate-hashes
lock: $(VENV)/.installed
	$(BIN)/pip install --quiet uv
	$(LOCK) requirements-build.in -o requirements-build.lock
	$(LOCK) pyproject.toml -c requirements-build.lock -o requirements.lock
	$(LOCK) pyproject.toml --extra dev -c requirements-build.lock -o requirements-dev.lock

# Bring the database schema up to date without starting the bot (the bot also does it at
# start-up). A downgrade: `.venv/bin/python -m bot migrate --to REVISION`, plus
# `--allow-data-loss` when it would delete data (README, "The database and upgrades").
migrate: $(VENV)/.runtime
	$(BIN)/python -m bot migrate

# A backup of the database DATABASE_URL names, taken while the bot runs, and its restore
# (the bot stopped first): `make backup FILE=backup.db`, `make restore FILE=backup.db`.
# SQLite's online backup, or pg_dump/pg_restore (README, "Backups"; bot/backups.py); a
# restore marks the games under way for a fresh board at the next start (bot/restores.py).
FILE ?= backup.db
backup: $(VENV)/.runtime
	$(BIN)/python -m bot.backups backup $(FILE)

restore: $(VENV)/.runtime
	$(BIN)/python -m bot.backups restore $(FILE)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m lang check

test: lint
	$(BIN)/pytest

# The benchmark (docs/performance.md says what each figure means; hours on two
# cores, most of it the AI's strength): every game the registry offers (`python -m
# bench.games`; EXTRA_EXTENSIONS adds a plug-in's), each measured by:
# - `bench`: the engine, the pictures and answers through the fake Discord;
# - `bench.capacity`: the games one process serves at human pace with Discord's rate limits
#   on (N stepped up until press-to-result p95 passes 250 ms, then refined to 25 games; at
#   most about 20 minutes a game), then two shard processes on one PostgreSQL, then hard AI
#   seats at 25 and 50 tables, their decisions timed (docs/ai.md, "Decisions at load");
# - the issue-sized playouts, too long for `make test`;
# - `bench.ai_strength`: each AI level against two normal seats (docs/ai.md; hours);
# - `bench.cpu_per_press`: what a press costs, with and without worker processes;
# - `bench.worker_soak` and `bench.storage_bench`: workers' memory and the database's size
#   over a soak.
# And once: the Toss bin measurement (`bench.toss_measure`), the bot during a SQLite lock
# held from outside (`bench.lock_bench`) and a writer's waits while revision 0004 indexes a
# 2 M-row outbox (`bench.migration_bench`).
# Each game's playouts (Toss It's fewer: its physics makes a game about 0.4 s).
PLAYOUTS = $(filter-out %/test_toss_playouts.py,$(wildcard tests/rules/test_*_playouts.py))
bench: $(VENV)/.installed
	$(BIN)/python -m bench
	for game in $$($(BIN)/python -m bench.games); do \
		$(BIN)/python -m bench.capacity --game $$game --max-channels 800 --seconds 40 || exit 1; \
		$(BIN)/python -m bench.capacity --game $$game --max-channels 600 --seconds 40 \
			--shards 2 || exit 1; \
		$(BIN)/python -m bench.capacity --game $$game --steps 25,50 --seconds 40 --refine 0 \
			--whole-curve --ai-level hard || exit 1; \
	done
	PLAYOUT_GAMES=1000 $(BIN)/pytest -q -rP $(PLAYOUTS)
	PLAYOUT_GAMES=500 $(BIN)/pytest -q -rP tests/rules/test_toss_playouts.py
	$(BIN)/python -m bench.toss_measure --games 20 --random-games 400 --quiet
	$(BIN)/python -m bench.ai_strength --games 300
	$(BIN)/python -m bench.lock_bench
	$(BIN)/python -m bench.migration_bench
	$(BIN)/python -m bench.cpu_per_press --workers 0 2
	$(BIN)/python -m bench.presses --games 5
	$(BIN)/python -m bench.worker_soak
	$(BIN)/python -m bench.storage_bench

# Every game's pictures as players see them, in gallery/ (bench/gallery.py).
gallery: $(VENV)/.installed
	$(BIN)/python -m bench.gallery gallery

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
	$(BIN)/mutmut results --all true | $(BIN)/python -m bench.mutation_score $(GAME)
