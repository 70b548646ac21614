"""Players' ratings, the leaderboard and personal statistics (no user interface here).

``identity``: who an SSH player is (a key, a password user, a guest) and the name one
is given when they keep the suggestion; ``rating``: a rating as a value and its shown
scale; ``model``: the rating model (openskill's Plackett–Luce) and which matches it rates;
``anchors``: the bot levels' fixed ratings (``anchors.json``, made by ``calibration``);
``rater``: the model handed to the history database, which stores the ratings and updates
them as each match finishes (``open_history``); ``board``: the leaderboard; ``stats``: one
player's statistics.
"""
