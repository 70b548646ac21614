"""Playing a match or a dice game with no UI: the controllers that seat humans and bots
and take one decision at a time, and saving them in the history database (the app and
the SSH server's table service both drive these)."""
