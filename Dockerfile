# Skirmish app worker: slim, non-root, installed with the README's install command
# (`pip install -e .`, without the dev extras: an image runs the server, not the tests).
# Editable on purpose: migrations/ and alembic.ini stay beside app/, where
# app/db/migrate.py finds them.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SKIRMISH_SERVER__HOST=0.0.0.0 \
    SKIRMISH_SERVER__PORT=8000

WORKDIR /srv/skirmish
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY static ./static
RUN pip install -e . \
    && useradd --create-home --uid 10001 skirmish \
    && mkdir -p var && chown skirmish var

USER skirmish
EXPOSE 8000
# Liveness only: /readyz (database and bus) is for the proxy and compose's depends_on.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# `skirmish serve` applies pending migrations first (unless
# SKIRMISH_DATABASE__MIGRATE_ON_START=false), then runs uvicorn; X-Forwarded-* are
# trusted only from SKIRMISH_SERVER__FORWARDED_ALLOW_IPS.
CMD ["skirmish", "serve", "--proxy-headers"]
