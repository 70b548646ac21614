"""The server's own last words on a player's terminal, which stay there after ``ssh`` returns.

When the server ends a session itself (it is stopping, or the app said goodbye to an idle
player), what the player needs to read does not depend on the session's app, which may be
starved of CPU, stopped, or still at its first screen: the server process writes it.
``ScreenTracker`` follows the app's output to know whether it left the terminal on the
alternate screen; ``reset`` puts the terminal back as the player's shell had it (an escape
sequence or synchronized update cut short ended, attributes, mouse, paste and focus
reports off, line wrap on, the normal screen, the cursor shown); ``lines`` wraps a few
plain paragraphs to the window, one line ending each with ``\\r\\n`` (the channel has
no terminal driver to add the ``\\r``). The texts say what happened, what became of the
player's seat at a shared table (``SeatKept``; a guest, new at every connection, keeps
nothing and is told how a key would) and the exact ``ssh`` command to come back
(``come_back``).

Nothing here imports Textual: the SSH server uses it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from trash_tui.text import duration

#: The exit status ``ssh`` returns after the server stopped the session (EX_TEMPFAIL:
#: a temporary failure, try again later).
STOPPED_EXIT_STATUS = 75
#: Lines are wrapped to the window, but never narrower than this.
MIN_WIDTH = 20
_SCREEN_SWITCH = re.compile(rb"\x1b\[\?1049([hl])")
_TAIL = 7  # bytes kept between two chunks: a switch cut in two is still seen

#: What ``reset`` always writes. CAN ends an escape sequence the app's output was cut in
#: the middle of; then the end of a synchronized update (a frame cut short would keep the
#: terminal from drawing), attributes, every mouse report, bracketed paste, in-band resize
#: and focus reports off, line wrap on.
_RESET = (b"\x18\x1b[?2026l\x1b[0m\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
          b"\x1b[?1016l\x1b[?2004l\x1b[?2048l\x1b[?1004l\x1b[?7h")
#: Leaving the alternate screen: the kitty keyboard mode the app pushed there popped first
#: (as Textual does), then the normal screen with its cursor where the shell left it.
_LEAVE_ALTERNATE = b"\x1b[<u\x1b[?1049l"
_SHOW_CURSOR = b"\x1b[?25h"


class ScreenTracker:
    """Whether the output seen so far left the terminal on the alternate screen."""

    def __init__(self) -> None:
        self.alternate = False
        self._tail = b""

    def feed(self, data: bytes) -> None:
        """Follow ``data``, the next bytes of output (a switch may span two chunks)."""
        text = self._tail + data
        last = None
        for found in _SCREEN_SWITCH.finditer(text):
            if found.end() > len(self._tail):  # (one wholly in the old tail was counted)
                last = found
        if last is not None:
            self.alternate = last.group(1) == b"h"
        self._tail = text[-_TAIL:]


def reset(alternate: bool) -> bytes:
    """The bytes that put the terminal back as the app found it (``alternate``: the app's
    output left it on the alternate screen). Each is harmless where nothing is to undo."""
    return _RESET + (_LEAVE_ALTERNATE if alternate else b"") + _SHOW_CURSOR


def come_back(address: tuple[str, int] | None, code: str | None = None) -> str | None:
    """The command that brings a player back: ``ssh [-p PORT] [CODE@]HOST`` (None when
    the server does not know where players reach it)."""
    if address is None:
        return None
    host, port = address
    if not host or any(c.isspace() for c in host):
        return None
    return (f"ssh {'' if port == 22 else f'-p {port} '}"
            f"{'' if code is None else f'{code}@'}{host}")


@dataclass(frozen=True)
class SeatKept:
    """A seat the player holds at a shared table: its name, join code, whether its match
    is under way, how long an empty table waits before it closes (seconds), and whether
    the player was away from it (they left it, or their clock ran out: the stand-in plays
    for them)."""

    table: str
    code: str
    playing: bool
    empty_timeout: float
    away: bool = False


SAVED = ("Nothing is lost: every match is saved after every move (c in the lobby "
         "continues an unfinished one).")


def guest_text(seat: SeatKept | None) -> str:
    """What a guest (no key: someone new at every connection) keeps: nothing."""
    where = "" if seat is None else (f", and your seat at {seat.table} (code {seat.code}) "
                                     "cannot be given back to you")
    return (f"You played as a guest, someone new at every visit: nothing is kept for "
            f"you{where}. To keep your name, your matches and a seat, make a key once "
            "(ssh-keygen -t ed25519) and connect with it.")


def stopping_text(seat: SeatKept | None, command: str | None,
                  notice: str | None = None, guest: bool = False) -> list[str]:
    """The paragraphs for a player whose session ends because the server stops (restarts).
    What becomes of a seat is what a restarted server does: the table waits up to
    ``empty_timeout`` for the players who were at it, and no stand-in plays for one not
    back yet (the table waits at their turn), so nobody leaves a match because of the
    restart; after that wait, the stand-in plays for whoever is still not back. For one
    already away the stand-in plays on; a ``guest`` keeps nothing."""
    said = ["trash: the server is stopping, as its operator asked (usually to restart "
            "it): this session has ended. It is not a crash."]
    if notice:
        said.append(f"The operator says: {notice}")
    if guest:
        said.append(guest_text(seat))
    elif seat is None:
        said.append(SAVED)
    elif seat.playing and seat.away:
        said.append(f"Your seat at {seat.table} (code {seat.code}) is kept: the stand-in "
                    "plays for you until you are back, as it did before the server "
                    "stopped.")
    elif seat.playing:
        said.append(f"Your seat at {seat.table} (code {seat.code}) is kept. When the "
                    f"server is back, the table waits up to {duration(seat.empty_timeout)} "
                    "for its players (no stand-in plays for you meanwhile); after that, "
                    "the stand-in plays for whoever is not back.")
    else:
        said.append(f"Your seat at {seat.table} (code {seat.code}) is kept: when the "
                    f"server is back, the table waits up to {duration(seat.empty_timeout)} "
                    "for its players.")
    said.append(f"Come back with: {command}" if command else "Come back later.")
    return said


def idle_text(idle_timeout: float, seat: SeatKept | None, command: str | None,
              guest: bool = False) -> list[str]:
    """The paragraphs for a player the app said goodbye to after ``idle_timeout`` s
    without a key (the server goes on); a ``guest`` keeps nothing."""
    said = [f"trash: no key pressed for {duration(idle_timeout)}: this session has ended."]
    if guest:
        said.append(guest_text(seat))
    elif seat is None:
        said.append(SAVED)
    elif seat.playing:
        said.append(f"Your seat at {seat.table} (code {seat.code}) is kept: the stand-in "
                    "plays for you until you are back.")
    else:
        said.append(f"Your seat at {seat.table} (code {seat.code}) is kept.")
    if command:
        said.append(f"Come back with: {command}")
    return said


def lines(paragraphs: list[str], columns: int) -> bytes:
    """``paragraphs`` wrapped to ``columns`` (a command is never cut: a line too narrow
    for "Come back with: COMMAND" puts the command on a line of its own), as terminal
    output starting on a fresh line."""
    width = max(MIN_WIDTH, columns - 1)
    out: list[str] = [""]
    for paragraph in paragraphs:
        if paragraph.startswith("Come back with: ") and len(paragraph) > width:
            out += ["Come back with:", "  " + paragraph.removeprefix("Come back with: ")]
            continue
        out += textwrap.wrap(paragraph, width, break_long_words=False,
                             break_on_hyphens=False) or [""]
    return ("\r\n".join(out) + "\r\n").encode()
