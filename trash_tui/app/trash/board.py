"""The card table's board: every layout, the piles, the log; the human's decisions as keys
and clicks.

``TrashBoard`` is the card game's view in the board shell (``screens/board_shell.py``,
which owns the pace, kept keys, "taken", saving problems, cover and resume and the
standings hand-off); ``BoardScreen`` is it for a local match (the bots here, the hint),
and a shared table's board is it with the table's part (``shared/board.py``).

Footer bindings follow the legal actions (``check_action`` hides what is not legal now).
Clicking the stock or the discard pile draws from it; clicking one of your slots places
a wild there. The pace is the turn driver's (``trash_tui.play.turns``): the next move
comes from the board's move source (the local bots, one decision at a time at the
animation speed; a shared table gives its service's updates) whenever nothing holds the
board: a chain shown step by step, the summary of a deal (a box on the board), another
screen over it. A move key pressed meanwhile is kept and played when the board is free.
The end of the match replaces the board with the standings.
The hint key of a local match asks the expert bot, in a worker thread, what it would do
and how likely the match is to be won from here.

Notices (the hint, "the match goes on where it stopped", a history database that stopped
saving) are lines of the status line, above what to do now, never toasts over it: a
notice goes with the human's next move, a saving problem stays.

A top discard that fits none of the human's slots (allowed by ``discard_draw = "any"``;
the house rule "playable" refuses it) is marked in the status line, and ``d`` asks once
more before taking it: it would go straight back and end the turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Key, Resize
from textual.widgets import Static

from trash_tui.app.screens.board_shell import BoardPart, BoardShell, bot_delay
from trash_tui.app.screens.roles import GivesHints, SaysLines
from trash_tui.app.trash.animation import chain_frames, table_after
from trash_tui.app.trash.endings import (
    DealOverPanel,
    StandingsScreen,
    deal_lines,
    standings_lines,
)
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.app.widgets.game_log import GameLog
from trash_tui.app.widgets.held import taken_line
from trash_tui.app.widgets.table import LayoutView, PileView, TableView
from trash_tui.app.widgets.table_room import TableRoom
from trash_tui.cards import JOKER, card_label, rank_name, rank_of
from trash_tui.engine.actions import (
    CALL,
    DRAW_DISCARD,
    DRAW_STOCK,
    KEEP,
    SILENT,
    SWAP,
    WILD_BASE,
    describe_action,
    wild_action,
)
from trash_tui.engine.match import DealSummary
from trash_tui.engine.narrate import describe_event, says
from trash_tui.engine.observation import Observation
from trash_tui.engine.rng import derive_seed
from trash_tui.play.controller import MatchController, TrashTable
from trash_tui.play.turns import BotTurns, MoveSource
from trash_tui.rules import TRASH, WILD, Rules
from trash_tui.settings import WILD_SLOT_KEYS, binding_keys
from trash_tui.stats import wilson_interval

if TYPE_CHECKING:
    from trash_tui.app.app import TrashApp

CHAIN_STEP = {"off": 0.0, "fast": 0.06, "normal": 0.22}  # between two steps of a chain
_ACTION_KEYS = {
    "draw_stock": DRAW_STOCK, "draw_discard": DRAW_DISCARD, "swap": SWAP, "keep": KEEP,
    "call": CALL, "silent": SILENT,
}


#: The binding (its id in the settings' keymap) that plays each of the board's moves but
#: a wild's (the slots' keys are fixed: ``WILD_SLOT_KEYS``).
MOVE_BINDINGS: Mapping[int, str] = {
    DRAW_STOCK: "draw-stock", DRAW_DISCARD: "draw-discard", SWAP: "swap", KEEP: "keep",
    CALL: "call", SILENT: "silent",
}


class TrashBoard(BoardShell, SaysLines):
    """A match of Trash in play: the card game's view in the board shell."""

    DEFAULT_CSS = """
    TrashBoard { layout: vertical; }
    #board-area { height: 1fr; layers: default summary; }  /* a deal's summary over it */
    #board-top { height: 1fr; }
    #board-side { width: 34; }  /* TableRoom widens it on wide screens */
    #board-log { height: 1fr; border: round $panel; }
    #board-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "close_summary", "Next deal", id="continue-deal"),
        Binding("v", "peek_table", "Table", id="peek-table"),
        Binding("s", "draw_stock", "Stock", id="draw-stock"),
        Binding("d", "draw_discard", "Discard", id="draw-discard"),
        Binding("w", "swap", "Swap", id="swap"),
        Binding("k", "keep", "Keep wild", id="keep"),
        Binding("t", "call", "Call Trash!", id="call"),
        Binding("x", "silent", "Stay silent", id="silent"),
        Binding("h", "hint", "Hint", id="hint"),
        Binding("question_mark", "app.open_rules", "Rules", id="board-rules"),
        *[Binding(str(slot % 10), f"wild({slot})", f"Wild → {slot}", id=f"wild-{slot}",
                  show=False) for slot in range(1, 11)],
        Binding("escape", "leave", "Lobby", id="leave"),
    ]

    #: Seconds after which the summary of a deal closes by itself (None: it waits for a key).
    summary_seconds: float | None = None
    #: The seats whose players left (a shared table's, once its match is over): the
    #: standings put them last (``trash_tui/standing.py``).
    left: frozenset[int] = frozenset()

    def __init__(self, controller: TrashTable, animation: str, source: MoveSource,
                 notice: str | None = None, savers: Sequence[object] = (),
                 part: BoardPart | None = None) -> None:
        super().__init__(controller, source, savers, part)
        self.controller = controller
        self.step = CHAIN_STEP.get(animation, CHAIN_STEP["normal"])
        self.ended_table: Observation | None = None  # the finished deal, under its summary
        self.logged = 0
        self.deals_seen = len(controller.match.history)
        self.status_shown: str | None = None  # what the status line says
        self.status_height = -1  # the most lines it has needed at this width (-1: none yet)
        self.status_text_asked = ""  # the last text given to set_status
        self.notice = notice  # on the status line until the human's next move
        self.discard_asked: int | None = None  # the move at which d asked before taking
        #: The keymap last read and the keys of each move with it (see ``move_keys``).
        self._move_keys: tuple[Mapping[str, str], Mapping[int, tuple[str, ...]]] | None = None

    def compose(self) -> ComposeResult:
        # A deal's summary is a box over the table and the side, never over the status
        # line: what the player is asked (esc's question at a shared table) stays whole.
        with Vertical(id="board-area"):
            with TableRoom(id="board-top"):  # the side as wide as the table leaves
                yield TableView(id="table")
                with Vertical(id="board-side"):
                    yield PileView(id="piles")
                    yield GameLog(id="board-log")
            yield DealOverPanel(id="deal-over-panel")
        yield Static(id="board-status", markup=False)
        yield TrashFooter()

    @property
    def animating(self) -> bool:
        """A move is being shown (a chain step by step)."""
        return self.driver.playing

    @property
    def waiting_for_summary(self) -> bool:
        """The summary of the deal that just ended is up: its keys, not the board's."""
        return "summary" in self.driver.holds

    # --- showing ---------------------------------------------------------------------
    def refresh_view(self) -> None:
        """Show the table as it is now."""
        controller = self.controller
        table = self.ended_table if self.waiting_for_summary else None
        self.show(table or controller.observation(), len(controller.match.events))
        self.set_status(self.status_text())
        self.refresh_bindings()

    def match_rules(self) -> Rules:
        return self.controller.rules

    def say(self, text: str, severity: str = "information") -> None:
        """A notice on the status line, until the human's next move."""
        self.notice = text
        self.refresh_view()

    def notices(self) -> list[str]:
        """The notice lines the status line shows now, over what to do."""
        if self.taken is not None:  # the one line says it all
            return []
        lines = [f"⚠ {self.problem}"] if self.problem else []
        if self.notice:
            lines.append(self.notice)
        return [*lines, *self.part.notices()]

    def set_status(self, text: str) -> None:
        """Say ``text`` on the status line, under the notices. Only a change repaints it.
        The line keeps the most lines it has needed at this width: a longer message makes
        it taller (a new layout of the screen), a shorter one leaves it as it is, so the
        board does not jump by a line at every turn (and is not laid out again twice a
        move). A new width starts again from the message shown (``on_resize``)."""
        self.status_text_asked = text
        text = "\n".join([*self.notices(), text])
        if text == self.status_shown:
            return
        self.status_shown = text
        status = self.query_one("#board-status", Static)
        content = Text(text)
        width = status.content_size.width
        if width <= 0:  # not laid out yet: as tall as it needs
            status.update(content, layout=True)
            return
        lines = len(content.wrap(self.app.console, width))
        if lines > self.status_height:
            self.status_height = lines
            status.styles.height = lines
        status.update(content, layout=False)

    def on_resize(self, event: Resize) -> None:
        """A new width: the status line is as tall as its message needs again."""
        self.status_height = -1
        self.status_shown = None
        self.query_one("#board-status", Static).styles.height = "auto"
        self.set_status(self.status_text_asked)

    def show(self, observation: Observation, events_upto: int) -> None:
        """Show ``observation`` and log the events up to ``events_upto``."""
        controller = self.controller
        self.query_one(TableView).update_view(observation, controller.names)
        self.query_one(PileView).update_view(observation)
        log = self.query_one(GameLog)
        lines = [line for line in (self.narrate(event)
                                   for event in controller.match.events[self.logged:events_upto])
                 if line]
        for line in lines:  # shown with the table, in the same frame
            log.write(line)
        self.logged = max(self.logged, events_upto)

    def narrate(self, event: tuple) -> str | None:
        """The log's line for ``event`` (None: no line of its own, or one the board's part
        writes later)."""
        if self.part.holds_line(event):
            return None
        return self.event_line(event)

    def event_line(self, event: tuple) -> str | None:
        """``event`` as a sentence of the log (None: it has none)."""
        return describe_event(event, self.controller.names, self.left)

    def show_move(self, move: Callable[[], object]) -> None:
        """Make a move (the human's, a bot's, the service's update) and show it: a chain
        step by step when animated; then the driver goes on (``move_shown``)."""
        controller = self.controller
        before = controller.observation()
        start = len(controller.match.events)
        move()
        if len(controller.match.history) > self.deals_seen:  # the move ended a deal
            self.ended_table = table_after(before, controller.match.events[start:])
        frames = chain_frames(before, controller.match.events[start:]) if self.step else []
        if not frames:
            self.move_shown()
            return
        name = controller.names[before.to_move]
        if self.status_text_asked != f"{says(name, 'is')} playing…":  # (that says it too)
            self.set_status(f"{says(name, 'plays')} a chain…")
        self._next_frame(frames, start)

    def _next_frame(self, frames: list[tuple[Observation, int]], start: int) -> None:
        """Show the next step of a chain; after the last one, the move is over. A last
        step that shows every event of the move is the table as the move left it: the
        move ends with it, in the same frame (the turn, the status line and the keys
        change with the last card), not one step later."""
        if not self.is_attached:
            return
        if frames:
            observation, count = frames[0]
            self.show(observation, start + count)
            if len(frames) > 1 or start + count < len(self.controller.match.events):
                self.set_timer(self.step, lambda: self._next_frame(frames[1:], start))
                return
        self.move_shown()

    def move_shown(self) -> None:
        """The move is on the table: the end of a deal opens its summary over the finished
        deal's table; then the shell's ``move_done`` (the standings at the end)."""
        controller = self.controller
        history = controller.match.history
        if not controller.over and len(history) > self.deals_seen:
            self.deals_seen = len(history)
            self.kept.take()  # a key typed during the deal's last move is not the next's
            self.open_summary(history[-1])
        self.move_done()

    def status_text(self) -> str:
        """What to do now, the status line's last line (as the board's part has it)."""
        return self.part.status(self.game_status())

    def game_status(self) -> str:
        controller = self.controller
        if self.taken is not None:
            return f"⚠ {taken_line(self.taken)}"
        if controller.over:
            return "The match is over."
        if self.waiting_for_summary:  # the summary is up: its keys, not the board's
            return (f"The deal is over — enter: next deal; v: "
                    f"{'the summary' if self.summary_peeking else 'look at the table'}.")
        name = controller.names[controller.to_move]
        if not controller.waiting_for_human:
            return f"{says(name, 'is')} playing…"
        legal = controller.legal()
        wilds = [action - WILD_BASE for action in legal if action > WILD_BASE]
        choices = [f"{self.shown_key(a)}: {describe_action(a)}" for a in legal
                   if a <= WILD_BASE]
        useless = self.useless_discard()
        if useless is not None:
            index = [a for a in legal if a <= WILD_BASE].index(DRAW_DISCARD)
            choices[index] += f" ({useless[0]} fits nowhere: it would end your turn)"
        if wilds:
            choices.append(wild_prompt(wilds, len(controller.observation().layouts[
                controller.to_move])))
        return f"Your move, {name} — {'; '.join(choices)}"

    @staticmethod
    def key_for(action: int) -> str:
        if action > 10:
            return str((action - 10) % 10)
        return {DRAW_STOCK: "s", DRAW_DISCARD: "d", SWAP: "w", KEEP: "k", CALL: "t",
                SILENT: "x"}[action]

    def useless_discard(self) -> tuple[str, str] | None:
        """(card, why) when the human may take the top discard but it fits none of their
        slots, else None."""
        controller = self.controller
        if DRAW_DISCARD not in controller.legal():
            return None
        observation = controller.observation()
        top = observation.discard_top
        if top is None or observation.fits(top):
            return None
        return card_label(top), why_nowhere(observation, top)

    # --- bindings follow the legal actions ------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only legal actions are offered: the others are hidden from the footer. While
        the summary of a deal is up, its key is the board's only one (the rules' key is the
        app's)."""
        allowed = self.part.allows(action)
        if allowed is not None:
            return allowed
        summary_keys = ("close_summary", "peek_table")
        if self.summary_seconds is not None:  # (a summary that closes by itself: the
            summary_keys += ("leave",)        # table's escape stays the board's)
        if self.taken is not None:  # read-only: only the way out
            return action not in (*_ACTION_KEYS, "wild", "hint", *summary_keys)
        if self.waiting_for_summary or action in ("close_summary", "peek_table"):
            return self.waiting_for_summary and action in summary_keys
        if action in _ACTION_KEYS:
            return _ACTION_KEYS[action] in self.controller.legal()
        if action == "wild":
            slot = int(str(parameters[0])) if parameters else 0
            return wild_action(slot) in self.controller.legal()
        # (the hint keeps its place in the footer here: only a local board gives hints)
        return action != "hint"

    def play_move(self, action: int) -> None:
        """The human's move, made (after the question when it takes a discard that fits
        nowhere)."""
        moment = self.controller.move_count
        useless = self.useless_discard() if action == DRAW_DISCARD else None
        if useless is not None and self.discard_asked != moment:
            self.discard_asked = moment
            card, why = useless
            self.say(f"{card} fits nowhere ({why}): taking it puts it straight back and ends "
                     f"your turn. Press {self.shown_key(DRAW_DISCARD)} again to take it anyway.")
            return
        self.notice = None
        self.driver.play_now(lambda: self.controller.play(action))
        if useless is not None:
            self.say(f"You took {useless[0]}: it fits nowhere ({useless[1]}), so it went "
                     "back on the discard pile and your turn is over.")

    def action_draw_stock(self) -> None:
        self.take(DRAW_STOCK)

    def action_draw_discard(self) -> None:
        self.take(DRAW_DISCARD)

    def action_swap(self) -> None:
        self.take(SWAP)

    def action_keep(self) -> None:
        self.take(KEEP)

    def action_call(self) -> None:
        self.take(CALL)

    def action_silent(self) -> None:
        self.take(SILENT)

    def action_wild(self, slot: int) -> None:
        self.take(wild_action(int(slot)))

    def action_leave(self) -> None:
        self.app.pop_screen()

    # --- clicks ----------------------------------------------------------------------
    def on_pile_view_pile_clicked(self, message: PileView.PileClicked) -> None:
        action = {"stock": DRAW_STOCK, "discard": DRAW_DISCARD}.get(message.pile)
        if action is not None and self.controller.waiting_for_human and \
                not self.waiting_for_summary:
            self.take(action)

    def on_layout_view_slot_clicked(self, message: LayoutView.SlotClicked) -> None:
        controller = self.controller
        if controller.waiting_for_human and message.seat == controller.to_move and \
                not self.waiting_for_summary:
            self.take(wild_action(message.slot))

    # --- the end of a deal -----------------------------------------------------------
    def open_summary(self, summary: DealSummary) -> None:
        """The summary of the deal that just ended, in a box on the board; the next move
        waits until it closes (by a key, or by itself after ``summary_seconds``)."""
        controller = self.controller
        title = (f"Deal {summary.number} is void" if summary.voided
                 else f"Deal {summary.number} is over")
        self.driver.hold("summary")
        self.set_status(self.status_text())
        self.query_one(DealOverPanel).show(title, deal_lines(controller.match, summary,
                                                             controller.names))
        self.refresh_bindings()
        if self.summary_seconds is not None:
            self.set_timer(self.summary_seconds, self.close_summary)

    def close_summary(self) -> None:
        if self.waiting_for_summary:
            self.query_one(DealOverPanel).close()

    def action_close_summary(self) -> None:
        self.close_summary()

    def action_peek_table(self) -> None:
        """The summary box hidden, for a look at the finished deal's table (or shown)."""
        self.query_one(DealOverPanel).peek()
        self.set_status(self.status_text())

    @property
    def summary_peeking(self) -> bool:
        return self.query_one(DealOverPanel).peeking

    def on_deal_over_panel_closed(self, message: DealOverPanel.Closed) -> None:
        """The summary closed: the board is the player's again (a move key that closed
        it was kept, and is played now if it is legal)."""
        self.driver.holds.discard("summary")
        self.ended_table = None
        self.refresh_view()  # the next deal's table
        self.driver.poke()

    def key_pressed(self, event: Key) -> None:
        """A key reached the board (after its part had it). While the summary of a deal is
        up, escape closes it (the board stays; at a shared table, where the summary closes
        by itself, escape is the board's: leave), and so does a key of the board's moves (as
        the settings bind them), which is then kept as the move: a player who presses ``s``
        for the next deal's first draw is not ignored."""
        if not self.waiting_for_summary:
            return
        move = next((action for action, keys in self.move_keys().items()
                     if event.key in keys), None)
        # (a summary that closes by itself, at a shared table, leaves escape to the board)
        closes = event.key == "escape" and self.summary_seconds is None
        if move is not None or closes:
            event.stop()
            if move is not None:
                self.kept.keep(move)
            self.close_summary()

    def move_keys(self) -> Mapping[int, tuple[str, ...]]:
        """The keys that play each move with the app's keymap (``MOVE_BINDINGS``, and the
        slots' fixed keys for a wild)."""
        keymap = cast("TrashApp", self.app).settings.keymap
        if self._move_keys is None or self._move_keys[0] is not keymap:
            keys = {action: binding_keys(keymap, binding)
                    for action, binding in MOVE_BINDINGS.items()}
            keys.update({WILD_BASE + slot: (key,) for slot, key in enumerate(WILD_SLOT_KEYS, 1)})
            self._move_keys = (keymap, keys)
        return self._move_keys[1]

    def shown_key(self, action: int) -> str:
        """The key that plays ``action``, as the footer shows keys (its first, if several)."""
        keys = self.move_keys()[action]
        return self.app.get_key_display(Binding(keys[0], "")) if keys else "?"

    @property
    def summary_shown(self) -> bool:
        """The summary of the deal that just ended is over the board."""
        return self.query_one(DealOverPanel).shown

    def open_standings(self) -> bool:
        """The match is over: the standings (with what the board's part adds) replace the
        board."""
        lines = self.standings()
        if not lines:
            return False
        self.app.switch_screen(StandingsScreen(self.part.standings(lines)))
        return True

    def standings(self) -> list[str]:
        """The last deal's summary and the final standings, as lines."""
        controller = self.controller
        if controller.match.result is None:
            return []
        lines = standings_lines(controller.match, controller.names, self.left)
        last = controller.match.history[-1] if controller.match.history else None
        if last is not None:
            lines = [*deal_lines(controller.match, last, controller.names, self.left), "",
                     *lines]
        return lines


class BoardScreen(TrashBoard, GivesHints):
    """A local match: the bots play here, and the hint key asks the expert bot."""

    def __init__(self, controller: MatchController, animation: str = "normal",
                 notice: str | None = None) -> None:
        super().__init__(controller, animation, BotTurns(controller, bot_delay(animation)),
                         notice, savers=controller.listeners)
        self.match_controller = controller
        self.hint_running = False
        self.last_hint: str | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":  # (not on a taken match, nor over a deal's summary)
            return (self.taken is None and not self.waiting_for_summary
                    and bool(self.controller.legal()) and not self.hint_running)
        return super().check_action(action, parameters)

    def action_hint(self) -> None:
        """Ask the expert bot (in a thread) for its move and the chance to win from here."""
        controller = self.controller
        if not controller.legal() or self.hint_running:
            return
        self.hint_running = True
        self.refresh_bindings()
        self.set_status("Thinking about a hint…")
        # what the thread needs, read here: the app and the match are not the thread's
        observation, moment = controller.observation(), controller.move_count
        keys = {action: self.shown_key(action) for action in controller.legal()}
        self.run_worker(lambda: self._hint(observation, moment, keys),
                        thread=True, exclusive=True, group="hint")

    def _hint(self, observation: Observation, moment: int, keys: Mapping[int, str]) -> None:
        line = hint_line(observation, derive_seed(self.match_controller.seed, "hint", moment),
                         keys.__getitem__)
        self.app.call_from_thread(self._show_hint, line, moment)

    def _show_hint(self, line: str, moment: int) -> None:
        self.hint_running = False
        if not self.is_attached:
            return
        if moment == self.controller.move_count:
            self.last_hint = line
            self.notice = f"Hint: {line}"
        self.refresh_view()


RANK_PLURALS = {1: "Aces", 11: "Jacks", 12: "Queens", 13: "Kings", JOKER: "Jokers"}


def why_nowhere(observation: Observation, card: int) -> str:
    """Why ``card`` fits none of the viewer's slots: a trash card, a slot the layout does
    not have, or a slot already face up."""
    value = observation.roles[card]
    layout = observation.my_layout
    if value == TRASH:
        rank = rank_of(card)
        return f"{RANK_PLURALS.get(rank, rank_name(rank) + 's')} are trash"
    if value == WILD:
        return "no slot is face down"
    if value > len(layout):
        return f"your layout has {len(layout)} slot{'s' if len(layout) != 1 else ''}"
    return f"slot {value} is already face up"


def wild_prompt(free: list[int], size: int) -> str:
    """One short line for placing a wild: the keys, then the slots it may go to, e.g.
    "Wild: 1–9, 0 for slot 10 (free: 2, 5, 7)"."""
    keys = f"1–{min(size, 9)}" if size > 1 else "1"
    if size >= 10:
        keys += ", 0 for slot 10"
    return f"Wild: {keys} (free: {slot_ranges(free)})"


def slot_ranges(slots: list[int]) -> str:
    """"1–4, 7, 9–10": runs of three or more consecutive slots as ranges."""
    parts: list[str] = []
    run: list[int] = []
    for slot in [*sorted(slots), None]:
        if run and (slot is None or slot != run[-1] + 1):
            parts.append(f"{run[0]}–{run[-1]}" if len(run) >= 3 else
                         ", ".join(str(s) for s in run))
            run = []
        if slot is not None:
            run.append(slot)
    return ", ".join(parts)


def hint_line(observation: Observation, seed: int,
              key_for: Callable[[int], str] | None = None) -> str:
    """The expert's move for this decision (and ``key_for`` it: by default the default
    key) and the estimated chance to win the match after it, with its 95% interval (runs
    for about a second)."""
    from bots.expert import ExpertBot

    expert = ExpertBot(seed=seed % 2**31, budget=0.4)
    expert.start_match(observation.seat, observation.players, observation.rules)
    expert.start_deal(observation)
    choice = expert.choose(observation, observation.legal)
    chance, samples = expert.match_chance(observation, choice, samples=400,
                                          deadline=time.perf_counter() + 1.0)
    low, high = wilson_interval(round(chance * samples), samples)
    key = (key_for or BoardScreen.key_for)(choice)
    return (f"The expert would {describe_action(choice).lower()} "
            f"({key}). Your chance to win the match from here: "
            f"about {chance:.0%} (95% interval {low:.0%}–{high:.0%}, {samples} playouts).")
