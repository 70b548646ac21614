"""The browser tests' harness itself: where Chromium or its driver is missing, a browser
test is skipped with what to install — except under CI=true, where .ci/run installs them
and a missing browser must fail the run rather than pass it with the journeys unwalked."""

from __future__ import annotations

from pathlib import Path

import browser_helpers
import pytest


def test_a_missing_browser_skips_outside_ci_and_fails_under_ci(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_helpers, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        browser_helpers.require_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="under CI"):
        browser_helpers.require_browser()
