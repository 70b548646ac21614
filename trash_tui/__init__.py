"""trash-tui: the card game Trash (Garbage) in the terminal, with bots and tournaments."""

__version__ = "0.1.0"
