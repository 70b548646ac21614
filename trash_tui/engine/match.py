"""A match of Trash: the cut for the first dealer, a run of deals, shrinking layouts, the end.

``Match`` drives ``Deal`` objects and keeps what outlives a deal: the layout sizes (the
score), who plays first, how many deals were played, and the history a record is made
from. Where the cards come from is a ``CardSource``: ``RandomSource`` (seeded) for new
matches, ``RecordSource`` (the decks written in a record) for exact replays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from trash_tui.cards import build_deck, decks_for, rank_of, standard_deck
from trash_tui.engine.actions import OVER
from trash_tui.engine.deal import Deal
from trash_tui.engine.observation import Observation, observe
from trash_tui.engine.rng import Rng, derive_seed
from trash_tui.rules import Rules, RulesError

MAX_PLAYERS = 8
MIN_PLAYERS = 2
MAX_VOIDS_IN_A_ROW = 50  # a match abandons after this many void deals in a row


def events_digest(events: Sequence[tuple]) -> str:
    """A short fingerprint of a deal's events: two deals that played out alike share it."""
    return hashlib.sha256(repr(list(events)).encode()).hexdigest()[:16]


class CardSource(Protocol):
    """Where a match's cards come from."""

    def cut_cards(self, count: int) -> list[int]:
        """Cards for the cut, in the order they are cut."""
        ...

    def start_deal(self, rules: Rules, sizes: Sequence[int], first: int,
                   cards: list[int], events: list[tuple]) -> Deal:
        """A new deal of ``cards`` (the unshuffled set) to layouts of ``sizes``."""
        ...


class RandomSource:
    """Cards shuffled from a seed: the same seed gives the same match on any machine."""

    def __init__(self, seed: int | str) -> None:
        self.rng = Rng(derive_seed(seed, "cards"))

    def cut_cards(self, count: int) -> list[int]:
        return self.rng.shuffle(standard_deck())[:count]

    def start_deal(self, rules: Rules, sizes: Sequence[int], first: int,
                   cards: list[int], events: list[tuple]) -> Deal:
        return Deal(rules, sizes, first, cards, reshuffle=self.rng.shuffle, events=events,
                    shuffle_with=self.rng)


def validate_table(rules: Rules, players: int) -> None:
    """Raise RulesError if ``rules`` cannot be played by ``players`` players."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"players: Trash is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"got {players}")
    if rules.free_draws and players != 2:
        raise RulesError(f"rules.free_draws: free draws are a 2-player rule; this table has "
                         f"{players} players (set free_draws = 0)")


@dataclass
class DealSummary:
    """What a finished deal left behind, as the match and its record keep it."""

    number: int
    first: int
    sizes: tuple[int, ...]
    deck: tuple[int, ...]
    reshuffles: list[tuple[int, ...]]
    actions: list[int]
    voided: str | None
    winner: int | None
    shrinking: tuple[int, ...]
    face_down: tuple[int, ...]
    turns: int
    digest: str = ""


@dataclass
class MatchResult:
    """How a match ended: the winner and every seat's place (1 = winner)."""

    winner: int | None
    places: list[int]
    sizes: list[int]
    deals: int
    abandoned: bool = False


class Match:
    """A whole match: deals until someone wins; drive it with ``apply``."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int | str = 0,
        *,
        source: CardSource | None = None,
        first: int | None = None,
        deal: Deal | None = None,
        deals_played: int = 0,
    ) -> None:
        """Start a match: cut for the dealer (unless ``first`` is given) and deal.

        ``first`` skips the cut and lets that seat play first (used for deal-level play).
        ``deal`` picks a match up in the middle, at that deal (with its layout sizes, after
        ``deals_played`` deals): look-ahead bots play a sampled deal on to the match's end.
        """
        validate_table(rules, players)
        self.rules = rules
        self.players = players
        self.seed = seed
        self.source = source or RandomSource(seed)
        self.events: list[tuple] = []
        self.sizes = list(deal.sizes) if deal is not None else [rules.start_size] * players
        self.history: list[DealSummary] = []
        self.deals_played = deals_played
        self.voids_in_a_row = 0
        self.result: MatchResult | None = None
        self._cards = build_deck(decks_for(players), rules.jokers)
        self.cut: list[int] = []
        if deal is not None:
            self.first, self.dealer = deal.first, (deal.first - 1) % players
            self.deal = deal
            return
        if first is None:
            self.dealer = self._cut_for_dealer()
            self.first = (self.dealer + 1) % players
        else:
            self.first = first
            self.dealer = (first - 1) % players
        self.deal: Deal = self._start_deal()

    # --- the cut -----------------------------------------------------------------------
    def _cut_for_dealer(self) -> int:
        """Lowest card deals (Ace low); players tied for lowest cut again."""
        cards = self.source.cut_cards(52)
        position = 0
        contenders = list(range(self.players))
        while True:
            drawn = cards[position:position + len(contenders)]
            if len(drawn) < len(contenders):
                raise ValueError(f"the cut needs {len(contenders)} more cards, "
                                 f"{len(drawn)} are left")
            position += len(contenders)
            lowest = min(rank_of(c) for c in drawn)
            tied = [seat for seat, card in zip(contenders, drawn, strict=True)
                    if rank_of(card) == lowest]
            if len(tied) == 1 or position + len(tied) > len(cards):
                self.cut = cards[:position]
                self.events.append(("cut", tuple(zip(contenders, drawn, strict=True)), tied[0]))
                return tied[0]
            self.events.append(("cut", tuple(zip(contenders, drawn, strict=True)), None))
            contenders = tied

    # --- deals -------------------------------------------------------------------------
    def _start_deal(self) -> Deal:
        number = self.deals_played + 1
        self.events.append(("deal", number, self.first, tuple(self.sizes)))
        return self.source.start_deal(self.rules, self.sizes, self.first, list(self._cards),
                                      self.events)

    @property
    def over(self) -> bool:
        """True once the match has a result."""
        return self.result is not None

    @property
    def deal_number(self) -> int:
        """The number of the current deal (void deals are re-dealt under the same number)."""
        return self.deals_played + (0 if self.over else 1)

    @property
    def to_move(self) -> int:
        """The seat whose decision it is."""
        return self.deal.to_move

    @property
    def legal(self) -> tuple[int, ...]:
        """The legal actions of the current decision (empty once the match is over)."""
        return () if self.over else self.deal.legal

    @property
    def phase(self) -> int:
        """The current decision kind (``OVER`` once the match is over)."""
        return OVER if self.over else self.deal.phase

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now."""
        return observe(self.deal, seat, deal_number=self.deal_number,
                       deals_played=self.deals_played)

    def apply(self, action: int) -> None:
        """Take ``action`` for the player to move; finish the deal and the match as due."""
        if self.over:
            from trash_tui.engine.deal import IllegalAction

            raise IllegalAction("illegal action: the match is over")
        deal = self.deal
        deal.apply(action)
        if deal.phase == OVER:
            self._after_deal()

    def play_deal_greedy(self) -> None:
        """Play the current deal to its end with every seat greedy (``Deal.play_greedy``:
        the same actions as applying ``greedy_policy`` decision by decision)."""
        if self.over:
            from trash_tui.engine.deal import IllegalAction

            raise IllegalAction("illegal action: the match is over")
        self.deal.play_greedy()
        self._after_deal()

    def _after_deal(self) -> None:
        deal = self.deal
        summary = DealSummary(
            number=self.deals_played + 1, first=deal.first, sizes=deal.sizes, deck=deal.deck,
            reshuffles=list(deal.reshuffles), actions=list(deal.actions), voided=deal.voided,
            winner=deal.winner, shrinking=deal.shrinking, face_down=tuple(deal.face_down),
            turns=deal.turns, digest=events_digest(deal.own_events()),
        )
        self.history.append(summary)
        if deal.voided:
            self.voids_in_a_row += 1
            if self.voids_in_a_row >= MAX_VOIDS_IN_A_ROW:
                self._finish(None, abandoned=True)
                return
            self.deal = self._start_deal()
            return
        self.voids_in_a_row = 0
        self.deals_played += 1
        for seat in deal.shrinking:
            self.sizes[seat] -= 1
        target = self.rules.target_size
        finishers = [seat for seat in deal.shrinking if self.sizes[seat] <= target]
        if finishers:
            self._finish(finishers[0])
        elif self.rules.max_deals and self.deals_played >= self.rules.max_deals:
            self._finish(self._ranking()[0])
        else:
            if self.rules.first_player == "winner" and deal.winner is not None:
                self.first = deal.winner
            else:
                self.first = (self.first + 1) % self.players
            self.deal = self._start_deal()

    def _ranking_key(self, seat: int) -> tuple[int, int]:
        last = self.history[-1]
        return (self.sizes[seat], last.face_down[seat])

    def _ranking(self) -> list[int]:
        """Seats best first: layout size, face-down cards left in the last deal, then who
        completed first in the last deal, then turn order of the last deal."""
        last = self.history[-1]
        order = {seat: i for i, seat in enumerate(last.shrinking)}
        turn_order = {(last.first + i) % self.players: i for i in range(self.players)}
        return sorted(range(self.players), key=lambda s: (
            *self._ranking_key(s), order.get(s, len(order)), turn_order[s]))

    def _finish(self, winner: int | None, abandoned: bool = False) -> None:
        places = [0] * self.players
        if winner is not None:
            places[winner] = 1
            others = [s for s in self._ranking() if s != winner]
            if self.rules.places or self.rules.max_deals:
                place = 2
                for i, seat in enumerate(others):
                    if i and self._ranking_key(seat) != self._ranking_key(others[i - 1]):
                        place = i + 2
                    places[seat] = place
            else:
                for seat in others:
                    places[seat] = 2
        self.result = MatchResult(winner=winner, places=places, sizes=list(self.sizes),
                                  deals=self.deals_played, abandoned=abandoned)
        self.events.append(("match", winner, tuple(places)))
