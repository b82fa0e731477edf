# Two commands do everything on a fresh clone: `make run` and `make test`.
# python3 here is the version in .python-version (pyenv); Django 6 needs 3.12 or newer.
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint venv translations messages prod bench lan css

$(VENV)/.installed: requirements.txt requirements-dev.txt .python-version
	@python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "Python 3.12 or newer is needed (see .python-version); python3 is " + sys.version)'
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

run: venv translations
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo "Pitch League is running at http://$(HOST):$(PORT)/  (log in as demo / pitch-demo-league; Ctrl-C stops it)"
	@# The background worker (imports) runs beside the server and stops with it.
	$(PY) manage.py db_worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

test: venv translations
	$(PY) -m pytest

# Translations: locale/<lang>/LC_MESSAGES/django.po and djangojs.po are the sources; the .mo files are built here, never committed.
translations: venv
	@command -v msgfmt >/dev/null || { echo "msgfmt is missing: the translations need GNU gettext (apt-get install -y gettext)"; exit 1; }
	$(PY) manage.py compilemessages --ignore=.venv --verbosity 0

# After changing a marked string: update every catalog, then translate what is new (tests/test_translations.py checks).
# django.po holds the Python code's and the templates' texts, djangojs.po the scripts' (served by the JavaScript catalog).
messages: venv
	$(PY) manage.py makemessages --all --ignore=.venv --ignore=tests --no-obsolete --add-location=file
	$(PY) manage.py makemessages --domain=djangojs --all --ignore=.venv --ignore=tests --no-obsolete --add-location=file

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/djlint templates --lint

# The production stack on loopback, for trying it out and for the benchmark's load run (DEPLOY.md):
# gunicorn with several workers and the background worker beside it, DEBUG off, static files collected, HTML compressed by
# the app (no proxy in front). Plain HTTP here, so the HTTPS-only switches are off; a real deployment keeps them on (see DEPLOY.md).
# One request at a time a worker (gunicorn's sync workers): measured against 4 threads a worker, they held more tables,
# since threads share their process's interpreter lock (BENCHMARKS.md, "Capacity"). THREADS=4 measures the other way.
WORKERS ?= 4
THREADS ?= 1
prod: venv
	DEBUG=false SECRET_KEY=$${SECRET_KEY:-local-trial-$$(hostname)-not-for-the-internet-0123456789abcdef} \
	ALLOWED_HOSTS=127.0.0.1,localhost SECURE_SSL_REDIRECT=false SECURE_COOKIES=false SECURE_HSTS_SECONDS=0 COMPRESS_HTML=true \
	sh -c '$(PY) manage.py migrate --noinput && $(PY) manage.py collectstatic --noinput -v0 && \
	{ nice -n 10 $(PY) manage.py db_worker --no-reload & worker=$$!; trap "kill $$worker 2>/dev/null" EXIT INT TERM; \
	$(VENV)/bin/gunicorn pitchleague.wsgi --bind $(HOST):$(PORT) --workers $(WORKERS) --threads $(THREADS) --access-logfile - --error-logfile -; }'

# A card night at home: the phones on the same Wi-Fi score on this machine (README, "A card night at home").
# DEBUG off, a secret key made once in .lan-secret-key, this machine's LAN addresses allowed; prints a QR code.
lan: venv translations
	$(PY) manage.py lan --port $(PORT)

# static/scores/bootstrap.min.css (committed): Bootstrap's Sass with only the parts and rules the pages use, built with
# the versions pinned in assets/package-lock.json (Node and npm). Run it after a template or script uses a Bootstrap
# class it did not before: tests/test_bootstrap_css.py fails until then. It reads crispy-bootstrap5's templates in the venv.
css: venv
	cd assets && npm ci --no-audit --no-fund && npm run build

# The benchmark with its budgets (BENCHMARKS.md); takes several minutes, not part of `make test`.
bench: venv
	$(PY) bench/run.py
