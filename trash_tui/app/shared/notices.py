"""What the server's operator tells a session over the table link, whatever screen is up.

``ServerNotices.attach(app, link)`` listens to the link for the whole session (screens
come and go):

- ``say``: the operator's notice. A screen that has a place for it (``server_notice``:
  the shared board's side column, the waiting room's log) shows it there in a
  ``NoticeBox``, where it covers neither the status line nor the cards; any other screen
  shows it as a toast. It goes after its seconds. A notice said while one is up takes its
  place in the same box (the box is never mounted twice: the screen around it stays
  whole), for the new notice's seconds.
- ``motd``: the message of the day, kept on the link (``link.motd``) for the screens that
  show it (``show_motd``: the lobby's line under its title, the Tables screen's title
  line), at once if one of them is up, else when one is shown next (a board or a waiting
  room has no place for it: what the operator must tell a player now is a ``say``).
- ``kicked``: the operator ended this session: the app says goodbye with the reason.

Everything shown is cleaned (``trash_tui.text.clean``).
"""

from __future__ import annotations

import contextlib
from typing import Any

from rich.text import Text
from textual.widgets import Static

from trash_tui.app.shared.link import TablesLink
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


class ServerNotices:
    """The operator's messages, shown in whichever screen the app has up."""

    def __init__(self, app: Any, link: TablesLink) -> None:
        self.app = app
        self.link = link

    @classmethod
    def attach(cls, app: Any, link: TablesLink | None) -> ServerNotices | None:
        if link is None:
            return None
        notices = cls(app, link)
        link.listen(notices.on_message)
        return notices

    def on_message(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a notice never takes the app down
            self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "say":
            self.say(clean(message.get("text", ""), TEXT_LENGTH), seconds_of(message))
        elif op == "motd":
            text = clean(message.get("text", ""), TEXT_LENGTH).strip() or None
            self.link.motd = text
            shown = getattr(self.app.screen, "show_motd", None)
            if shown is not None:  # the lobby's line, the Tables screen's title
                shown()
        elif op == "kicked":
            why = clean(message.get("why", ""), TEXT_LENGTH)
            goodbye = getattr(self.app, "say_goodbye", None)
            if goodbye is not None:
                goodbye(f"The server's operator ended this session: {why}",
                        delay=KICK_GOODBYE)

    def say(self, text: str, seconds: float) -> None:
        if not text:
            return
        shown = getattr(self.app.screen, "server_notice", None)
        if shown is not None:
            shown(text, seconds)
        else:
            self.app.notify(text, title="From the server", timeout=seconds, markup=False)
