"""Screens for players who come in over SSH: choosing a display name, and goodbye.

``NameScreen`` asks a new player (a key seen for the first time, a guest — a friend with
no SSH key, asked at every visit and told how to make a key —, or at home the first start:
a settings file with no name yet, ``local``) for the name shown at the table, over the
lobby; it dismisses with the name. The lobby is built under it once the player types: the
prompt posts ``FirstKey`` to the app at its first key, paste or click (its field tells it
as it reads the key: ``EagerInput.FirstKey``). Over SSH it
suggests a name others can tell apart (``identity.default_name``), which esc keeps; "You"
is nobody's name there (at a shared table it would be everybody's). Enter
shows "Sitting down…" at once, and until the prompt is gone it swallows every key that
reaches it (``sitting``): a second Enter never bubbles up to the screen that comes next
(the lobby, or a table joined by its code), which owns its keys from its first frame.
``GoodbyeScreen`` covers the app with a last message (idle too long, the session's CPU
time used up) just before the app exits. When the server stops, the server itself tells
the player (``trash_tui.ssh.goodbye``) and the app just exits.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from trash_tui.app.widgets.eager_input import EagerInput
from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.players.identity import PLACEHOLDER_NAME

NAME_MAX_LENGTH = 24
#: The app's exit status after the idle goodbye (the SSH server logs the session as idle;
#: ``trash_tui.ssh.child`` has the same number).
IDLE_EXIT_STATUS = 3

#: How to make an SSH key (said to a guest, who has none).
MAKE_A_KEY = "ssh-keygen -t ed25519"


def name_problem(name: str, local: bool = False) -> str | None:
    """What is wrong with a display name, or None (``local``: the player at home). Nobody
    chooses the placeholder "You": at home the app used it before they had a name, over
    SSH every player at a shared table would be "You"."""
    cleaned = name.strip()
    if not cleaned:
        return "Type a name (it is shown at the table)."
    if cleaned.casefold() == PLACEHOLDER_NAME.casefold():
        return ("Choose a name of your own: the bots and the history call you by it."
                if local else f"Not \"{PLACEHOLDER_NAME}\": the others at a table must tell "
                              "you apart. Choose a name of your own.")
    if len(cleaned) > NAME_MAX_LENGTH:
        return f"At most {NAME_MAX_LENGTH} characters."
    if not cleaned.isprintable():
        return "Letters, digits, spaces and punctuation only."
    return None


class NameScreen(ModalScreen[str | None]):
    """Welcome: the player chooses the name shown at the table."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; background: $background; }
    #name-box { width: 60; max-width: 100%; height: auto; padding: 1 2;
                border: thick $accent; background: $surface; }
    #name-title { text-style: bold; margin-bottom: 1; }
    #name-problem { color: $text-error; height: auto; }
    #name-problem.-sitting { color: $text-success; }
    #name-box Button { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "keep", "Keep this name", id="keep-name"),
    ]

    class FirstKey(Message):
        """The player typed on the prompt (a key, a paste, a click): what comes after the
        name may be built now (posted to the app, once)."""

        def __init__(self, prompt: NameScreen) -> None:
            super().__init__()
            self.prompt = prompt

    def __init__(self, suggestion: str, local: bool = False, guest: bool = False,
                 web: bool = False) -> None:
        super().__init__()
        self.local = local  # at home: the first start, not a new key over SSH
        self.guest = guest  # over SSH with no key: asked again at every visit
        self.web = web  # a new browser (its own player, kept by its cookie)
        self.suggestion = "" if suggestion == PLACEHOLDER_NAME else suggestion
        self.sitting = False  # the name was taken: the lobby is coming
        self.typed = False  # the player typed here (the app was told: FirstKey)

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Label("Welcome to Trash!", id="name-title", markup=False)
            yield Static(self.question(), markup=False)
            # (a name pasted with ctrl+u before it, in one packet, is kept)
            yield EagerInput(self.suggestion, max_length=NAME_MAX_LENGTH, id="name-input")
            yield Static("", id="name-problem", markup=False)
            yield Button("Sit down", id="name-ok", variant="primary")
        yield TrashFooter()  # its own keys, over the lobby's

    def question(self) -> str:
        if self.local:
            return ("What is your name? The table, the history and the leaderboard show it "
                    "(you can change it later in Settings).")
        if self.guest:
            return ("You have no SSH key, so you play as a guest: no rating, and this name "
                    "is for this visit only. To keep a name and get a rating, make a key "
                    f"once ({MAKE_A_KEY}) and connect again. Your name today:")
        if self.web:
            return ("This browser is new here. Choose the name the table shows for you: this "
                    "browser keeps it. Playing over SSH too? b in the SSH lobby gives a link "
                    "that makes this browser that player.")
        return ("Your key is new here. Choose the name the table shows for you (you can "
                "change it later in Settings).")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def tell_typed(self) -> None:
        if not self.typed:
            self.typed = True
            self.app.post_message(self.FirstKey(self))

    def on_eager_input_first_key(self, _: EagerInput.FirstKey) -> None:
        self.tell_typed()

    def on_mouse_down(self, _: events.MouseDown) -> None:
        self.tell_typed()

    def on_key(self, event: events.Key) -> None:
        """A key the field does not read (it is not focused) tells the app too. While
        sitting down, a key typed on this prompt ends here: stopped, it never reaches the
        bindings of the screen that is on top by the time it is handled."""
        self.tell_typed()
        if self.sitting:
            event.stop()
            event.prevent_default()

    def on_input_submitted(self, _: Input.Submitted) -> None:
        self.choose()

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.choose()

    def action_keep(self) -> None:
        if self.local and not (self.query_one(Input).value.strip() or self.suggestion):
            self.leave(None)  # at home: asked again at the next start
            return
        self.query_one(Input).value = self.query_one(Input).value or self.suggestion
        self.choose()

    def choose(self) -> None:
        if self.sitting:  # a repeated Enter while the lobby comes up
            return
        name = self.query_one(Input).value
        problem = name_problem(name, self.local)
        said = self.query_one("#name-problem", Static)
        if problem:
            said.update(f"✗ {problem}")
            return
        self.sitting = True
        said.update("Sitting down…")
        said.add_class("-sitting")
        self.query_one(Input).disabled = True
        button = self.query_one(Button)
        button.label = "Sitting down…"
        button.disabled = True
        # drawn first, then the (slower) lobby
        self.call_after_refresh(self.leave, name.strip())

    def leave(self, name: str | None) -> None:
        """Dismiss the prompt with the name (None: not now), in the app's queue: never
        while the app has this prompt off the stack to build the lobby under it
        (``TrashApp.build_lobby_under``, queued there too)."""
        self.app.call_later(self.dismiss, name)


class LocalNameScreen(NameScreen):
    """At home, the first start: the player's name, or esc to be asked next time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "keep", "Not now", id="keep-name"),
    ]

    def __init__(self, suggestion: str) -> None:
        super().__init__(suggestion, local=True)


class GoodbyeScreen(ModalScreen[None]):
    """The app's last words before it exits."""

    DEFAULT_CSS = """
    GoodbyeScreen { align: center middle; }
    #goodbye { width: 64; max-width: 100%; height: auto; padding: 1 2;
               border: thick $warning; background: $surface; }
    """

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        yield Static(f"Goodbye!\n\n{self.message}", id="goodbye", markup=False)
