"""The admin console's small parts (issue 26): durations, targets, who a ban covers, and
the message of the day shown, set and cleared (kept in the history database)."""

from __future__ import annotations

from pathlib import Path

import pytest
from admin_helpers import admin_ok
from ssh_helpers import serving

from trash_tui.admin.moderation import (
    Moderation,
    ModerationError,
    Sanction,
    parse_duration,
)


def test_durations_are_units_summed_and_bounded() -> None:
    assert parse_duration("90s") == 90
    assert parse_duration("1d12h") == 36 * 3600
    assert parse_duration(" 2W ") == 14 * 86400
    for bad in ("", "1", "1x", "h", "1h 2m", "0s", "-1h", "11000d", "1h\x1b"):
        with pytest.raises(ModerationError):
            parse_duration(bad)


def test_a_ban_covers_its_key_or_its_network_and_ends() -> None:
    moderation = Moderation([
        Sanction(1, "ban", "key", "SHA256:abc", "Mallory", "cheating", 0.0, None),
        Sanction(2, "ban", "address", "2001:db8::/64", "", "", 0.0, None),
        Sanction(3, "ban", "address", "203.0.113.7/32", "", "", 0.0, 1.0),  # long over
        Sanction(4, "mute", "key", "SHA256:eve", "Eve", "", 0.0, None)])
    assert moderation.banned("SHA256:abc", "198.51.100.1").id == 1
    assert moderation.banned(None, "2001:db8::42").id == 2
    assert moderation.banned(None, "::ffff:203.0.113.7") is None  # (its time is over)
    assert moderation.banned("SHA256:eve", "198.51.100.1") is None  # muted, not banned
    assert moderation.muted("SHA256:eve").id == 4
    assert moderation.banned(None, "not an address") is None
    assert moderation.lift("ban", "mallory")[0].id == 1  # by the name it was given by
    assert moderation.banned("SHA256:abc") is None


async def test_the_motd_is_shown_set_cleared_and_kept_over_a_restart(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        assert (await admin_ok(server, "motd", text=""))["text"] == "no message of the day"
        await admin_ok(server, "motd", text="Cup final\nSunday")
        assert server.state.tables.motd == "Cup final Sunday"
    async with serving(tmp_path) as server:
        assert (await admin_ok(server, "motd"))["data"] == {"motd": "Cup final Sunday"}
        await admin_ok(server, "motd", clear=True)
        assert (await admin_ok(server, "motd"))["data"] == {"motd": None}
