"""A text field that runs its own editing keys in the order they were typed.

Textual's ``Input`` inserts a typed character as soon as it reads it, but runs its editing
bindings (``ctrl+u`` clears to the start, ``ctrl+w`` a word, ``home``...) only once the key
has bubbled up to the app. Keys that arrive in one packet (a paste over SSH: ``ctrl+u`` and
a name, then enter) are then applied out of order: the name is typed, then cleared, and
enter submits an empty field. ``EagerInput`` runs those bindings as it reads each key.

It also tells its screen, at once, when it reads its first key or paste (``FirstKey``,
posted to the screen before the key acts, ahead of whatever the key sets off): a screen
that builds what comes next only once the player types (the name prompt) hears it in
time.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


def _editing_keys() -> dict[str, str]:
    """Input's own bindings: key -> action (every key of a binding that lists several)."""
    actions: dict[str, str] = {}
    for binding in Input.BINDINGS:
        if isinstance(binding, Binding):
            for key in binding.key.split(","):
                actions[key.strip()] = binding.action
    return actions


class EagerInput(Input):
    """An ``Input`` whose editing keys act in the order they were typed."""

    EDITING_KEYS = _editing_keys()
    heard = False  # it has read a key (or a paste)

    class FirstKey(Message, bubble=False):
        """The field read its first key or paste (posted to its screen)."""

        def __init__(self, field: EagerInput) -> None:
            super().__init__()
            self.field = field

        @property
        def control(self) -> EagerInput:
            return self.field

    def tell_first(self) -> None:
        if not self.heard:
            self.heard = True
            self.screen.post_message(self.FirstKey(self))

    def on_paste(self, event: events.Paste) -> None:
        self.tell_first()  # (Input inserts it)

    async def on_key(self, event: events.Key) -> None:
        self.tell_first()
        action = self.EDITING_KEYS.get(event.key)
        if action is None or action == "submit":  # enter goes the usual way, after
            return
        event.stop()
        event.prevent_default()
        await self.run_action(action)
