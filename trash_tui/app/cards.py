"""Cards drawn as Rich ``Text``: faces, backs and empty slots. Pure rendering, no game state.

Two sizes, chosen with ``compact``:

* normal, ``CARD_HEIGHT`` (3) lines and ``CARD_WIDTH`` (5) columns by default::

      ┌───┐  ╔═══╗  ┌───┐  ┌┄┄┄┐
      │10♥│  ║J♥*║  │░░░│  ┆   ┆
      └───┘  ╚═══╝  └───┘  └┄┄┄┘
      face   wild   back   empty

* compact, one line of ``COMPACT_WIDTH`` (3) columns by default, so columns align:
  ``" A♠"``, ``"10♥"``, ``"J♥*"``, ``"Jk*"``, ``"░░░"`` (back), ``" · "`` (empty).

Nothing is told by colour alone: the suit symbol always shows, a wild carries a ``*`` after
its suit (and a double border at normal size), a face-down card is filled with ``░`` and an
empty slot has a dashed border (or a ``·``). Colour only repeats it: red cards (hearts,
diamonds, the red Joker) get ``palette.red``, black ones ``palette.black``, and so on. The
default palette uses plain Rich style names ("red", "" for the surrounding text colour,
"bold", "dim"); widgets pass a palette built from their theme-aware component classes.

A Joker reads ``Jk`` (``JOKER`` on a card wide enough); it has no suit symbol, and which of
the two Jokers it is (red or black) is shown by colour only, since in Trash it never matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rich.cells import cell_len
from rich.style import StyleType
from rich.text import Text

from trash_tui.cards import JOKER, SUIT_SYMBOLS, is_red, rank_name, rank_of, suit_of

CARD_WIDTH = 5  # normal cards: a border on each side around three columns ("10♥", "J♥*")
CARD_HEIGHT = 3
COMPACT_WIDTH = 3  # compact cards: "10♥", " A♠", "J♥*", "Jk*", "░░░"
BACK_CHAR = "░"
WILD_MARK = "*"
EMPTY_MARK = "·"


@dataclass(frozen=True, slots=True)
class CardPalette:
    """The styles cards are drawn in. Empty strings mean "the surrounding style"."""

    red: StyleType = "red"  # hearts, diamonds and the red Joker
    black: StyleType = ""  # spades, clubs and the black Joker
    wild: StyleType = "bold"  # added on top of red/black for a wild card
    back: StyleType = "dim"  # a face-down card
    empty: StyleType = "dim"  # an empty slot or pile


DEFAULT_PALETTE = CardPalette()


class _Border(NamedTuple):
    top_left: str
    horizontal: str
    top_right: str
    vertical: str
    bottom_left: str
    bottom_right: str


_SINGLE = _Border("┌", "─", "┐", "│", "└", "┘")
_DOUBLE = _Border("╔", "═", "╗", "║", "╚", "╝")
_DASHED = _Border("┌", "┄", "┐", "┆", "└", "┘")


def face_label(
    card: int, wild: bool, room: int = COMPACT_WIDTH, *, joker_word: bool = False
) -> str:
    """The rank, suit and wild marker of ``card`` in at most ``room`` columns (not padded).

    The rank is right-aligned in two columns when there is room, so suits line up:
    ``" A♠"``, ``"10♥"``, ``"J♥*"``. A Joker is ``"Jk"``, or ``"JOKER"`` with ``joker_word``
    when it fits. ValueError if even the shortest form does not fit.
    """
    mark = WILD_MARK if wild else ""
    if rank_of(card) == JOKER:
        word = "JOKER" + mark
        label = word if joker_word and cell_len(word) <= room else "Jk" + mark
    else:
        label = rank_name(rank_of(card)).rjust(2) + SUIT_SYMBOLS[suit_of(card)] + mark
        if cell_len(label) > room:
            label = label.lstrip()
    if cell_len(label) > room:
        raise ValueError(f"{room} columns are too few for the card {label.strip()!r}")
    return label


def _check_width(width: int, compact: bool) -> None:
    least = 1 if compact else 3
    if width < least:
        size = "compact" if compact else "normal"
        raise ValueError(f"a {size} card needs at least {least} columns, got {width}")


def _centred(label: str, room: int) -> str:
    """``label`` padded to ``room`` columns, the extra space split (more of it on the right)."""
    spare = room - cell_len(label)
    left = spare // 2
    return " " * left + label + " " * (spare - left)


def _boxed(middle: str, border: _Border, width: int) -> Text:
    inner = width - 2
    return Text(
        "\n".join(
            (
                border.top_left + border.horizontal * inner + border.top_right,
                border.vertical + middle + border.vertical,
                border.bottom_left + border.horizontal * inner + border.bottom_right,
            )
        ),
        end="",
    )


def card_face(
    card: int,
    wild: bool,
    width: int | None = None,
    *,
    compact: bool = False,
    palette: CardPalette = DEFAULT_PALETTE,
) -> Text:
    """A face-up ``card``: ``width`` columns (default by size), one line or three.

    A wild card gets a ``*`` after its suit and, at normal size, a double border; its style
    is ``palette.wild`` on top of the red or black one.
    """
    width = (COMPACT_WIDTH if compact else CARD_WIDTH) if width is None else width
    _check_width(width, compact)
    if compact:
        text = Text(_centred(face_label(card, wild, width), width), end="")
    else:
        label = face_label(card, wild, width - 2, joker_word=True)
        text = _boxed(_centred(label, width - 2), _DOUBLE if wild else _SINGLE, width)
    text.stylize(palette.red if is_red(card) else palette.black)
    if wild:
        text.stylize(palette.wild)
    return text


def card_back(
    width: int | None = None, *, compact: bool = False, palette: CardPalette = DEFAULT_PALETTE
) -> Text:
    """A face-down card: filled with ``░``."""
    width = (COMPACT_WIDTH if compact else CARD_WIDTH) if width is None else width
    _check_width(width, compact)
    if compact:
        text = Text(BACK_CHAR * width, end="")
    else:
        text = _boxed(BACK_CHAR * (width - 2), _SINGLE, width)
    text.stylize(palette.back)
    return text


def empty_slot(
    width: int | None = None, *, compact: bool = False, palette: CardPalette = DEFAULT_PALETTE
) -> Text:
    """A place where no card lies: a dashed outline, or a ``·`` when compact."""
    width = (COMPACT_WIDTH if compact else CARD_WIDTH) if width is None else width
    _check_width(width, compact)
    if compact:
        text = Text(_centred(EMPTY_MARK, width), end="")
    else:
        text = _boxed(" " * (width - 2), _DASHED, width)
    text.stylize(palette.empty)
    return text


def card_or_back(
    card: int | None,
    wild: bool = False,
    width: int | None = None,
    *,
    compact: bool = False,
    palette: CardPalette = DEFAULT_PALETTE,
) -> Text:
    """``card_face`` for a card, ``card_back`` for None (a face-down card)."""
    if card is None:
        return card_back(width, compact=compact, palette=palette)
    return card_face(card, wild, width, compact=compact, palette=palette)


def text_width(text: Text) -> int:
    """The widest line of ``text``, in terminal columns."""
    return max((cell_len(line.plain) for line in text.split("\n", allow_blank=True)), default=0)


def side_by_side(blocks: Sequence[Text], gap: int = 1) -> Text:
    """Blocks of lines placed left to right, ``gap`` columns apart, tops aligned.

    Each block is padded to its own widest line, so a shorter block leaves blank space.
    """
    columns = [list(block.split("\n", allow_blank=True)) for block in blocks]
    widths = [text_width(block) for block in blocks]
    height = max((len(lines) for lines in columns), default=0)
    rows: list[Text] = []
    for row in range(height):
        line = Text(end="")
        for index, (lines, width) in enumerate(zip(columns, widths, strict=True)):
            if index:
                line.append(" " * gap)
            part = lines[row].copy() if row < len(lines) else Text(end="")
            part.pad_right(width - cell_len(part.plain))
            line.append_text(part)
        rows.append(line)
    return Text("\n", end="").join(rows)
