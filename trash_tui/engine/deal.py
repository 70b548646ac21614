"""One deal of Trash as a state machine driven by actions.

The deal waits for one decision at a time (``phase``, ``to_move``, ``legal``); ``apply``
takes an action and runs every forced move that follows (chain placements, discards,
penalty draws, reshuffles, the extra turns some house rules give) until the next decision
or the end of the deal. What happened is appended to ``events`` as plain tuples, so a UI
can animate it and a replay can print it:

=================================  ==================================================
``("draw", seat, source, card)``     ``source`` is "stock" or "discard"
``("reshuffle", count)``             the discards below the top became the stock
``("place", seat, slot, card, up)``  ``card`` went face up into ``slot``; ``up`` (the
                                     card that lay there) is now in hand
``("swap", seat, slot, card, wild)`` ``card`` replaced the wild in ``slot``; wild in hand
``("keep", seat, slot)``             the wild in ``slot`` was left in place
``("call", seat)`` / ``("silent", seat)``  "Trash!" called, or forgotten
``("discard", seat, card)``          the card in hand went onto the discard pile
``("penalty", seat, card)``          a forgotten call paid: drawn and discarded
``("win", seat)``                    the first completed layout that counts
``("complete", seat)``               a later completion (last turn, free draws)
``("extra", kind, seats)``           extra turns begin: "last-turn" or "free-draws"
``("reveal", seat, cards, lucky)``   lucky reveal of the face-down cards (slot order)
``("void", reason)``                 the deal can make no progress and is void
``("end", winner, shrinking)``       the deal is over
=================================  ==================================================

The hot path (draw, chain, discard) is written for speed: state lives in flat lists of
card codes, and card roles come from a table built once from the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import compress
from math import floor
from operator import not_

from trash_tui.engine.actions import (
    CALL,
    CALL_CHOICE,
    DRAW,
    DRAW_DISCARD,
    DRAW_STOCK,
    OVER,
    SWAP,
    SWAP_CHOICE,
    WILD_BASE,
    WILD_SLOT,
    action_name,
)
from trash_tui.engine.observation import Observation, observe
from trash_tui.engine.rng import Rng, generator_of
from trash_tui.rules import TRASH, WILD, Rules

STALL_LIMIT = 1000  # turns in a row without a placement after which a deal is void
_STOCK_ONLY = (DRAW_STOCK,)
_BOTH = (DRAW_STOCK, DRAW_DISCARD)
_SWAP_LEGAL = (SWAP, SWAP + 1)
_CALL_LEGAL = (CALL, CALL + 1)
_DISCARD_ANY, _DISCARD_PLAYABLE, _DISCARD_NEVER = 0, 1, 2
_DISCARD_MODES = {"any": _DISCARD_ANY, "playable": _DISCARD_PLAYABLE, "never": _DISCARD_NEVER}
_WILD_ACTIONS = tuple(WILD_BASE + slot for slot in range(1, 11))  # slots 1..10

Reshuffler = Callable[[list[int]], list[int]]


_ROLE_TABLES: dict[Rules, list[int]] = {}


def role_table(rules: Rules) -> list[int]:
    """``rules.role_table()``, built once per distinct rules (deals share it, read-only)."""
    table = _ROLE_TABLES.get(rules)
    if table is None:
        if len(_ROLE_TABLES) > 256:
            _ROLE_TABLES.clear()
        table = _ROLE_TABLES[rules] = rules.role_table()
    return table


# The slots ``Deal.copy`` shares as they are (immutable values, or read-only tables).
_PLAIN_SLOTS = ("_call", "_call_slot", "_discard_mode", "_event_start", "_free_left", "_next",
                "_placed", "_reshuffle", "_rnd", "first", "hand", "idle", "legal", "phase",
                "players", "roles", "rules", "shrinking", "sizes", "to_move", "turns",
                "voided", "winner")


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the current decision."""


class Deal:
    """One deal: layouts, stock, discard pile, whose decision it is and what is legal."""

    __slots__ = (
        "_call",
        "_call_slot",
        "_cards",
        "_discard_mode",
        "_event_start",
        "_extra",
        "_free_left",
        "_initial",
        "_next",
        "_placed",
        "_reshuffle",
        "_rnd",
        "actions",
        "completed",
        "discard",
        "down",
        "events",
        "face_down",
        "first",
        "hand",
        "idle",
        "legal",
        "pending",
        "phase",
        "players",
        "reshuffles",
        "revealed",
        "roles",
        "rules",
        "shrinking",
        "sizes",
        "to_move",
        "turns",
        "up",
        "voided",
        "winner",
    )

    def __init__(
        self,
        rules: Rules,
        sizes: Sequence[int],
        first: int,
        deck: Sequence[int],
        reshuffle: Reshuffler | None = None,
        events: list[tuple] | None = None,
        role: list[int] | None = None,
        shuffle_with: Rng | None = None,
    ) -> None:
        """Deal ``deck`` (top card first) to layouts of ``sizes``; seat ``first`` plays first.

        Cards are dealt one at a time clockwise from ``first``; a full layout is skipped.
        ``reshuffle`` turns the discards below the top into a new stock (top card first);
        by default the order is kept, which suits stacked-deck tests.

        With ``shuffle_with``, ``deck`` is only the set of cards: each card is drawn at
        random when it is dealt or drawn (a Fisher-Yates shuffle done lazily, so cards
        nobody reaches cost nothing). ``self.deck`` is then the order the cards came in.
        """
        players = len(sizes)
        self.rules = rules
        self.players = players
        self.sizes = sizes = tuple(sizes)
        self.first = first
        self.roles = role if role is not None else role_table(rules)
        self._reshuffle = reshuffle or list
        self._discard_mode = _DISCARD_MODES[rules.discard_draw]
        self._call = rules.call_trash
        count = sum(sizes)
        cards = list(deck)
        n = len(cards)
        if count >= n:
            raise ValueError("the deck is too small for these layouts")
        self._rnd: Callable[[], float] | None = None
        if shuffle_with is not None:
            # Lazy Fisher-Yates: shuffle only the cards dealt now; each stock draw then
            # swaps a random remaining card into place.
            rnd = self._rnd = shuffle_with.draw
            for i in range(count):  # floor(x) == int(x) for x >= 0, and is faster
                j = i + floor(rnd() * (n - i))
                cards[i], cards[j] = cards[j], cards[i]
        self._cards = self._initial = cards
        self._next = count
        if min(sizes) == max(sizes):  # dealt round by round: seat s gets every players-th
            self.down = [[0, *cards[(seat - first) % players:count:players]]
                         for seat in range(players)]
        else:
            order = [(first + i) % players for i in range(players)]
            down = [[0] for _ in range(players)]
            position = 0
            for slot in range(1, max(sizes) + 1):
                for seat in order:
                    if slot <= sizes[seat]:
                        down[seat].append(cards[position])
                        position += 1
            self.down = down
        self.up = [[0] * (size + 1) for size in sizes]
        self.face_down = list(sizes)
        self.discard: list[int] = []
        self.hand = 0
        self.events = events if events is not None else []
        self._event_start = len(self.events)
        self.actions: list[int] = []
        self.winner: int | None = None
        self.completed: list[int] = []
        self.shrinking: tuple[int, ...] = ()
        self.pending = [False] * players
        self.voided: str | None = None
        self.reshuffles: list[tuple[int, ...]] = []
        self.revealed: dict[int, tuple[int, ...]] = {}
        self.idle = 0
        self._call_slot = 0
        self._placed = False
        self._extra: list[int] | None = None
        self._free_left = rules.free_draws if players == 2 else 0
        # The first turn (``_start_turn`` for a fresh deal: the stock is full, nobody owes
        # a penalty and the discard pile is empty, so the stock is the only source).
        self.to_move = first
        self.turns = 1
        self.phase = DRAW
        self.legal: tuple[int, ...] = _STOCK_ONLY

    # --- public queries ------------------------------------------------------------------
    @property
    def deck(self) -> tuple[int, ...]:
        """The deal's deck, top card first: the order cards were dealt and drawn in."""
        return tuple(self._initial)

    @property
    def stock(self) -> list[int]:
        """The cards left in the stock, next card first. Hidden from every player."""
        return self._cards[self._next:]

    @property
    def stock_count(self) -> int:
        """How many cards are left in the stock."""
        return len(self._cards) - self._next

    def own_events(self) -> list[tuple]:
        """The events of this deal only (``events`` may be a whole match's log)."""
        return self.events[self._event_start:]

    @property
    def over(self) -> bool:
        """True once the deal has ended (won or void)."""
        return self.phase == OVER

    def fits(self, seat: int, card: int) -> bool:
        """Whether ``card`` fits one of ``seat``'s face-down or wild-held slots."""
        value = self.roles[card]
        if value == WILD:
            return self.face_down[seat] > 0
        if value <= self.sizes[seat]:
            held = self.up[seat][value]
            return not held or self.roles[held] == WILD
        return False

    @property
    def extra_turns(self) -> tuple[int, ...] | None:
        """Seats still to take extra turns (last turn, free draws) in order; None in
        ordinary play. Free draws not yet begun are not listed (see ``free_draws_left``)."""
        return None if self._extra is None else tuple(self._extra)

    @property
    def free_draws_left(self) -> int:
        """Free draws the loser will still be offered after the last turns (2 players)."""
        return self._free_left

    @classmethod
    def restore(
        cls,
        rules: Rules,
        sizes: Sequence[int],
        first: int,
        up: Sequence[Sequence[int]],
        down: Sequence[Sequence[int]],
        stock: Sequence[int],
        discard: Sequence[int],
        hand: int,
        to_move: int,
        phase: int,
        legal: Sequence[int],
        *,
        turns: int = 0,
        winner: int | None = None,
        completed: Sequence[int] = (),
        pending: Sequence[bool] | None = None,
        extra: Sequence[int] | None = None,
        free_draws_left: int = 0,
        reshuffle: Reshuffler | None = None,
        reshuffled: bool = False,
    ) -> Deal:
        """A deal in the middle of play, built from a full state (for look-ahead search).

        ``up``/``down`` are per seat, indexed by slot with index 0 unused (0 = none);
        ``stock`` lists the stock, next card first; ``reshuffled``: it came from a
        reshuffle, so its cards are public (``reshuffles`` then holds it, and observations
        name its cards). The result plays on like any deal (its ``deck`` is only the cards
        it was given, and it keeps no other history)."""
        deal = cls.__new__(cls)
        players = len(sizes)
        deal.rules = rules
        deal.players = players
        deal.sizes = tuple(sizes)
        deal.first = first
        deal.roles = role_table(rules)
        deal._reshuffle = reshuffle or list
        deal._discard_mode = _DISCARD_MODES[rules.discard_draw]
        deal._call = rules.call_trash
        deal.up = [list(row) for row in up]
        deal.down = [list(row) for row in down]
        deal.face_down = [sum(1 for s in range(1, sizes[p] + 1) if not deal.up[p][s])
                          for p in range(players)]
        deal._cards = deal._initial = list(stock)
        deal._next = 0
        deal._rnd = None
        deal.discard = list(discard)
        deal.hand = hand
        deal.turns = turns
        deal.events = []
        deal._event_start = 0
        deal.actions = []
        deal.winner = winner
        deal.completed = list(completed)
        deal.shrinking = ()
        deal.pending = list(pending) if pending is not None else [False] * players
        deal.voided = None
        deal.reshuffles = [tuple(stock)] if reshuffled else []
        deal.revealed = {}
        deal.idle = 0
        deal._placed = True
        deal._extra = list(extra) if extra is not None else None
        deal._free_left = free_draws_left
        deal.phase = phase
        deal.legal = tuple(legal)
        deal.to_move = to_move
        deal._call_slot = 0
        if phase == CALL_CHOICE:
            value = deal.roles[hand]
            deal._call_slot = value if value != WILD else deal.face_down_slots(to_move)[0]
        return deal

    def copy(self, with_events: bool = True) -> Deal:
        """An independent deal in the same state that plays on exactly as this one would.

        Its seeded randomness (the lazily shuffled stock, a reshuffle by an ``Rng``) is a
        copy in the same state, so the cards it draws from here are the ones this deal
        would draw; a reshuffle by any other callable (a record's) is shared. The event
        log is copied (events are tuples), with this deal's start in it; without
        ``with_events`` the copy starts an empty log (for look-ahead, which reads none)."""
        twin = Deal.__new__(Deal)
        for name in _PLAIN_SLOTS:
            setattr(twin, name, getattr(self, name))
        if not with_events:
            twin.events = []
            twin._event_start = 0
        twin.up = [list(row) for row in self.up]
        twin.down = [list(row) for row in self.down]
        twin.face_down = list(self.face_down)
        twin.discard = list(self.discard)
        if with_events:
            twin.events = list(self.events)
        twin.actions = list(self.actions)
        twin.completed = list(self.completed)
        twin.pending = list(self.pending)
        twin.reshuffles = list(self.reshuffles)
        twin.revealed = dict(self.revealed)
        twin._extra = None if self._extra is None else list(self._extra)
        twin._cards = list(self._cards)
        twin._initial = twin._cards if self._initial is self._cards else list(self._initial)
        reshuffle = self._reshuffle
        owner = getattr(reshuffle, "__self__", None)
        rnd = self._rnd
        if isinstance(owner, Rng):
            rng = owner.copy()
            twin._reshuffle = rng.shuffle
            if rnd is owner.draw:  # the deal draws its cards from the same generator
                twin._rnd = rng.draw
                return twin
        if rnd is not None:
            generator = random.Random()
            generator.setstate(generator_of(rnd).getstate())
            twin._rnd = generator.random
        return twin

    def is_wild(self, card: int) -> bool:
        """Whether ``card`` is wild under these rules."""
        return self.roles[card] == WILD

    def face_down_slots(self, seat: int) -> list[int]:
        """The slots of ``seat`` still face down."""
        up = self.up[seat]
        return [slot for slot in range(1, self.sizes[seat] + 1) if not up[slot]]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now: no face-down card, no stock order."""
        return observe(self, seat)

    # --- the state machine ---------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Take ``action`` for the player to move and run the forced moves that follow.

        This is the engine's hot path, written as one function: the decision's own step
        (a draw, a wild's placement, a swap), then the chain, then the end of the turn."""
        if action not in self.legal:
            raise IllegalAction(self._illegal_message(action))
        self.actions.append(action)
        seat = self.to_move
        phase = self.phase
        events = self.events
        up = self.up[seat]
        down = self.down[seat]
        face_down = self.face_down[seat]
        if phase == DRAW:
            placed = False
            if action == DRAW_STOCK:
                cards = self._cards
                i = self._next
                rnd = self._rnd
                if rnd is not None and i < len(cards):  # lazy shuffle: the common case
                    j = i + floor(rnd() * (len(cards) - i))
                    hand = cards[j]
                    cards[j] = cards[i]
                    cards[i] = hand
                    self._next = i + 1
                else:
                    hand = self._draw()
                events.append(("draw", seat, "stock", hand))
            else:
                hand = self.discard.pop()
                events.append(("draw", seat, "discard", hand))
        elif phase == WILD_SLOT:  # at least two slots were face down: this cannot complete
            slot = action - WILD_BASE
            hand = down[slot]
            down[slot] = 0
            up[slot] = self.hand
            events.append(("place", seat, slot, self.hand, hand))
            face_down -= 1
            placed = True
        elif phase == SWAP_CHOICE:
            hand = self.hand
            slot = self.roles[hand]
            if action != SWAP:
                events.append(("keep", seat, slot))
                self._end_turn(seat, self._placed)
                return
            wild = up[slot]
            up[slot] = hand
            events.append(("swap", seat, slot, hand, wild))
            hand = wild
            placed = True
        else:  # CALL_CHOICE
            called = action == CALL
            events.append(("call" if called else "silent", seat))
            self._place(seat, self._call_slot)
            self._completed_layout(seat, called)
            self._end_turn(seat, True)
            return
        # The chain: place the card in hand as long as it fits.
        role = self.roles
        size = self.sizes[seat]
        while True:
            value = role[hand]
            if value == WILD:
                legal = tuple(compress(_WILD_ACTIONS, map(not_, up[1:])))
                if len(legal) > 1:
                    self.phase = WILD_SLOT
                    self.legal = legal
                    break
                slot = legal[0] - WILD_BASE
            elif value <= size:
                held = up[value]
                if held:
                    if role[held] == WILD:
                        self.phase = SWAP_CHOICE
                        self.legal = _SWAP_LEGAL
                        break
                    face_down = -face_down - 1  # marks "turn over" for the code below
                    break
                slot = value
            else:
                face_down = -face_down - 1
                break
            if face_down == 1 and self._call:
                self._call_slot = slot
                self.phase = CALL_CHOICE
                self.legal = _CALL_LEGAL
                break
            revealed = down[slot]
            down[slot] = 0
            up[slot] = hand
            events.append(("place", seat, slot, hand, revealed))
            hand = revealed
            placed = True
            face_down -= 1
            if not face_down:
                self.face_down[seat] = 0
                self.hand = hand
                self._completed_layout(seat, True)
                self._end_turn(seat, True)
                return
        if face_down >= 0:  # a decision is pending within the turn
            self.hand = hand
            self.face_down[seat] = face_down
            self._placed = placed
            return
        # The card in hand cannot be placed: discard it and pass the turn on. The common
        # case (an ordinary turn follows) is handled here without detours.
        self.face_down[seat] = -face_down - 1
        self.hand = 0
        self.discard.append(hand)
        events.append(("discard", seat, hand))
        nxt = seat + 1
        if nxt == self.players:
            nxt = 0
        if placed:
            idle = 0
        else:
            idle = self.idle + 1
            if idle % (2 * self.players) == 0 or idle >= STALL_LIMIT:
                idle = -1  # a stall check is due: take the general path
        if idle >= 0 and self._extra is None and not self.pending[nxt]:
            self.idle = idle
            self.to_move = nxt
            self.turns += 1
            self.phase = DRAW
            mode = self._discard_mode
            if mode == _DISCARD_ANY or (mode == _DISCARD_PLAYABLE and self.fits(nxt, hand)):
                self.legal = _BOTH
            else:
                self.legal = _STOCK_ONLY
            return
        self._end_turn(seat, placed)

    def play_greedy(self) -> None:
        """Play on to the end of the deal with every seat following the greedy policy.

        The actions, events and cards are exactly those of applying ``greedy_policy``'s
        answers (``bots/builtin.py``: take a discard that fits, a wild on the lowest
        face-down slot, always swap, always call) one decision at a time; only the cost of
        a call per decision is saved. For headless simulation and look-ahead rollouts.
        ``tests/test_engine_speed_greedy.py`` checks both ways give the same deals.

        Ordinary turns run in the inner loop on local copies of the turn's state (whose
        turn, the idle count, the turn count, the stock position); every other step (a
        completed layout, extra turns, a stall check, a reshuffle's bookkeeping) writes
        them back and goes through the general methods ``apply`` uses."""
        role = self.roles
        push = self.events.append
        act = self.actions.append
        discard = self.discard
        sizes = self.sizes
        players = self.players
        call = self._call
        ups, downs, fds = self.up, self.down, self.face_down
        mode = self._discard_mode
        any_discard = mode == _DISCARD_ANY  # then the discard may always be drawn
        stall_every = 2 * players
        following = (*range(1, players), 0)  # the seat after each seat
        wild, stock_draw, stall_limit = WILD, DRAW_STOCK, STALL_LIMIT  # (locals: faster)
        while True:
            phase = self.phase
            if phase != DRAW:
                if phase == OVER:
                    return
                # A decision within a turn (a deal handed over in the middle of one).
                self.apply(SWAP if phase == SWAP_CHOICE else
                           CALL if phase == CALL_CHOICE else self.legal[0])
                continue
            seat = self.to_move
            idle = self.idle
            turns = self.turns
            both = len(self.legal) > 1
            calm = self._extra is None and not any(self.pending)
            cards = self._cards
            i = self._next
            rnd = self._rnd
            n = len(cards)
            while True:  # one ordinary turn of ``seat``
                up = ups[seat]
                size = sizes[seat]
                # take the discard if it fits: a wild, or a rank of a face-down slot or of
                # one that holds a wild (one expression: this runs every turn)
                if both and ((value := role[discard[-1]]) == wild or (
                        value <= size and (not (held := up[value]) or role[held] == wild))):
                    act(DRAW_DISCARD)
                    hand = discard.pop()
                    push(("draw", seat, "discard", hand))
                else:
                    act(stock_draw)
                    if rnd is not None and i < n:  # lazy shuffle, as in ``apply``
                        j = i + floor(rnd() * (n - i))
                        hand = cards[j]
                        cards[j] = cards[i]
                        cards[i] = hand
                        i += 1
                    else:
                        self._next = i
                        hand = self._draw()
                        cards = self._cards
                        i = self._next
                        rnd = self._rnd
                        n = len(cards)
                    push(("draw", seat, "stock", hand))
                down = downs[seat]
                face_down = fds[seat]
                while True:  # the chain, with greedy's answer to each decision in it
                    value = role[hand]
                    if value == wild:
                        slot = up.index(0, 1)  # the lowest face-down slot
                        if face_down > 1:  # more than one slot to choose from: a decision
                            act(WILD_BASE + slot)
                    elif value <= size:
                        held = up[value]
                        if held:
                            if role[held] != wild:
                                break
                            act(SWAP)
                            up[value] = hand
                            push(("swap", seat, value, hand, held))
                            hand = held  # the wild goes on: a slot turns up this turn
                            continue
                        slot = value
                    else:
                        break
                    if call and face_down == 1:
                        act(CALL)
                        push(("call", seat))
                        self._next, self.turns, self.to_move, self.idle = i, turns, seat, idle
                        self.hand = hand
                        fds[seat] = face_down
                        self._place(seat, slot)
                        self._completed_layout(seat, True)
                        self._end_turn(seat, True)
                        hand = -1
                        break
                    revealed = down[slot]
                    down[slot] = 0
                    up[slot] = hand
                    push(("place", seat, slot, hand, revealed))
                    hand = revealed
                    face_down -= 1
                    if not face_down:
                        self._next, self.turns, self.to_move, self.idle = i, turns, seat, idle
                        fds[seat] = 0
                        self.hand = hand
                        self._completed_layout(seat, True)
                        self._end_turn(seat, True)
                        hand = -1
                        break
                if hand < 0:  # the turn ended inside the chain, the general way
                    break
                placed = face_down != fds[seat]  # a swap is always followed by a placement
                fds[seat] = face_down
                discard.append(hand)
                push(("discard", seat, hand))
                # on to the next seat here unless the general path is due: extra turns or a
                # penalty owed (not calm), or a stall check after idle turns
                if calm and (placed or ((after := idle + 1) % stall_every
                                        and after < stall_limit)):
                    idle = 0 if placed else after
                    seat = following[seat]
                    turns += 1
                    both = any_discard or (mode == _DISCARD_PLAYABLE
                                           and self.fits(seat, hand))
                    continue
                self._next, self.turns, self.to_move, self.idle = i, turns, seat, idle
                self._end_turn(seat, placed)
                break

    def _illegal_message(self, action: int) -> str:
        try:
            name = action_name(action)
        except (ValueError, TypeError):
            name = repr(action)
        if self.phase == OVER:
            return f"illegal action {name}: the deal is over"
        legal = ", ".join(action_name(a) for a in self.legal)
        return f"illegal action {name} for seat {self.to_move}; legal: {legal}"

    def _draw(self) -> int:
        """The next stock card (reshuffling the discards when the stock is empty)."""
        cards = self._cards
        i = self._next
        if i == len(cards):
            discard = self.discard
            top = discard.pop()
            cards = self._cards = list(self._reshuffle(discard))
            self.reshuffles.append(tuple(cards))
            self._rnd = None  # the new stock comes shuffled
            self._next = i = 0
            discard[:] = [top]
            self.events.append(("reshuffle", len(cards)))
        rnd = self._rnd
        if rnd is None:
            card = cards[i]
        else:
            j = i + floor(rnd() * (len(cards) - i))
            card = cards[j]
            cards[j] = cards[i]
            cards[i] = card
        self._next = i + 1
        return card

    def _can_draw(self) -> bool:
        return self._next < len(self._cards) or len(self.discard) > 1

    def _place(self, seat: int, slot: int) -> bool:
        """Put the card in hand face up into ``slot``; the face-down card comes to hand."""
        down = self.down[seat]
        card = self.hand
        revealed = down[slot]
        down[slot] = 0
        self.up[seat][slot] = card
        self.hand = revealed
        self.face_down[seat] -= 1
        self.events.append(("place", seat, slot, card, revealed))
        return not self.face_down[seat]

    def _completed_layout(self, seat: int, called: bool) -> None:
        counts = called or not self._call
        if self._extra is not None:
            if counts:
                self.completed.append(seat)
                self.events.append(("complete", seat))
            else:  # no next turn to pay the penalty: it does not count, and play is over
                self._extra[:] = [s for s in self._extra if s != seat]
                self._free_left = 0
        elif counts:
            self.winner = seat
            self.completed.append(seat)
            self.events.append(("win", seat))
        else:
            self.pending[seat] = True

    def _end_turn(self, seat: int, placed: bool) -> None:
        hand = self.hand
        if hand:
            self.discard.append(hand)
            self.hand = 0
            self.events.append(("discard", seat, hand))
        if self._extra is not None:
            self._next_extra()
            return
        if self.winner is not None:
            if self.rules.last_turn or self._free_left:
                self._begin_extras()
            else:  # no extra turns: the deal is over
                self._extra = []
                self._finish()
            return
        if placed:
            self.idle = 0
        else:
            self.idle += 1
            idle = self.idle
            if idle >= STALL_LIMIT:
                self._void(f"no card placed in {STALL_LIMIT} turns")
                return
            if idle % (2 * self.players) == 0 and self._stuck():
                self._void("no card in the stock or discards can be placed by anybody")
                return
        self._start_turn(seat + 1 if seat + 1 < self.players else 0)

    def _start_turn(self, seat: int) -> None:
        self.to_move = seat
        self.turns += 1
        if not self._can_draw():
            self._void("no card left to draw")  # cannot happen with RULES.md's decks
            return
        if self.pending[seat]:
            self.pending[seat] = False
            card = self._draw()
            self.discard.append(card)
            self.events.append(("penalty", seat, card))
            if self._extra is None:
                self.winner = seat
                self.events.append(("win", seat))
            else:
                self.events.append(("complete", seat))
            self.completed.append(seat)
            self._end_turn(seat, True)
            return
        self.phase = DRAW
        discard = self.discard
        mode = self._discard_mode
        if not discard or mode == _DISCARD_NEVER:
            self.legal = _STOCK_ONLY
        elif mode == _DISCARD_ANY or self.fits(seat, discard[-1]):
            self.legal = _BOTH
        else:
            self.legal = _STOCK_ONLY

    def _begin_extras(self) -> None:
        winner = self.winner
        assert winner is not None
        if self.rules.last_turn:
            seats = [(winner + i) % self.players for i in range(1, self.players)]
            self.events.append(("extra", "last-turn", tuple(seats)))
            self._extra = seats
        else:
            self._extra = []
        self._next_extra()

    def _next_extra(self) -> None:
        extra = self._extra
        assert extra is not None
        completed = self.completed
        while True:
            while extra:
                seat = extra.pop(0)
                if seat not in completed:
                    self._start_turn(seat)
                    return
            if self._free_left:
                loser = 1 - (self.winner or 0)
                count, self._free_left = self._free_left, 0
                if loser not in completed and self.face_down[loser]:  # nothing left to draw for
                    self.events.append(("extra", "free-draws", (loser,) * count))
                    extra.extend([loser] * count)
                    continue
            self._finish()
            return

    def _finish(self) -> None:
        shrinking = list(self.completed)
        if self.rules.lucky_reveal:
            role = self.roles
            for i in range(1, self.players):
                seat = ((self.winner or 0) + i) % self.players
                if seat in shrinking or not self.face_down[seat]:
                    continue  # a completed layout whose call was forgotten is not "lucky"
                up, down = self.up[seat], self.down[seat]
                cards = tuple(down[s] for s in range(1, self.sizes[seat] + 1) if not up[s])
                slots = [s for s in range(1, self.sizes[seat] + 1) if not up[s]]
                # The match is won only by filling the layout: a reveal never reaches the goal.
                lucky = self.sizes[seat] - 1 > self.rules.target_size and all(
                    role[down[s]] in (s, WILD) for s in slots)
                self.revealed[seat] = cards
                self.events.append(("reveal", seat, cards, lucky))
                if lucky:
                    shrinking.append(seat)
        self.shrinking = tuple(shrinking)
        self.phase = OVER
        self.legal = ()
        self.events.append(("end", self.winner, self.shrinking))

    def _void(self, reason: str) -> None:
        self.voided = reason
        self.phase = OVER
        self.legal = ()
        self.events.append(("void", reason))

    def _stuck(self) -> bool:
        """True when no card in the stock or discards can ever be placed by anybody."""
        if any(self.pending):
            return False
        role = self.roles
        needed = set()
        for seat in range(self.players):
            up = self.up[seat]
            for slot in range(1, self.sizes[seat] + 1):
                held = up[slot]
                if not held or role[held] == WILD:
                    needed.add(slot)
        for card in (*self._cards[self._next:], *self.discard):
            value = role[card]
            if value == WILD or value in needed:
                return False
        return True


__all__ = ["STALL_LIMIT", "TRASH", "Deal", "IllegalAction"]
