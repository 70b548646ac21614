"""A shared table's chat and seats as the table's screens show them: the one-line chat
input, a chat line for the log, the seats in short. Everything shown came from other
players and is cleaned."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Input

from trash_tui.text import clean

CHAT_LENGTH = 200


def seats_line(table: dict[str, Any]) -> str:
    """The seats in short: names of humans (away marked), "open", bot levels."""
    parts = []
    for seat in table["seats"]:
        if seat["kind"] == "human":
            name = clean(seat.get("name") or "?", 24)
            parts.append(name + (" (away)" if seat.get("state") == "away" else ""))
        elif seat["kind"] == "open":
            parts.append("○ open")
        else:
            parts.append(f"bot {seat.get('level')}")
    return ", ".join(parts)


def chat_text(message: dict[str, Any]) -> Text:
    """A chat line as the log shows it: who (cleaned; marked if watching) and what."""
    who = clean(message.get("from", "?"), 32)
    watching = " (watching)" if message.get("watching") else ""
    return Text(f"💬 {who}{watching}: {clean(message.get('text', ''), CHAT_LENGTH)}")



class ChatLine(Input):
    """The one-line table chat: enter sends, escape closes it (the table stays)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close_chat", "Close chat", id="shared-chat-close"),
    ]

    def action_close_chat(self) -> None:
        close = getattr(self.screen, "close_chat", None)
        if close is not None:
            close()
