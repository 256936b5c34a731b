# The bot in a container. Games are kept in a SQLite file on the /app/data volume unless
# DATABASE_URL points at PostgreSQL. Give it the token: docker run -e DISCORD_TOKEN=... or
# --env-file .env.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY render ./render
RUN pip install --no-cache-dir . && useradd --create-home trash && mkdir -p data && chown trash data

USER trash
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
