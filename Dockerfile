FROM python:3.11-slim AS build

# The engine's hot modules are compiled with mypyc at install time (see setup.py).
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SCOPA_DB=/data/scopa.db \
    SCOPA_METRICS=0.0.0.0:9108

# DejaVu Sans sets accented names and labels in the card pictures (bot/pictures/text.py);
# without it they fall back to Pillow's ASCII-only font.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && python -c "import bot.engine as e; print('engine compiled:', e.COMPILED)" \
    && useradd --create-home scopa && mkdir -p /data && chown scopa /data

USER scopa
VOLUME ["/data"]
# /metrics, /healthz and /readyz (README, "Metrics and health"); the check needs no curl.
EXPOSE 9108
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]
# Set TELEGRAM_TOKEN and/or DISCORD_TOKEN at run time, e.g.
#   docker run -e TELEGRAM_TOKEN=... -v scopa-data:/data scopa-bot
CMD ["scopa-bot", "run"]
