"""The players' screens: the leaderboard and your statistics (``trash_tui/players`` holds
what they show)."""
