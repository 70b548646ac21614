"""The app's other screens: lobby, history, settings, tournaments, rules help, the SSH
player's name prompt and goodbye, hot seat names, an unfinished match, the size guard."""
