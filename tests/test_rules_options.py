"""Rules options and presets: the standard defaults, validation errors, the variant table of
RULES.md, the card roles under each wilds setting and the table-size checks."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from trash_tui.cards import JACK, JOKER, KING, QUEEN, make_card
from trash_tui.engine.match import validate_table
from trash_tui.presets import DEFAULT_PRESET, PRESETS, preset_name_of, preset_rules
from trash_tui.rules import (
    OPTION_NAMES,
    OPTIONS,
    SPEC_BY_NAME,
    TRASH,
    WILD,
    Rules,
    RulesError,
)

REPO = Path(__file__).resolve().parents[1]
RULES_MD_PLACES = (REPO / "docs" / "RULES.md", REPO / "RULES.md", Path("/work/shared/RULES.md"))

STANDARD = {
    "wilds": "jacks",
    "jokers": False,
    "start_size": 10,
    "target_size": 0,
    "max_deals": 0,
    "first_player": "winner",
    "discard_draw": "any",
    "last_turn": False,
    "lucky_reveal": False,
    "free_draws": 0,
    "call_trash": False,
    "places": False,
    "layout_rows": 2,
}

# Each variant row of RULES.md's table -> the option(s) implementing it and the allowed
# values of those options under the preset(s) covering the row. A value given as a set or
# range means "any of these".
VARIANT_OPTIONS: dict[str, dict[str, Any]] = {
    "Kings wild": {"wilds": "kings"},
    "Jokers": {"jokers": True},
    "All faces wild": {"wilds": "faces"},
    "Eight-card start": {"start_size": 8},
    "Kids' quick game": {"start_size": 5},
    "Short game": {"target_size": {5, 6}},
    "Fixed number of deals (or a fixed time)": {"max_deals": range(1, 1001)},
    "First player rotates": {"first_player": "rotate"},
    "Discard only when playable": {"discard_draw": "playable"},
    "Last turn for the others": {"last_turn": True},
    "Lucky reveal": {"lucky_reveal": True},
    "Three free draws": {"free_draws": 3},
    'Call "Trash!"': {"call_trash": True},
    "Places for the rest": {"places": True},
    "Seven Up": {"start_size": 7, "layout_rows": 1, "wilds": "none", "discard_draw": "never",
                 "max_deals": 1},
}
VARIANT_PRESETS: dict[str, list[str]] = {
    "Kings wild": ["kings-wild", "catsatcards"],
    "Jokers": ["jokers", "party"],
    "All faces wild": ["all-faces-wild"],
    "Eight-card start": ["eight-card"],
    "Kids' quick game": ["kids"],
    "Short game": ["short-game"],
    "Fixed number of deals (or a fixed time)": ["fixed-deals"],
    "First player rotates": ["rotate-first", "party"],
    "Discard only when playable": ["discard-when-playable", "catsatcards"],
    "Last turn for the others": ["last-turn", "catsatcards"],
    "Lucky reveal": ["lucky-reveal", "three-free-draws"],
    "Three free draws": ["three-free-draws"],
    'Call "Trash!"': ["call-trash", "party"],
    "Places for the rest": ["places", "party"],
    "Seven Up": ["seven-up"],
}


def _matches(value: Any, expected: Any) -> bool:
    if isinstance(expected, set | range):
        return value in expected
    return value == expected and type(value) is type(expected)


def _rules_md() -> str | None:
    for place in RULES_MD_PLACES:
        if place.is_file():
            return place.read_text(encoding="utf-8")
    return None


def _variant_rows(text: str) -> list[str]:
    """The first cell of every row of the variants table."""
    section = text.split("## Variants", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        cell = line.strip("|").split("|")[0].strip()
        if cell == "variant" or set(cell) <= {"-", ":", " "}:
            continue
        rows.append(cell)
    return rows


# --- defaults and presets -----------------------------------------------------------------

def test_defaults_are_the_standard_game() -> None:
    rules = Rules()
    assert rules.to_dict() == STANDARD
    assert list(rules.to_dict()) == list(OPTION_NAMES)
    assert rules.validate() is rules
    assert Rules.from_dict({}) == rules
    assert DEFAULT_PRESET == "standard"
    assert PRESETS["standard"].overrides == {}
    assert preset_rules("standard") == rules
    assert preset_name_of(rules) == "standard"


def test_option_table_describes_every_field() -> None:
    assert [f.name for f in dataclasses.fields(Rules)] == list(OPTION_NAMES)
    for spec in OPTIONS:
        assert spec.meaning.strip(), spec.name
        assert SPEC_BY_NAME[spec.name] is spec
        assert spec.allowed()
        spec.check(STANDARD[spec.name])  # the default is allowed


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().start_size = 5  # type: ignore[misc]


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_validates(name: str) -> None:
    preset = PRESETS[name]
    assert preset.name == name
    assert preset.description.strip()
    assert set(preset.overrides) <= set(OPTION_NAMES)
    rules = preset.rules
    assert rules.validate() is rules
    assert preset_rules(name) == rules
    # every override is a real change, and it is what the preset's rules hold
    for key, value in preset.overrides.items():
        assert STANDARD[key] != value, f"{name}: {key} = {value!r} is the standard value"
        assert getattr(rules, key) == value
    # round trip through a plain mapping
    assert Rules.from_dict(rules.to_dict()) == rules


def test_presets_are_distinct() -> None:
    """No two presets stand for the same rules (``rules show --toml`` relies on that)."""
    for name, preset in PRESETS.items():
        assert preset_name_of(preset.rules) == name


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RulesError) as info:
        preset_rules("nope")
    message = str(info.value)
    assert message.startswith("rules.preset: unknown preset 'nope'")
    for name in PRESETS:
        assert name in message


def test_variant_mapping_covers_the_rules_md_table() -> None:
    text = _rules_md()
    if text is None:
        pytest.skip("RULES.md not found")
    rows = _variant_rows(text)
    assert len(rows) >= 15
    assert set(rows) == set(VARIANT_OPTIONS) == set(VARIANT_PRESETS)


@pytest.mark.parametrize("row", list(VARIANT_PRESETS))
def test_each_variant_row_has_a_preset_changing_its_option(row: str) -> None:
    expected = VARIANT_OPTIONS[row]
    assert VARIANT_PRESETS[row], row
    for name in VARIANT_PRESETS[row]:
        rules = preset_rules(name)
        for key, value in expected.items():
            got = getattr(rules, key)
            assert _matches(got, value), f"{row}: preset {name} has {key} = {got!r}"
            assert got != STANDARD[key], f"{row}: preset {name} leaves {key} standard"


@pytest.mark.parametrize("row", list(VARIANT_PRESETS))
def test_option_specs_name_their_variant_row(row: str) -> None:
    """The option documented as implementing a row is one its preset changes."""
    specs = [s for s in OPTIONS
             if any(row == part or row.startswith(part + " ")
                    for part in s.variant.split(" / ") if part)]
    assert specs, f"no option names the variant {row!r}"
    changed = {k for k, v in preset_rules(VARIANT_PRESETS[row][0]).to_dict().items()
               if v != STANDARD[k]}
    assert {s.name for s in specs} & changed, row


def test_catsatcards_is_kings_wild_discard_when_playable_last_turn() -> None:
    rules = preset_rules("catsatcards")
    assert rules == Rules(wilds="kings", discard_draw="playable", last_turn=True)
    assert PRESETS["catsatcards"].overrides == {
        "wilds": "kings", "discard_draw": "playable", "last_turn": True,
    }
    assert rules.wild_ranks() == frozenset({KING})
    table = rules.role_table()
    assert table[make_card(KING, 0)] == WILD
    assert table[make_card(JACK, 0)] == TRASH
    assert table[make_card(QUEEN, 0)] == TRASH


# --- errors -------------------------------------------------------------------------------

BAD_OPTIONS = [
    pytest.param({"start_size": "10"}, "start_size", "an integer from 1 to 10", id="str-for-int"),
    pytest.param({"start_size": 10.0}, "start_size", "an integer from 1 to 10",
                 id="float-for-int"),
    pytest.param({"start_size": True}, "start_size", "an integer from 1 to 10",
                 id="bool-for-int"),
    pytest.param({"max_deals": False}, "max_deals", "an integer from 0 to 1000",
                 id="bool-for-int-2"),
    pytest.param({"jokers": 1}, "jokers", "true or false", id="int-for-bool"),
    pytest.param({"last_turn": "true"}, "last_turn", "true or false", id="str-for-bool"),
    pytest.param({"wilds": 1}, "wilds", "one of 'jacks', 'kings', 'faces', 'none'",
                 id="int-for-choice"),
    pytest.param({"start_size": 0}, "start_size", "an integer from 1 to 10", id="size-0"),
    pytest.param({"start_size": 11}, "start_size", "an integer from 1 to 10", id="size-11"),
    pytest.param({"target_size": -1}, "target_size", "an integer from 0 to 9", id="target-neg"),
    pytest.param({"target_size": 10}, "target_size", "an integer from 0 to 9", id="target-10"),
    pytest.param({"max_deals": 1001}, "max_deals", "an integer from 0 to 1000", id="deals-1001"),
    pytest.param({"free_draws": 11}, "free_draws", "an integer from 0 to 10", id="free-11"),
    pytest.param({"layout_rows": 3}, "layout_rows", "an integer from 1 to 2", id="rows-3"),
    pytest.param({"discard_draw": "sometimes"}, "discard_draw",
                 "one of 'any', 'playable', 'never'", id="discard-sometimes"),
    pytest.param({"wilds": "queens"}, "wilds", "one of 'jacks', 'kings', 'faces', 'none'",
                 id="wilds-queens"),
    pytest.param({"first_player": "loser"}, "first_player", "one of 'winner', 'rotate'",
                 id="first-loser"),
]
IMPOSSIBLE = [
    pytest.param({"start_size": 5, "target_size": 5}, id="target-equals-start"),
    pytest.param({"start_size": 5, "target_size": 6}, id="target-above-start"),
    pytest.param({"start_size": 1, "target_size": 1}, id="one-slot"),
]


def _construct(how: str, data: dict[str, Any]) -> Rules:
    if how == "from_dict":
        return Rules.from_dict(data)
    return Rules().with_options(**data)


@pytest.mark.parametrize("how", ["from_dict", "with_options"])
def test_unknown_key_is_rejected(how: str) -> None:
    with pytest.raises(RulesError) as info:
        _construct(how, {"start_size": 8, "jokerz": True})
    message = str(info.value)
    assert message.startswith("rules.jokerz: unknown option")
    for name in OPTION_NAMES:
        assert name in message


@pytest.mark.parametrize("how", ["from_dict", "with_options"])
@pytest.mark.parametrize(("data", "key", "allowed"), BAD_OPTIONS)
def test_bad_value_is_rejected(how: str, data: dict[str, Any], key: str, allowed: str) -> None:
    with pytest.raises(RulesError) as info:
        _construct(how, data)
    message = str(info.value)
    assert message.startswith(f"rules.{key}:"), message
    assert allowed in message
    assert f"got {data[key]!r}" in message
    assert "\n" not in message


@pytest.mark.parametrize("how", ["from_dict", "with_options"])
@pytest.mark.parametrize("data", IMPOSSIBLE)
def test_target_size_must_be_below_start_size(how: str, data: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        _construct(how, data)
    message = str(info.value)
    assert message.startswith("rules.target_size:"), message
    assert f"below start_size ({data['start_size']})" in message


def test_target_size_checked_against_a_presets_start_size() -> None:
    with pytest.raises(RulesError, match=r"^rules\.target_size: must be below start_size \(5\)"):
        preset_rules("kids").with_options(target_size=6)
    assert preset_rules("kids").with_options(target_size=4).target_size == 4


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_with_options_returns_a_validated_copy() -> None:
    base = Rules()
    changed = base.with_options(start_size=8, jokers=True)
    assert changed == Rules(start_size=8, jokers=True)
    assert base == Rules()
    assert base.with_options() == base


def test_boundary_values_are_accepted() -> None:
    assert Rules().with_options(start_size=1).start_size == 1
    assert Rules().with_options(target_size=9).target_size == 9
    assert Rules.from_dict({"max_deals": 1000, "free_draws": 10, "layout_rows": 1}).max_deals \
        == 1000


# --- card roles ---------------------------------------------------------------------------

ROLES = {
    # wilds setting -> (wild face ranks, trash face ranks)
    "jacks": ({JACK}, {QUEEN, KING}),
    "kings": ({KING}, {JACK, QUEEN}),
    "faces": ({JACK, QUEEN, KING}, set()),
    "none": (set(), {JACK, QUEEN, KING}),
}


@pytest.mark.parametrize("jokers", [False, True])
@pytest.mark.parametrize("wilds", list(ROLES))
def test_role_table(wilds: str, jokers: bool) -> None:
    rules = Rules(wilds=wilds, jokers=jokers)
    wild_faces, trash_faces = ROLES[wilds]
    table = rules.role_table()
    expected_wild = wild_faces | ({JOKER} if jokers else set())
    assert rules.wild_ranks() == frozenset(expected_wild)
    for suit in range(4):
        for rank in range(1, 11):
            assert table[make_card(rank, suit)] == rank, (wilds, rank)
        for rank in wild_faces:
            assert table[make_card(rank, suit)] == WILD, (wilds, rank)
        for rank in trash_faces:
            assert table[make_card(rank, suit)] == TRASH, (wilds, rank)
    for suit in (0, 1):
        assert table[make_card(JOKER, suit)] == (WILD if jokers else TRASH)


def test_seven_up_roles_only_naturals() -> None:
    rules = preset_rules("seven-up")
    assert rules.wild_ranks() == frozenset()
    table = rules.role_table()
    assert {table[make_card(r, 0)] for r in (JACK, QUEEN, KING)} == {TRASH}
    # 8..10 keep their slot number, which is above the 7-slot layout: unplayable
    assert all(table[make_card(r, 0)] > rules.start_size for r in (8, 9, 10))


# --- table size ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [0, 1, 9, 10])
def test_validate_table_rejects_player_counts(players: int) -> None:
    with pytest.raises(RulesError) as info:
        validate_table(Rules(), players)
    message = str(info.value)
    assert message.startswith("players:")
    assert "2 to 8" in message
    assert str(players) in message


@pytest.mark.parametrize("players", range(2, 9))
def test_validate_table_accepts_two_to_eight(players: int) -> None:
    validate_table(Rules(), players)


@pytest.mark.parametrize("players", range(3, 9))
def test_free_draws_need_two_players(players: int) -> None:
    for rules in (preset_rules("three-free-draws"), Rules(free_draws=1)):
        with pytest.raises(RulesError) as info:
            validate_table(rules, players)
        assert str(info.value).startswith("rules.free_draws:")
        assert f"{players} players" in str(info.value)


def test_free_draws_with_two_players_is_fine() -> None:
    validate_table(preset_rules("three-free-draws"), 2)
