"""Matches saved in the history database as they are played, and continued from there.

``start_saved_match`` stores a new match (rules, seat specs, names, seed) and hooks a
``MatchSaver`` to its controller: every action is written in its own transaction as it
is taken, and the record is kept when the match ends. ``resume_saved_match`` rebuilds an
interrupted match from its seed and saved actions, exactly where it stopped. Games of Help
Your Neighbor are saved and continued the same way (``start_saved_neighbor_game``,
``resume_saved_neighbor_game``): no rules, and the dice come from the seed. Starting or
continuing a match makes this session its holder (``History.take_match``): if it is
continued somewhere else meanwhile, this session's saver stops. A database that fails
while playing never stops the game: the saver keeps the first problem in ``problem`` for
the screen to show and stops writing.
"""

from __future__ import annotations

import secrets
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from bots.base import BotError
from trash_tui.engine.deal import IllegalAction
from trash_tui.engine.record import match_record
from trash_tui.games import NEIGHBOR, TRASH
from trash_tui.history import PLAYING, History, HistoryError, MatchRow, MatchTaken
from trash_tui.neighbor import engine as neighbor_engine
from trash_tui.neighbor.record import neighbor_record
from trash_tui.play.controller import MatchController, make_seats
from trash_tui.play.neighbor_controller import NeighborController, make_neighbor_seats
from trash_tui.rules import Rules, RulesError
from trash_tui.text import clean


class Saver(ABC):
    """Writes a game's actions (and at the end its record) to the database as they are
    taken, as the match's holder: the first problem (the database failing, or the match
    continued in another session) is kept in ``problem`` and nothing more is written."""

    what = "match"

    def __init__(self, history: History, match_id: int, holder: str | None = None) -> None:
        self.history = history
        self.match_id = match_id
        self.holder = holder
        self.problem: str | None = None
        self.context: dict[str, Any] = {}  # more for the record's context (a shared table's)

    def __call__(self, controller: Any, action: int) -> None:
        if self.problem is not None:
            return
        try:
            self.save(controller, action)
        except MatchTaken as exc:
            self.problem = f"this {self.what} is no longer saved here: {exc}"
        except (sqlite3.Error, HistoryError) as exc:
            self.problem = f"the {self.what} is no longer saved: {exc}"

    @abstractmethod
    def save(self, controller: Any, action: int) -> None:
        """Write ``action`` (just taken by ``controller``'s game), and the end if it ends."""


class MatchSaver(Saver):
    """Saves a match of Trash."""

    def save(self, controller: MatchController, action: int) -> None:
        match = controller.match
        self.history.matches.add_action(self.match_id, len(controller.actions) - 1, action,
                                        match.deals_played + (0 if match.over else 1), self.holder)
        if match.over and match.result is not None:
            result = match.result
            winner = controller.names[result.winner] if result.winner is not None else None
            self.history.matches.finish_match(
                self.match_id, winner, result.deals,
                {"places": list(result.places), "sizes": list(result.sizes),
                 "abandoned": result.abandoned},
                match_record(match, controller.names,
                             {"app_match": self.match_id, **self.context}),
                self.holder)


def start_saved_match(history: History, owner: str, rules: Rules, specs: Sequence[Any],
                      seed: int, human_name: str = "You",
                      human_names: Sequence[str] = ()) -> MatchController:
    """A new match at this table, saved in ``history`` from its first action (several
    humans take ``human_names``, see ``make_seats``)."""
    controller = MatchController(rules, make_seats(list(specs), seed, human_name,
                                                   human_names=human_names), seed)
    holder = secrets.token_hex(8)
    match_id = history.matches.start_match(owner, rules.to_dict(), list(specs),
                                           controller.names, seed, holder=holder)
    controller.listeners.append(MatchSaver(history, match_id, holder))
    controller.match_id = match_id
    return controller


def resume_saved_match(history: History, row: MatchRow) -> MatchController:
    """The unfinished match ``row``, rebuilt from its seed and saved actions; it goes on
    being saved. HistoryError if the saved match cannot be rebuilt."""
    if row.status != PLAYING:
        raise HistoryError(f"match {row.id} is {row.status}, not unfinished")
    if row.game != TRASH:
        raise HistoryError(f"match {row.id} is a game of {row.game}, not Trash")
    holder = history.matches.take_match(row.id)  # first: from now on nobody else adds to it
    controller = rebuild_match(history, row)
    controller.listeners.append(MatchSaver(history, row.id, holder))
    controller.match_id = row.id
    return controller




class NeighborSaver(Saver):
    """Saves a game of Help Your Neighbor; ``deals`` counts the turns taken."""

    what = "game"

    def save(self, controller: NeighborController, action: int) -> None:
        game = controller.game
        self.history.matches.add_action(self.match_id, len(controller.actions) - 1, action,
                                        game.turn, self.holder)
        if game.over:
            winner = controller.names[game.winner] if game.winner is not None else None
            self.history.matches.finish_match(
                self.match_id, winner, game.turn,
                {"winner": game.winner, "abandoned": game.abandoned,
                 "covered": [len(markers) for markers in game.covered]},
                neighbor_record(game, controller.names, {"app_match": self.match_id}),
                self.holder)


def start_saved_neighbor_game(history: History, owner: str, specs: Sequence[str], seed: int,
                              human_name: str = "You",
                              human_names: Sequence[str] = ()) -> NeighborController:
    """A new game of Help Your Neighbor at this table, saved in ``history`` from its first
    action."""
    controller = NeighborController(make_neighbor_seats(list(specs), seed, human_name,
                                                        human_names), seed)
    holder = secrets.token_hex(8)
    match_id = history.matches.start_match(owner, {}, list(specs), controller.names, seed,
                                           game=NEIGHBOR, holder=holder)
    controller.listeners.append(NeighborSaver(history, match_id, holder))
    controller.match_id = match_id
    return controller


def resume_saved_neighbor_game(history: History, row: MatchRow) -> NeighborController:
    """The unfinished game of Help Your Neighbor ``row``, rebuilt from its seed and saved
    actions; it goes on being saved. HistoryError if it cannot be rebuilt."""
    if row.status != PLAYING:
        raise HistoryError(f"match {row.id} is {row.status}, not unfinished")
    if row.game != NEIGHBOR:
        raise HistoryError(f"match {row.id} is a game of {row.game}, not Help Your Neighbor")
    holder = history.matches.take_match(row.id)  # first: from now on nobody else adds to it
    controller = rebuild_neighbor_game(history, row)
    controller.listeners.append(NeighborSaver(history, row.id, holder))
    controller.match_id = row.id
    return controller


def rebuild_match(history: History, row: MatchRow) -> MatchController:
    """The match of Trash ``row`` as far as its saved actions go (not saved from here:
    ``resume_saved_match`` continues it). HistoryError if it cannot be rebuilt."""
    try:
        rules = Rules.from_dict(row.rules)
        seats = make_seats(row.seats, row.seed)
        seats = [type(seat)(clean(name), seat.bot)  # names from the database
                 for seat, name in zip(seats, row.names, strict=True)]
        controller = MatchController(rules, seats, row.seed)
        controller.replay(history.matches.match_actions(row.id))
    except (RulesError, BotError, IllegalAction, ValueError) as exc:
        raise HistoryError(f"match {row.id} cannot be rebuilt: {exc}") from None
    controller.match_id = row.id
    return controller


def rebuild_neighbor_game(history: History, row: MatchRow) -> NeighborController:
    """The game of Help Your Neighbor ``row`` as far as its saved actions go (not saved
    from here). HistoryError if it cannot be rebuilt."""
    try:
        seats = make_neighbor_seats(row.seats, row.seed)
        seats = [type(seat)(clean(name), seat.bot)  # names from the database
                 for seat, name in zip(seats, row.names, strict=True)]
        controller = NeighborController(seats, row.seed)
        controller.replay(history.matches.match_actions(row.id))
    except (BotError, neighbor_engine.IllegalAction, ValueError) as exc:
        raise HistoryError(f"match {row.id} cannot be rebuilt: {exc}") from None
    controller.match_id = row.id
    return controller


def saved_record(history: History, row: MatchRow) -> dict[str, Any]:
    """The record of a saved match of either game: the one kept when it finished, or one
    rebuilt from its seed and actions up to where it stopped (``trash replay`` reads
    both)."""
    if row.record is not None:
        return row.record
    context = {"app_match": row.id}
    if row.game == NEIGHBOR:
        game = rebuild_neighbor_game(history, row)
        return neighbor_record(game.game, game.names, context)
    match = rebuild_match(history, row)
    return match_record(match.match, match.names, context)


def resume_saved(history: History, row: MatchRow) -> MatchController | NeighborController:
    """The unfinished match or game ``row``, whichever game it is."""
    if row.game == NEIGHBOR:
        return resume_saved_neighbor_game(history, row)
    return resume_saved_match(history, row)
