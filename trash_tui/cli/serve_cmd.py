"""``trash serve``: play Trash over SSH (``ssh -p 2222 HOST``) and, with ``--web PORT`` or a
``[web]`` table, in a browser (``trash_tui.web``); ``trash serve --check``
to check the config and the data folder without starting (``ssh.check``); and ``trash
serve hash-password`` for the password file.

The server runs until SIGTERM or Ctrl-C, then tells every session, waits for the apps to
say goodbye and exits 0. SIGHUP reloads it (``ssh.reload``: the config and the message of
the day's file read again, the connection log reopened). Start-up problems (config, host
key, address in use, no temporary folder) are one-line errors. The server modules are
imported only when a command runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from trash_tui.ssh.config import ServerConfig


async def serve(config: ServerConfig, load: Callable[[], ServerConfig] | None = None) -> int:
    """Run the server until SIGTERM or SIGINT (SIGHUP reloads it, reading the config
    again with ``load``); returns the number of sessions it ended."""
    from trash_tui.ssh.server import start_server

    link_codes = None
    if config.web.port is not None:
        from trash_tui.web.identity import Browsers

        link_codes = Browsers  # (the SSH lobby's "Play in a browser" codes)
    server = await start_server(config, link_codes=link_codes)
    if load is not None:
        server.state.load_config = load
    front = None
    if config.web.port is not None:
        from trash_tui.web.front import start_web

        try:
            front = await start_web(server)
        except BaseException:
            await server.stop()
            raise
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    reloads: set[asyncio.Task[str]] = set()

    def reload() -> None:
        task = asyncio.ensure_future(server.state.reload())
        reloads.add(task)
        task.add_done_callback(reloads.discard)

    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    for number in signals[:2]:
        loop.add_signal_handler(number, stop.set)
    loop.add_signal_handler(signal.SIGHUP, reload)
    try:
        click.echo(server.describe())  # after the handlers: a stop request is never lost
        if front is not None:
            click.echo(front.describe())
        for warning in server.warnings():
            click.echo(warning, err=True)
        await stop.wait()
        return await server.stop()
    finally:
        for number in signals:
            with contextlib.suppress(ValueError, RuntimeError):
                loop.remove_signal_handler(number)


def _public_host(ctx: click.Context, param: click.Parameter, value: str | None
                 ) -> str | None:
    from trash_tui.ssh.config import is_host_text

    if value is None or value == "":  # (an empty $TRASH_PUBLIC_HOST: the config's)
        return None
    if not is_host_text(value):
        raise click.BadParameter("expected a host name or address such as "
                                 "games.example.org, with no space or control character")
    return value


@click.group("serve", invoke_without_command=True)
@click.option("--host", metavar="ADDRESS",
              help="The address to listen on (default: the config's, else 127.0.0.1; "
                   "0.0.0.0 for every interface).")
@click.option("--port", type=click.IntRange(0, 65535),
              help="The port to listen on (default: the config's, else 2222; 0: any free "
                   "port).")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path),
              help="A TOML file with a [server] table (see ssh-server.toml).")
@click.option("--public-host", metavar="NAME", envvar="TRASH_PUBLIC_HOST",
              callback=_public_host,
              help="Where players reach the server, for the join hint ssh -p PORT "
                   "CODE@NAME (default: the config's public_host; also $TRASH_PUBLIC_HOST, "
                   "as in the container).")
@click.option("--web", "web_port", type=click.IntRange(0, 65535), metavar="PORT",
              help="Serve the game in browsers too, on this port (default: the config's "
                   "[web] port; none: no web face; 0: any free port).")
@click.option("--check", is_flag=True,
              help="Check the config and the data folder without starting: one line per "
                   "problem, exit status 0 when all is fine, 1 otherwise.")
@click.pass_context
def serve_group(ctx: click.Context, host: str | None, port: int | None,
                config: Path | None, public_host: str | None, web_port: int | None,
                check: bool) -> None:
    """Serve the game over SSH: every session plays in its own app (stop with Ctrl-C)."""
    if ctx.invoked_subcommand is not None:
        return
    if check:
        ctx.exit(check_command(config, host, port, public_host, web_port))
    from trash_tui.ssh.check import temporary_folder_problem
    from trash_tui.ssh.config import ServeError, load_server_config

    problem = temporary_folder_problem()  # before asyncssh, whose import writes a temp file
    if problem:
        raise click.ClickException(problem)

    def load() -> ServerConfig:
        return load_server_config(config, host, port, public_host, web_port)

    try:
        ended = asyncio.run(serve(load(), load))
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"trash serve: stopped ({ended} session{'' if ended == 1 else 's'} ended)")


def check_command(config: Path | None, host: str | None = None, port: int | None = None,
                  public_host: str | None = None, web_port: int | None = None) -> int:
    """Print every problem of ``config`` and its data folder, one line each, then a
    summary line; the exit status (0: all fine, 1: problems)."""
    from trash_tui.ssh.check import check_server
    from trash_tui.text import clean

    result = check_server(config, host, port, public_host, web_port)
    for problem in result.problems:  # (a value from the file is escaped in it already)
        click.echo(clean(problem, 600))
    click.echo(clean(result.summary(config), 600))
    return 1 if result.problems else 0


@serve_group.command("hash-password")
@click.argument("username")
def hash_password_command(username: str) -> None:
    """Print the password file line for USERNAME (asks for the password twice)."""
    from trash_tui.ssh.auth import hash_password, username_problem

    problem = username_problem(username)
    if problem:
        raise click.BadParameter(problem, param_hint="USERNAME")
    password = click.prompt("Password", hide_input=True, confirmation_prompt=True, err=True)
    click.echo(f"{username}:{hash_password(password)}")
