"""``trash rules``: list the presets, show a rule set option by option, check a TOML file."""

from __future__ import annotations

import click
import tomli_w

from trash_tui.cli.main import EXIT_ERROR
from trash_tui.presets import PRESETS, preset_name_of
from trash_tui.rules import OPTIONS, Rules
from trash_tui.rules_file import SHOWN_PROBLEMS, check_rules_file, load_rules_arg


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def changed_options(rules: Rules) -> dict[str, object]:
    """The options where ``rules`` differs from the standard game."""
    standard = Rules()
    return {s.name: getattr(rules, s.name) for s in OPTIONS
            if getattr(rules, s.name) != getattr(standard, s.name)}


@click.group("rules")
def rules_group() -> None:
    """List, show and check rule sets (presets and TOML files)."""


@rules_group.command("list")
def list_command() -> None:
    """List the named presets."""
    width = max(len(name) for name in PRESETS)
    for preset in PRESETS.values():
        click.echo(f"{preset.name:<{width}}  {preset.description}")


@rules_group.command("show")
@click.argument("name")
@click.option("--toml", "as_toml", is_flag=True, help="Print a [rules] table to paste into "
              "a config file instead.")
def show_command(name: str, as_toml: bool) -> None:
    """Show every option of a preset (or of a TOML file's [rules]) with its meaning."""
    rules = load_rules_arg(name)
    if as_toml:
        preset = preset_name_of(rules)
        table: dict[str, object] = {"preset": preset or "standard"}
        if preset is None:
            table.update(changed_options(rules))
        click.echo(tomli_w.dumps({"rules": table}), nl=False)
        return
    if name in PRESETS:
        click.echo(f"{name}: {PRESETS[name].description}")
    else:
        preset = preset_name_of(rules)
        click.echo(f"{name}: " + (f"the same rules as the preset {preset!r}" if preset
                                  else "custom rules"))
    click.echo()
    changed = changed_options(rules)
    width = max(len(s.name) for s in OPTIONS)
    for spec in OPTIONS:
        value = _value_text(getattr(rules, spec.name))
        mark = "*" if spec.name in changed else " "
        click.echo(f"{mark} {spec.name:<{width}} = {value:<10} {spec.meaning}")
    click.echo()
    click.echo("* differs from the standard game")


@rules_group.command("check")
@click.argument("file", type=click.Path())
def check_command(file: str) -> None:
    """Check the [rules] table of a TOML file; exit 2 with its problems (one line each,
    the first 20 and how many more) if it is wrong."""
    rules, problems = check_rules_file(file)
    if rules is None:
        for problem in problems[:SHOWN_PROBLEMS]:
            click.echo(f"trash: error: {problem}", err=True)
        if len(problems) > SHOWN_PROBLEMS:
            click.echo(f"trash: error: and {len(problems) - SHOWN_PROBLEMS:,} more "
                       f"problems ({len(problems):,} in all)", err=True)
        raise click.exceptions.Exit(EXIT_ERROR)
    preset = preset_name_of(rules)
    changed = changed_options(rules)
    if preset:
        summary = f"the preset {preset!r}"
    else:
        summary = "custom: " + ", ".join(f"{k} = {_value_text(v)}" for k, v in changed.items())
    click.echo(f"{file}: ok ({summary})")
