"""``trash admin``: the operator's console of a running ``trash serve``.

It talks to the server over the Unix socket in the server's data folder (``admin.sock``
beside the history database, or the config's ``admin_socket``), readable by the server's
own user only; nothing goes over the network. Each subcommand is one request; the
server's answer is printed (``--json`` prints its data); ``watch`` then shows the
player's terminal until ``q`` (``trash_tui.cli.watching``). No server running, a refusal
or a bad answer is one line on stderr and exit status 2, so ``trash admin stats`` is a
health check.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import click

from trash_tui.text import clean


def _socket_path(config: Path | None, socket: Path | None) -> Path:
    if socket is not None:
        return socket
    from trash_tui.ssh.config import ServeError, load_server_config

    try:
        return load_server_config(config).admin_path
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None


def ask(ctx: click.Context, command: str, args: dict[str, Any] | None = None,
        as_json: bool = False) -> None:
    """Send ``command`` to the server and print its answer (or fail with one line)."""
    reply = answer(ctx, command, args)
    if as_json:
        click.echo(json.dumps(reply.get("data"), indent=2, ensure_ascii=False))
    else:
        for line in str(reply.get("text", "")).splitlines():
            click.echo(clean(line))


def answer(ctx: click.Context, command: str, args: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    """The server's answer to ``command`` when it did it (else fail with one line)."""
    from trash_tui.admin.console import request

    path = _socket_path(ctx.obj["config"], ctx.obj["socket"])
    try:
        reply = request(path, command, args or {})
    except FileNotFoundError:
        raise click.ClickException(f"no server is running with this data folder (no {path})"
                                   ) from None
    except ConnectionRefusedError:
        raise click.ClickException(f"no server is running with this data folder (nothing "
                                   f"answers on {path})") from None
    except PermissionError:
        raise click.ClickException(f"{path}: permission denied (run trash admin as the "
                                   "user who runs the server)") from None
    except TimeoutError:
        raise click.ClickException("the server did not answer in time") from None
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"{path}: {getattr(exc, 'strerror', None) or exc}"
                                   ) from None
    if not reply.get("ok"):
        raise click.ClickException(clean(reply.get("error", "refused"), 500))
    return reply


@click.group("admin")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path),
              help="The server's TOML file (ssh-server.toml): where its data folder is.")
@click.option("--socket", "socket_path", type=click.Path(dir_okay=False, path_type=Path),
              help="The admin socket itself (default: admin.sock in the data folder).")
@click.pass_context
def admin_group(ctx: click.Context, config: Path | None, socket_path: Path | None) -> None:
    """The console of a running 'trash serve': who is on, kick, ban, mute, warn, tell,
    notices, reports, voids, the moderator's log, figures, backups, reload, watching a player and
    who came from where (and check, which needs no server)."""
    ctx.obj = {"config": config, "socket": socket_path}  # (read when a request is sent)


@admin_group.command("check")
@click.pass_context
def check(ctx: click.Context) -> None:
    """Check the server's config and data folder without the server: as 'trash serve
    --check' (one line per problem; exit status 1 when there is one)."""
    from trash_tui.cli.serve_cmd import check_command

    ctx.exit(check_command(ctx.obj["config"]))


json_option = click.option("--json", "as_json", is_flag=True, help="Print the data as JSON.")
reason_option = click.option("--reason", default="", help="Why (the player is told).")
for_option = click.option("--for", "duration", metavar="DURATION",
                          help="How long: 90s, 30m, 1h, 7d, 2w (default: for good).")


@admin_group.command("who")
@json_option
@click.pass_context
def who(ctx: click.Context, as_json: bool) -> None:
    """The sessions: name, key, address, since, where, CPU used."""
    ask(ctx, "who", as_json=as_json)


@admin_group.command("tables")
@json_option
@click.pass_context
def tables(ctx: click.Context, as_json: bool) -> None:
    """The shared tables: seats, status, spectators, age."""
    ask(ctx, "tables", as_json=as_json)


@admin_group.command("kick")
@click.argument("target")
@reason_option
@click.pass_context
def kick(ctx: click.Context, target: str, reason: str) -> None:
    """End the sessions of TARGET (a name, a key or an address); the player is told why."""
    ask(ctx, "kick", {"target": target, "reason": reason})


@admin_group.command("ban")
@click.argument("target")
@for_option
@reason_option
@click.pass_context
def ban(ctx: click.Context, target: str, duration: str | None, reason: str) -> None:
    """Refuse TARGET (a key SHA256:..., an address or network, or a name) at login."""
    ask(ctx, "ban", {"target": target, "for": duration, "reason": reason})


@admin_group.command("unban")
@click.argument("target")
@click.pass_context
def unban(ctx: click.Context, target: str) -> None:
    """Lift the bans of TARGET."""
    ask(ctx, "unban", {"target": target})


@admin_group.command("bans")
@json_option
@click.pass_context
def bans(ctx: click.Context, as_json: bool) -> None:
    """The bans and mutes in force."""
    ask(ctx, "bans", as_json=as_json)


@admin_group.command("mute")
@click.argument("target")
@for_option
@reason_option
@click.pass_context
def mute(ctx: click.Context, target: str, duration: str | None, reason: str) -> None:
    """Stop TARGET's chat lines from reaching anybody (they are told)."""
    ask(ctx, "mute", {"target": target, "for": duration, "reason": reason})


@admin_group.command("unmute")
@click.argument("target")
@click.pass_context
def unmute(ctx: click.Context, target: str) -> None:
    """Let TARGET chat again."""
    ask(ctx, "unmute", {"target": target})


@admin_group.command("close")
@click.argument("code")
@reason_option
@click.pass_context
def close(ctx: click.Context, code: str, reason: str) -> None:
    """Save and close the table CODE; its players are told why."""
    ask(ctx, "close", {"code": code, "reason": reason})


@admin_group.command("say")
@click.argument("text", nargs=-1, required=True)
@click.option("--seconds", type=click.FloatRange(1, 3600), default=15.0, show_default=True,
              help="How long the notice stays on the screens.")
@click.pass_context
def say(ctx: click.Context, text: tuple[str, ...], seconds: float) -> None:
    """A notice to every session (e.g. the server restarts in five minutes)."""
    ask(ctx, "say", {"text": " ".join(text), "seconds": seconds})


@admin_group.command("motd")
@click.argument("text", nargs=-1)
@click.option("--clear", is_flag=True, help="No message of the day.")
@click.pass_context
def motd(ctx: click.Context, text: tuple[str, ...], clear: bool) -> None:
    """Set the line shown in every lobby (no TEXT: show it)."""
    if clear and text:
        raise click.UsageError("give TEXT or --clear, not both")
    ask(ctx, "motd", {"text": " ".join(text), "clear": clear})


@admin_group.command("reload")
@click.pass_context
def reload(ctx: click.Context) -> None:
    """Read the config and the motd file again and reopen the log, as SIGHUP does: says
    what changed and what needs a restart (a broken config changes nothing)."""
    ask(ctx, "reload")


@admin_group.command("stats")
@json_option
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """The server's figures (the metrics endpoint's, as text or JSON)."""
    ask(ctx, "stats", as_json=as_json)


@admin_group.command("reports")
@click.option("--open", "only_open", is_flag=True, help="Only those not decided yet.")
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True,
              help="At most this many reports.")
@json_option
@click.pass_context
def reports(ctx: click.Context, only_open: bool, limit: int, as_json: bool) -> None:
    """The players' reports, newest first, with their status and the chat lines before
    each."""
    ask(ctx, "reports", {"open": only_open, "limit": limit}, as_json=as_json)


@admin_group.command("report")
@click.argument("number", metavar="ID", type=click.IntRange(1))
@click.argument("decision", required=False,
                type=click.Choice(["dismiss", "act", "reopen"]))
@click.argument("note", nargs=-1)
@json_option
@click.pass_context
def report(ctx: click.Context, number: int, decision: str | None, note: tuple[str, ...],
           as_json: bool) -> None:
    """Report ID with the table's kept chat around it; or decide it: dismiss, act (you
    acted on it) or reopen, with a NOTE."""
    if note and decision is None:
        raise click.UsageError("a NOTE comes after dismiss, act or reopen")
    ask(ctx, "report", {"id": number, "decision": decision, "note": " ".join(note)},
        as_json=as_json)


@admin_group.command("tell")
@click.argument("target")
@click.argument("text", nargs=-1, required=True)
@click.pass_context
def tell(ctx: click.Context, target: str, text: tuple[str, ...]) -> None:
    """A message to one connected player (a name or a key), on whatever screen they are."""
    ask(ctx, "tell", {"target": target, "text": " ".join(text)})


@admin_group.command("warn")
@click.argument("target")
@click.argument("reason", nargs=-1, required=True)
@click.pass_context
def warn(ctx: click.Context, target: str, reason: tuple[str, ...]) -> None:
    """Warn a player (before a mute or a ban): shown now, or when they next arrive; kept
    with their record."""
    ask(ctx, "warn", {"target": target, "reason": " ".join(reason)})


@admin_group.command("player")
@click.argument("target")
@json_option
@click.pass_context
def player(ctx: click.Context, target: str, as_json: bool) -> None:
    """A player's record: keys, when seen, bans and mutes, warnings, reports, voids."""
    ask(ctx, "player", {"target": target}, as_json=as_json)


@admin_group.command("void")
@click.argument("target")
@reason_option
@click.pass_context
def void(ctx: click.Context, target: str, reason: str) -> None:
    """Take TARGET's rated matches so far out of the rating (a cheater's results): every
    player's rating is rebuilt as if they had never been played."""
    ask(ctx, "void", {"target": target, "reason": reason})


@admin_group.command("unvoid")
@click.argument("target")
@click.pass_context
def unvoid(ctx: click.Context, target: str) -> None:
    """Put TARGET's voided matches back in the rating (rebuilt again)."""
    ask(ctx, "unvoid", {"target": target})


@admin_group.command("log")
@click.option("--player", metavar="NAME", help="Only acts on this player (a name or a key).")
@click.option("--action", metavar="ACTION",
              help="Only this act: ban, unban, mute, unmute, kick, close, warn, tell, "
                   "report, void, unvoid, say, motd.")
@click.option("--since", metavar="DURATION", help="Only the last 90s, 30m, 1h, 7d, 2w...")
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True,
              help="At most this many acts.")
@json_option
@click.pass_context
def log(ctx: click.Context, player: str | None, action: str | None, since: str | None,
        limit: int, as_json: bool) -> None:
    """The moderator's log, newest first: who (the operator's user name) did what to
    whom, when."""
    ask(ctx, "log", {"player": player, "action": action, "since": since, "limit": limit},
        as_json=as_json)


@admin_group.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def backup(ctx: click.Context, file: Path) -> None:
    """Write a consistent copy of the history database to FILE (a new file), while the
    server runs (SQLite's online backup). The server makes the copy in its data folder;
    this command, as you, writes FILE."""
    from trash_tui.admin.backup import BackupError, abandon, deliver, open_target

    target = Path(os.path.abspath(file))
    try:
        partial = open_target(target)  # the place can take it, before the server works
        try:
            reply = answer(ctx, "backup")
            data = reply.get("data") or {}
            spool = data.get("file")
            if not isinstance(spool, str) or not spool:
                raise click.ClickException("the server's answer names no backup file")
            deliver(Path(spool), partial, target)
        finally:
            abandon(partial, target)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(clean(f"{reply.get('text', 'backed up')} to {target}"))


@admin_group.command("seen")
@click.argument("target")
@json_option
@click.pass_context
def seen(ctx: click.Context, target: str, as_json: bool) -> None:
    """Which addresses TARGET (a key or a name) came from and which other keys came from
    them; or which keys came from TARGET (an address or a network such as 203.0.113.0/24)."""
    ask(ctx, "seen", {"target": target}, as_json=as_json)


@admin_group.command("watch")
@click.argument("target")
@click.pass_context
def watch(ctx: click.Context, target: str) -> None:
    """Watch TARGET's terminal (a name or a key) live, read-only: what their session draws,
    from a whole screen on. q or ctrl-c stops; nothing you type reaches the player."""
    from trash_tui.cli.watching import WatchRefused, WatchStream, show

    path = _socket_path(ctx.obj["config"], ctx.obj["socket"])
    try:
        stream = WatchStream.open(path, target)
    except WatchRefused as exc:
        raise click.ClickException(str(exc)) from None
    except (FileNotFoundError, ConnectionRefusedError):
        raise click.ClickException(f"no server is running with this data folder (nothing "
                                   f"answers on {path})") from None
    except PermissionError:
        raise click.ClickException(f"{path}: permission denied (run trash admin as the "
                                   "user who runs the server)") from None
    except (OSError, TimeoutError) as exc:
        raise click.ClickException(f"{path}: {getattr(exc, 'strerror', None) or exc}"
                                   ) from None
    name = clean(str(stream.info.get("name", target)), 24)
    size = f"{stream.info.get('width', '?')}x{stream.info.get('height', '?')}"
    mine = shutil.get_terminal_size((0, 0))
    if sys.stdout.isatty() and (mine.columns < int(stream.info.get("width") or 0) or
                                mine.lines < int(stream.info.get("height") or 0)):
        click.echo(f"{name}'s terminal is {size}, yours {mine.columns}x{mine.lines}: "
                   "make yours larger to see it all")
        time.sleep(2.0)
    why = show(stream)
    click.echo(f"stopped watching {name} ({size}): {why}")
