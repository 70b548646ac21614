"""The web face's page and its files: our template, trash.js and trash.css, and the terminal
client (textual.js, xterm.css, the Roboto Mono font) from the installed ``textual-serve``
package's data (never copied into this repository).

``render`` fills the template (``static/page.html``) with the WebSocket's URL and the one
line under the title; both are escaped, and neither ever holds a player's words. Every
response of the page carries ``SECURITY_HEADERS`` with a Content-Security-Policy that
allows nothing but this server (``policy``): no inline script, no other origin, no frame.
``ASSETS`` names every file ``/static/`` serves: nothing else is read from the disk.
"""

from __future__ import annotations

import html
import importlib.util
from pathlib import Path
from string import Template

HERE = Path(__file__).parent / "static"


def _textual_serve_static() -> Path:
    """The ``static`` folder of the installed ``textual-serve`` package (not imported:
    its server module would pull in its own dependencies)."""
    spec = importlib.util.find_spec("textual_serve")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the textual-serve package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "static"


#: URL path under /static/ -> (the file, its content type)
def assets() -> dict[str, tuple[Path, str]]:
    theirs = _textual_serve_static()
    return {
        "trash.js": (HERE / "trash.js", "text/javascript"),
        "trash.css": (HERE / "trash.css", "text/css"),
        "textual.js": (theirs / "js" / "textual.js", "text/javascript"),
        "xterm.css": (theirs / "css" / "xterm.css", "text/css"),
        "fonts/RobotoMono-VariableFont_wght.ttf": (
            theirs / "fonts" / "RobotoMono-VariableFont_wght.ttf", "font/ttf"),
    }


def policy(socket_origin: str) -> str:
    """The page's Content-Security-Policy; ``socket_origin`` is ws(s)://HOST of its socket.
    textual.js adds <style> elements: hence 'unsafe-inline' for styles, never scripts."""
    return ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "font-src 'self'; img-src 'self' data:; "
            f"connect-src 'self' {socket_origin}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


#: Sent with every answer of the web face.
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def render(socket_url: str, notice: str = "") -> str:
    """The page, its terminal's socket at ``socket_url``, ``notice`` under the title."""
    template = Template((HERE / "page.html").read_text(encoding="utf-8"))
    return template.substitute(socket_url=html.escape(socket_url, quote=True),
                               notice=html.escape(notice, quote=True))
