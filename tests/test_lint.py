"""The code base stays ruff-clean (the project's lint rules live in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> str | None:
    local = Path(sys.executable).parent / "ruff"
    return str(local) if local.exists() else shutil.which("ruff")


@pytest.mark.skipif(_ruff() is None, reason="ruff is not installed")
def test_code_is_ruff_clean() -> None:
    result = subprocess.run([_ruff(), "check", "--output-format", "concise", str(ROOT)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_type_checks_are_seldom_silenced() -> None:
    """Issue 38: ``# type: ignore`` in the package stays under 17 (27 before it); a new one
    is typed properly instead, or replaces one of these."""
    count = sum(path.read_text(encoding="utf-8").count("# type: ignore")
                for path in (ROOT / "trash_tui").rglob("*.py"))
    assert count < 17
