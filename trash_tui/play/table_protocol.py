"""The shared tables' wire protocol: JSON lines between a session's app and the server's
table service, and the public views of a match both sides agree on.

Every message is one JSON object on one line (at most ``MAX_LINE`` bytes) with an ``op``.
A session first says ``hello`` with the token the server gave it (``TOKEN_ENV``); from
then on it is that player. What crosses the wire about a match is public by construction:

- an observation (``Observation.to_dict``): face-up cards, the discard pile, the card in
  hand (turned face up), counts; never a face-down card or the stock order;
- the match's events since the last message (the engine's public event tuples);
- a deal's ``public_summary`` (no deck, no reshuffles, no digest) and the match result.

Requests (each answered, or refused with ``{"op": "error", "message": ONE LINE}``; every
request counts against the client's message rate): ``hello`` (``welcome``: version, name,
``waiting``: a table where the player holds a seat or null, ``address``: ``{"host",
"port"}`` where players connect from outside, for ``ssh -p PORT CODE@HOST``, or null),
``list`` (``tables``), ``create`` (``created``), ``join``/``watch`` (an ``update`` with
``reset``, then the table's last chat lines as ``chat`` messages with ``"earlier":
true``), ``leave`` (``left``), ``start``, ``act``, ``back``, ``chat``, ``reopen``,
``mine`` (``{"op": "mine", "tables": [summary, ...]}``: the open tables, waiting or
playing, where this player holds a seat), ``ignore`` (``{"name", "on"}``: that person's
chat lines at this table no longer reach this session, or again; a ``notice``) and
``report`` (``{"name", "reason"}``: to the server's operator with the table's last chat
lines; a ``notice``).

The service also sends, unasked: ``update``, ``notice`` (one line for the table), ``chat``,
``closed`` (``why``: the table is saved and closed), ``left`` with a ``why`` (this session
no longer gets the table's updates, e.g. the player sat down there in another session),
and at the end of a match ``{"op": "result", "left": [seat, ...], "changes": [{"seat",
"name", "before", "after"}, ...]}`` (the seats whose players had left, last in the
standing; the human seats' shown ratings, as on the leaderboard, when it was rated; also
sent to whoever comes to watch the finished table). From
the server's operator (``trash admin``): ``say`` (``text``, ``seconds``: a notice for every
session, gone after its time), ``motd`` (``text``: the message of the day, "" for none;
also sent after ``welcome``) and ``kicked`` (``why``: the session is ended).

``PublicMatch`` is the match as a client rebuilds it from those messages: it has the parts
of ``engine.match.Match`` the board and the end-of-deal screens read (``events``,
``history``, ``result``, ``rules``, ``over``, ``first``, ``deal_number``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from trash_tui.engine.match import DealSummary, MatchResult
from trash_tui.engine.observation import Observation, observation_from_dict
from trash_tui.rules import Rules

#: Environment of a session's app: the table service's socket and this session's token,
#: and the table code the player asked for in the SSH user name.
SOCKET_ENV = "TRASH_TUI_TABLES_SOCKET"
TOKEN_ENV = "TRASH_TUI_TABLES_TOKEN"
JOIN_ENV = "TRASH_TUI_JOIN"
#: The server's web face's public URL (set only when it has one), and the way this session
#: came in: "ssh" or "web" (issue 39; a session without it came over SSH).
WEB_URL_ENV = "TRASH_WEB_URL"
WAY_ENV = "TRASH_WAY"
MAX_LINE = 256 * 1024  # bytes of one message
VERSION = 1
#: Join codes: four characters a friend can read out loud (no 0/O, 1/I).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 4


class ProtocolError(ValueError):
    """A message that is not one this protocol has."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line of JSON."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """The message of one line; ProtocolError if it is not a JSON object with an ``op``."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a message of {len(line)} bytes (at most {MAX_LINE})")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise ProtocolError("not a message (a JSON object with an \"op\")")
    return message


def normal_code(text: str) -> str | None:
    """``text`` as a join code (upper case), or None if it cannot be one."""
    code = text.strip().upper()
    if len(code) == CODE_LENGTH and all(char in CODE_ALPHABET for char in code):
        return code
    return None


# --- events ------------------------------------------------------------------------------

def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(item) for item in value)
    return value


def event_from_json(value: Any) -> tuple[Any, ...]:
    """An engine event tuple from its JSON form (lists back to tuples)."""
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise ProtocolError(f"not an event: {value!r:.80}")
    return _tupled(value)


# --- deal summaries and results -------------------------------------------------------------

@dataclass(frozen=True)
class PublicSummary:
    """What everybody may know about a finished deal (``DealSummary`` without the deck)."""

    number: int
    first: int
    sizes: tuple[int, ...]
    voided: str | None
    winner: int | None
    shrinking: tuple[int, ...]
    face_down: tuple[int, ...]
    turns: int


def public_summary(summary: DealSummary | PublicSummary) -> dict[str, Any]:
    """A deal summary's public part, JSON-ready."""
    return {"number": summary.number, "first": summary.first, "sizes": list(summary.sizes),
            "voided": summary.voided, "winner": summary.winner,
            "shrinking": list(summary.shrinking), "face_down": list(summary.face_down),
            "turns": summary.turns}


def summary_from_dict(data: dict[str, Any]) -> PublicSummary:
    try:
        return PublicSummary(int(data["number"]), int(data["first"]),
                             tuple(int(s) for s in data["sizes"]), data["voided"],
                             data["winner"], tuple(int(s) for s in data["shrinking"]),
                             tuple(int(s) for s in data["face_down"]), int(data["turns"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"not a deal summary: {exc}") from None


def result_to_dict(result: MatchResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"winner": result.winner, "places": list(result.places),
            "sizes": list(result.sizes), "deals": result.deals, "abandoned": result.abandoned}


def result_from_dict(data: dict[str, Any] | None) -> MatchResult | None:
    if data is None:
        return None
    try:
        return MatchResult(data["winner"], [int(p) for p in data["places"]],
                           [int(s) for s in data["sizes"]], int(data["deals"]),
                           bool(data["abandoned"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"not a match result: {exc}") from None


# --- the match as a client sees it ---------------------------------------------------------

@dataclass
class PublicMatch:
    """A match rebuilt from the service's messages: only what is public."""

    rules: Rules
    players: int
    events: list[tuple[Any, ...]] = field(default_factory=list)
    history: list[PublicSummary] = field(default_factory=list)
    result: MatchResult | None = None
    first: int = 0
    deal_number: int = 1
    deals_played: int = 0

    @property
    def over(self) -> bool:
        return self.result is not None


def match_state(match: Any) -> dict[str, Any]:
    """The public parts of an engine ``Match`` that are not in an observation."""
    return {"history": [public_summary(s) for s in match.history],
            "result": result_to_dict(match.result), "first": match.first,
            "deal_number": match.deal_number, "deals_played": match.deals_played}


def apply_match_state(public: PublicMatch, state: dict[str, Any]) -> None:
    """Bring ``public`` up to ``state`` (``match_state``'s form)."""
    try:
        public.history = [summary_from_dict(s) for s in state["history"]]
        public.result = result_from_dict(state["result"])
        public.first = int(state["first"])
        public.deal_number = int(state["deal_number"])
        public.deals_played = int(state["deals_played"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"not a match state: {exc}") from None


def observation_of(data: dict[str, Any], rules: Rules) -> Observation:
    """The observation in a message; ProtocolError if it is not one."""
    try:
        return observation_from_dict(data, rules)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"not an observation: {exc}") from None
