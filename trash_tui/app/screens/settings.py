"""The settings screen: the user's rules, seats, look and keys as one form, saved to a file.

``SettingsScreen(settings, path)`` shows every option of ``Settings`` as a form control,
checks the form on every change (a message next to the field that is wrong, and the
problems ``check_settings`` finds in a problems area), and dismisses with the saved
``Settings`` (Save, ctrl+s) or None (Cancel, escape; nothing written). Choosing a theme
previews it; Cancel puts the previous theme back. With no ``path`` (a guest over SSH,
for whom nothing is kept) Save uses the settings for this visit and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, Switch

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.engine.match import MAX_PLAYERS, MIN_PLAYERS
from trash_tui.presets import PRESETS, preset_name_of
from trash_tui.rules import OPTIONS, OptionSpec, Rules, option_label
from trash_tui.settings import (
    ANIMATIONS,
    BINDING_IDS,
    DEFAULT_ANIMATION,
    HUMAN,
    LEVELS,
    NAME_MAX_LENGTH,
    SeatSpec,
    Settings,
    check_settings,
    save_settings,
)

DEFAULT_LEVEL = "normal"
#: From this width the form has two columns and full-size (bordered) controls.
WIDE_WIDTH = 120
_DEFAULT_RULES = Rules()


# --- pure helpers ------------------------------------------------------------------------

def words(identifier: str) -> str:
    """An option or binding id as words: ``start_size`` → ``Start size`` (an option's
    label is ``option_label``'s, as the rules help shows it)."""
    return option_label(identifier.replace("-", " "))


def switch_word(value: bool) -> str:
    """A switch's state in words, shown beside it (the switch alone shows it by colour)."""
    return "on" if value else "off"


def int_problem(spec: OptionSpec, text: str) -> str | None:
    """What is wrong with ``text`` as the value of the integer option ``spec``, or None."""
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or not (spec.low is None or spec.high is None
                             or spec.low <= value <= spec.high):
        shown = text.strip() or "nothing"
        return f"{spec.name}: {spec.allowed()} (got {shown})"
    return None


def seat_text(spec: SeatSpec) -> str:
    """One seat as the line-up shows it: ``human``, ``normal`` or ``hard (mistakes=0.05)``."""
    if isinstance(spec, str):
        return spec
    name = spec.get("bot", spec.get("name", "bot"))
    rest = ", ".join(f"{k}={v!r}" for k, v in spec.items() if k not in ("bot", "name"))
    return f"{name} ({rest})" if rest else str(name)


def simple_seats(players: int, level: str) -> tuple[str, ...]:
    """The line-up the players and level controls stand for: you, then bots of one level."""
    return (HUMAN, *[level] * (players - 1))


def seat_controls(seats: tuple[SeatSpec, ...]) -> tuple[int, str]:
    """The players and level controls' values for a line-up (the first known level)."""
    players = min(max(len(seats), MIN_PLAYERS), MAX_PLAYERS)
    for spec in seats:
        name = spec if isinstance(spec, str) else spec.get("bot", spec.get("name"))
        if name in LEVELS:
            return players, str(name)
    return players, DEFAULT_LEVEL


def key_clashes(keymap: Mapping[str, str]) -> dict[str, str]:
    """For every binding sharing a key with another: ``'s' is also the key of swap``."""
    owners: dict[str, list[str]] = {}
    for binding, keys in keymap.items():
        for part in dict.fromkeys(p.strip() for p in keys.split(",") if p.strip()):
            owners.setdefault(part, []).append(binding)
    messages: dict[str, str] = {}
    for key, bindings in owners.items():
        for binding in bindings if len(bindings) > 1 else ():
            others = " and ".join(b for b in bindings if b != binding)
            messages.setdefault(binding, f"keys.{binding}: {key!r} is also the key of {others}")
    return messages


class OptionValidator(Validator):
    """Live check of an integer rule option's Input (the message names option and range)."""

    def __init__(self, spec: OptionSpec) -> None:
        super().__init__()
        self.spec = spec

    def validate(self, value: str) -> ValidationResult:
        problem = int_problem(self.spec, value)
        return self.failure(problem, value) if problem else self.success()


# --- the screen --------------------------------------------------------------------------

class NumberInput(Input):
    """A number's field: however it is entered (tab or a click), its value is selected,
    so what is typed replaces it ("5", not "510"); a click in a field already entered
    places the cursor as usual.

    Tab selects through ``Input``'s own ``select_on_focus``; a click's mouse-down then
    puts the cursor where it landed, so the mouse-up that ends the entering click selects
    the value again. Public handlers only: Textual runs them besides ``Input``'s own."""

    _entered = False  # focused, and no click has placed the cursor since

    def on_focus(self, event: events.Focus) -> None:
        self._entered = True

    def on_blur(self, event: events.Blur) -> None:
        self._entered = False

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._entered and self.selection.is_empty:
            self.select_all()
        self._entered = False


class SettingsScreen(Screen[Settings | None]):
    """Edit and save the user's settings; dismisses with the saved Settings or None."""

    DEFAULT_CSS = """
    SettingsScreen { layout: vertical; }
    #settings-title { height: 1; padding: 0 1; background: $panel; text-style: bold; }
    #settings-form { height: 1fr; padding: 0 1; }
    .settings-column { height: auto; width: 1fr; }
    SettingsScreen.-wide #settings-form { layout: horizontal; }
    SettingsScreen.-wide .settings-column { padding: 0 1; }
    .settings-heading { margin-top: 1; padding: 0 1; width: 100%; text-style: bold;
                        color: $accent; border-bottom: solid $accent; }
    .setting-row { height: auto; }
    .setting-label { width: 22; height: 1; content-align: left middle; }
    .setting-row.-focused .setting-label { text-style: bold reverse; }
    SettingsScreen.-wide .setting-label { width: 26; height: 3; }
    .setting-row Select { width: 1fr; }
    .setting-row Input { width: 1fr; }
    .setting-row Input.setting-number { width: 12; }
    .setting-row Input.setting-key { width: 24; }
    .setting-hint { height: 1; width: auto; padding: 0 1; content-align: left middle;
                    color: $text-muted; }
    SettingsScreen.-wide .setting-hint { height: 3; }
    SettingsScreen.-narrow Switch { border: none; padding: 0 1; }
    SettingsScreen.-narrow Switch:focus { border: none; }
    .setting-meaning { padding: 0 0 0 2; color: $text-muted; }
    .setting-error { padding: 0 0 0 2; color: $error; text-style: bold; display: none; }
    .setting-error.-shown { display: block; }
    #settings-preset-status { padding: 0 0 0 2; text-style: italic; }
    #settings-lineup { padding: 0 0 0 2; }
    #settings-history { padding: 0 0 0 2; color: $text-muted; }
    #settings-problems { height: auto; max-height: 5; padding: 0 1; overflow-y: auto;
                         background: $boost; }
    #settings-problems.-problems { color: $error; }
    #settings-buttons { height: auto; padding: 0 1; }
    #settings-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="save-settings"),
        Binding("ctrl+r", "reset", "Reset to defaults", id="reset-settings"),
        Binding("escape", "close", "Cancel", id="close-settings"),
    ]
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"), (WIDE_WIDTH, "-wide"),
    ]

    def __init__(self, settings: Settings, path: Path | None) -> None:
        super().__init__()
        self.settings = settings
        self.path = Path(path) if path is not None else None  # None: for this visit only
        self.problems: list[str] = []
        self._theme_before = ""
        players, level = seat_controls(settings.seats)
        kept = settings.seats != simple_seats(players, level)
        #: A richer line-up from the file, kept while players and level stay at these values.
        self._kept_seats: tuple[SeatSpec, ...] | None = settings.seats if kept else None
        self._kept_controls = (players, level)
        self._kept_problems = self._seat_problems(self._kept_seats)

    # --- building the form -----------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("Settings", id="settings-title", markup=False)
        with VerticalScroll(id="settings-form"):
            with Vertical(classes="settings-column", id="settings-left"):
                yield from self._compose_rules()
            with Vertical(classes="settings-column", id="settings-right"):
                yield from self._compose_seats()
                yield from self._compose_app()
                yield from self._compose_keys()
        yield Static(id="settings-problems", markup=False)
        with Horizontal(id="settings-buttons"):
            yield Button("Save", id="settings-save", variant="primary")
            yield Button("Reset to defaults", id="settings-reset")
            yield Button("Cancel", id="settings-cancel")
        yield TrashFooter()

    @staticmethod
    def _row(label: str, *controls: Widget, meaning: str = "", error_for: str = "",
             ) -> Iterable[Widget]:
        yield Horizontal(Label(label, classes="setting-label", markup=False), *controls,
                         classes="setting-row")
        if meaning:
            yield Static(meaning, classes="setting-meaning", markup=False)
        if error_for:
            yield Static(id=f"{error_for}-error", classes="setting-error", markup=False)

    def _compose_rules(self) -> ComposeResult:
        rules = self.settings.rules
        yield Static("Rules", classes="settings-heading", markup=False)
        preset = preset_name_of(rules)
        yield from self._row(
            "Start from a preset",
            Select([(name, name) for name in PRESETS], value=preset or Select.NULL,
                   prompt="custom rules (choose a preset)", id="settings-preset"),
        )
        yield Static(id="settings-preset-status", markup=False)
        for spec in OPTIONS:
            control_id = f"rule-{spec.name}"
            value = getattr(rules, spec.name)
            controls: list[Widget]
            if spec.kind is bool:
                controls = [Switch(value=bool(value), id=control_id),
                            Label(switch_word(bool(value)), id=f"{control_id}-state",
                                  classes="setting-hint", markup=False)]
            elif spec.choices:
                controls = [Select([(c, c) for c in spec.choices], value=value,
                                   allow_blank=False, id=control_id)]
            else:
                controls = [
                    NumberInput(str(value), type="integer", id=control_id,
                                classes="setting-number", validators=[OptionValidator(spec)]),
                    Label(f"from {spec.low} to {spec.high}", classes="setting-hint", markup=False),
                ]
            yield from self._row(words(spec.name), *controls, meaning=spec.meaning,
                                 error_for=control_id)

    def _compose_seats(self) -> ComposeResult:
        players, level = self._kept_controls
        yield Static("Seats", classes="settings-heading", markup=False)
        yield from self._row(
            "Players",
            Select([(f"{n} players", n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
                   value=players, allow_blank=False, id="settings-players"),
            meaning="how many players a new match seats: you and the bots",
            error_for="settings-players",
        )
        yield from self._row(
            "Opponents",
            Select([(name, name) for name in LEVELS], value=level, allow_blank=False,
                   id="settings-level"),
            meaning="the level of every bot at the table",
        )
        yield Static(id="settings-lineup", markup=False)

    def _compose_app(self) -> ComposeResult:
        settings = self.settings
        yield Static("App", classes="settings-heading", markup=False)
        animation = settings.animation if settings.animation in ANIMATIONS else (
            DEFAULT_ANIMATION)
        yield from self._row(
            "Animation",
            Select([(a, a) for a in ANIMATIONS], value=animation, allow_blank=False,
                   id="settings-animation"),
            meaning="how fast the bots' moves are shown: off, fast or normal",
            error_for="settings-animation",
        )
        themes = sorted(self.app.available_themes)
        shown = [(t, t) for t in themes]
        if settings.theme not in self.app.available_themes:
            shown.insert(0, (f"{settings.theme} (not available)", settings.theme))
        yield from self._row(
            "Theme",
            Select(shown, value=settings.theme, allow_blank=False, id="settings-theme"),
            meaning="the colours of the app (previewed as you choose)",
            error_for="settings-theme",
        )
        yield from self._row(
            "Your name",
            Input(settings.name, max_length=NAME_MAX_LENGTH, id="settings-name"),
            meaning=f"shown at your seat (at most {NAME_MAX_LENGTH} characters)",
            error_for="settings-name",
        )
        history = settings.history_path()
        yield Static(f"History database: {history} (set in the settings file)",
                     id="settings-history", markup=False)

    def _compose_keys(self) -> ComposeResult:
        yield Static("Keys", classes="settings-heading", markup=False)
        yield Static("One key per action, or several separated by commas (e.g. s,ctrl+s). "
                     "The wild slot keys 1..9 and 0 are fixed.", classes="setting-meaning",
                     markup=False)
        for binding, default in BINDING_IDS.items():
            control_id = f"key-{binding}"
            yield from self._row(
                words(binding),
                Input(self.settings.keymap[binding], id=control_id, classes="setting-key"),
                Label(f"default {default}", classes="setting-hint", markup=False),
                error_for=control_id,
            )

    def on_mount(self) -> None:
        self._theme_before = self.app.theme
        self.update_state()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Mark the row of the focused control (its label shows reversed)."""
        row = next((w for w in event.widget.ancestors_with_self
                    if w.has_class("setting-row")), None)
        for other in self.query(".setting-row.-focused"):
            if other is not row:
                other.remove_class("-focused")
        if row is not None:
            row.add_class("-focused")

    def on_resize(self, event: events.Resize) -> None:
        """Below the wide breakpoint the controls go compact (one line each, no border)."""
        compact = event.size.width < WIDE_WIDTH
        for widget in self.query("Select, Input, Button"):
            if isinstance(widget, Select | Input | Button):
                widget.compact = compact

    # --- reading the form ------------------------------------------------------------
    def _rules_values(self) -> tuple[dict[str, Any], dict[str, str]]:
        """Every rule option from its control, and the messages of the ones that are wrong
        (those take the standard value so the rest can still be checked)."""
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for spec in OPTIONS:
            control_id = f"rule-{spec.name}"
            if spec.kind is bool:
                values[spec.name] = self.query_one(f"#{control_id}", Switch).value
            elif spec.choices:
                values[spec.name] = str(self.query_one(f"#{control_id}", Select).value)
            else:
                text = self.query_one(f"#{control_id}", Input).value
                problem = int_problem(spec, text)
                if problem:
                    errors[control_id] = problem
                    values[spec.name] = getattr(_DEFAULT_RULES, spec.name)
                else:
                    values[spec.name] = int(text.strip())
        return values, errors

    def _number(self, select_id: str) -> int:
        """The number a Select of numbers shows (made with ``allow_blank=False``: never
        blank)."""
        value = self.query_one(f"#{select_id}", Select).value
        assert isinstance(value, int), value
        return value

    def _seats(self) -> tuple[SeatSpec, ...]:
        players = self._number("settings-players")
        level = str(self.query_one("#settings-level", Select).value)
        if self._kept_seats is not None and (players, level) == self._kept_controls:
            return self._kept_seats
        return simple_seats(players, level)

    @staticmethod
    def _seat_problems(seats: tuple[SeatSpec, ...] | None) -> list[str]:
        """The problems of a kept line-up's seats, checked once (a seat may be a user's
        bot file, which should not be loaded again at every key press)."""
        if seats is None:
            return []
        return [p for p in check_settings(Settings(seats=seats))
                if p.startswith("seats.players[")]

    def _checked(self, settings: Settings) -> list[str]:
        """``check_settings`` of the form, with a kept line-up's seats checked only once."""
        kept = self._kept_seats
        if kept is None or settings.seats != kept:
            return check_settings(settings)
        stand_in = simple_seats(len(kept), self._kept_controls[1])
        return self._kept_problems + check_settings(replace(settings, seats=stand_in))

    def _form_settings(self) -> tuple[Settings, dict[str, str]]:
        """The Settings the form stands for, and per-field messages of unusable values."""
        values, errors = self._rules_values()
        keymap = {b: self.query_one(f"#key-{b}", Input).value.strip() for b in BINDING_IDS}
        settings = Settings(
            rules=Rules(**values),
            seats=self._seats(),
            animation=str(self.query_one("#settings-animation", Select).value),
            theme=str(self.query_one("#settings-theme", Select).value),
            keymap=keymap,
            history=self.settings.history,
            name=self.query_one("#settings-name", Input).value.strip(),
        )
        return settings, errors

    @staticmethod
    def _field_of(problem: str) -> str | None:
        """The control a ``check_settings`` problem belongs to (by its ``table.key`` label)."""
        label = problem.partition(": ")[0]
        table, _, key = label.partition(".")
        if table == "rules" and key:
            return f"rule-{key}"
        if table == "seats":
            return "settings-players"
        if table == "app" and key in ("animation", "theme", "name"):
            return f"settings-{key}"
        if table == "keys" and key:
            return f"key-{key}"
        return None

    def update_state(self) -> list[str]:
        """Check the whole form; show each problem by its field and in the problems area.
        Returns the problems (empty: the form can be saved)."""
        settings, errors = self._form_settings()
        problems = list(errors.values()) + self._checked(settings)
        for problem in problems:
            field = self._field_of(problem)
            if field:
                errors.setdefault(field, problem)
        for binding, message in key_clashes(settings.keymap).items():
            errors.setdefault(f"key-{binding}", message)
        for label in self.query(".setting-error").results(Static):
            field = (label.id or "").removesuffix("-error")
            message = errors.get(field)
            label.update(f"✗ {message}" if message else "")
            label.set_class(message is not None, "-shown")
        for spec in OPTIONS:
            if spec.kind is bool:
                state = self.query_one(f"#rule-{spec.name}-state", Label)
                state.update(switch_word(getattr(settings.rules, spec.name)))
        self._show_problems(problems)
        self._show_preset(settings.rules)
        self._show_lineup(settings.seats)
        self.problems = problems
        return problems

    def _show_problems(self, problems: list[str]) -> None:
        area = self.query_one("#settings-problems", Static)
        area.set_class(bool(problems), "-problems")
        if problems:
            count = "1 problem" if len(problems) == 1 else f"{len(problems)} problems"
            area.update(f"✗ {count} — Save is refused until fixed:\n"
                        + "\n".join(f"• {p}" for p in problems))
        else:
            area.update(f"✓ No problems — Save writes {self.path}" if self.path is not None
                        else "✓ No problems — Save uses them for this visit (a guest's "
                             "settings are not kept)")

    def _show_preset(self, rules: Rules) -> None:
        name = preset_name_of(rules)
        status = self.query_one("#settings-preset-status", Static)
        if name is None:
            status.update("These rules are custom: no preset has exactly these options.")
        else:
            status.update(f"These rules are the {name} preset: {PRESETS[name].description}")
        select = self.query_one("#settings-preset", Select)
        if select.value != (name or Select.NULL):
            with self.prevent(Select.Changed):
                if name is None:
                    select.clear()
                else:
                    select.value = name

    def _show_lineup(self, seats: tuple[SeatSpec, ...]) -> None:
        text = "Line-up: " + ", ".join(seat_text(s) for s in seats)
        if self._kept_seats is not None and seats == self._kept_seats:
            text += " (from your settings file; changing players or level replaces it)"
        self.query_one("#settings-lineup", Static).update(text)

    # --- filling the form ------------------------------------------------------------
    def fill_rules(self, rules: Rules) -> None:
        """Set every rule control to ``rules``."""
        for spec in OPTIONS:
            value = getattr(rules, spec.name)
            control_id = f"#rule-{spec.name}"
            if spec.kind is bool:
                self.query_one(control_id, Switch).value = bool(value)
            elif spec.choices:
                self.query_one(control_id, Select).value = value
            else:
                self.query_one(control_id, Input).value = str(value)

    def fill(self, settings: Settings) -> None:
        """Set the whole form to ``settings`` (the history database is kept as it is)."""
        self.fill_rules(settings.rules)
        players, level = seat_controls(settings.seats)
        self._kept_seats = None if settings.seats == simple_seats(players, level) else (
            settings.seats)
        self._kept_controls = (players, level)
        self._kept_problems = self._seat_problems(self._kept_seats)
        self.query_one("#settings-players", Select).value = players
        self.query_one("#settings-level", Select).value = level
        if settings.animation in ANIMATIONS:
            self.query_one("#settings-animation", Select).value = settings.animation
        theme = self.query_one("#settings-theme", Select)
        if settings.theme in self.app.available_themes:
            theme.value = settings.theme
        self.query_one("#settings-name", Input).value = settings.name
        for binding in BINDING_IDS:
            self.query_one(f"#key-{binding}", Input).value = settings.keymap[binding]
        self.update_state()

    # --- reacting to changes ---------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "settings-preset":
            self._preset_chosen(event.select, event.value)
        elif event.select.id == "settings-theme":
            self._preview_theme(event.value)
        self.update_state()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self.update_state()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.update_state()

    def _preset_chosen(self, select: Select[str], chosen: object) -> None:
        """Set every rule control to the chosen preset (unless they already are)."""
        if not isinstance(chosen, str) or chosen != select.value:
            return  # blanked or changed again since
        values, errors = self._rules_values()
        if errors or Rules(**values) != PRESETS[chosen].rules:
            self.fill_rules(PRESETS[chosen].rules)

    def _preview_theme(self, theme: object) -> None:
        if isinstance(theme, str) and theme in self.app.available_themes and (
                theme != self.app.theme):
            self.app.theme = theme

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"settings-save": self.action_save, "settings-reset": self.action_reset,
                   "settings-cancel": self.action_close}
        action = actions.get(event.button.id or "")
        if action is not None:
            event.stop()
            action()

    # --- actions ---------------------------------------------------------------------
    def action_save(self) -> None:
        """Write the form to the settings file and close, unless something is wrong."""
        problems = self.update_state()
        if problems:
            self.notify(f"Not saved: {problems[0]}", title="Settings", severity="error",
                        markup=False)
            return
        settings, _ = self._form_settings()
        if self.path is None:
            self.notify("Settings used for this visit (a guest's are not kept).",
                        title="Settings", markup=False)
            self.dismiss(settings)
            return
        try:
            save_settings(settings, self.path)
        except (OSError, ValueError) as exc:
            message = " ".join(str(exc).split()) or type(exc).__name__
            self.notify(f"Not saved: {message}", title="Settings", severity="error",
                        markup=False)
            return
        self.notify(f"Settings saved to {self.path}", title="Settings", markup=False)
        self.dismiss(settings)

    def action_reset(self) -> None:
        """Set the form to the default settings (written only on Save)."""
        self.fill(Settings(history=self.settings.history))
        self.notify("The form shows the default settings; Save keeps them.", title="Settings",
                    markup=False)

    def action_close(self) -> None:
        """Close without writing; the theme goes back to what it was."""
        if self._theme_before and self.app.theme != self._theme_before:
            self.app.theme = self._theme_before
        self.dismiss(None)
