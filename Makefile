# Two commands on a fresh machine: `make run` and `make test`. Each builds .venv itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit demo bench bench-postgresql clean sync \
	i18n-extract i18n-update i18n-compile

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

sync: $(STAMP)
	$(BIN)/python -m bot sync

demo: $(STAMP)
	$(BIN)/python -m bot demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/hadolint Dockerfile
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy bot cogs bench

# Under a throw-away PostgreSQL server (tests/pgserver.py, BOT_TEST_POSTGRES) for the store
# tests; one pytest worker per core (pytest-xdist).
# The browser tests' Chromium first (tests/browser/find.py): Debian's chromium, else apt-get
# install as root, else playwright install; one line says which, and none fails the run.
unit: $(STAMP)
	$(BIN)/python -m tests.browser.find
	$(BIN)/python -m tests.pgserver run -- $(BIN)/python -m pytest -n auto

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m bot bench

# The same table on PostgreSQL: a throw-away server with the default durability (fsync on)
# and its data on the disk; every section in a database of its own, then the burst split
# across two processes.
bench-postgresql: $(STAMP)
	$(BIN)/python -m tests.pgserver run --durable -- \
		sh -c '$(BIN)/python -m bot bench --database "$$BOT_TEST_POSTGRES"'

# The catalogues (docs/i18n.md), one per domain of bot/i18n/domains.py: extract the English
# of the code and the command tree into the templates, merge them into every language's .po
# files, compile the .po files (optional: the bot compiles a .po in memory when its .mo is
# missing or older; the image compiles them).
i18n-extract: $(STAMP)
	$(BIN)/python -m bot i18n extract

i18n-update: $(STAMP)
	$(BIN)/python -m bot i18n update

i18n-compile: $(STAMP)
	$(BIN)/python -m bot i18n compile

clean:
	rm -rf $(VENV)
