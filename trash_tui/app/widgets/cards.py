"""Cards drawn as Rich ``Text``: faces, backs and empty slots. Pure rendering, no game state.

Four sizes (``CARD_SIZES``, largest first; ``compact`` picks the smallest, no choice the
normal one, ``size=`` any of them):

* normal, ``CARD_HEIGHT`` (3) lines and ``CARD_WIDTH`` (5) columns by default::

      ┌───┐  ╔═══╗  ┌───┐  ┌┄┄┄┐
      │10♥│  ║J♥*║  │░░░│  ┆   ┆
      └───┘  ╚═══╝  └───┘  └┄┄┄┘
      face   wild   back   empty

* compact, one line of ``COMPACT_WIDTH`` (3) columns by default, so columns align:
  ``" A♠"``, ``"10♥"``, ``"J♥*"``, ``"Jk*"``, ``"░░░"`` (back), ``" · "`` (empty).

* large (7×5) and huge (9×7), for wide screens: the label in the top left and the bottom
  right corners, the suit (or ``JOKER``) in the middle::

      ┌─────┐  ╔═════╗
      │10♥  │  ║J♥*  ║
      │  ♥  │  ║  ♥  ║
      │  10♥│  ║  J♥*║
      └─────┘  ╚═════╝

``drawn_card``, ``drawn_lines`` and ``drawn_empty`` keep what they drew (per card, size and
palette), so a repaint of the table draws no card twice; their ``Text`` is shared and must
not be changed. ``cards_in_a_row`` puts kept lines side by side without copying a card.

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
from functools import lru_cache
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


class CardSize(NamedTuple):
    """A size cards are drawn in: its name, columns and lines."""

    name: str
    width: int
    height: int


COMPACT = CardSize("compact", COMPACT_WIDTH, 1)
NORMAL = CardSize("normal", CARD_WIDTH, CARD_HEIGHT)
LARGE = CardSize("large", 7, 5)
HUGE = CardSize("huge", 9, 7)
CARD_SIZES = (HUGE, LARGE, NORMAL, COMPACT)  # largest first


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


def _size_of(width: int | None, compact: bool, size: CardSize | None) -> CardSize:
    """The size to draw in: ``size``, else compact or normal, ``width`` columns if given."""
    size = size or (COMPACT if compact else NORMAL)
    if width is not None:
        size = size._replace(width=width)
    least = 1 if size.height == 1 else 3
    if size.width < least:
        raise ValueError(f"a {size.name} card needs at least {least} columns, got {size.width}")
    return size


def _centred(label: str, room: int) -> str:
    """``label`` padded to ``room`` columns, the extra space split (more of it on the right)."""
    spare = room - cell_len(label)
    left = spare // 2
    return " " * left + label + " " * (spare - left)


def _boxed(middle: Sequence[str], border: _Border, width: int) -> Text:
    """A box ``width`` columns wide around the lines ``middle`` (each ``width - 2`` wide)."""
    inner = width - 2
    return Text(
        "\n".join(
            (
                border.top_left + border.horizontal * inner + border.top_right,
                *(border.vertical + line + border.vertical for line in middle),
                border.bottom_left + border.horizontal * inner + border.bottom_right,
            )
        ),
        end="",
    )


def _face_lines(card: int, wild: bool, size: CardSize) -> list[str]:
    """The lines inside a boxed face: the label centred (three lines high), or in the top
    left and bottom right corners with the suit (a Joker's name) in the middle."""
    inner, rows = size.width - 2, size.height - 2
    if rows == 1:
        return [_centred(face_label(card, wild, inner, joker_word=True), inner)]
    label = face_label(card, wild, inner).lstrip()
    lines = [" " * inner] * rows
    lines[0] = label + " " * (inner - cell_len(label))
    lines[-1] = " " * (inner - cell_len(label)) + label
    if rows >= 3:
        middle = "JOKER" if rank_of(card) == JOKER else SUIT_SYMBOLS[suit_of(card)]
        if cell_len(middle) > inner:
            middle = "Jk"
        lines[rows // 2] = _centred(middle, inner)
    return lines


def card_face(
    card: int,
    wild: bool,
    width: int | None = None,
    *,
    compact: bool = False,
    palette: CardPalette = DEFAULT_PALETTE,
    size: CardSize | None = None,
) -> Text:
    """A face-up ``card`` in ``size`` (compact or normal by default), ``width`` columns if
    given.

    A wild card gets a ``*`` after its suit and, at normal size, a double border; its style
    is ``palette.wild`` on top of the red or black one.
    """
    size = _size_of(width, compact, size)
    if size.height == 1:
        text = Text(_centred(face_label(card, wild, size.width), size.width), end="")
    else:
        lines = _face_lines(card, wild, size)
        text = _boxed(lines, _DOUBLE if wild else _SINGLE, size.width)
    text.stylize(palette.red if is_red(card) else palette.black)
    if wild:
        text.stylize(palette.wild)
    return text


def card_back(
    width: int | None = None,
    *,
    compact: bool = False,
    palette: CardPalette = DEFAULT_PALETTE,
    size: CardSize | None = None,
) -> Text:
    """A face-down card: filled with ``░``."""
    size = _size_of(width, compact, size)
    if size.height == 1:
        text = Text(BACK_CHAR * size.width, end="")
    else:
        text = _boxed([BACK_CHAR * (size.width - 2)] * (size.height - 2), _SINGLE, size.width)
    text.stylize(palette.back)
    return text


def empty_slot(
    width: int | None = None,
    *,
    compact: bool = False,
    palette: CardPalette = DEFAULT_PALETTE,
    size: CardSize | None = None,
) -> Text:
    """A place where no card lies: a dashed outline, or a ``·`` when compact."""
    size = _size_of(width, compact, size)
    if size.height == 1:
        text = Text(_centred(EMPTY_MARK, size.width), end="")
    else:
        text = _boxed([" " * (size.width - 2)] * (size.height - 2), _DASHED, size.width)
    text.stylize(palette.empty)
    return text


def card_or_back(
    card: int | None,
    wild: bool = False,
    width: int | None = None,
    *,
    compact: bool = False,
    palette: CardPalette = DEFAULT_PALETTE,
    size: CardSize | None = None,
) -> Text:
    """``card_face`` for a card, ``card_back`` for None (a face-down card)."""
    if card is None:
        return card_back(width, compact=compact, palette=palette, size=size)
    return card_face(card, wild, width, compact=compact, palette=palette, size=size)


@lru_cache(maxsize=4096)
def drawn_card(card: int | None, wild: bool, size: CardSize, palette: CardPalette) -> Text:
    """``card_or_back`` in ``size`` and ``palette``, drawn once and kept: the same ``Text``
    comes back for the same arguments, so it must not be changed (copy it first)."""
    return card_or_back(card, wild, palette=palette, size=size)


@lru_cache(maxsize=64)
def drawn_empty(size: CardSize, palette: CardPalette) -> Text:
    """``empty_slot`` in ``size`` and ``palette``, drawn once and kept (do not change it)."""
    return empty_slot(palette=palette, size=size)


@lru_cache(maxsize=4096)
def drawn_lines(card: int | None, wild: bool, size: CardSize, palette: CardPalette
                ) -> tuple[Text, ...]:
    """``drawn_card``'s lines, kept too (do not change them)."""
    return tuple(drawn_card(card, wild, size, palette).split("\n", allow_blank=True))


def cards_in_a_row(cards: Sequence[Sequence[Text]], gap: int = 1) -> Text:
    """Cards of one size, each given as its lines (``drawn_lines``), left to right ``gap``
    columns apart: ``side_by_side`` without measuring or padding anything."""
    height = max((len(lines) for lines in cards), default=0)
    between = Text(" " * gap, end="")
    return Text("\n", end="").join(
        between.join(lines[row] for lines in cards) for row in range(height))


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
