"""What the server's operator tells a session over the table link, whatever screen is up.

The app handles these messages of the link (``trash_tui.app.shared.link``) for the whole
session, screens coming and going:

- ``ServerSay``: the operator's notice (``say_from_server``). A screen that has a place
  for it (a ``NoticePlace``: the shared board's side column, the waiting room's log)
  shows it there in a ``NoticeBox``, where it covers neither the status line nor the
  cards; any other screen shows it as a toast. It goes after its seconds. A notice said
  while one is up takes its place in the same box (the box is never mounted twice: the
  screen around it stays whole), for the new notice's seconds.
- ``ServerMotd``: the message of the day, kept on the link (``TablesLink.motd``) for the
  screens that show it (the lobby's line under its title, the Tables screen's title
  line: their ``on_server_motd``), at once if one of them is up, else when one is shown
  next (a board or a waiting room has no place for it: what the operator must tell a
  player now is a ``say``).
- ``Kicked``: the operator ended this session: the app says goodbye with the reason
  (``kicked_text``).

Everything shown is cleaned (``trash_tui.text.clean``).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.widgets import Static

from trash_tui.text import clean

TEXT_LENGTH = 300
DEFAULT_SECONDS = 15.0
KICK_GOODBYE = 3.0  # seconds the goodbye is shown (the server ends the session after)


def seconds_of(message: dict[str, Any]) -> float:
    value = message.get("seconds", DEFAULT_SECONDS)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return DEFAULT_SECONDS
    return min(3600.0, max(1.0, float(value)))


class NoticeBox(Static):
    """The operator's notice on a screen that has a place for it: shown as plain text (an
    operator's brackets are not markup), gone after its seconds unless a newer one came."""

    def __init__(self, prefix: str, id: str = "server-notice") -> None:
        super().__init__("", id=id, markup=False)
        self.prefix = prefix
        self.timer: Any = None

    def show(self, text: str, seconds: float) -> None:
        """Say ``text`` (cleaned) for ``seconds``, in place of what the box said."""
        self.update(Text(f"{self.prefix}{clean(text, TEXT_LENGTH)}"))
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.set_timer(seconds, self.remove)

    @staticmethod
    def on(screen: Any, text: str, seconds: float, prefix: str, place: Any) -> None:
        """Show ``text`` in ``screen``'s box: the one up, else a new one ``place(box)``
        mounts."""
        up = screen.query(NoticeBox)
        if up:
            up.first().show(text, seconds)
            return
        box = NoticeBox(prefix)
        place(box)
        box.show(text, seconds)


class NoticePlace:
    """A screen with a place for the operator's notice (the shared board's side column, the
    waiting room's log): ``server_notice`` shows it there, in a ``NoticeBox``. (A mixin
    after the screen's own base: Textual takes a screen's CSS from its first base.)"""

    def server_notice(self, text: str, seconds: float) -> None:
        raise NotImplementedError


def say_from_server(app: App[Any], message: dict[str, Any]) -> None:
    """The operator's notice (``say``) on the screen up: in its place, or in a toast."""
    text, seconds = clean(message.get("text", ""), TEXT_LENGTH), seconds_of(message)
    if not text:
        return
    screen = app.screen
    if isinstance(screen, NoticePlace):
        screen.server_notice(text, seconds)
    else:
        app.notify(text, title="From the server", timeout=seconds, markup=False)


def kicked_text(message: dict[str, Any]) -> str:
    """The goodbye of a session the operator ended (``kicked``), with the reason."""
    return f"The server's operator ended this session: {clean(message.get('why', ''), TEXT_LENGTH)}"
