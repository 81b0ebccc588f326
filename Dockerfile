FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SCOPA_DB=/data/scopa.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
RUN pip install --no-cache-dir . && useradd --create-home scopa && mkdir -p /data && chown scopa /data

USER scopa
VOLUME ["/data"]
# Set TELEGRAM_TOKEN and/or DISCORD_TOKEN at run time, e.g.
#   docker run -e TELEGRAM_TOKEN=... -v scopa-data:/data scopa-bot
CMD ["scopa-bot", "run"]
