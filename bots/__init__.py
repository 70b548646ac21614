"""Bots: players that choose actions. Sits above the engine, below tournaments and the app.

- ``Bot`` (``bots.base``): the interface a bot implements; ``Param`` declares parameters.
- ``REGISTRY``, ``find_bot``, ``make_bot`` (``bots.registry``): find bots by name, import
  path or file path, and configure them from TOML-like tables.
- ``play_match``, ``play_deal`` (``bots.runner``): play games with bots, checking answers.
- ``POLICIES`` (``bots.builtin``): the fast stateless policies headless simulation uses.
"""

from bots.base import Bot, BotError, Param
from bots.builtin import POLICIES, Policy, greedy_policy, random_policy
from bots.registry import REGISTRY, find_bot, make_bot
from bots.runner import BotFailure, play_deal, play_match

__all__ = [
    "POLICIES", "REGISTRY", "Bot", "BotError", "BotFailure", "Param", "Policy", "find_bot",
    "greedy_policy", "make_bot", "play_deal", "play_match", "random_policy",
]
