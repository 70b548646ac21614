"""Observations as the JSON text of a protocol line, written directly: the hot path of a bot
in a process of its own (``bots/PROTOCOL.md``, version 2).

``observation_json`` gives the JSON object of ``Observation.to_dict()`` without the fields
the match's ``hello`` already said (``seat``, ``players``, ``rules``), in the same key order.
It joins precomputed card and action names instead of building a dictionary for
``json.dumps``, which costs about three times as much for every decision.
``tests/test_external_bots.py`` checks that the text decodes to exactly that dictionary.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence

from trash_tui.cards import MAX_CODE, card_id
from trash_tui.engine.actions import action_name
from trash_tui.engine.observation import Observation

#: What ``hello`` says once per match and the observations of that match leave out.
HELLO_FIELDS = ("seat", "players", "rules")

_dumps = json.JSONEncoder(separators=(",", ":")).encode
_CARD: dict[int | None, str] = {code: _dumps(card_id(code)) for code in range(MAX_CODE)}
_CARD[None] = "null"  # a face-down card
_card = _CARD.__getitem__
_ACTION: dict[int, str] = {}  # an action code's JSON string, filled as actions come up
_ACTIONS: dict[tuple[int, ...], str] = {}  # a tuple of legal actions' JSON list (a few hundred)
_WORD: dict[str, str] = {}  # a decision name's JSON string
_NO_CLOCK = '{"remaining":null,"increment":null,"limit":null}'


def _action(action: int) -> str:
    text = _ACTION.get(action)
    if text is None:
        text = _ACTION[action] = _dumps(action_name(action))
    return text


def _word(word: str) -> str:
    text = _WORD.get(word)
    if text is None:
        text = _dumps(word)
        if len(_WORD) < 64:  # decision names: a handful
            _WORD[word] = text
    return text


def actions_json(actions: Sequence[int]) -> str:
    """A list of actions by name: ``["stock","discard"]``."""
    if type(actions) is not tuple:
        return "[" + ",".join(map(_action, actions)) + "]"
    text = _ACTIONS.get(actions)
    if text is None:
        text = "[" + ",".join(map(_action, actions)) + "]"
        if len(_ACTIONS) < 4096:  # the legal sets of a deal are few; this is a safety bound
            _ACTIONS[actions] = text
    return text


def _cards(cards: Iterable[int | None]) -> str:
    return "[" + ",".join(map(_card, cards)) + "]"


def _ints(numbers: Sequence[int]) -> str:
    return "[" + ",".join(map(str, numbers)) + "]" if numbers else "[]"


def _number(value: float | None) -> str:
    """A number (or null) as ``json.dumps`` writes it."""
    if value is None:
        return "null"
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    return _dumps(value)


def clock_json(remaining: float | None, increment: float | None, limit: float | None) -> str:
    """A decision's ``clock`` object."""
    if remaining is None and increment is None and limit is None:
        return _NO_CLOCK
    return (f'{{"remaining":{_number(remaining)},"increment":{_number(increment)},'
            f'"limit":{_number(limit)}}}')


def observation_json(seen: Observation, legal: str | None = None) -> str:
    """``seen.to_dict()`` less ``HELLO_FIELDS``, as compact JSON text (``legal``: the text
    of ``seen.legal`` when the caller has it already)."""
    if legal is None:
        legal = actions_json(seen.legal)
    layouts = "],[".join([",".join(map(_card, layout)) for layout in seen.layouts])
    revealed = ",".join([f'"{seat}":{_cards(cards)}' for seat, cards in seen.revealed])
    winner = "null" if seen.winner is None else seen.winner
    extra = "null" if seen.extra_turns is None else _ints(seen.extra_turns)
    voided = "null" if seen.voided is None else _dumps(seen.voided)
    stock = "null" if seen.stock_cards is None else _cards(seen.stock_cards)
    return (f'{{"decision":{_word(seen.decision)},"to_move":{seen.to_move},'
            f'"legal":{legal},"hand":{_card(seen.hand)},"discard":{_cards(seen.discard)},'
            f'"stock_count":{seen.stock_count},"layouts":[[{layouts}]],'
            f'"first":{seen.first},"turn":{seen.turn},"winner":{winner},'
            f'"completed":{_ints(seen.completed)},"forgot_call":{_ints(seen.forgot_call)},'
            f'"revealed":{{{revealed}}},"deal_number":{seen.deal_number},'
            f'"deals_played":{seen.deals_played},"extra_turns":{extra},'
            f'"free_draws_left":{seen.free_draws_left},'
            f'"shrinking":{_ints(seen.shrinking)},"voided":{voided},'
            f'"stock_cards":{stock}}}')


def full_observation(hello: dict[str, object], observation: dict[str, object]
                     ) -> dict[str, object]:
    """The whole ``Observation.to_dict()`` again on the bot's side: a message's observation
    with the hello's ``HELLO_FIELDS`` put back (in their places)."""
    return {**{key: hello[key] for key in HELLO_FIELDS}, **observation}
