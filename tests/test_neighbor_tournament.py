"""Help Your Neighbor tournaments: the ``game`` key, the shipped file, places, duplicate
boards on the same dice, forfeits, results, and configuration errors on one located line.
Trash tournaments must not notice that a second game exists (their fingerprints stay).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from bots.base import BotError
from bots.neighbor import (
    NEIGHBOR_BOTS,
    RandomNeighborBot,
    SmartNeighborBot,
    make_neighbor_bot,
    neighbor_bot_from_spec,
    play_neighbor,
    recover_chance,
    roll_chance,
)
from bots.runner import BotFailure
from trash_tui.neighbor.engine import (
    MARKERS,
    ROLL,
    FixedDice,
    NeighborGame,
    NeighborObservation,
    uncover_action,
)
from trash_tui.neighbor.record import replay_neighbor
from trash_tui.tournament.config import (
    NEIGHBOR,
    TournamentError,
    canonical_config,
    config_fingerprint,
    load_tournament,
)
from trash_tui.tournament.play import neighbor_places, play_game
from trash_tui.tournament.results import compute_results, format_results
from trash_tui.tournament.runner import run_tournament
from trash_tui.tournament.schedule import schedule, total_games

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "tournaments" / "help-your-neighbor.toml"
HEADER = 'game = "help-your-neighbor"\nseed = 1\nmatches = 2\n'
FOUR_BOTS = "".join(f'\n[[bots]]\nname = "{name}"\nbot = "{bot}"\n' for name, bot in (
    ("smart", "smart"), ("r1", "random"), ("r2", "random"), ("r3", "random")))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    return path


def marked_line(text: str) -> int:
    [line] = [n for n, row in enumerate(text.splitlines(), 1) if "# <-" in row]
    return line


# --- the shipped file ----------------------------------------------------------------------
def test_the_shipped_file_loads_and_says_what_it_promises() -> None:
    config = load_tournament(SHIPPED)
    assert (config.game, config.players, config.format, config.gauntlet) == (
        NEIGHBOR, 4, "gauntlet", "smart")
    assert config.bot_names == ("smart", "random-a", "random-b", "random-c")
    assert config.duplicate and config.unit == "matches"
    assert total_games(config) == len(list(schedule(config))) == 1000
    assert [type(neighbor_bot_from_spec(b.spec)) for b in config.bots] == [
        SmartNeighborBot, RandomNeighborBot, RandomNeighborBot, RandomNeighborBot]


def test_a_small_run_of_the_shipped_file_ranks_smart_above_random(tmp_path: Path) -> None:
    config = dataclasses.replace(load_tournament(SHIPPED), games=60)  # 240 games
    outcome = run_tournament(config, tmp_path / "run", records=True)
    assert outcome.status == "finished" and len(outcome.games) == 240
    results = compute_results(config, outcome.games)
    rates = {row["bot"]: row["win_rate"] for row in results["bots"]}
    assert all(rates["smart"] >= rates[name] for name in ("random-a", "random-b",
                                                            "random-c")), rates
    assert rates["smart"] > results["fair_share"]
    assert results["game"] == NEIGHBOR
    text = format_results(results)
    assert "Help Your Neighbor, 4-player tables" in text and "Mean rolls per game" in text
    records = [json.loads(line) for line in
               (tmp_path / "run" / "records.jsonl").read_text().splitlines()]
    assert len(records) == 240
    for record in records[:12]:
        assert replay_neighbor(record).winner == record["winner"]


def test_duplicate_boards_roll_the_same_dice_in_every_seat_rotation(tmp_path: Path) -> None:
    config = dataclasses.replace(load_tournament(SHIPPED), games=2)
    games = list(schedule(config))
    results = [play_game(config, game, with_record=True) for game in games]
    for board in (0, 1):
        rotations = [r for r, g in zip(results, games, strict=True) if g.board == board]
        assert sorted(r["rotation"] for r in rotations) == [0, 1, 2, 3]
        dice = [r["record"]["rolls"].split() for r in rotations]
        shortest = min(len(d) for d in dice)
        assert len({tuple(d[:shortest]) for d in dice}) == 1  # one stream of rolls
        smart_seats = {r["seats"].index(0) for r in rotations}
        assert smart_seats == {0, 1, 2, 3}
    for result in results:
        assert result["deals"] == 1 and result["turns"] > 0 and result["forfeit"] is None
        assert sorted(result["places"])[0] == 1


# --- places and forfeits -------------------------------------------------------------------
def test_places_put_the_winner_first_then_more_markers_covered_with_ties_shared() -> None:
    game = NeighborGame(5, dice=FixedDice([(6, 6), (1, 1), (1, 1), (1, 1), (1, 1), (6, 6)]))
    game.covered[0].update(m for m in MARKERS if m != 12)
    game.covered[1].update((2, 3, 4))
    game.covered[2].update((2, 3, 4))
    game.covered[3].update((5,))
    game.covered[4].update((8, 9, 10, 11, 12, 2))
    game.apply(ROLL)
    assert game.winner == 0
    assert neighbor_places(game) == [1, 3, 3, 5, 2]
    assert neighbor_places(game, failed=4) == [1, 2, 2, 4, 5]


class BrokenBot(RandomNeighborBot):
    """Answers every uncover choice with ROLL, which is illegal then."""

    name: ClassVar[str] = "broken"

    def choose(self, observation: NeighborObservation, legal: Sequence[int]) -> int:
        return ROLL


def test_a_bot_answering_illegally_forfeits_and_comes_last(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = NeighborGame(3, dice=FixedDice([(6, 6), (1, 1), (1, 2), (2, 2), (3, 4)]))
    with pytest.raises(BotFailure) as info:
        play_neighbor(game, [BrokenBot(), RandomNeighborBot(), RandomNeighborBot()])
    assert info.value.seat == 0 and info.value.kind == "illegal"
    assert info.value.game is game and game.phase == "uncover"

    monkeypatch.setitem(NEIGHBOR_BOTS, "broken", BrokenBot)
    text = HEADER + FOUR_BOTS.replace('bot = "smart"', 'bot = "broken"')
    config = load_tournament(write(tmp_path, text))
    results = [play_game(config, game) for game in schedule(config)]
    forfeits = [r for r in results if r["forfeit"]]
    assert forfeits, "a random line-up never rolled a 7 with something covered"
    for result in forfeits:
        seat = result["forfeit"]["seat"]
        assert result["forfeit"]["bot"] == "smart" and result["seats"][seat] == 0
        assert result["places"][seat] == max(result["places"])


# --- the bots -------------------------------------------------------------------------------
def test_the_smart_bot_gives_back_the_marker_it_will_cover_again_soonest() -> None:
    covered = ((2, 6, 12), (6,), (), ())
    observation = NeighborObservation(
        seat=0, players=4, to_move=0, phase="uncover",
        legal=tuple(uncover_action(m) for m in covered[0]), covered=covered,
        last_roll=(3, 4), winner=None, turn=9)
    assert roll_chance(7) == 6 / 36 and roll_chance(2) == roll_chance(12) == 1 / 36
    assert recover_chance(observation, 2) == 1 / 36
    assert recover_chance(observation, 6) == 5 / 36  # seat 1 passes its 6 on to seat 2
    assert SmartNeighborBot().choose(observation, observation.legal) == uncover_action(6)
    back = dataclasses.replace(observation, covered=((2, 6, 12), (6,), (6,), (6,)))
    assert recover_chance(back, 6) == 4 * 5 / 36  # seats 1-3 would all pass a 6 to seat 0
    assert SmartNeighborBot().choose(observation, (ROLL,)) == ROLL


def test_neighbor_bots_are_found_by_name_only() -> None:
    assert set(NEIGHBOR_BOTS) == {"random", "smart"}
    assert make_neighbor_bot("smart", 3).describe() == "smart(seed=3)"
    with pytest.raises(BotError, match="known bots are random, smart"):
        make_neighbor_bot("greedy")
    with pytest.raises(BotError, match="unknown parameter 'mistakes'"):
        neighbor_bot_from_spec({"bot": "smart", "mistakes": 0.1})


# --- configuration -----------------------------------------------------------------------
LOCATED = [
    ('game = "chess"  # <-\nseed = 1\nmatches = 2\n' + FOUR_BOTS, "game",
     "'trash', 'help-your-neighbor'"),
    (HEADER + 'players = 2  # <-\n' + FOUR_BOTS, "players", "3 to 8"),
    (HEADER + 'players = 9  # <-\n' + FOUR_BOTS, "players", "3 to 8"),
    (HEADER + 'players = 5  # <-\n' + FOUR_BOTS, "players", "needs at least 5 distinct bots"),
    (HEADER + '[rules]  # <-\npreset = "standard"\n' + FOUR_BOTS, "rules",
     "Help Your Neighbor has no house rules"),
    (HEADER + 'rules.wilds = "kings"  # <-\n' + FOUR_BOTS, "rules", "no house rules"),
    ('game = "help-your-neighbor"\nseed = 1\ndeals = 2  # <-\n' + FOUR_BOTS, "deals",
     "use matches = N"),
    (HEADER + FOUR_BOTS + '\n[[bots]]\nbot = "greedy"  # <-\n', "bots[5].bot",
     "unknown Help Your Neighbor bot 'greedy'; known bots are random, smart"),
    (HEADER + FOUR_BOTS + '\n[[bots]]\nbot = "smart"\nname = "s2"\nmistakes = 0.1  # <-\n',
     "bots[5].mistakes", "unknown parameter 'mistakes'"),
    (HEADER + FOUR_BOTS + '\n[[bots]]\nbot = "smart"\nname = "s2"\nseed = "x"  # <-\n',
     "bots[5].seed", "seed must be an integer"),
]


@pytest.mark.parametrize(("text", "key", "fragment"), LOCATED,
                         ids=[f"{i}-{case[1]}" for i, case in enumerate(LOCATED)])
def test_configuration_errors_are_one_located_line(tmp_path: Path, text: str, key: str,
                                                   fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(TournamentError) as info:
        load_tournament(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:{marked_line(text)}: {key}: "), message
    assert fragment in message, message


def test_the_default_table_is_four_and_bots_may_be_named_by_name(tmp_path: Path) -> None:
    text = HEADER + "".join(f'\n[[bots]]\nname = "{n}"\n' for n in ("smart", "random"))
    text += '\n[[bots]]\nname = "r2"\nbot = "random"\nseed = 5\n'
    text += '\n[[bots]]\nname = "r3"\nbot = "random"\n'
    config = load_tournament(write(tmp_path, text))
    assert config.players == 4 and config.game == NEIGHBOR
    assert config.bots[2].spec == {"bot": "random", "seed": 5}


def test_trash_fingerprints_leave_the_game_out_and_neighbor_ones_keep_it(
        tmp_path: Path) -> None:
    trash = ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "random"\n')
    plain = load_tournament(write(tmp_path, trash))
    assert plain.game == "trash" and "game" not in canonical_config(plain)
    explicit = load_tournament(write(tmp_path, 'game = "trash"\n' + trash))
    assert config_fingerprint(explicit) == config_fingerprint(plain)
    neighbor = load_tournament(SHIPPED)
    canonical = canonical_config(neighbor)
    assert canonical["game"] == NEIGHBOR and "rules" not in canonical
    other = dataclasses.replace(neighbor, game="trash")
    assert config_fingerprint(other) != config_fingerprint(neighbor)
