"""The card game's screens: the board, the end of a deal and of the match, the replay."""
