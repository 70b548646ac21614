"""The screens that follow a table: the Tables list, a table's waiting room, its board.

The app passes every message of the table link to each screen of its stack, in the order
the messages came (``TrashApp.pass_on``); a screen handles the kinds it shows, after it
is up (its queue holds what came before). Before it passes on an update, the app asks the
topmost of these screens whether the update opens the table's next screen (``opens``):
the Tables screen opens the table it asked for, the waiting room the board when the match
starts. The next screen is opened there and then, in the app's order, so every message
after that update goes to it: none is lost between two screens. ``take_away`` closes a
screen with whatever is over it, unless it has already gone (a message posted before it
went may still come to it).
"""

from __future__ import annotations

from typing import Any, cast

from textual.screen import Screen

from trash_tui.app.shared.link import TableUpdate


class TableFollower:
    """A screen that shows a table, or the tables, as the service sends them (a mixin
    after the screen's own base: Textual takes a screen's CSS from its first base)."""

    def opens(self, update: TableUpdate) -> bool:
        """Whether ``update`` opens the table's next screen (opened now); no by default:
        an update is this screen's own."""
        return False

    def take_away(self) -> None:
        """Close this screen, and whatever is over it; nothing when it has gone."""
        screen = cast("Screen[Any]", self)
        app = screen.app
        if screen not in app.screen_stack:
            return
        while app.screen is not screen:
            app.pop_screen()
        app.pop_screen()
