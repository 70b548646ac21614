"""Who a browser is (issue 39): a token the browser keeps, of which the history keeps only
a hash, and the one-time codes that link a browser to an SSH key."""

from __future__ import annotations

import hmac
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from trash_tui.play.table_protocol import CODE_ALPHABET
from trash_tui.players.rater import open_history
from trash_tui.tables.worker import Worker
from trash_tui.web.identity import Browsers, LinkError

KEY = "SHA256:thekeyofsomeonewhoplaysoverssh"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def worker(tmp_path: Path) -> AsyncIterator[Worker]:
    worker = Worker(tmp_path / "history.sqlite3")
    await worker.open()
    yield worker
    await worker.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def rows(worker: Worker) -> list[str]:
    """The identities of the browsers the history keeps."""
    found = await worker.db(lambda history: history.db.execute(
        "SELECT identity FROM browsers").fetchall())
    return [str(row[0]) for row in found]


async def test_a_new_browser_is_a_web_player_known_by_its_token_from_then_on(
        worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    token, identity = await browsers.new()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)  # 32 random bytes, urlsafe base64
    assert re.fullmatch(r"web:[0-9a-f]{16}", identity)
    other_token, other = await browsers.new()
    assert other_token != token and other != identity
    clock.now += 3600
    assert await browsers.known(token) == identity
    assert await browsers.known(other_token) == other
    assert await browsers.known("a-token-this-server-never-made") is None
    assert await browsers.known("") is None and await browsers.known("x" * 5000) is None
    forged = token[:-4] + ("AAAA" if token[-4:] != "AAAA" else "BBBB")  # (not its HMAC)
    assert await browsers.known(forged) is None
    assert await browsers.keep(token) == identity  # its first session: kept from now on
    clock.now += 3600
    assert await browsers.known(token) == identity
    seen = await worker.db(lambda history: history.db.execute(
        "SELECT created, last_seen FROM browsers WHERE identity = ?", (identity,)).fetchone())
    assert seen == (1_003_600.0, 1_007_200.0)  # the visit is noted


async def test_a_page_load_keeps_nothing_a_session_keeps_the_browser(
        tmp_path: Path, worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    minted = [await browsers.new() for _ in range(500)]  # 500 page loads
    assert await rows(worker) == []
    token, identity = minted[7]
    assert await browsers.known(token) == identity  # (the same browser's next page)
    assert await rows(worker) == []
    assert await browsers.keep(token) == identity
    assert await rows(worker) == [identity]
    assert await browsers.keep(token) == identity  # (its next session: the same row)
    assert await browsers.keep("a-token-this-server-never-made") is None
    assert await rows(worker) == [identity]
    # the server comes back (its key is kept): the same tokens are the same players
    await worker.close()
    again = Worker(tmp_path / "history.sqlite3")
    await again.open()
    try:
        assert await Browsers(again, clock).known(minted[8][0]) == minted[8][1]
    finally:
        await again.close()


async def test_a_browser_whose_player_never_named_itself_is_forgotten_after_a_day(
        worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    unnamed, unnamed_identity = await browsers.new()
    named, named_identity = await browsers.new()
    played, played_identity = await browsers.new()
    linked, _ = await browsers.new()
    for token in (unnamed, named, played, linked):
        await browsers.keep(token)
    await worker.db(lambda history: history.players.register_player(named_identity, "Ann"))
    await worker.db(lambda history: history.db.execute(
        "INSERT INTO ratings (identity, game, mu, sigma, matches, updated) "
        "VALUES (?, 'trash', 25, 8, 1, 0)", (played_identity,)))
    await browsers.link(linked, await browsers.make_code(KEY))
    clock.now += 23 * 3600
    fresh, fresh_identity = await browsers.new()
    await browsers.keep(fresh)  # (a sweep: none is a day old yet)
    assert len(await rows(worker)) == 5
    clock.now += 2 * 3600
    newer, newer_identity = await browsers.new()
    await browsers.keep(newer)  # (the next sweep)
    assert sorted(await rows(worker)) == sorted(
        [named_identity, played_identity, KEY, fresh_identity, newer_identity])
    # its cookie still names the same player (there was nothing kept of them to lose)
    assert await browsers.known(unnamed) == unnamed_identity


async def test_the_history_keeps_no_token_only_its_hash(tmp_path: Path, worker: Worker) -> None:
    browsers = Browsers(worker)
    tokens = [(await browsers.new())[0] for _ in range(3)]
    for token in tokens:
        await browsers.keep(token)
    code = await browsers.make_code(KEY)
    await browsers.link(tokens[0], code)
    await worker.close()
    kept = b"".join(path.read_bytes() for path in tmp_path.glob("history.sqlite3*"))
    assert kept.count(b"web:") >= 2  # (the file is the one written)
    for token in tokens:
        assert token.encode() not in kept


async def test_a_link_code_makes_the_browser_the_keys_player_once(
        worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    token, _ = await browsers.new()
    code = await browsers.make_code(KEY)
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    assert "0" not in CODE_ALPHABET and "O" not in CODE_ALPHABET and "1" not in CODE_ALPHABET
    # typed in lower case, with a dash: the same code
    assert await browsers.link(token, f"{code[:4].lower()}-{code[4:]}") == KEY
    assert await browsers.known(token) == KEY
    second, second_identity = await browsers.new()
    with pytest.raises(LinkError, match="used already") as used:
        await browsers.link(second, code)
    assert "\n" not in str(used.value)
    assert await browsers.known(second) == second_identity  # nothing changed


async def test_a_link_code_holds_ten_minutes(worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    token, _ = await browsers.new()
    late = await browsers.make_code(KEY)
    in_time = await browsers.make_code(KEY)
    clock.now += 599
    assert await browsers.link(token, in_time) == KEY
    clock.now += 1
    other, other_identity = await browsers.new()
    with pytest.raises(LinkError, match=r"over .*10 minutes"):
        await browsers.link(other, late)
    assert await browsers.known(other) == other_identity


async def test_a_wrong_code_is_refused_in_one_line(worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    token, identity = await browsers.new()
    code = await browsers.make_code(KEY)
    wrong = ("A" if code[0] != "A" else "B") + code[1:]
    for text, reason in ((wrong, "no such link code"), ("ABC", "not a link code"),
                         ("ABCDEFG0", "not a link code"), ("<b>x</b>\x1b[2J", "not a link code")):
        with pytest.raises(LinkError, match=reason) as refused:
            await browsers.link(token, text)
        assert "\n" not in str(refused.value)
    assert await browsers.known(token) == identity
    assert await browsers.link(token, code) == KEY  # (the right one still works)


async def test_at_most_three_codes_are_alive_per_player_the_oldest_retired(
        worker: Worker, clock: Clock) -> None:
    browsers = Browsers(worker, clock)
    codes = []
    for _ in range(4):
        codes.append(await browsers.make_code(KEY))
        clock.now += 1
    others = [await browsers.make_code("password:ann") for _ in range(3)]  # (their own three)
    tokens = [(await browsers.new())[0] for _ in range(7)]
    with pytest.raises(LinkError):
        await browsers.link(tokens[0], codes[0])
    for token, code in zip(tokens[1:4], codes[1:], strict=True):
        assert await browsers.link(token, code) == KEY
    for token, code in zip(tokens[4:], others, strict=True):
        assert await browsers.link(token, code) == "password:ann"


async def test_a_guest_cannot_make_a_link_code(worker: Worker) -> None:
    browsers = Browsers(worker)
    for nobody in ("guest:0123456789abcdef", ""):
        with pytest.raises(LinkError, match="guest") as refused:
            await browsers.make_code(nobody)
        assert "\n" not in str(refused.value)
    assert await worker.db(lambda history: history.records.link_codes()) == []


async def test_a_code_is_compared_with_every_kept_code_in_constant_time(
        worker: Worker, monkeypatch: pytest.MonkeyPatch) -> None:
    browsers = Browsers(worker)
    codes = [await browsers.make_code(f"password:p{n}") for n in range(5)]
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def counted(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    token, _ = await browsers.new()
    monkeypatch.setattr(hmac, "compare_digest", counted)
    assert await browsers.link(token, codes[0]) == "password:p0"
    assert sorted(a for a, _ in compared) == sorted(code.encode() for code in codes)


async def test_a_browsers_earlier_player_keeps_its_own_matches_after_linking(
        worker: Worker) -> None:
    browsers = Browsers(worker)
    token, identity = await browsers.new()
    await worker.db(lambda history: history.players.register_player(identity, "Tablet Ann"))
    await browsers.link(token, await browsers.make_code(KEY))
    assert await worker.db(lambda history: history.players.player_name(identity)) == "Tablet Ann"


async def test_an_older_database_gets_the_browsers_tables_in_place(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    open_history(path).close()
    with sqlite3.connect(path) as db:  # the file as main's schema left it
        db.execute("DROP TABLE browsers")
        db.execute("DROP TABLE link_codes")
        db.execute("INSERT INTO server_settings (key, value) VALUES ('motd', 'kept')")
    worker = Worker(path)
    await worker.open()
    try:
        browsers = Browsers(worker)
        token, identity = await browsers.new()
        assert await browsers.known(token) == identity
        assert await browsers.link(token, await browsers.make_code(KEY)) == KEY
        assert await worker.db(lambda history: history.records.setting("motd")) == "kept"
    finally:
        await worker.close()


async def test_a_browser_with_no_player_yet_is_linked_straight_to_the_key(
        worker: Worker) -> None:
    """(``/link/CODE`` opened by a browser that never saw the page: its new token)."""
    from trash_tui.web.identity import new_token

    browsers = Browsers(worker)
    token = new_token()
    assert await browsers.known(token) is None
    assert await browsers.link(token, await browsers.make_code(KEY)) == KEY
    assert await browsers.known(token) == KEY
    with pytest.raises(LinkError, match="no player yet"):
        await browsers.link("", await browsers.make_code(KEY))


async def test_a_browser_unseen_for_longer_than_its_cookie_lives_is_forgotten(
        worker: Worker, clock: Clock) -> None:
    """Its cookie (400 days) is gone from the browser: its row would never be asked again.
    Its player's matches and rating stay (only the token's hash goes)."""
    browsers = Browsers(worker, clock)
    old, old_identity = await browsers.new()
    await browsers.link(old, await browsers.make_code(KEY))
    clock.now += 200 * 86400
    kept = (await browsers.new())[0]
    await browsers.link(kept, await browsers.make_code("password:ann"))
    clock.now += 201 * 86400
    await browsers.keep((await browsers.new())[0])  # (a browser kept: a sweep, at most hourly)
    assert await browsers.known(old) == old_identity  # (no longer the key's: its own)
    assert await browsers.known(kept) == "password:ann"
    assert KEY not in await rows(worker) and len(await rows(worker)) == 2
