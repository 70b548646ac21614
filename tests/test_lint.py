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
