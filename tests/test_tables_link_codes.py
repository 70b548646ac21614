"""The table protocol's ``link_code`` request (issue 39): the SSH lobby asks the table
service for a one-time code that links a browser to the player's key; the service asks
the maker it was given (the web face's ``Browsers``; none: the server has no web face)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from table_helpers import FAST, TableClient, running_service

from trash_tui.tables.service import TableService
from trash_tui.tables.worker import Worker
from trash_tui.web.identity import Browsers

KEY = "SHA256:annskeyannskeyannskey"


@contextlib.asynccontextmanager
async def service_with_web_face(folder: Path) -> AsyncIterator[tuple[TableService, Browsers]]:
    worker = Worker(folder / "history.sqlite3")
    browsers = Browsers(worker)
    service = TableService(folder / "history.sqlite3", FAST, worker=worker,
                           link_codes=browsers)
    await service.start()
    try:
        yield service, browsers
    finally:
        await service.stop()


async def test_a_player_asks_for_a_link_code_and_a_browser_becomes_them(
        tmp_path: Path) -> None:
    async with service_with_web_face(tmp_path) as (service, browsers):
        ann = await TableClient.connect(service, KEY)
        await ann.send({"op": "link_code"})
        answer = await ann.wait_for("link_code")
        assert answer["minutes"] == 10 and "error" not in answer
        token, _ = await browsers.new()
        assert await browsers.link(token, answer["code"]) == KEY
        assert await browsers.known(token) == KEY
        # a second code is another code
        await ann.send({"op": "link_code"})
        assert (await ann.wait_for("link_code"))["code"] != answer["code"]


async def test_a_guest_is_told_in_one_line_that_it_has_nothing_to_link(
        tmp_path: Path) -> None:
    async with service_with_web_face(tmp_path) as (service, _browsers):
        guest = await TableClient.connect(service, "guest:0123456789abcdef")
        await guest.send({"op": "link_code"})
        answer = await guest.wait_for("link_code")
        assert "code" not in answer and "guest" in answer["error"]
        assert "\n" not in answer["error"]


async def test_a_server_without_a_web_face_makes_no_link_code(tmp_path: Path) -> None:
    async with running_service(tmp_path) as service:
        ann = await TableClient.connect(service, KEY)
        await ann.send({"op": "link_code"})
        answer = await ann.wait_for("link_code")
        assert "code" not in answer and answer["error"] == "this server has no web face"
        await ann.send({"op": "list"})  # (the client goes on)
        await ann.wait_for("tables")


async def test_a_player_makes_at_most_five_codes_a_minute(tmp_path: Path) -> None:
    async with service_with_web_face(tmp_path) as (service, browsers):
        ann = await TableClient.connect(service, KEY)
        answers = []
        for _ in range(6):
            await ann.send({"op": "link_code"})
            answers.append(await ann.wait_for("link_code"))
        assert all("code" in answer for answer in answers[:5])
        assert "code" not in answers[5] and "wait a minute" in answers[5]["error"]
        token, _ = await browsers.new()  # the last one shown still works
        assert await browsers.link(token, answers[4]["code"]) == KEY
        bob = await TableClient.connect(service, "SHA256:bobsbobsbobsbobs")
        await bob.send({"op": "link_code"})  # (another player's own limit)
        assert "code" in await bob.wait_for("link_code")
