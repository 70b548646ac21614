"""What a screen does for the app, declared where the app can see it.

The app asks a screen with ``isinstance`` whether it plays a role (a line of its own for
what the app has to say, a match in play, a hint), never by looking a method up by its
name: a name mistyped on either side fails at once instead of doing nothing. Each role is
a mixin a screen lists after its Textual base (Textual takes a screen's CSS from its
first base); the screens define the methods.
"""

from __future__ import annotations

from trash_tui.rules import Rules


class SaysLines:
    """A screen with a line of its own for what the app has to say (no toast over it)."""

    def say(self, text: str, severity: str = "information") -> None:
        raise NotImplementedError


class ShowsMatch:
    """A screen showing a match in play (the palette then offers no new match)."""

    def match_rules(self) -> Rules | None:
        """The house rules of the match (None: a game without them): the rules help's."""
        raise NotImplementedError


class GivesHints:
    """A screen that can say what the expert bot would do (the palette's Hint)."""

    def action_hint(self) -> None:
        raise NotImplementedError
