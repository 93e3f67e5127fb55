# The two commands of the README: `make run` and `make test`. CI runs .ci/run, which calls `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The make targets are for development and tests: DEBUG on unless the caller says otherwise. A production site
# is started as docs/deploy.md shows, where DEBUG is off by default.
export DEBUG ?= 1

.PHONY: run test test-postgres check check-deploy lint setup setup-dev migrate demo worker beat bench clean \
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

# The French and German translations (docs/translations.md). The .mo files are built, never committed: Babel
# compiles them in pure Python, so neither the site nor its tests need GNU gettext.
MO_FILES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(VENV)/.installed
	$(BIN)/pybabel compile -l $* -i $< -o $@
messages-compile: $(MO_FILES)

# After marking new texts for translation: add their msgids to both catalogues (needs GNU gettext's xgettext),
# then translate the new entries. The same options as tests/test_catalogues.py uses.
messages: setup
	$(BIN)/python manage.py makemessages -l fr -l de --no-location --no-obsolete \
	  --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=downloads

migrate: setup
	$(BIN)/python manage.py migrate --noinput

# Demo data once: seed_demo does nothing if the federation already has players.
demo: migrate
	$(BIN)/python manage.py seed_demo --if-empty

run: demo messages-compile
	@echo "Site: http://127.0.0.1:$(PORT)/  admin: http://127.0.0.1:$(PORT)/admin/ (see README for the demo logins)"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: setup-dev messages-compile
	$(BIN)/python -m pytest -q

# The same suite on the machine's PostgreSQL (CI runs both).
test-postgres: setup-dev messages-compile
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(BIN)/python -m pytest -q

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
