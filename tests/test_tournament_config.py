"""Tournament files (load_tournament, errors with path:LINE: key), the schedule and the
configuration fingerprint.

Bad files mark the line an error must point at with ``# <-``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from bots.registry import make_bot
from trash_tui.engine.rng import derive_seed
from trash_tui.rules import Rules
from trash_tui.tournament.config import (
    BotEntry,
    StopRule,
    TournamentConfig,
    TournamentError,
    config_fingerprint,
    key_line,
    load_tournament,
)
from trash_tui.tournament.schedule import (
    Game,
    games_per_board,
    pairing_count,
    pairings,
    schedule,
    total_games,
)

REPO = Path(__file__).resolve().parents[1]
SHIPPED = ("round-robin", "four-player", "house-rules", "sprt")
TWO_BOTS = '\n[[bots]]\nbot = "greedy"\n\n[[bots]]\nbot = "random"\n'


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(TournamentError) as info:
        load_tournament(path)
    message = str(info.value)
    assert "\n" not in message
    return message


def marked_line(text: str) -> int:
    [line] = [n for n, row in enumerate(text.splitlines(), 1) if "# <-" in row]
    return line


# --- the shipped files -----------------------------------------------------------------

@pytest.mark.parametrize("stem", SHIPPED)
def test_shipped_files_load(stem: str) -> None:
    config = load_tournament(REPO / "tournaments" / f"{stem}.toml")
    assert len(config.bots) >= config.players
    assert total_games(config) == len(list(schedule(config))) > 0
    for bot in config.bots:
        make_bot(bot.spec)


def test_shipped_files_say_what_they_promise() -> None:
    ladder = load_tournament(REPO / "tournaments" / "round-robin.toml")
    assert ladder.bot_names == ("random", "greedy", "easy", "normal", "hard", "counter")
    assert (ladder.players, ladder.format, ladder.name) == (2, "round-robin", "The bot ladder")
    four = load_tournament(REPO / "tournaments" / "four-player.toml")
    assert four.players == 4 and four.duplicate
    house = load_tournament(REPO / "tournaments" / "house-rules.toml")
    assert house.rules.wilds == "kings" and house.rules.last_turn
    assert house.format == "gauntlet" and house.gauntlet == "counter"
    assert house.time_limit == 2.0
    sprt = load_tournament(REPO / "tournaments" / "sprt.toml")
    assert sprt.stop.kind == "sprt" and sprt.duplicate and len(sprt.bots) == 2
    assert sprt.stop.llr_bounds() == pytest.approx((-2.944, 2.944), abs=1e-3)


def test_defaults(tmp_path: Path) -> None:
    config = load_tournament(write(tmp_path, "seed = 5\ndeals = 7\n" + TWO_BOTS, "my-cup.toml"))
    assert config.name == "my-cup"
    assert (config.players, config.format, config.gauntlet) == (2, "round-robin", None)
    assert (config.unit, config.games, config.duplicate) == ("deals", 7, False)
    assert config.time_limit is None and config.stop == StopRule()
    assert config.rules == Rules()
    assert config.bot_names == ("greedy", "random")
    assert config.bots[0].spec == {"bot": "greedy"}


def test_bot_entries_keep_parameters_and_seed(tmp_path: Path) -> None:
    text = ('seed = 1\nmatches = 1\n[rules]\npreset = "jokers"\nstart_size = 8\n'
            '[[bots]]\nname = "sharp"\nbot = "hard"\nmistakes = 0.01\nseed = 3\n'
            '[[bots]]\nname = "normal"\n')  # without `bot`, `name` is the bot
    config = load_tournament(write(tmp_path, text))
    assert config.rules == Rules(jokers=True, start_size=8)
    assert config.bots[0] == BotEntry("sharp", {"bot": "hard", "mistakes": 0.01, "seed": 3})
    assert config.bots[1] == BotEntry("normal", {"bot": "normal"})
    assert make_bot(config.bots[0].spec).options["miss_discard"] == 0.01


# --- a user's bot file, relative to the TOML file ----------------------------------------

def test_user_bot_path_is_relative_to_the_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mine").mkdir()
    shutil.copy(REPO / "bots" / "examples" / "cautious.py", tmp_path / "mine" / "cautious.py")
    (tmp_path / "cups").mkdir()
    path = write(tmp_path / "cups", 'seed = 1\nmatches = 2\n[[bots]]\nname = "mine"\n'
                 'bot = "../mine/cautious.py"\nforget = 0.5\n[[bots]]\nbot = "greedy"\n')
    monkeypatch.chdir(REPO)  # neither the file's folder nor the bot's
    config = load_tournament(path)
    spec = config.bots[0].spec
    assert Path(spec["bot"]).is_absolute()
    assert Path(spec["bot"]) == (tmp_path / "mine" / "cautious.py").resolve()
    monkeypatch.chdir(tmp_path / "mine")
    assert make_bot(spec).options == {"forget": 0.5}
    monkeypatch.chdir(tmp_path)  # a relative path to the TOML file works too
    assert load_tournament(Path("cups") / "t.toml").bots[0].spec == spec


def test_user_bot_errors_name_the_entry(tmp_path: Path) -> None:
    shutil.copy(REPO / "bots" / "examples" / "cautious.py", tmp_path / "cautious.py")
    text = ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "cautious.py"\n'
            "forget = 2.0  # <-\n")
    path = write(tmp_path, text)
    assert load_error(path).startswith(f"{path}:{marked_line(text)}: bots[2].forget: ")
    text = ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]\n'
            'bot = "missing.py"  # <-\n')
    path = write(tmp_path, text)
    message = load_error(path)
    assert message.startswith(f"{path}:{marked_line(text)}: bots[2].bot: ")
    assert "no such file" in message and str(tmp_path / "missing.py") in message


# --- errors ------------------------------------------------------------------------------

LOCATED = [
    # (file text with the offending line marked, key, a fragment of the message)
    ('seed = 1\nmatches = 2\nplayer = 2  # <-\n' + TWO_BOTS, "player", "known keys are"),
    ('seed = "x"  # <-\nmatches = 2\n' + TWO_BOTS, "seed", "expected an integer"),
    ('seed = true  # <-\nmatches = 2\n' + TWO_BOTS, "seed", "expected an integer"),
    ('name = 3  # <-\nseed = 1\nmatches = 2\n' + TWO_BOTS, "name", "non-empty string"),
    ('seed = 1\nplayers = 2.0  # <-\nmatches = 2\n' + TWO_BOTS, "players", "2 to 8"),
    ('seed = 1\nplayers = 1  # <-\nmatches = 2\n' + TWO_BOTS, "players", "2 to 8"),
    ('seed = 1\nplayers = 9  # <-\nmatches = 2\n' + TWO_BOTS, "players", "2 to 8"),
    ('seed = 1\nplayers = 3  # <-\nmatches = 2\n' + TWO_BOTS, "players",
     "needs at least 3 distinct bots; this file has 2"),
    ('seed = 1\nmatches = 2\nduplicate = "yes"  # <-\n' + TWO_BOTS, "duplicate",
     "true or false"),
    ('seed = 1\nmatches = 2\ntime_limit = 0  # <-\n' + TWO_BOTS, "time_limit", "above 0"),
    ('seed = 1\nmatches = 2\ntime_limit = "1s"  # <-\n' + TWO_BOTS, "time_limit", "above 0"),
    ('seed = 1\nmatches = 0  # <-\n' + TWO_BOTS, "matches", "at least 1"),
    ('seed = 1\ndeals = "many"  # <-\n' + TWO_BOTS, "deals", "at least 1"),
    ('seed = 1\nmatches = 2\ndeals = 5  # <-\n' + TWO_BOTS, "deals", "not both"),
    ('seed = 1\nmatches = 2\nformat = "swiss"  # <-\n' + TWO_BOTS, "format",
     "'round-robin', 'gauntlet'"),
    ('seed = 1\nmatches = 2\nformat = "gauntlet"\ngauntlet = "hard"  # <-\n' + TWO_BOTS,
     "gauntlet", "no bot is named 'hard'; expected one of greedy, random"),
    ('seed = 1\nmatches = 2\ngauntlet = "greedy"  # <-\n' + TWO_BOTS, "gauntlet",
     'only with format = "gauntlet"'),
    ('seed = 1\nmatches = 2\nbots = 3  # <-\n', "bots", "[[bots]] tables"),
    # [rules]
    ('seed = 1\nmatches = 2\n[rules]\npreset = "nope"  # <-\n' + TWO_BOTS, "rules.preset",
     "unknown preset"),
    ('seed = 1\nmatches = 2\n[rules]\nwilds = "queens"  # <-\n' + TWO_BOTS, "rules.wilds",
     "expected one of"),
    ('seed = 1\nmatches = 2\n[rules]\npreset = "standard"\nwild = "kings"  # <-\n' + TWO_BOTS,
     "rules.wild", "unknown option"),
    ('seed = 1\nmatches = 2\nrules.start_size = 11  # <-\n' + TWO_BOTS, "rules.start_size",
     "from 1 to 10"),
    ('seed = 1\nmatches = 2\nrules = "standard"  # <-\n' + TWO_BOTS, "rules",
     "expected a table"),
    ('seed = 1\nplayers = 3\nmatches = 2\n[rules]\nfree_draws = 3  # <-\n' + TWO_BOTS
     + '[[bots]]\nbot = "easy"\n', "rules.free_draws", "2-player rule"),
    ('seed = 1\nplayers = 3\nmatches = 2\n[rules]\npreset = "three-free-draws"  # <-\n'
     + TWO_BOTS + '[[bots]]\nbot = "easy"\n', "rules.free_draws", "2-player rule"),
    # [[bots]]
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "greedy"  # <-\n',
     "bots[2].bot", "already the name of bots[1]"),
    ('seed = 1\nmatches = 2\n[[bots]]\nname = "a"\nbot = "greedy"\n[[bots]]\n'
     'name = "a"  # <-\nbot = "random"\n', "bots[2].name", "already the name of bots[1]"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "grandmaster"  # <-\n',
     "bots[2].bot", "unknown bot 'grandmaster'; known bots are random"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "hard"\n'
     'mistakes = "often"  # <-\n', "bots[2].mistakes", "mistakes must be a number from 0 to 1"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\ndepth = 3  # <-\n[[bots]]\n'
     'bot = "hard"\n', "bots[1].depth", "unknown parameter 'depth'"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\nseed = "s"  # <-\n[[bots]]\n'
     'bot = "hard"\n', "bots[1].seed", "seed must be an integer"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "greedy"\n[[bots]]  # <-\nseed = 4\n',
     "bots[2].bot", "missing"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = 7  # <-\n[[bots]]\nbot = "greedy"\n',
     "bots[1].bot", "non-empty string"),
    ('seed = 1\nmatches = 2\n[[bots]]\nbot = "nowhere.mod:Bot"  # <-\n[[bots]]\n'
     'bot = "greedy"\n', "bots[1].bot", "cannot import nowhere.mod"),
    # [stop]
    ('seed = 1\nmatches = 2\n[stop]\nrule = "sprt"  # <-\n' + TWO_BOTS
     + '[[bots]]\nbot = "easy"\n', "stop.rule", "exactly 2 bots; this file has 3"),
    ('seed = 1\nmatches = 2\n[stop]\nrule = "elo"  # <-\n' + TWO_BOTS, "stop.rule",
     "'fixed', 'sprt'"),
    ('seed = 1\nmatches = 2\n[stop]\nrule = "sprt"\nalpha = 0.5  # <-\n' + TWO_BOTS,
     "stop.alpha", "between 0 and 0.5"),
    ('seed = 1\nmatches = 2\n[stop]\nrule = "sprt"\nbeta = 0  # <-\n' + TWO_BOTS,
     "stop.beta", "between 0 and 0.5"),
    ('seed = 1\nmatches = 2\n[stop]\nrule = "sprt"\nelo0 = 5\nelo1 = 5  # <-\n' + TWO_BOTS,
     "stop.elo1", "must be above elo0 (5)"),
    ('seed = 1\nmatches = 2\n[stop]\nelo1 = "big"  # <-\n' + TWO_BOTS, "stop.elo1",
     "expected a number"),
    ('seed = 1\nmatches = 2\n[stop]\nrule = "sprt"\nlimit = 3  # <-\n' + TWO_BOTS,
     "stop.limit", "known keys are rule, elo0"),
    ('seed = 1\nmatches = 2\nstop = 3  # <-\n' + TWO_BOTS, "stop", "expected a [stop] table"),
    # invalid TOML: tomllib's line
    ('seed = 1\nmatches = 2\nplayers = = 2  # <-\n' + TWO_BOTS, None, "not valid TOML"),
    ('seed = 1\nmatches = 2\nseed = 2  # <-\n' + TWO_BOTS, None, "not valid TOML"),
]


@pytest.mark.parametrize(("text", "key", "fragment"), LOCATED,
                         ids=[f"{i}-{case[1]}" for i, case in enumerate(LOCATED)])
def test_errors_name_line_and_key(tmp_path: Path, text: str, key: str | None,
                                  fragment: str) -> None:
    path = write(tmp_path, text)
    message = load_error(path)
    prefix = f"{path}:{marked_line(text)}: " + (f"{key}: " if key else "")
    assert message.startswith(prefix), message
    assert fragment in message, message


UNLOCATED = [
    ('matches = 2\n' + TWO_BOTS, "seed", "missing; give an integer"),
    ('seed = 1\n' + TWO_BOTS, "matches", "missing; give matches = N"),
    ('seed = 1\nmatches = 2\n', "bots", "missing; add one [[bots]] table"),
    ('seed = 1\nmatches = 2\nformat = "gauntlet"\n' + TWO_BOTS, "gauntlet",
     "missing; with format = \"gauntlet\""),
]


@pytest.mark.parametrize(("text", "key", "fragment"), UNLOCATED)
def test_missing_keys_name_the_key(tmp_path: Path, text: str, key: str, fragment: str) -> None:
    path = write(tmp_path, text)
    message = load_error(path)
    assert message.startswith(f"{path}: {key}: {fragment}"), message


def test_unreadable_and_not_utf8(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    assert re.match(rf"^{re.escape(str(missing))}: cannot read: ", load_error(missing))
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"seed = 1\nname = \"\xff\"\n")
    assert load_error(binary).startswith(f"{binary}:2: not UTF-8 text (byte 17)")
    folder = load_error(tmp_path)  # a folder
    assert folder.startswith(f"{tmp_path}: ") and ("directory" in folder
                                                   or "cannot read" in folder), folder


def test_key_line_finds_keys_in_tables_and_dotted_keys() -> None:
    text = ('seed = 1\nrules.wilds = "kings"\n"players" = 2\n[stop]\nrule = "sprt"\n'
            '[[bots]]\nbot = "a"\n[[ bots ]]  # second\nbot = "b"\nmistakes = 0.1\n'
            '[rules]\npreset = "jokers"\n')
    assert key_line(text, "seed") == 1
    assert key_line(text, "players") == 3
    assert key_line(text, "wilds", "rules") == 2
    assert key_line(text, "preset", "rules") == 12
    assert key_line(text, None, "rules") == 11
    assert key_line(text, "rule", "stop") == 5
    assert key_line(text, "bot", "bots", 0) == 7
    assert key_line(text, "bot", "bots", 1) == 9
    assert key_line(text, "mistakes", "bots", 1) == 10
    assert key_line(text, "mistakes", "bots", 0) is None
    assert key_line(text, None, "bots", 1) == 8
    assert key_line(text, "rule") is None  # not at the top level


# --- the schedule ------------------------------------------------------------------------

BOT_NAMES = ("random", "greedy", "easy", "normal", "hard")


def make_config(**changes: object) -> TournamentConfig:
    base = TournamentConfig(
        path=Path("t.toml"), name="t", seed=99, rules=Rules(),
        bots=tuple(BotEntry(n, {"bot": n}) for n in BOT_NAMES), players=2, games=3)
    return dataclasses.replace(base, **changes)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("duplicate", [False, True])
@pytest.mark.parametrize("fmt", ["round-robin", "gauntlet"])
def test_schedule_counts(players: int, duplicate: bool, fmt: str) -> None:
    gauntlet = "normal" if fmt == "gauntlet" else None
    config = make_config(players=players, duplicate=duplicate, format=fmt, gauntlet=gauntlet)
    pairs = pairings(config)
    n = len(BOT_NAMES)
    expected_pairs = math.comb(n - 1, players - 1) if gauntlet else math.comb(n, players)
    assert len(pairs) == pairing_count(config) == expected_pairs
    assert len(set(pairs)) == len(pairs) and all(len(set(p)) == players for p in pairs)
    if gauntlet:
        assert all(p[0] == 3 and 3 not in p[1:] for p in pairs)
        assert {p[1:] for p in pairs} == set(itertools.combinations((0, 1, 2, 4), players - 1))
    else:
        assert pairs == list(itertools.combinations(range(n), players))
    assert games_per_board(config) == (players if duplicate else 1)
    games = list(schedule(config))
    assert len(games) == total_games(config) == expected_pairs * 3 * games_per_board(config)
    assert [g.index for g in games] == list(range(len(games)))
    per_pairing = Counter(g.pairing for g in games)
    assert set(per_pairing.values()) == {3 * games_per_board(config)}
    for game in games:
        assert sorted(game.seats) == sorted(pairs[game.pairing])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_duplicate_boards_rotate_every_bot_through_every_seat(players: int) -> None:
    config = make_config(players=players, duplicate=True)
    boards: dict[tuple[int, int], list[Game]] = {}
    for game in schedule(config):
        boards.setdefault((game.pairing, game.board), []).append(game)
    for (pairing, board), games in boards.items():
        assert [g.rotation for g in games] == list(range(players))
        assert len({g.seed for g in games}) == 1  # one deck for the whole board
        assert games[0].seed == derive_seed(99, "board", pairing, board)
        for seat in range(players):  # each bot once in each seat
            assert sorted(g.seats[seat] for g in games) == sorted(pairings(config)[pairing])
    seeds = {games[0].seed for games in boards.values()}
    assert len(seeds) == len(boards)  # different boards, different decks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_single_games_balance_seats_over_boards(players: int) -> None:
    config = make_config(players=players, games=2 * players)
    games = list(schedule(config))
    assert len({g.seed for g in games}) == len(games)
    for game in games:
        assert game.rotation == game.board % players
        assert game.seed == derive_seed(99, "game", game.pairing, game.board)
    for p, pairing in enumerate(pairings(config)):
        seats = Counter((bot, seat) for g in games if g.pairing == p
                        for seat, bot in enumerate(g.seats))
        assert seats == {(bot, seat): 2 for bot in pairing for seat in range(players)}


def test_schedule_is_deterministic_and_resumable(tmp_path: Path) -> None:
    path = REPO / "tournaments" / "four-player.toml"
    first = list(schedule(load_tournament(path)))
    assert first == list(schedule(load_tournament(path)))
    config = make_config(players=3, duplicate=True)
    full = list(schedule(config))
    for start in (0, 1, 2, 3, 10, 29, len(full) - 1, len(full), len(full) + 5):
        assert list(schedule(config, start)) == full[start:]
    # boards are the outer loop: more boards extend the schedule without renumbering it
    longer = list(schedule(dataclasses.replace(config, games=config.games + 2)))
    assert longer[: len(full)] == full
    assert list(schedule(dataclasses.replace(config, seed=100))) != full


# --- the fingerprint ---------------------------------------------------------------------

FINGERPRINT_BASE = '''name = "Cup"
seed = 1
players = 2
matches = 4
duplicate = true

[rules]
preset = "standard"

[[bots]]
name = "a"
bot = "hard"
mistakes = 0.1

[[bots]]
name = "b"
bot = "greedy"

[[bots]]
name = "c"
bot = "normal"
'''

RESULT_CHANGES = [
    ("seed = 1", "seed = 2"),
    ("players = 2", "players = 3"),
    ("matches = 4", "matches = 5"),
    ("matches = 4", "deals = 4"),
    ("duplicate = true", "duplicate = false"),
    ("duplicate = true", "duplicate = true\ntime_limit = 1.5"),
    ('preset = "standard"', 'preset = "kings-wild"'),
    ('preset = "standard"', 'preset = "standard"\njokers = true'),
    ("mistakes = 0.1", "mistakes = 0.2"),
    ("mistakes = 0.1", "mistakes = 0.1\nseed = 4"),
    ('bot = "greedy"', 'bot = "counter"'),
    ('name = "b"', 'name = "bee"'),
    ('name = "c"\nbot = "normal"\n', 'name = "c"\nbot = "normal"\n[[bots]]\nbot = "easy"\n'),
    ("duplicate = true", 'duplicate = true\nformat = "gauntlet"\ngauntlet = "a"'),
]


def test_fingerprint_follows_what_affects_results(tmp_path: Path) -> None:
    base = config_fingerprint(load_tournament(write(tmp_path, FINGERPRINT_BASE)))
    assert re.fullmatch(r"[0-9a-f]{64}", base)
    seen = {base}
    for old, new in RESULT_CHANGES:
        assert old in FINGERPRINT_BASE
        changed = config_fingerprint(load_tournament(
            write(tmp_path, FINGERPRINT_BASE.replace(old, new, 1))))
        assert changed not in seen, (old, new)
        seen.add(changed)
    # the order of the bots fixes their indices in the schedule
    swapped = FINGERPRINT_BASE.replace('name = "b"\nbot = "greedy"', "X").replace(
        'name = "c"\nbot = "normal"', 'name = "b"\nbot = "greedy"').replace(
        "X", 'name = "c"\nbot = "normal"')
    assert config_fingerprint(load_tournament(write(tmp_path, swapped))) not in seen


def test_fingerprint_ignores_name_path_and_spelling(tmp_path: Path) -> None:
    base = config_fingerprint(load_tournament(write(tmp_path, FINGERPRINT_BASE)))
    renamed = FINGERPRINT_BASE.replace('name = "Cup"', 'name = "Another cup"')
    assert config_fingerprint(load_tournament(write(tmp_path, renamed))) == base
    (tmp_path / "elsewhere").mkdir()
    moved = write(tmp_path / "elsewhere", FINGERPRINT_BASE, "other-name.toml")
    assert config_fingerprint(load_tournament(moved)) == base
    commented = FINGERPRINT_BASE.replace("seed = 1", "seed = 1  # the seed\n\n# more")
    assert config_fingerprint(load_tournament(write(tmp_path, commented))) == base
    fixed = FINGERPRINT_BASE + '\n[stop]\nrule = "fixed"\nelo1 = 20\n'  # unused bounds
    assert config_fingerprint(load_tournament(write(tmp_path, fixed))) == base


def test_fingerprint_follows_sprt_bounds_and_user_bot_code(tmp_path: Path) -> None:
    two = FINGERPRINT_BASE.replace('[[bots]]\nname = "c"\nbot = "normal"\n', "")
    sprt = two + '\n[stop]\nrule = "sprt"\n'
    prints = {config_fingerprint(load_tournament(write(tmp_path, text)))
              for text in (two, sprt, sprt + "elo1 = 5\n", sprt + "alpha = 0.01\n")}
    assert len(prints) == 4
    bot_file = tmp_path / "cautious.py"
    shutil.copy(REPO / "bots" / "examples" / "cautious.py", bot_file)
    path = write(tmp_path, two.replace('bot = "greedy"', 'bot = "cautious.py"'))
    before = config_fingerprint(load_tournament(path))
    bot_file.write_text(bot_file.read_text() + "\n# edited\n")
    assert config_fingerprint(load_tournament(path)) != before
