"""The web face's lines in the app (issue 39).

Over SSH, with a key, on a server whose web face is on (the link's ``web_url``), the
lobby offers "Play in a browser" (``b``, and the command palette): it asks the table
service for a one-time link code (``link_code``) and shows ``URL/link/CODE`` and how long
it holds, on one line of the lobby's box at 80 columns (``link_line``). Opened in a
browser, that link makes the browser this player (their name, rating and seats). A guest
has nothing to link, and a browser's session has nothing to offer (it is the browser).
The waiting room's way to join in a browser is ``table_url``.
"""

from __future__ import annotations

from trash_tui.app.shared.link import TablesLink
from trash_tui.players.identity import is_guest, is_web

#: The text width of the lobby's box at 80 columns (78 less its border and padding).
LINE_WIDTH = 74


def offers_browser(link: TablesLink | None, owner: str) -> bool:
    """Whether this session is offered "Play in a browser": over SSH, with a kept identity
    of its own (a key or a password user), on a server with a web face."""
    return (link is not None and link.web_url is not None and link.way == "ssh"
            and not is_guest(owner) and not is_web(owner))


def link_line(url: str, code: str, minutes: int, width: int = LINE_WIDTH) -> str:
    """The lobby's line for a link code: the link and how long it holds, in ``width``
    characters when it can be (the link itself is never cut)."""
    link = f"{url}/link/{code}"
    for line in (f"In a browser: {link} (one use, {minutes} minutes)",
                 f"In a browser: {link} (one use, {minutes} min)",
                 f"{link} (one use, {minutes} min)"):
        if len(line) <= width:
            return line
    return link


def table_url(url: str, code: str) -> str:
    """The page that joins the table ``code`` (as ``ssh CODE@HOST`` does)."""
    return f"{url}/t/{code}"
