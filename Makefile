# The two commands of the README: `make run` and `make test`. CI runs .ci/run, which calls `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The make targets are for development and tests: DEBUG on unless the caller says otherwise. A production site
# is started as docs/deploy.md shows, where DEBUG is off by default.
export DEBUG ?= 1

.PHONY: run test test-slow test-all test-postgres check check-deploy lint setup setup-dev migrate demo worker beat bench clean \
	messages messages-compile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

setup: $(VENV)/.installed
setup-dev: $(VENV)/.installed-dev

# The translations (docs/translations.md). The .mo files are built, never committed: Babel compiles them
# in pure Python, so neither the site nor its tests need GNU gettext.
MO_FILES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(VENV)/.installed
	$(BIN)/pybabel compile -l $* -i $< -o $@
messages-compile: $(MO_FILES)

# After marking new texts for translation: add their msgids to every catalogue (needs GNU gettext's xgettext),
# then translate the new entries. The same options as tests/test_catalogues.py uses.
messages: setup
	$(BIN)/python manage.py makemessages -l fr -l de -l nl -l it -l es -l pl -l ja --no-location --no-obsolete \
	  --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=downloads

migrate: setup
	$(BIN)/python manage.py migrate --noinput

# The links of the e-mail the demo and the server send lead to this server, on the port it serves.
DEV_SITE_URL = $(or $(SITE_URL),http://127.0.0.1:$(PORT))

# Demo data once: seed_demo does nothing if the federation already has players.
demo: migrate
	SITE_URL=$(DEV_SITE_URL) $(BIN)/python manage.py seed_demo --if-empty

run: demo messages-compile
	@echo "Site: http://127.0.0.1:$(PORT)/  admin: http://127.0.0.1:$(PORT)/admin/ (see README for the demo logins)"
	@echo "E-mail sent: files in sent-mail/; every message also in the admin's outbox (Outgoing mail)"
	SITE_URL=$(DEV_SITE_URL) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The tests run in PYTEST_WORKERS processes (pytest-xdist; each has its own test database). They are handed
# out in pytest-django's order (`--dist load`), which runs every transactional test after the others: such a
# test empties its process's database when it ends. `make test` leaves out the tests marked slow (a worker, a
# browser, whole histories): `make test-slow` runs only those, `make test-all` everything. CI runs `make
# test`, `make test-slow` and `make test-postgres` (everything on PostgreSQL).
PYTEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist load

test: setup-dev messages-compile
	$(PYTEST) -m "not slow"

test-slow: setup-dev messages-compile
	$(PYTEST) -m slow

test-all: setup-dev messages-compile
	$(PYTEST)

# Every test on the machine's PostgreSQL (CI runs it after the SQLite ones), but the walking check of every page
# (tests/pagewalk/): it looks at what the pages show, the same on either database, and takes minutes; `make
# test-slow` runs it on SQLite.
test-postgres: setup-dev messages-compile
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(PYTEST) --ignore=tests/pagewalk

check: setup-dev
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Django's deployment checks with the production variables of docs/deploy.md (CI runs it).
check-deploy: setup-dev
	DEBUG=0 SECRET_KEY=$$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))') \
	  ALLOWED_HOSTS=ratings.example.org DATABASE_URL=postgres://fesa@127.0.0.1:5432/fesa \
	  DATA_LICENCE_NAME='CC BY 4.0' DATA_LICENCE_URL=https://creativecommons.org/licenses/by/4.0/ \
	  REDIS_URL=redis://127.0.0.1:6379/0 $(BIN)/python manage.py check --deploy --fail-level WARNING

worker: setup
	$(BIN)/celery -A federation worker --loglevel=info --concurrency=1

beat: setup
	$(BIN)/celery -A federation beat --loglevel=info

bench: setup-dev
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_rerate.py
	$(BIN)/python bench/load_rating_list.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache locale/*/LC_MESSAGES/*.mo
