# The site's image: the web process (gunicorn), the Celery worker and beat all run from it (compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# fonts-dejavu-core: the font the printed lists (PDF) are set in, names in Latin, Greek and Cyrillic letters.
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        fonts-dejavu-core >/dev/null && rm -rf /var/lib/apt/lists/*

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# The translations are compiled here (Babel, pure Python): the .mo files are not in the repository.
RUN pybabel compile -d locale -D django
# The hashed static files are part of the image; the key is only for this one command.
RUN SECRET_KEY=collectstatic-only-$(python -c 'import secrets; print(secrets.token_urlsafe(48))') \
    DATABASE_URL=sqlite:////tmp/collectstatic-only.sqlite3 python manage.py collectstatic --noinput -v 0

RUN useradd --system --uid 1000 --home-dir /app federation \
    && mkdir -p /srv/downloads && chown federation /srv/downloads  # the bulk downloads' volume (compose.yaml)
USER federation

EXPOSE 8000
# gunicorn.conf.py (in /app, the working folder) sets the JSON logs.
CMD ["gunicorn", "federation.wsgi", "--bind", "0.0.0.0:8000", "--workers", "4"]
