"""The board: every layout, the piles, the log; the human's decisions as keys and clicks.

Footer bindings follow the legal actions (``check_action`` hides what is not legal now).
Bots' turns are played one decision at a time on a timer, at the animation speed, so the
table shows them move by move.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, RichLog, Static

from trash_tui.app.controller import MatchController
from trash_tui.app.table import PileView, TableView
from trash_tui.engine.actions import (
    CALL,
    DRAW_DISCARD,
    DRAW_STOCK,
    KEEP,
    SILENT,
    SWAP,
    describe_action,
    wild_action,
)
from trash_tui.engine.narrate import describe_event

BOT_DELAY = {"off": 0.0, "fast": 0.12, "normal": 0.45}
_ACTION_KEYS = {
    "draw_stock": DRAW_STOCK, "draw_discard": DRAW_DISCARD, "swap": SWAP, "keep": KEEP,
    "call": CALL, "silent": SILENT,
}


class StandingsScreen(Screen[None]):
    """The end of the match: places and layout sizes; it replaces the board."""

    DEFAULT_CSS = """
    StandingsScreen { align: center middle; }
    #standings { width: 60; height: auto; padding: 1 2; border: thick $accent;
                 background: $surface; }
    #standings-title { text-style: bold; margin-bottom: 1; }
    #standings Button { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "close", "Back to the lobby", id="close-standings"),
    ]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="standings"):
            yield Label("The match is over", id="standings-title")
            for line in self.lines:
                yield Label(line)
            yield Button("Back to the lobby", id="standings-close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.app.pop_screen()


class BoardScreen(Screen[None]):
    """A match in play."""

    DEFAULT_CSS = """
    BoardScreen { layout: vertical; }
    #board-top { height: 1fr; }
    #board-side { width: 34; }
    #board-log { height: 1fr; border: round $panel; }
    #board-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "draw_stock", "Stock", id="draw-stock"),
        Binding("d", "draw_discard", "Discard", id="draw-discard"),
        Binding("w", "swap", "Swap", id="swap"),
        Binding("k", "keep", "Keep wild", id="keep"),
        Binding("t", "call", "Call Trash!", id="call"),
        Binding("x", "silent", "Stay silent", id="silent"),
        *[Binding(str(slot % 10), f"wild({slot})", f"Wild → {slot}", id=f"wild-{slot}",
                  show=False) for slot in range(1, 11)],
        Binding("escape", "leave", "Lobby", id="leave"),
    ]

    def __init__(self, controller: MatchController, animation: str = "normal") -> None:
        super().__init__()
        self.controller = controller
        self.delay = BOT_DELAY.get(animation, BOT_DELAY["normal"])
        self.logged = 0

    def compose(self) -> ComposeResult:
        with Horizontal(id="board-top"):
            yield TableView(id="table")
            with Vertical(id="board-side"):
                yield PileView(id="piles")
                yield RichLog(id="board-log", wrap=True, markup=False)
        yield Static(id="board-status")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_view()
        self.schedule_bots()

    # --- showing ---------------------------------------------------------------------
    def refresh_view(self) -> None:
        controller = self.controller
        observation = controller.observation()
        self.query_one(TableView).update_view(observation, controller.names)
        self.query_one(PileView).update_view(observation)
        log = self.query_one(RichLog)
        events = controller.match.events
        for event in events[self.logged:]:
            line = describe_event(event, controller.names)
            if line:
                log.write(line)
        self.logged = len(events)
        self.query_one("#board-status", Static).update(self.status_text())
        self.refresh_bindings()

    def status_text(self) -> str:
        controller = self.controller
        if controller.over:
            return "The match is over."
        name = controller.names[controller.to_move]
        if not controller.waiting_for_human:
            return f"{name} is playing…"
        choices = "; ".join(f"{self.key_for(a)}: {describe_action(a)}"
                            for a in controller.legal())
        return f"Your move, {name} — {choices}"

    @staticmethod
    def key_for(action: int) -> str:
        if action > 10:
            return str((action - 10) % 10)
        return {DRAW_STOCK: "s", DRAW_DISCARD: "d", SWAP: "w", KEEP: "k", CALL: "t",
                SILENT: "x"}[action]

    # --- bindings follow the legal actions ------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only legal actions are offered: the others are hidden from the footer."""
        if action in _ACTION_KEYS:
            return _ACTION_KEYS[action] in self.controller.legal()
        if action == "wild":
            slot = int(str(parameters[0])) if parameters else 0
            return wild_action(slot) in self.controller.legal()
        return True

    def _take(self, action: int) -> None:
        if action not in self.controller.legal():
            self.app.bell()
            return
        self.controller.play(action)
        self.refresh_view()
        self.after_move()

    def action_draw_stock(self) -> None:
        self._take(DRAW_STOCK)

    def action_draw_discard(self) -> None:
        self._take(DRAW_DISCARD)

    def action_swap(self) -> None:
        self._take(SWAP)

    def action_keep(self) -> None:
        self._take(KEEP)

    def action_call(self) -> None:
        self._take(CALL)

    def action_silent(self) -> None:
        self._take(SILENT)

    def action_wild(self, slot: int) -> None:
        self._take(wild_action(int(slot)))

    def action_leave(self) -> None:
        self.app.pop_screen()

    # --- bots and the end ------------------------------------------------------------
    def after_move(self) -> None:
        if self.controller.over:
            self.show_standings()
        else:
            self.schedule_bots()

    def schedule_bots(self) -> None:
        if self.controller.over or self.controller.waiting_for_human:
            return
        if self.delay:
            self.set_timer(self.delay, self.bot_step)
        else:
            self.call_later(self.bot_step)

    def bot_step(self) -> None:
        if not self.is_attached or self.controller.over:
            return
        if not self.controller.waiting_for_human:
            self.controller.step_bot()
            self.refresh_view()
        self.after_move()

    def show_standings(self) -> None:
        match = self.controller.match
        result = match.result
        if result is None:
            return
        order = sorted(range(len(result.places)), key=lambda s: result.places[s])
        lines = [f"{result.places[s]}. {self.controller.names[s]} — layout of "
                 f"{result.sizes[s]} slot{'s' if result.sizes[s] != 1 else ''}" for s in order]
        lines.append(f"{result.deals} deals played")
        self.app.switch_screen(StandingsScreen(lines))
