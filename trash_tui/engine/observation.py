"""A player's observation: exactly what one seat may see, as an immutable snapshot.

Face-up cards, the discard pile (every card in it was laid face up), the card in hand
during a chain (it is turned face up), the stock's size, and at the end of a deal the
cards a lucky reveal turned up. After a reshuffle, also which cards the stock holds: every
player saw them face up on the discard pile when it was turned over, and saw each card
drawn since turn face up. Never a face-down card, never the stock's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trash_tui.cards import MAX_CODE, card_id, parse_card
from trash_tui.engine.actions import DECISION_NAMES, action_name, parse_action
from trash_tui.rules import WILD, Rules

if TYPE_CHECKING:
    from trash_tui.engine.deal import Deal

_CARD_NAME: dict[int | None, str | None] = {code: card_id(code) for code in range(MAX_CODE)}
_CARD_NAME[None] = None  # a face-down card


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a deal. Layout entries are card codes, or None when face down."""

    seat: int
    players: int
    rules: Rules
    decision: str  # 'draw', 'wild', 'swap', 'call' or 'over'
    to_move: int
    legal: tuple[int, ...]  # the legal actions when it is this seat's decision, else ()
    hand: int | None
    discard: tuple[int, ...]  # bottom first; the top is the last
    stock_count: int
    layouts: tuple[tuple[int | None, ...], ...]  # per seat, slot 1 first
    first: int
    turn: int
    winner: int | None
    completed: tuple[int, ...]
    forgot_call: tuple[int, ...]  # seats whose completed layout waits for a penalty draw
    revealed: tuple[tuple[int, tuple[int, ...]], ...]  # lucky reveals at the deal's end
    roles: tuple[int, ...]  # per card code: its slot, 0 for wild, 15 for trash
    deal_number: int = 1
    deals_played: int = 0
    extra_turns: tuple[int, ...] | None = None  # seats still due an extra turn, in order
    free_draws_left: int = 0
    shrinking: tuple[int, ...] = ()  # at the end of a deal: the seats whose layouts shrink
    voided: str | None = None  # at the end of a void deal: why
    # After a reshuffle: the cards in the stock, sorted (public: the discards turned over,
    # less the cards drawn since, each turned face up); None before the deal's first one.
    stock_cards: tuple[int, ...] | None = None

    @property
    def discard_top(self) -> int | None:
        """The top card of the discard pile, if any."""
        return self.discard[-1] if self.discard else None

    @property
    def my_layout(self) -> tuple[int | None, ...]:
        """This seat's own layout."""
        return self.layouts[self.seat]

    def is_wild(self, card: int) -> bool:
        """Whether ``card`` is wild under these rules."""
        return self.roles[card] == WILD

    def face_down_slots(self, seat: int | None = None) -> list[int]:
        """Slots still face down (for ``seat``, by default this one)."""
        layout = self.layouts[self.seat if seat is None else seat]
        return [slot for slot, card in enumerate(layout, start=1) if card is None]

    def fits(self, card: int, seat: int | None = None) -> bool:
        """Whether ``card`` fits a face-down or wild-held slot of ``seat`` (default: mine)."""
        layout = self.layouts[self.seat if seat is None else seat]
        value = self.roles[card]
        if value == WILD:
            return None in layout
        if value <= len(layout):
            held = layout[value - 1]
            return held is None or self.roles[held] == WILD
        return False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with card names instead of codes."""
        name = _CARD_NAME.__getitem__
        return {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "decision": self.decision,
            "to_move": self.to_move,
            "legal": [action_name(a) for a in self.legal],
            "hand": name(self.hand),
            "discard": [name(c) for c in self.discard],
            "stock_count": self.stock_count,
            "layouts": [[name(c) for c in layout] for layout in self.layouts],
            "first": self.first,
            "turn": self.turn,
            "winner": self.winner,
            "completed": list(self.completed),
            "forgot_call": list(self.forgot_call),
            "revealed": {str(seat): [name(c) for c in cards] for seat, cards in self.revealed},
            "deal_number": self.deal_number,
            "deals_played": self.deals_played,
            "extra_turns": None if self.extra_turns is None else list(self.extra_turns),
            "free_draws_left": self.free_draws_left,
            "shrinking": list(self.shrinking),
            "voided": self.voided,
            "stock_cards": (None if self.stock_cards is None
                            else [name(c) for c in self.stock_cards]),
        }


def observation_from_dict(data: dict[str, Any], rules: Rules | None = None) -> Observation:
    """The Observation ``Observation.to_dict`` gave ``data`` for (``rules``, when given, saves
    rebuilding them from ``data["rules"]``). ValueError or KeyError if it is not one."""
    rules = Rules.from_dict(data["rules"]) if rules is None else rules

    def card(name: str | None) -> int | None:
        return None if name is None else parse_card(name)

    extra = data["extra_turns"]
    stock = data.get("stock_cards")
    return Observation(
        seat=data["seat"], players=data["players"], rules=rules, decision=data["decision"],
        to_move=data["to_move"], legal=tuple(parse_action(a) for a in data["legal"]),
        hand=card(data["hand"]), discard=tuple(parse_card(c) for c in data["discard"]),
        stock_count=data["stock_count"],
        layouts=tuple(tuple(card(c) for c in layout) for layout in data["layouts"]),
        first=data["first"], turn=data["turn"], winner=data["winner"],
        completed=tuple(data["completed"]), forgot_call=tuple(data["forgot_call"]),
        revealed=tuple(sorted((int(seat), tuple(parse_card(c) for c in cards))
                              for seat, cards in data["revealed"].items())),
        roles=tuple(rules.role_table()), deal_number=data["deal_number"],
        deals_played=data["deals_played"],
        extra_turns=None if extra is None else tuple(extra),
        free_draws_left=data["free_draws_left"], shrinking=tuple(data["shrinking"]),
        voided=data["voided"],
        stock_cards=None if stock is None else tuple(parse_card(c) for c in stock),
    )


def observe(deal: Deal, seat: int, deal_number: int = 1, deals_played: int = 0) -> Observation:
    """Build ``seat``'s observation of ``deal``."""
    layouts = tuple(
        tuple(card or None for card in deal.up[s][1:]) for s in range(deal.players)
    )
    return Observation(
        seat=seat,
        players=deal.players,
        rules=deal.rules,
        decision=DECISION_NAMES[deal.phase],
        to_move=deal.to_move,
        legal=deal.legal if deal.to_move == seat else (),
        hand=deal.hand or None,
        discard=tuple(deal.discard),
        stock_count=deal.stock_count,
        layouts=layouts,
        first=deal.first,
        turn=deal.turns,
        winner=deal.winner,
        completed=tuple(deal.completed),
        forgot_call=tuple(s for s in range(deal.players) if deal.pending[s]),
        revealed=tuple(sorted(deal.revealed.items())),
        roles=tuple(deal.roles),
        deal_number=deal_number,
        deals_played=deals_played,
        extra_turns=deal.extra_turns,
        free_draws_left=deal.free_draws_left,
        shrinking=deal.shrinking,
        voided=deal.voided,
        stock_cards=tuple(sorted(deal.stock)) if deal.reshuffles else None,
    )
