"""The end of a deal and the end of the match: what happened and the standings.

``deal_lines`` and ``standings_lines`` turn the engine's summaries into sentences (no UI),
so the screens, the replay viewer and tests share them; at a shared table they put the
players who left last, as the history, the statistics and the rating do.
``DealOverPanel`` is a box over the board's table and side, never over its status line
(the bots wait until it is closed);
``StandingsScreen`` replaces the board when the match is over, and its "Back to the lobby"
goes back to the lobby (from a shared table, past the Tables list). Their lines wrap
inside the box, so no sentence is cut.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.engine.match import DealSummary, Match
from trash_tui.engine.narrate import inside, says, verb
from trash_tui.standing import final_places, winners


def _slots(count: int) -> str:
    return f"{count} slot{'s' if count != 1 else ''}"


def deal_lines(match: Match, summary: DealSummary, names: Sequence[str],
               left: Collection[int] = ()) -> list[str]:
    """What a finished deal did: who won, who shrinks, the sizes now, who plays next.
    ``left``: the seats of a shared table's players who were not at it when the match
    ended (they are last, whatever their stand-in did: ``trash_tui/standing.py``)."""
    if summary.voided:
        return [f"The deal is void: {summary.voided}.", "The same layouts are dealt again."]
    lines = []
    if summary.winner is not None:
        name = names[summary.winner]
        lines.append(f"{name} completed first and {verb(name, 'wins')} the deal.")
    after = list(summary.sizes)
    for seat in summary.shrinking:
        after[seat] -= 1
    result = match.result
    champion = result.winner if result is not None else None
    won = winners(result.places, left) if result is not None and left else []
    for seat, name in enumerate(names):
        if seat == champion and seat in left:
            change = (f"✗ {name}'s stand-in finished first, but {name} left the table: "
                      "last place")
        elif seat in won and champion in left:
            change = f"★ {says(name, 'wins')} the match: the first of those at the table"
        elif seat == champion and after[seat] <= match.rules.target_size:
            change = (f"★ {says(name, 'completes')} the last layout and "
                      f"{verb(name, 'wins')} the match")
        elif seat == champion:
            change = (f"★ {says(name, 'wins')} the match with the smallest layout "
                      f"({_slots(after[seat])})")
        elif seat in summary.shrinking:
            change = f"✓ {says(name, 'shrinks')} to {_slots(after[seat])}"
        else:
            hidden = summary.face_down[seat]
            change = (f"· {says(name, 'stays')} at {_slots(after[seat])} ({hidden} face down "
                      "left)")
        lines.append(f"  {change}")
    if not match.over:
        first = names[match.first]
        lines.append(f"Next: deal {match.deal_number}; {inside(first)} "
                     f"{verb(first, 'plays')} first.")
    return lines


def standings_lines(match: Match, names: Sequence[str], left: Collection[int] = ()
                    ) -> list[str]:
    """The final standings: place, name, layout size; then how many deals were played.
    The players in ``left`` (not at their seat of a shared table at the end) are last,
    sharing the place, and win nothing (``trash_tui/standing.py``)."""
    result = match.result
    if result is None:
        return []
    if result.abandoned:
        return ["The match was abandoned after too many void deals in a row."]
    places = final_places(result.places, left)
    won = winners(result.places, left)
    order = sorted(range(len(places)), key=lambda s: (places[s], s))
    lines = [f"{places[s]}. {names[s]} — "
             + ("★ winner" if s in won else
                f"left the table (stand-in's layout: {_slots(result.sizes[s])})" if s in left
                else f"layout of {_slots(result.sizes[s])}")
             for s in order]
    if not won:
        lines.append("Nobody wins: every player left the table.")
    lines.append(f"{result.deals} deal{'s' if result.deals != 1 else ''} played")
    return lines


class DealOverPanel(Vertical):
    """A deal has ended: its result in a box over the board until the player goes on (the
    bots wait). It is part of the board, not a screen of its own: showing and closing it
    draws only its box and what it covered (a screen over the board made the board be laid
    out and drawn in full again at every deal). The board takes the keys that close it;
    ``Closed`` tells the board, with the move key that closed it, if one did."""

    DEFAULT_CSS = """
    DealOverPanel { layer: summary; dock: top; display: none; width: 100%; height: 100%;
                    align: center middle; visibility: hidden; }
    #deal-over { visibility: visible; width: 76; max-width: 100%; height: auto;
                 max-height: 100%; overflow-y: auto; padding: 1 2; border: thick $accent;
                 background: $surface; }
    #deal-over Static { width: 100%; }
    #deal-over-title { text-style: bold; margin-bottom: 1; }
    #deal-over Button { margin-top: 1; }
    """

    class Closed(Message):
        """The summary was closed; ``key`` is the move key that closed it, if one did."""

        def __init__(self, key: str | None) -> None:
            super().__init__()
            self.key = key

    def compose(self) -> ComposeResult:
        with Vertical(id="deal-over"):
            yield Static(id="deal-over-title", markup=False)
            yield Static(id="deal-over-lines", markup=False)  # names are players' text
            button = Button("Next deal", id="deal-over-close", variant="primary")
            button.can_focus = False  # the board's keys close it; a click does too
            yield button

    @property
    def shown(self) -> bool:
        return self.display

    def show(self, title: str, lines: Sequence[str]) -> None:
        """Show ``title`` and ``lines`` (each wraps inside the box)."""
        self.query_one("#deal-over-title", Static).update(title)
        self.query_one("#deal-over-lines", Static).update("\n".join(lines))
        self.query_one("#deal-over").display = True
        self.display = True

    @property
    def peeking(self) -> bool:
        """The box is hidden for a look at the finished table (the summary is still up)."""
        return self.shown and not self.query_one("#deal-over").display

    def peek(self) -> None:
        """Hide the box to look at the table under it, or show it again."""
        box = self.query_one("#deal-over")
        box.display = not box.display

    def close(self, key: str | None = None) -> None:
        """Hide the summary and tell the board (``key``: the move key that closed it)."""
        if self.display:
            self.display = False
            self.post_message(self.Closed(key))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.close()


class StandingsScreen(Screen[None]):
    """The end of the match: places and layout sizes; it replaces the board."""

    DEFAULT_CSS = """
    StandingsScreen { align: center middle; }
    #standings { width: 76; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
                 border: thick $accent; background: $surface; }
    #standings Label { width: 100%; }
    #standings-title { text-style: bold; margin-bottom: 1; }
    #standings Button { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "close", "Back to the lobby", id="close-standings"),
    ]

    def __init__(self, lines: Sequence[str], title: str = "The match is over") -> None:
        super().__init__()
        self.lines = list(lines)
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="standings"):
            yield Label(self.title_text, id="standings-title", markup=False)
            for line in self.lines:
                yield Label(line, markup=False)  # names are players' text
            yield Button("Back to the lobby", id="standings-close", variant="primary")
        yield TrashFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def action_close(self) -> None:
        """Back to the lobby: every screen over it goes (at a shared table, the Tables
        list the table was opened from too); with no lobby under it, the screen below."""
        from trash_tui.app.screens.lobby import LobbyScreen

        lobby = next((screen for screen in reversed(self.app.screen_stack)
                      if isinstance(screen, LobbyScreen)), None)
        if lobby is None:
            self.app.pop_screen()
        else:
            lobby.pop_until_active()
