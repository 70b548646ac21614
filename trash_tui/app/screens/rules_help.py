"""The Rules help screen: how to play Trash, written for the rules in play.

Every sentence that depends on an option (wilds, Jokers, sizes, the match end, draws from
the discard pile, extra turns, the "Trash!" call, places, rows) is generated from the
``Rules`` value, so the help is true for the table being played. The "House rules in play"
section lists every option with its value and meaning; the ones that differ from the
standard game carry a "◆ house rule" mark (and a theme colour).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from trash_tui.app.widgets.footer import TrashFooter
from trash_tui.cards import JACK, JOKER, KING, QUEEN
from trash_tui.presets import PRESETS, preset_name_of
from trash_tui.rules import OPTIONS, Rules, option_label
from trash_tui.settings import BINDING_IDS, binding_keys

HOUSE_MARK = "◆"
HOUSE_WORD = "house rule"
_RANK_PLURALS = {JACK: "Jacks", QUEEN: "Queens", KING: "Kings", JOKER: "Jokers"}
_FACES = (JACK, QUEEN, KING)


@dataclass(frozen=True)
class Block:
    """A paragraph (no mark) or a list item with its mark (a bullet, a number or a key)."""

    text: str
    mark: str = ""


@dataclass(frozen=True)
class Section:
    """A titled part of the help."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class OptionLine:
    """One option of the rules in play: its value, the standard value and what it means."""

    name: str
    value: str
    standard: str
    meaning: str

    @property
    def house(self) -> bool:
        """Whether this option differs from the standard game."""
        return self.value != self.standard

    @property
    def headline(self) -> str:
        """The option and its value, marked when it is a house rule."""
        label = option_label(self.name)  # as the Settings screen names it
        if self.house:
            return (f"{HOUSE_MARK} {label}: {self.value}  ·  {HOUSE_WORD} "
                    f"(standard: {self.standard})")
        return f"  {label}: {self.value}  ·  standard"


# --- words -------------------------------------------------------------------------------
def join_words(words: Iterable[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def plural(count: int, noun: str) -> str:
    """'1 slot', '3 slots'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def rank_names(ranks: Iterable[int]) -> str:
    """'Jacks', 'Queens and Kings', 'Jacks, Queens, Kings and Jokers'."""
    return join_words(_RANK_PLURALS[rank] for rank in sorted(ranks))


def option_value_text(value: object) -> str:
    """An option's value as the help shows it: booleans as on/off."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def key_names(keymap: Mapping[str, str], binding_id: str) -> str:
    """The key(s) of a board binding as shown to the player: 's', 's / ctrl+s'."""
    return " / ".join(binding_keys(keymap, binding_id))


# --- the sections ------------------------------------------------------------------------
def match_goal(rules: Rules) -> str:
    """How the match is won, in one or two sentences."""
    size, target, deals = rules.start_size, rules.target_size, rules.max_deals
    needed = size - target  # won deals from the start layout to the goal
    if deals and deals < needed:  # the goal is out of reach: the deals decide
        if deals == 1:
            return "One deal decides the match: its winner ends with the smallest layout."
        return f"The match lasts {deals} deals; then the smallest layout wins."
    if target:
        text = (f"Short game: the first player whose layout gets down to "
                f"{plural(target, 'slot')} wins the match ({plural(needed, 'won deal')} from "
                f"the start of {plural(size, 'slot')}).")
    elif size == 1:
        text = "Everyone starts with a one-slot layout: the first player to fill it wins."
    else:
        text = (f"The first player to complete a one-slot layout wins the match "
                f"({plural(needed, 'won deal')} from the start of {plural(size, 'slot')}).")
    if deals:
        text += f" If nobody has after {plural(deals, 'deal')}, the smallest layout wins."
    return text


def goal_section(rules: Rules) -> Section:
    race = "Trash is a race to turn your whole layout of face-down cards face up."
    if rules.max_deals != 1:
        race += " Each deal you win, your next layout is one slot smaller."
    return Section("The goal", (Block(race), Block(match_goal(rules))))


def cards_section(rules: Rules) -> Section:
    wild = rules.wild_ranks()
    trash = [rank for rank in _FACES if rank not in wild]
    decks = "One 52-card deck for every two players (1 deck for 2 players, 2 for 3–4, 3 for "
    decks += "5–6, 4 for 7–8)"
    decks += ", each with two Jokers." if rules.jokers else "."
    blocks = [
        Block("2 to 8 players, each playing for themselves, seated clockwise. " + decks
              + " Suits never matter."),
        Block("An Ace counts 1 and the cards 2 to 10 their number: each one fits the slot "
              "of that number."),
    ]
    base = wild - {JOKER}
    if base and rules.jokers:
        text = f"{rank_names(base)} are wild, and so are the Jokers"
    elif base:
        text = f"{rank_names(base)} are wild"
    else:
        text = "Jokers are the only wild cards" if rules.jokers else "There are no wild cards"
    text += ": a wild fits any face-down slot." if wild else "."
    blocks.append(Block(text))
    if trash:
        blocks.append(Block(f"{rank_names(trash)} are trash: they fit no slot, so drawing one "
                            f"ends your turn."))
    else:
        blocks.append(Block("There is no trash: every face card is wild."))
    return Section("Players and cards", tuple(blocks))


def deal_section(rules: Rules) -> Section:
    size = rules.start_size
    row = rules.row_length(size)
    if size == 1:
        layout = "Everyone starts with 1 slot: one card dealt face down."
    else:
        layout = (f"Everyone starts with {size} slots: {size} cards dealt face down, "
                  f"numbered 1 to {size}.")
    if size == 1:
        rows = ""
    elif row >= size:
        rows = f" They lie in one row, slot 1 on the left and slot {size} on the right."
    else:
        rows = (f" They lie in two rows: slots 1–{row} on top and {row + 1}–{size} below; a "
                f"smaller layout keeps the same reading order.")
    first = ("In every later deal the last deal's winner plays first."
             if rules.first_player == "winner"
             else "In every later deal the first turn passes one player clockwise.")
    blocks = (
        Block(layout + rows + " Nobody looks at their face-down cards."),
        Block("The rest of the cards are the stock; the discard pile starts empty."),
        Block("The first dealer is chosen by a cut: the lowest card deals, and the player to "
              "the dealer's left plays first. " + first),
    )
    return Section("The deal and your layout", blocks)


def turn_section(rules: Rules, keymap: Mapping[str, str]) -> Section:
    wild = rules.wild_ranks()
    stock, discard = key_names(keymap, "draw-stock"), key_names(keymap, "draw-discard")
    if rules.discard_draw == "never":
        draw = (f"Draw the top card of the stock ({stock}). The discard pile is never drawn "
                f"from.")
    elif rules.discard_draw == "playable":
        draw = (f"Draw the top card of the stock ({stock}) or of the discard pile ({discard}); "
                f"the discard may be drawn only when it fits one of your face-down slots or a "
                f"slot held by a wild.")
    else:
        draw = (f"Draw the top card of the stock ({stock}) or of the discard pile ({discard}). "
                f"A discard that fits nowhere goes straight back and ends your turn.")
    steps = [
        draw,
        "Place and chain: a card whose number is a face-down slot of yours goes face up in "
        "that slot. Pick up the face-down card that was there and play it the same way — one "
        "turn can run through many slots.",
    ]
    if wild:
        slot_keys = "1–9, or 0 for slot 10" if rules.start_size == 10 else (
            "1" if rules.start_size == 1 else f"1–{rules.start_size}")
        steps.append(f"A wild ({rank_names(wild)}) goes on any face-down slot you choose: press "
                     f"the slot's number ({slot_keys}). The card it uncovers chains on. With "
                     f"only one face-down slot left, the wild goes there by itself.")
        steps.append(f"Swap: a card whose own slot holds a face-up wild may take its place "
                     f"({key_names(keymap, 'swap')}); the wild comes back to your hand and goes "
                     f"on another face-down slot. Keep the wild instead "
                     f"({key_names(keymap, 'keep')}) and the card cannot be played.")
    trash = [rank for rank in _FACES if rank not in wild]
    stops = ([f"a trash card ({rank_names(trash)})"] if trash else []) + [
        "a number above your layout size", "a number whose slot already shows its own card"]
    steps.append(f"The turn ends when the card in hand cannot be placed: "
                 f"{join_words(stops, 'or')}. That card goes face up on the discard pile.")
    steps.append("When the stock runs out, the discard pile except its top card is shuffled "
                 "into a new stock.")
    return Section("Your turn", tuple(Block(text, f"{n}.") for n, text in enumerate(steps, 1)))


def deal_end_section(rules: Rules, keymap: Mapping[str, str]) -> Section:
    blocks = [Block("The first player to turn every slot face up (wilds count) wins the deal "
                    "at once.")]
    if rules.call_trash:
        blocks.append(Block(
            f"Call “Trash!” ({key_names(keymap, 'call')}) just before placing your last card. "
            f"Stay silent ({key_names(keymap, 'silent')}) and your layout is complete, but the "
            f"win counts only after you draw and discard a penalty card at the start of your "
            f"next turn — the others get one more turn to win first."))
    if rules.last_turn:
        blocks.append(Block("Last turn: after a player completes, every other player gets one "
                            "more turn; whoever also completes wins the deal too and shrinks."))
    else:
        blocks.append(Block("Everyone else stops at once."))
    if rules.free_draws:
        blocks.append(Block(
            f"Free draws (two players only): the loser of the deal then gets "
            f"{plural(rules.free_draws, 'free turn')} — whole turns, with draws and chains — to "
            f"complete their layout too; if they do, they shrink as well."))
    if rules.lucky_reveal:
        blocks.append(Block("Lucky reveal: at the end of the deal the others turn up their "
                            "face-down cards; anyone whose face-down cards all happen to sit in "
                            "their own slots (a wild fits any slot) shrinks too. A reveal never "
                            "wins the match by itself."))
    if rules.max_deals != 1:
        others = (" — and everyone else who shrank —"
                  if rules.last_turn or rules.lucky_reveal or rules.free_draws else "")
        blocks.append(Block(f"Then all cards are gathered and dealt again. The deal's "
                            f"winner{others} plays the next deal with one slot fewer, so the "
                            f"highest number no longer fits; everyone else keeps their size."))
    blocks.append(Block("A deal in which nobody can ever place another card is void and is "
                        "dealt again with the same layouts."))
    return Section("Winning a deal", tuple(blocks))


def match_end_section(rules: Rules) -> Section:
    blocks: list[Block] = []
    reachable = not rules.max_deals or rules.max_deals >= rules.start_size
    if reachable and rules.target_size:
        blocks.append(Block(f"To get there, win a deal with a layout of "
                            f"{plural(rules.target_size + 1, 'slot')}."))
    elif reachable:
        blocks.append(Block("A one-slot layout is complete when slot 1 holds an Ace"
                            + (" or a wild." if rules.wild_ranks() else ".")))
    if rules.max_deals:
        blocks.append(Block("Void deals do not count. When the deals run out, ties for the "
                            "smallest layout go to the fewest face-down cards left in the last "
                            "deal."))
    if rules.last_turn or rules.lucky_reveal or rules.free_draws:
        blocks.append(Block("When several players reach the goal in the same deal, the first "
                            "to complete wins."))
    if rules.places or rules.max_deals:
        blocks.append(Block("The other players are ranked by layout size, then by face-down "
                            "cards left in the last deal; equal players share a place."))
    else:
        blocks.append(Block("Everyone else shares second place."))
    return Section("The end of the match", tuple(blocks))


def keys_section(rules: Rules, keymap: Mapping[str, str]) -> Section:
    wild = rules.wild_ranks()
    items = [Block("draw from the stock", key_names(keymap, "draw-stock"))]
    unused = []
    if rules.discard_draw == "never":
        unused.append(f"{key_names(keymap, 'draw-discard')} (no discard draws)")
    else:
        when = " when it fits" if rules.discard_draw == "playable" else ""
        items.append(Block(f"draw the top discard{when}", key_names(keymap, "draw-discard")))
    if wild:
        size = rules.start_size
        digits = "1–9, 0" if size == 10 else ("1" if size == 1 else f"1–{size}")
        slot_ten = " (0 is slot 10)" if size == 10 else ""
        items.append(Block(f"put the wild in hand on that slot{slot_ten}", digits))
        items.append(Block("swap: the card takes its slot back from the wild",
                           key_names(keymap, "swap")))
        items.append(Block("keep the wild where it is (the card is discarded)",
                           key_names(keymap, "keep")))
    else:
        unused.append(f"1–9, 0, {key_names(keymap, 'swap')} and {key_names(keymap, 'keep')} "
                      f"(no wilds)")
    if rules.call_trash:
        items.append(Block("call “Trash!” before your last card", key_names(keymap, "call")))
        items.append(Block("stay silent (the win waits for a penalty draw)",
                           key_names(keymap, "silent")))
    else:
        unused.append(f"{key_names(keymap, 'call')} and {key_names(keymap, 'silent')} "
                      f"(no “Trash!” call)")
    items.append(Block("a hint: the expert bot's move (measured no better than the obvious "
                       "one) and your chances",
                       key_names(keymap, "hint")))
    items.append(Block("this help, with the house rules in play", "?"))
    items.append(Block("leave the match for the lobby", "esc"))
    items.append(Block("The footer shows only the keys that are legal now; click a key there "
                       "to use it."))
    if unused:
        items.append(Block("Not used with these rules: " + join_words(unused, "and") + "."))
    return Section("Keys on the board", tuple(items))


def how_to_play(rules: Rules, keymap: Mapping[str, str] | None = None) -> list[Section]:
    """The explanation of the game, true for ``rules`` (keys from ``keymap``, by binding id)."""
    keys = dict(BINDING_IDS) if keymap is None else {**BINDING_IDS, **keymap}
    return [
        goal_section(rules),
        cards_section(rules),
        deal_section(rules),
        turn_section(rules, keys),
        deal_end_section(rules, keys),
        match_end_section(rules),
        keys_section(rules, keys),
    ]


def house_rules(rules: Rules) -> list[OptionLine]:
    """Every option with its value in ``rules`` and in the standard game, in option order."""
    standard = Rules()
    return [OptionLine(spec.name, option_value_text(getattr(rules, spec.name)),
                       option_value_text(getattr(standard, spec.name)), spec.meaning)
            for spec in OPTIONS]


def preset_text(rules: Rules) -> str:
    """Which preset these rules are, if any, and how many options are house rules."""
    name = preset_name_of(rules)
    changed = sum(line.house for line in house_rules(rules))
    if name == "standard":
        return "These are the standard rules (preset “standard”): no house rules."
    if name is not None:
        opening = f"Preset “{name}”: {PRESETS[name].description}"
    else:
        opening = "Custom rules: they match no preset."
    return (f"{opening} {plural(changed, 'option')} "
            f"{'differs' if changed == 1 else 'differ'} from the standard game, marked "
            f"{HOUSE_MARK} {HOUSE_WORD}.")


def help_text(rules: Rules, keymap: Mapping[str, str] | None = None) -> str:
    """The whole help as plain text (what the screen shows, line by line)."""
    lines: list[str] = []
    for section in how_to_play(rules, keymap):
        lines.append(section.title)
        lines.extend(f"{block.mark} {block.text}" if block.mark else block.text
                     for block in section.blocks)
        lines.append("")
    lines.append("House rules in play")
    lines.append(preset_text(rules))
    for line in house_rules(rules):
        lines.extend((line.headline, f"    {line.meaning}"))
    return "\n".join(lines)


# --- the screen --------------------------------------------------------------------------
class RulesHelpScreen(Screen[None]):
    """How to play Trash with the rules in play; dismissed with None."""

    DEFAULT_CSS = """
    RulesHelpScreen { layout: vertical; }
    #rules-scroll { height: 1fr; align-horizontal: center; }
    #rules-body { width: 100%; max-width: 100; height: auto; padding: 0 2 1 2; }
    #rules-title { text-style: bold; color: $accent; margin-top: 1; }
    .rules-heading { text-style: bold; color: $accent; margin-top: 1; }
    .rules-item { height: auto; }
    RulesHelpScreen.-tall .rules-para, RulesHelpScreen.-tall .rules-item { margin-bottom: 1; }
    .rules-mark { color: $text-accent; text-style: bold; }
    .rules-item .rules-text { width: 1fr; }
    #rules-preset { margin-bottom: 1; }
    .house-option { height: auto; margin-bottom: 1; }
    .house-option.-house .option-headline { color: $warning; text-style: bold; }
    .option-meaning { padding-left: 4; color: $text-muted; }
    """

    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (40, "-tall")]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="close-rules"),
        Binding("down", "scroll_rules('down')", "Scroll", key_display="↑↓",
                id="rules-scroll-down"),
        Binding("up", "scroll_rules('up')", "Scroll up", show=False, id="rules-scroll-up"),
        Binding("pagedown", "scroll_rules('page_down')", "Page", key_display="PgUp/PgDn",
                id="rules-page-down"),
        Binding("pageup", "scroll_rules('page_up')", "Page up", show=False,
                id="rules-page-up"),
        Binding("home", "scroll_rules('home')", "Top", show=False, id="rules-top"),
        Binding("end", "scroll_rules('end')", "Bottom", show=False, id="rules-bottom"),
    ]

    def __init__(self, rules: Rules, keymap: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="rules-scroll")
        scroll.can_focus = False  # the screen's keys scroll it, and they show in the footer
        with scroll, Vertical(id="rules-body"):
            yield Static("How to play Trash", id="rules-title", markup=False)
            for section in how_to_play(self.rules, self.keymap):
                yield Static(section.title, classes="rules-heading", markup=False)
                mark_width = max((len(block.mark) for block in section.blocks), default=0) + 2
                for block in section.blocks:
                    yield self.block_widget(block, mark_width)
            yield Static("House rules in play", id="rules-house-heading",
                         classes="rules-heading", markup=False)
            yield Static(preset_text(self.rules), id="rules-preset", markup=False)
            for line in house_rules(self.rules):
                classes = "house-option -house" if line.house else "house-option"
                with Vertical(id=f"option-{line.name}", classes=classes):
                    yield Static(line.headline, classes="option-headline", markup=False)
                    yield Static(line.meaning, classes="option-meaning", markup=False)
        yield TrashFooter()

    @staticmethod
    def block_widget(block: Block, mark_width: int) -> Static | Horizontal:
        """A paragraph, or a list item with its mark in a column ``mark_width`` wide."""
        if not block.mark:
            return Static(block.text, classes="rules-para", markup=False)
        mark = Static(block.mark, classes="rules-mark", markup=False)
        mark.styles.width = mark_width
        return Horizontal(mark, Static(block.text, classes="rules-text", markup=False),
                          classes="rules-item")

    def action_scroll_rules(self, how: str) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        moves = {"down": scroll.scroll_down, "up": scroll.scroll_up,
                 "page_down": scroll.scroll_page_down, "page_up": scroll.scroll_page_up,
                 "home": scroll.scroll_home, "end": scroll.scroll_end}
        moves[how](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
