"""The app's footer: Textual's ``Footer``, recomposed only when what it shows changes.

Textual's footer rebuilds all its keys every time a screen's bindings may have changed,
once per notice, even when several notices come in the same frame or nothing it shows
has changed. Our boards refresh their bindings after every move (the keys follow the
legal actions), so that is a rebuild of twenty-odd widgets per move and several at every
screen's start. This footer coalesces the notices of one frame into one check and
rebuilds only when the keys, their labels, their enabled state or the palette key differ
from what it shows.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class TrashFooter(Footer):
    """A footer that rebuilds itself only when its keys change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[Any, ...] | None = None  # what the keys were last built from
        self._check_pending = False

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._check_pending:
            self._check_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    def shown_keys(self) -> tuple[Any, ...]:
        """Everything the keys are built from: each binding shown (key, how it is
        displayed, its label, action, group, whether it is enabled, its tooltip)."""
        app = self.app
        return tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show or binding.key == app.COMMAND_PALETTE_BINDING
        )

    async def _recompose_if_changed(self) -> None:
        self._check_pending = False
        if not self.is_attached:
            return
        shown = self.shown_keys()
        if shown != self._shown:
            self._shown = shown
            await self.recompose()
