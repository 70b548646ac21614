"""Players' ratings, the leaderboard and personal statistics (no user interface here).

``model``: the rating model (openskill's Plackett–Luce) and which matches it rates;
``anchors``: the bot levels' fixed ratings (``anchors.json``, made by ``calibration``);
``board``: the leaderboard; ``stats``: one player's statistics. The history database
(``trash_tui.history``) stores the ratings and updates them as each match finishes.
"""
