# Sequences bot: python -m bot, with the database on a volume and no secrets in the image.
# A patch release, so a rebuild gets the same Python; bump it on purpose.
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/bot.sqlite3

RUN useradd --create-home --uid 10001 bot \
    && mkdir -p /data \
    && chown bot:bot /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir .

USER 10001
VOLUME ["/data"]

# Healthy while the database on the volume opens read-only and passes SQLite's quick check.
HEALTHCHECK --interval=60s --timeout=15s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# DISCORD_TOKEN comes from the environment at run time: docker run -e DISCORD_TOKEN=... or --env-file .env
CMD ["python", "-m", "bot"]
