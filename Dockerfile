# The bot in a container. Games are kept in a SQLite file on the /app/data volume unless
# DATABASE_URL points at PostgreSQL (docker-compose.yml runs the bot with a PostgreSQL
# server). Give it the token: docker run -e DISCORD_TOKEN=... or --env-file .env.
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

# The locked dependencies first: a change to the code alone rebuilds only the layers below.
# Every file is checked against the lock's hashes; pip and setuptools (which builds the bot
# below, without build isolation, so nothing unpinned is fetched) come from their own lock.
COPY requirements-build.lock requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements-build.lock \
    && pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock \
    && rm requirements-build.lock requirements.lock

# Then the bot itself, installed as a package; it runs from there, not from the source.
COPY pyproject.toml README.md /src/
COPY bot /src/bot
COPY cogs /src/cogs
COPY rules /src/rules
COPY render /src/render
COPY lang /src/lang
RUN pip install --no-cache-dir --no-deps --no-build-isolation /src && rm -r /src \
    && useradd --create-home trash && mkdir -p data && chown trash data

USER trash
VOLUME ["/app/data"]

# /healthz answers 200 while the bot is connected to Discord and its database answers
# (bot/health.py). Listening on every interface lets an orchestrator probe from outside; the
# port is not published unless you publish it.
ENV HEALTH_PORT=8080 HEALTH_HOST=0.0.0.0
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['HEALTH_PORT'] + '/healthz', timeout=4)"]

# The bot runs as PID 1 and handles SIGTERM itself (bot/client.py): as PID 1 a process gets
# no default action for SIGTERM, so without its own handler `docker stop` would wait 10 s and
# kill it. On SIGTERM it refuses new presses, finishes the ones in flight, closes Discord and
# the database and exits 0 within 10 s. No init process is needed (compose adds one anyway).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
