"""``trash simulate``: headless deals or matches with the built-in policies.

The bots' names are printed with their control characters escaped (``visible``); a seed
that is not UTF-8 text, or a record file that cannot be written, is a one-line error."""

from __future__ import annotations

import json
from pathlib import Path

import click

from trash_tui.cli.text_option import check_utf8
from trash_tui.presets import PRESETS
from trash_tui.rules_file import load_rules_arg
from trash_tui.simulate import SimulationReport, simulate
from trash_tui.text import visible


def _percent(x: float) -> str:
    return f"{100 * x:5.1f}%"


def print_report(report: SimulationReport) -> None:
    """The human-readable summary."""
    unit = "deals" if report.mode == "deals" else "matches"
    bots = [visible(bot) for bot in report.bots]
    click.echo(f"rules {visible(report.rules_name)}, {report.players} players, bots "
               f"{', '.join(bots)}, seed {visible(report.seed)}")
    click.echo(f"deals played         {report.deals}" +
               (f" (+{report.voided} void, re-dealt)" if report.voided else ""))
    if report.mode == "matches":
        click.echo(f"matches played       {report.matches}" +
                   (f" ({report.abandoned} abandoned)" if report.abandoned else ""))
    turns = report.mean_turns_per_deal
    click.echo(f"mean turns per deal  {turns:.2f}" if turns is not None else
               "mean turns per deal  -")
    per_match = report.mean_deals_per_match
    click.echo(f"mean deals per match {per_match:.2f}" if per_match is not None else
               "mean deals per match -  (deal mode)")
    click.echo(f"wins by seat ({unit} won, 95% Wilson interval):")
    width = max(len(b) for b in bots)
    for seat, (wins, share, (low, high)) in enumerate(
            zip(report.seat_wins, report.seat_share(), report.seat_intervals(), strict=True)):
        click.echo(f"  seat {seat}  {bots[seat]:<{width}}  {wins:>8}  {_percent(share)}"
                   f"  [{_percent(low)}, {_percent(high)}]")
    rate = f"{report.per_second(report.deals):,.0f} deals/s"
    if report.mode == "matches":
        rate += f", {report.per_second(report.matches):,.1f} matches/s"
    click.echo(f"throughput           {rate} ({report.elapsed:.2f} s)")


def parse_seed(text: str) -> int | str:
    """An integer seed when the text is a plain integer, else the text itself."""
    try:
        return int(text) if text.strip().lstrip("+-").isascii() else text
    except ValueError:
        return text


@click.command("simulate")
@click.option("--rules", "rules_arg", default="standard", show_default=True,
              metavar="NAME|FILE", help="A preset name or a TOML file with a [rules] table.")
@click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True)
@click.option("--bot", "bots", multiple=True, metavar="NAME",
              help="Bot per seat: a name (trash bots list), a .py file, package.module:Class, "
                   "or a TOML inline table like '{ name = \"normal\", mistakes = 0.1 }'. "
                   "Repeats to fill the table. Default: greedy.")
@click.option("--deals", type=click.IntRange(1), help="Play K independent deals "
              "(starting layout size, seat 0 first).")
@click.option("--matches", type=click.IntRange(1), help="Play K whole matches.")
@click.option("--seed", default="1", show_default=True, callback=check_utf8,
              help="Seed (an integer or a word).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a record of every game (JSON Lines) to FILE.")
def simulate_command(rules_arg: str, players: int, bots: tuple[str, ...], deals: int | None,
                     matches: int | None, seed: str, as_json: bool,
                     record: Path | None) -> None:
    """Play headless deals or matches and print statistics."""
    if (deals is None) == (matches is None):
        raise click.UsageError("give exactly one of --deals K or --matches K")
    rules = load_rules_arg(rules_arg)
    rules_name = rules_arg if rules_arg in PRESETS else str(rules_arg)
    seed_value = parse_seed(seed)
    mode, count = ("deals", deals) if deals is not None else ("matches", matches)
    assert count is not None
    if record is not None:
        try:
            handle = record.open("w", encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"--record: cannot write {record}: "
                                       f"{exc.strerror or exc}") from None
        try:
            with handle:
                report = simulate(rules, rules_name, players, bots, mode, count, seed_value,
                                  handle)
        except OSError as exc:  # a full disk, a closed pipe: the records so far are kept
            raise click.ClickException(f"--record: cannot write {record}: "
                                       f"{exc.strerror or exc}") from None
    else:
        report = simulate(rules, rules_name, players, bots, mode, count, seed_value)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        print_report(report)
        if record is not None:
            click.echo(f"records written to {record}")
