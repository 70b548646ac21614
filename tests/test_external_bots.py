"""Bots in their own processes (bots/PROTOCOL.md): the examples play exactly like greedy,
every forfeit reason, the clock, the resource limits, the process group, the descriptors,
cleanup (even after kill -9 of the runner), isolated Python bots that cannot peek, and
tournaments whose results do not depend on the workers."""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.clock import Clock, TimeControl
from bots.external import ExternalBot, close_idle, external_bot
from bots.registry import make_bot
from bots.runner import BotFailure, play_deal, play_match
from trash_tui.engine.match import Match
from trash_tui.engine.observation import observation_from_dict
from trash_tui.engine.record import match_record
from trash_tui.players.rater import open_history
from trash_tui.presets import PRESETS
from trash_tui.rules import Rules
from trash_tui.tournament.config import (
    TournamentError,
    config_fingerprint,
    load_tournament,
)
from trash_tui.tournament.results import compute_results
from trash_tui.tournament.runner import run_tournament

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "bots" / "examples"
PY_GREEDY = {"name": "py-greedy", "command": [sys.executable, str(EXAMPLES / "greedy_bot.py")]}
AWK_GREEDY = {"name": "awk-greedy", "command": ["sh", str(EXAMPLES / "greedy_awk.sh")]}
SHORT = Rules(start_size=4)

# A bot that misbehaves as its first argument says; it writes what it sees to $PROBE_OUT.
MISBEHAVING = textwrap.dedent('''\
    import json, os, resource, signal, subprocess, sys, time
    mode = sys.argv[1]
    out = os.environ.get("PROBE_OUT")

    def report(value):
        with open(out, "a") as handle:
            handle.write(json.dumps(value) + "\\n")

    def is_open(fd):
        try:
            os.fstat(fd)
            return True
        except OSError:
            return False

    def answer(value):
        sys.stdout.write(json.dumps(value) + "\\n")
        sys.stdout.flush()

    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if mode == "bad-hello":
                print("hello yourself", flush=True)
                continue
            if mode == "probe":
                report({"pid": os.getpid(), "fds": [fd for fd in range(3, 1024) if is_open(fd)],
                        "group": os.getpgid(0) == os.getpid(),
                        "session": os.getsid(0) == os.getpid(),
                        "cpu": resource.getrlimit(resource.RLIMIT_CPU),
                        "memory": resource.getrlimit(resource.RLIMIT_AS),
                        "env": sorted(os.environ), "depth": message["params"].get("depth"),
                        "seed": message["seed"]})
            if mode == "grandchild":
                child = subprocess.Popen(["sleep", "1000"])
                report({"pid": os.getpid(), "child": child.pid})
            answer({"type": "hello", "name": mode, "author": "tests", "version": "1"})
        elif kind == "decide":
            decisions += 1
            legal = message["observation"]["legal"]
            if mode == "malformed":
                print("this is not JSON", flush=True)
            elif mode == "unknown":
                answer({"action": "fold"})
            elif mode == "illegal":
                answer({"action": "keep" if "keep" not in legal else "stock"})
            elif mode == "resign":
                answer({"error": "I give up"})
            elif mode == "exit":
                print("no more", file=sys.stderr, flush=True)
                sys.exit(3)
            elif mode == "abort":
                os.kill(os.getpid(), signal.SIGABRT)
            elif mode == "spin":
                while True:
                    pass
            elif mode == "hog":
                hog = bytearray(512 << 20)
                answer({"action": legal[0]})
            elif mode == "sleep":
                time.sleep(float(os.environ.get("SLEEP", "1")))
                answer({"action": legal[0]})
            elif mode == "clock":
                report(message["clock"])
                time.sleep(0.02)
                answer({"action": legal[0]} if decisions < 4 else {"error": "enough"})
            elif mode == "block":
                report({"blocked": os.getpid()})
                time.sleep(1000)
            else:
                answer({"action": legal[0]})
        elif kind == "match_end":
            answer({"type": "ok"})
        elif kind == "quit":
            break
''')


@pytest.fixture
def misbehaving(tmp_path: Path) -> Any:
    """spec(mode, **more): a spec of the misbehaving bot; probe() what it reported."""
    script = tmp_path / "misbehaving.py"
    script.write_text(MISBEHAVING, encoding="utf-8")
    out = tmp_path / "probe.jsonl"

    def spec(mode: str, **more: Any) -> dict[str, Any]:
        env = {"PROBE_OUT": str(out), **more.pop("env", {})}
        return {"name": mode, "command": [sys.executable, str(script), mode], "env": env,
                **more}

    def probe() -> list[dict[str, Any]]:
        if not out.exists():
            return []
        return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]

    spec.probe = probe  # type: ignore[attr-defined]
    yield spec
    close_idle()


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def failure_of(spec: dict[str, Any], rules: Rules = SHORT, seed: int = 1,
               **play: Any) -> BotFailure:
    """The failure of ``spec`` (seat 0) playing a match against greedy."""
    bots = [external_bot(spec, seed=3), make_bot("greedy", seed=4)]
    with pytest.raises(BotFailure) as caught:
        play_match(rules, bots, seed, **play)
    assert caught.value.seat == 0
    return caught.value


# --- the protocol --------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [PY_GREEDY, AWK_GREEDY], ids=["python", "sh+awk"])
@pytest.mark.parametrize("preset", ["standard", "kings-wild", "catsatcards"])
def test_the_example_bots_play_exactly_like_greedy(spec: dict[str, Any], preset: str) -> None:
    rules = PRESETS[preset].rules
    for seed in range(2):
        external = play_match(rules, [external_bot(spec, seed=s) for s in range(3)], seed)
        local = play_match(rules, [make_bot("greedy", seed=s) for s in range(3)], seed)
        assert match_record(external, ["a", "b", "c"]) == match_record(local, ["a", "b", "c"])
    close_idle()


def test_single_deals_and_matches_in_a_row_reuse_one_process(misbehaving: Any) -> None:
    bot = external_bot(misbehaving("probe"), seed=5)
    for seed in range(3):
        play_match(SHORT, [bot, make_bot("greedy")], seed)
    deal = Match(SHORT, 2, 9).deal
    play_deal(deal, [bot, make_bot("greedy")])
    pids = {report["pid"] for report in misbehaving.probe()}
    assert len(misbehaving.probe()) == 4 and len(pids) == 1  # four hellos, one process


def test_restart_per_match_starts_a_fresh_process_each_match(misbehaving: Any) -> None:
    bot = external_bot(misbehaving("probe", restart="per-match"))
    for seed in range(2):
        play_match(SHORT, [bot, make_bot("greedy")], seed)
    first, second = (report["pid"] for report in misbehaving.probe())
    assert first != second and not alive(first) and not alive(second)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), preset=st.sampled_from(sorted(PRESETS)))
def test_an_observation_comes_back_from_its_dictionary_form(seed: int, preset: str) -> None:
    rules = PRESETS[preset].rules
    match = Match(rules, 2 if rules.free_draws else 3, seed)
    for _ in range(60):
        if match.over:
            break
        for seat in range(match.players):
            seen = match.observation(seat)
            back = observation_from_dict(json.loads(json.dumps(seen.to_dict())))
            assert back == seen
        match.apply(match.legal[-1])


# --- forfeits ------------------------------------------------------------------------------

@pytest.mark.parametrize(("mode", "kind", "detail"), [
    ("malformed", "malformed", "not a JSON line: this is not JSON"),
    ("unknown", "unknown", "'fold'"),
    ("illegal", "illegal", "answered keep; legal: stock"),
    ("resign", "error", "I give up"),
    ("exit", "exit", "exited with status 3; its last error line: no more"),
    ("abort", "exit", "killed by SIGABRT"),
])
def test_each_way_of_breaking_the_protocol_is_a_forfeit(misbehaving: Any, mode: str,
                                                        kind: str, detail: str) -> None:
    failure = failure_of(misbehaving(mode))
    assert failure.kind == kind and detail in failure.detail
    assert failure.bot.process is None  # its process was killed, never to be reused


def test_a_bad_hello_is_a_forfeit_before_the_first_move(misbehaving: Any) -> None:
    failure = failure_of(misbehaving("bad-hello"))
    assert failure.kind == "malformed" and failure.detail.startswith("in start_match:")
    assert failure.game.deal_number == 1 and not failure.game.deal.actions


def test_a_program_that_does_not_exist_forfeits(tmp_path: Path) -> None:
    failure = failure_of({"name": "ghost", "command": [str(tmp_path / "ghost")]})
    assert failure.kind == "exit" and "cannot start" in failure.detail


def test_an_illegal_answer_forfeits_at_the_same_point_every_time(misbehaving: Any) -> None:
    first, second = (failure_of(misbehaving("illegal"), seed=11) for _ in range(2))
    assert first.detail == second.detail
    assert match_record(first.game, ["a", "b"]) == match_record(second.game, ["a", "b"])


def test_silence_past_the_time_limit_is_a_timeout_and_the_bot_is_killed(
        misbehaving: Any) -> None:
    started = time.monotonic()
    failure = failure_of(misbehaving("sleep", env={"SLEEP": "30"}), time_limit=0.2)
    assert time.monotonic() - started < 5  # the runner did not wait for the answer
    assert failure.kind == "timeout" and "limit 0.2 s" in failure.detail
    assert failure.bot.process is None  # killed: its late answer will never be read


# --- the clock -----------------------------------------------------------------------------

def test_a_time_control_reads_like_the_chess_runners() -> None:
    assert TimeControl.parse("60+0.5") == TimeControl(60.0, 0.5)
    assert TimeControl.parse("90") == TimeControl(90.0, 0.0)
    assert str(TimeControl.parse(" 5 + 0.25 ")) == "5+0.25"
    for bad in ("", "0+1", "1:30", "-5+1", "5+", "fast"):
        with pytest.raises(ValueError, match=r"60\+0.5|more than 0"):
            TimeControl.parse(bad)


def test_the_clock_takes_the_thinking_time_and_adds_the_increment() -> None:
    clock = Clock(TimeControl(1.0, 0.5), 2)
    assert clock.spend(0, 0.25) and clock.remaining == [1.25, 1.0]
    assert clock.spend(1, 1.0) and clock.remaining == [1.25, 0.5]
    assert not clock.spend(0, 1.3)  # the flag fell


def test_the_bot_is_told_its_remaining_time_with_each_decision(misbehaving: Any) -> None:
    failure = failure_of(misbehaving("clock"), time_control=TimeControl(10.0, 0.5),
                         time_limit=3.0)
    assert failure.kind == "error" and "enough" in failure.detail
    clocks = misbehaving.probe()
    assert len(clocks) == 4
    assert all(c["increment"] == 0.5 and c["limit"] == 3.0 for c in clocks)
    assert clocks[0]["remaining"] == 10.0
    for before, after in itertools.pairwise(clocks):
        # each decision took about 20 ms of thinking, then 0.5 s came back
        assert before["remaining"] + 0.3 < after["remaining"] < before["remaining"] + 0.5


def test_the_flag_falling_is_a_forfeit_for_time(misbehaving: Any) -> None:
    spec = misbehaving("sleep", env={"SLEEP": "0.1"})
    started = time.monotonic()
    failure = failure_of(spec, time_control=TimeControl(0.35, 0.0))
    assert failure.kind == "time" and "its flag fell" in failure.detail
    assert time.monotonic() - started < 5


def test_the_flag_falls_for_an_in_process_bot_too() -> None:
    class Slow(type(make_bot("greedy"))):  # type: ignore[misc]
        def choose(self, observation: Any, legal: Any) -> int:
            time.sleep(0.06)
            return super().choose(observation, legal)

    with pytest.raises(BotFailure) as caught:
        play_match(SHORT, [Slow(1), make_bot("greedy")], 1,
                   time_control=TimeControl(0.2, 0.0))
    assert caught.value.kind == "time" and caught.value.seat == 0


# --- containment -----------------------------------------------------------------------------

def test_a_bot_process_is_contained(misbehaving: Any) -> None:
    spec = misbehaving("probe", cpu_limit=5, memory_limit=256, depth=3)
    play_match(SHORT, [external_bot(spec, seed=77), make_bot("greedy")], 1)
    [seen] = misbehaving.probe()
    assert seen["fds"] == []  # nothing but its standard input, output and error
    assert seen["group"] and seen["session"]  # leads its own session and process group
    assert seen["cpu"] == [5, 6] and seen["memory"] == [256 << 20, 256 << 20]
    assert set(seen["env"]) <= {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL",
                                "LC_CTYPE", "TMPDIR", "TZ", "PROBE_OUT"}
    assert seen["depth"] == 3 and seen["seed"] == 77  # parameters and seed in hello


def test_a_bot_over_its_cpu_limit_is_killed_and_forfeits(misbehaving: Any) -> None:
    started = time.monotonic()
    failure = failure_of(misbehaving("spin", cpu_limit=1))
    assert failure.kind == "exit" and "SIGXCPU" in failure.detail
    assert "over its CPU limit of 1 s" in failure.detail
    assert time.monotonic() - started < 20


def test_a_bot_over_its_memory_limit_fails_and_forfeits(misbehaving: Any) -> None:
    failure = failure_of(misbehaving("hog", memory_limit=128))
    assert failure.kind == "exit" and "MemoryError" in failure.detail


def test_the_whole_group_is_killed_when_the_games_are_over(misbehaving: Any) -> None:
    bot = external_bot(misbehaving("grandchild", restart="per-match"))
    play_match(SHORT, [bot, make_bot("greedy")], 1)
    [seen] = misbehaving.probe()
    deadline = time.monotonic() + 5
    while (alive(seen["pid"]) or alive(seen["child"])) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(seen["pid"]) and not alive(seen["child"])


def test_kept_processes_end_when_the_run_closes_them(misbehaving: Any) -> None:
    bot = external_bot(misbehaving("grandchild"))
    play_match(SHORT, [bot, make_bot("greedy")], 1)
    [seen] = misbehaving.probe()
    assert alive(seen["pid"]) and alive(seen["child"])  # kept for the next game
    close_idle()
    assert not alive(seen["pid"])
    deadline = time.monotonic() + 5
    while alive(seen["child"]) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(seen["child"])


RUNNER = textwrap.dedent('''\
    import sys
    sys.path.insert(0, sys.argv[1])
    from bots.external import external_bot
    from bots.registry import make_bot
    from bots.runner import play_match
    from trash_tui.rules import Rules
    spec = {"name": "b", "command": [sys.executable, sys.argv[2], "block"],
            "env": {"PROBE_OUT": sys.argv[3]}}
    keep = {"name": "k", "command": [sys.executable, sys.argv[2], "grandchild"],
            "env": {"PROBE_OUT": sys.argv[3]}}
    kept = external_bot(keep)
    play_match(Rules(start_size=4), [kept, make_bot("greedy")], 1)  # kept alive, idle
    play_match(Rules(start_size=4), [external_bot(spec), make_bot("greedy")], 1)
''')


def test_no_bot_outlives_a_runner_killed_with_kill_9(tmp_path: Path,
                                                     misbehaving: Any) -> None:
    """The runner is killed while one bot thinks and another (with a child) is kept idle:
    every one of them dies, and (this test being their subreaper) none is left a zombie."""
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_child_subreaper = 36
    assert libc.prctl(pr_set_child_subreaper, 1, 0, 0, 0) == 0
    try:
        runner_script = tmp_path / "runner.py"
        runner_script.write_text(RUNNER, encoding="utf-8")
        misbehaving("block")  # writes the bot script
        out = tmp_path / "probe.jsonl"
        runner = subprocess.Popen([sys.executable, str(runner_script), str(REPO),
                                   str(tmp_path / "misbehaving.py"), str(out)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
                out.exists() and "blocked" in out.read_text(encoding="utf-8")):
            time.sleep(0.05)
        reports = misbehaving.probe()
        pids = [r.get("pid") or r.get("blocked") for r in reports] + [
            r["child"] for r in reports if "child" in r]
        assert len(pids) == 3 and all(alive(pid) for pid in pids)
        runner.send_signal(signal.SIGKILL)
        runner.wait()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
            while True:  # reap whatever was handed to us (the reaper too, once done)
                try:
                    pid, _status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
        assert not any(alive(pid) for pid in pids)
    finally:
        libc.prctl(pr_set_child_subreaper, 0, 0, 0, 0)


# --- isolated Python bots --------------------------------------------------------------------

PEEKER = textwrap.dedent('''\
    import gc
    import sys

    from bots.base import Bot


    def hidden_cards():
        """Face-down cards found by walking up the frames, or in the heap."""
        found = []
        frame = sys._getframe()
        while frame is not None:
            for value in list(frame.f_locals.values()):
                deal = getattr(value, "deal", value)
                if hasattr(deal, "down"):
                    found.append(deal.down)
            frame = frame.f_back
        found += [obj.down for obj in gc.get_objects()
                  if type(obj).__name__ == "Deal" and hasattr(obj, "down")]
        return found


    class Peeker(Bot):
        name = "peeker"

        def choose(self, observation, legal):
            found = hidden_cards()
            if found:
                raise RuntimeError(f"peeked at the face-down cards: {found[0]}")
            return legal[0]
''')


def test_an_isolated_bot_walking_the_frames_finds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "peeker.py"
    path.write_text(PEEKER, encoding="utf-8")
    in_process = make_bot({"bot": str(path)})
    with pytest.raises(BotFailure, match="peeked at the face-down cards"):
        play_match(SHORT, [in_process, make_bot("greedy")], 1)  # the hole being closed
    isolated = make_bot({"bot": str(path), "isolate": True})
    match = play_match(SHORT, [isolated, make_bot("greedy")], 1)
    assert match.over
    close_idle()


# --- tournaments ---------------------------------------------------------------------------

TOURNAMENT = """\
seed = 5
matches = 3
time_limit = 5
time_control = "60+0.5"

[rules]
start_size = 5

[[bots]]
name = "py-greedy"
command = ["{python}", "{examples}/greedy_bot.py"]

[[bots]]
name = "awk-greedy"
command = ["sh", "greedy_awk.sh"]
cwd = "{examples}"

[[bots]]
bot = "greedy"

[[bots]]
bot = "normal"

[[bots]]
name = "liar"
command = ["{python}", "misbehaving.py", "illegal"]
restart = "per-match"
"""


def run(config_path: Path, out: Path, workers: int) -> dict[str, Any]:
    config = load_tournament(config_path)
    with open_history(out.parent / f"{out.name}.sqlite3") as history:
        outcome = run_tournament(config, out, workers=workers, history=history)
    results = compute_results(config, outcome.games, outcome.status, outcome.planned,
                              outcome.sprt)
    return {k: v for k, v in json.loads(json.dumps(results)).items() if k != "config"}


def test_a_tournament_of_external_and_built_in_bots(tmp_path: Path,
                                                    misbehaving: Any) -> None:
    misbehaving("illegal")  # writes misbehaving.py next to the file
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT.format(python=sys.executable, examples=EXAMPLES),
                    encoding="utf-8")
    started = time.monotonic()
    one = run(path, tmp_path / "one", workers=1)
    two = run(path, tmp_path / "two", workers=2)
    assert time.monotonic() - started < 30
    assert one == two  # the same results whatever the number of workers
    per_bot = {row["bot"]: row for row in one["bots"]}
    assert per_bot["liar"]["forfeits"] == per_bot["liar"]["games"] == 12
    assert all(per_bot[b]["forfeits"] == 0 for b in ("py-greedy", "awk-greedy", "greedy"))
    assert {f["kind"] for f in one["forfeits"]} == {"illegal"}
    games = [json.loads(line) for line in
             (tmp_path / "one" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    log = (tmp_path / "one" / "logs" / "liar.log").read_text(encoding="utf-8")
    assert "forfeit (illegal): answered keep" in log
    assert len(games) == one["games"] == 30


def test_tournament_files_check_command_bots(tmp_path: Path) -> None:
    base = 'seed = 1\nmatches = 1\n[[bots]]\nbot = "greedy"\n[[bots]]\nname = "x"\n'
    cases = {
        'command = "mybot"': "bots[2].command: bot x: command must be a non-empty list",
        'command = ["./missing"]': "bots[2].command: bot x: command must start with a "
                                   "program that exists",
        'command = ["sh"]\nrestart = "always"': "bots[2].restart: bot x: restart must be "
                                                "one of 'never', 'per-match'",
        'command = ["sh"]\ncpu_limit = 0': "bots[2].cpu_limit:",
        'command = ["sh"]\nmemory_limit = 1': "bots[2].memory_limit:",
        'command = ["sh"]\nenv = { A = 1 }': "bots[2].env:",
        'command = ["sh"]\ncwd = "nowhere"': "bots[2].cwd:",
        'command = ["sh"]\nisolate = true': "bots[2].isolate:",
    }
    for text, expected in cases.items():
        path = tmp_path / "t.toml"
        path.write_text(base + text + "\n", encoding="utf-8")
        with pytest.raises(TournamentError) as caught:
            load_tournament(path)
        assert expected in str(caught.value) and "\n" not in str(caught.value), text
    path.write_text('time_control = "1:30"\n' + base + 'bot = "easy"\n', encoding="utf-8")
    with pytest.raises(TournamentError, match=r"t.toml:1: time_control: expected"):
        load_tournament(path)


def test_a_time_control_changes_the_fingerprint_and_isolation_does_not(tmp_path: Path
                                                                       ) -> None:
    bot = tmp_path / "mine.py"
    bot.write_text((REPO / "bots" / "examples" / "cautious.py").read_text(), encoding="utf-8")
    base = 'seed = 1\nmatches = 1\n{top}[[bots]]\nbot = "greedy"\n[[bots]]\nbot = "mine.py"\n'
    path = tmp_path / "t.toml"
    prints = []
    for top, extra in (("", ""), ("", "isolate = false\n"), ('time_control = "60+1"\n', "")):
        path.write_text(base.format(top=top) + extra, encoding="utf-8")
        config = load_tournament(path)
        prints.append(config_fingerprint(config))
        assert (config.bots[1].spec.get("isolate") is True) == (extra == "")
    assert prints[0] == prints[1] != prints[2]


def test_a_user_bot_file_with_bad_parameters_is_refused_without_running_here(
        tmp_path: Path) -> None:
    marker = tmp_path / "ran-here"
    (tmp_path / "mine.py").write_text(
        (REPO / "bots" / "examples" / "cautious.py").read_text()
        + f"\nimport os\nif os.getpid() == {os.getpid()}:\n    open({str(marker)!r}, 'w')\n",
        encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text('seed = 1\nmatches = 1\n[[bots]]\nbot = "greedy"\n[[bots]]\n'
                    'bot = "mine.py"\nforget = 5\n', encoding="utf-8")
    with pytest.raises(TournamentError, match=r"t.toml:7: bots\[2\].forget: .*forget must be"):
        load_tournament(path)
    assert not marker.exists()


def test_simulate_takes_a_command_bot(tmp_path: Path) -> None:
    spec = json.dumps(PY_GREEDY["command"])
    done = subprocess.run(
        [sys.executable, "-m", "trash_tui", "simulate", "--matches", "3", "--rules",
         "standard", "--bot", f'{{ name = "py", command = {spec} }}', "--bot", "greedy",
         "--json"], cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["matches"] == 3 and report["bots"][0].startswith("py")


def test_an_external_bot_describes_itself(misbehaving: Any) -> None:
    bot = external_bot(misbehaving("probe"), seed=3)
    assert isinstance(bot, ExternalBot) and bot.describe() == "probe(command, seed=3)"
