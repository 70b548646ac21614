"""Bots: players that choose actions. Sits above the engine, below tournaments and the app.

``POLICIES`` names the fast built-in policies (``random``, ``greedy``) that headless
simulation uses.
"""

from bots.builtin import POLICIES, Policy, greedy_policy, random_policy

__all__ = ["POLICIES", "Policy", "greedy_policy", "random_policy"]
