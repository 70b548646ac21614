# trash serve in a container: the game over SSH (and in browsers with --web), run as an
# unprivileged user, its data (history database, host key, players' settings, connection
# log, admin socket) in the volume /data.
#
#   docker build -t trash-tui .
#   docker run -d --name trash --read-only --tmpfs /tmp -p 2222:2222 -v trash-data:/data \
#       -e TRASH_PUBLIC_HOST=games.example.org trash-tui
#   docker run -d --name trash --read-only --tmpfs /tmp -p 2222:2222 -p 8080:8080 \
#       -v trash-data:/data -e TRASH_PUBLIC_HOST=games.example.org trash-tui --web 8080
#   docker exec trash trash admin who          # the operator's console (same user)
#   docker exec trash trash admin backup /data/backup-$(date +%F).sqlite3
#   docker exec trash trash serve --config /etc/trash/ssh-server.toml --check
#
# TRASH_PUBLIC_HOST (the config's public_host) is the name or address players reach this
# machine by: the join hint says `ssh -p 2222 CODE@games.example.org`. Without it the hint
# would name the container (its id), and the server says so when it starts. With a port
# other than 2222 on the host (-p 2200:2222), set public_port in your own config too.
# --read-only needs --tmpfs /tmp (the server's socket for the shared tables lives there;
# without it the start ends in one line saying so).
#
# Arguments after the image's name are trash serve's: --web 8080 adds the web face (the
# page at http://TRASH_PUBLIC_HOST:8080/; on another port of the host, or behind a proxy
# that does TLS, set [web] public_url in your own config).
#
# The server listens on every interface inside the container (port 2222, 8080 for
# browsers). To change a setting, mount your own file over /etc/trash/ssh-server.toml
# (keep the paths in /data); e.g. metrics = "0.0.0.0:9464" and -p 127.0.0.1:9464:9464 to scrape the metrics.
#
# Pinned: the base image by its exact version, the dependencies by constraints.txt (the
# versions the tests ran with).
FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TRASH_TUI_HISTORY=/data/history.sqlite3 \
    TRASH_PUBLIC_HOST=

WORKDIR /opt/trash-tui
COPY pyproject.toml setup.py README.md ./
COPY constraints.txt ./
COPY tournaments ./tournaments
COPY trash_tui ./trash_tui
COPY bots ./bots
# (PIP_CONSTRAINT holds the build backend to its pin too, in pip's isolated build)
RUN PIP_CONSTRAINT=/opt/trash-tui/constraints.txt pip install --constraint constraints.txt . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin trash \
    && mkdir -p /data /etc/trash \
    && chown trash:trash /data

# The config: every path in the data volume, every other key at its default (the web face
# on every interface, but only with --web PORT).
RUN printf '%s\n' \
    '[server]' \
    'host = "0.0.0.0"' \
    'port = 2222' \
    'host_key = "/data/ssh_host_ed25519_key"' \
    'history = "/data/history.sqlite3"' \
    'players_dir = "/data/players"' \
    'log = "/data/ssh.log"' \
    'admin_socket = "/data/admin.sock"' \
    '[web]' \
    'host = "0.0.0.0"' \
    > /etc/trash/ssh-server.toml

USER trash
VOLUME ["/data"]
EXPOSE 2222 8080

# Healthy while the server answers on its admin socket (exit status 0).
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 \
    CMD ["trash", "admin", "--config", "/etc/trash/ssh-server.toml", "stats"]

STOPSIGNAL SIGTERM
ENTRYPOINT ["trash", "serve", "--config", "/etc/trash/ssh-server.toml"]
