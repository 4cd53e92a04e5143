# Sequences bot: python -m bot, with the database on a volume and no secrets in the image.
# A patch release, so a rebuild gets the same Python; bump it on purpose.
FROM python:3.11.11-slim-bookworm AS requirements

# The dependencies (and the build backend) named in pyproject.toml, as a requirements file.
# Docker keys the COPY --from below on this file's content, so editing the rest of
# pyproject.toml (a linter's settings, the version) does not reinstall them either.
WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb')); print('\n'.join(p['project']['dependencies'] + p['build-system']['requires']))" > requirements.txt

# The board game's playout kernel (bot/rules/board/kernel.c), compiled by Debian's gcc in a
# stage of its own: the image keeps the library (in BOARD_KERNEL_CACHE), not the compiler.
# kernel_build.py is standard library only; the library's name hashes kernel.c, so the
# installed package finds it and never builds at run time.
FROM python:3.11.11-slim-bookworm AS kernel
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY bot/rules/board/kernel.c bot/rules/board/kernel_build.py ./
RUN python kernel_build.py /opt/board-kernel

FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/bot.sqlite3 \
    BOARD_KERNEL_CACHE=/opt/board-kernel \
    WEB_HOST=0.0.0.0

# pg_dump and pg_restore for `python -m bot backup` on PostgreSQL (DATABASE_URL): Debian's
# client, version 15, which dumps servers up to 15. Not pinned: a bookworm security update
# replaces the old version in the archive, and a pin would then stop every build.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 bot \
    && mkdir -p /data \
    && chown bot:bot /data

WORKDIR /app

# The dependency layer: rebuilt only when the dependencies change, never for the code.
COPY --from=requirements /src/requirements.txt /tmp/requirements.txt
RUN pip install --no-cache-dir -r /tmp/requirements.txt && rm /tmp/requirements.txt

# The board kernel's library (its stage rebuilds only when kernel.c or its builder change).
COPY --from=kernel /opt/board-kernel /opt/board-kernel

# Then the code, installed with what is already there (no download, no dependency touched).
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
# The catalogues compiled (.mo), so the bot need not compile each .po at every start.
RUN python -m bot i18n compile \
    && pip install --no-cache-dir --no-deps --no-build-isolation .

USER 10001
VOLUME ["/data"]
# The web companion (WEB_PORT, 0 turns it off): every address inside the container, so that
# `-p 8080:8080` reaches it; /metrics and the health routes still answer only the container
# itself or a request with METRICS_TOKEN.
EXPOSE 8080

# Healthy while the database on the volume opens read-only and passes SQLite's quick check.
HEALTHCHECK --interval=60s --timeout=15s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# DISCORD_TOKEN comes from the environment at run time: docker run -e DISCORD_TOKEN=... or --env-file .env
CMD ["python", "-m", "bot"]
