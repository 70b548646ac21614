"""``trash rules check`` on a file with very many unknown keys (issue 27): time linear in
the file, the first 20 problems and a count, the known options listed once."""

from __future__ import annotations

import time
from pathlib import Path

from test_cli import trash

from trash_tui.rules_file import SHOWN_PROBLEMS, check_rules_file


def many_keys(path: Path, count: int) -> Path:
    path.write_text("[rules]\n" + "".join(f"key_{n} = {n}\n" for n in range(count)))
    return path


def test_fifty_thousand_unknown_keys_are_checked_in_linear_time(tmp_path: Path) -> None:
    small = many_keys(tmp_path / "small.toml", 5_000)
    large = many_keys(tmp_path / "large.toml", 50_000)
    started = time.perf_counter()
    check_rules_file(small)
    small_time = time.perf_counter() - started
    started = time.perf_counter()
    rules, problems = check_rules_file(large)
    large_time = time.perf_counter() - started
    assert rules is None and len(problems) == 50_000
    assert problems[49_999].startswith(f"{large}:50001: rules.key_49999: unknown option")
    # ten times the keys: about ten times the time (the square would be a hundred)
    assert large_time < 5.0 and large_time < 30 * max(small_time, 0.01), (small_time,
                                                                          large_time)
    assert "known options are" in problems[0] and "known options" not in problems[1]


def test_the_first_problems_are_printed_then_a_count(tmp_path: Path) -> None:
    large = many_keys(tmp_path / "large.toml", 50_000)
    result = trash("rules", "check", str(large), cwd=tmp_path)
    lines = result.stderr.splitlines()
    assert result.returncode == 2 and result.stdout == ""
    assert len(lines) == SHOWN_PROBLEMS + 1
    assert lines[0].startswith(f"trash: error: {large}:2: rules.key_0: unknown option")
    assert lines[-1] == "trash: error: and 49,980 more problems (50,000 in all)"
