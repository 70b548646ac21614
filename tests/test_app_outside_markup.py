"""Text from outside the program (the operator's message of the day and notices, other
players' names, chat lines, table names, a close reason) is never read as Rich/Textual
markup: ``[/]`` or ``[/x]`` would end the session with a MarkupError, ``[b]`` would bold
what follows, ``[@click=app.quit]`` would be a button. The sweep feeds such text to every
shared screen that shows it (the lobby, the Tables screen, the waiting room, the board
with its notice box, its log and its people list) and checks it shows as typed; a guard
checks that every widget of ``trash_tui/app`` that shows text is made with markup off.
(History, replays and standings: test_app_hostile_names.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from table_helpers import ann_hosts, name_player, running_service
from test_app_shared_screens import (  # noqa: F401  (_fixed: the fixture)
    _fixed,
    player_app,
    to_tables,
    until,
)
from textual.widgets import DataTable, OptionList, RichLog

from trash_tui.app.screens.lobby import LobbyScreen
from trash_tui.app.shared.board import SharedBoardScreen
from trash_tui.app.shared.people import PeopleScreen
from trash_tui.app.shared.waiting_room import TableWaitingScreen
from trash_tui.app.widgets.game_log import GameLog

MOTD = "Cup final [/] 8pm [/x] [link=x]"
SAY = "Restart [b]now[/b] [@click=app.quit]q"
NAME = "[b]Ann[/]"
TABLE = "[/x]Hi[b]"
CHAT = "gg [/] [link=https://x]y"


def lines_of(widget) -> str:
    """What ``widget`` draws, row by row."""
    return "\n".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))


async def test_outside_text_with_markup_shows_as_typed_on_every_shared_screen(
        tmp_path: Path) -> None:
    name_player(tmp_path, "key:ann", NAME)
    async with running_service(tmp_path) as service:
        service.set_motd(MOTD)
        app = player_app(service, "key:bob")
        async with app.run_test(size=(120, 36)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            line = app.screen.query_one("#lobby-motd")
            await until(pilot, lambda: MOTD in str(line.render()))

            tables = await to_tables(pilot)
            title = tables.query_one("#tables-title")
            await until(pilot, lambda: MOTD in str(title.render()))
            ann, created = await ann_hosts(service, ["human", "human", "human"], name=TABLE)
            listing = tables.query_one(DataTable)
            await until(pilot, lambda: "Hi" in lines_of(listing))
            assert TABLE in lines_of(listing)
            assert NAME in lines_of(listing)  # the host

            await pilot.press("enter")  # joins the selected table
            await until(pilot, lambda: isinstance(app.screen, TableWaitingScreen))
            waiting = app.screen
            room = waiting.query_one(RichLog)
            await ann.send({"op": "chat", "text": CHAT})
            await until(pilot, lambda: CHAT in "\n".join(s.text for s in room.lines))
            assert NAME in "\n".join(s.text for s in room.lines)
            service.say(SAY, 30)
            await until(pilot, lambda: bool(waiting.query("#server-notice")))
            await until(pilot, lambda: SAY in str(waiting.query_one("#server-notice").render()))
            assert NAME in lines_of(waiting.query_one("#waiting-table"))

            await ann.send({"op": "start"})
            await until(pilot, lambda: isinstance(app.screen, SharedBoardScreen))
            board = app.screen
            await until(pilot, lambda: board.shared.playing and bool(board.query(GameLog)))
            await ann.send({"op": "chat", "text": CHAT})
            log = board.query_one(GameLog)
            await until(pilot, lambda: CHAT in " ".join(e.plain for e in log.entries))
            service.say(SAY, 30)
            await until(pilot, lambda: bool(board.query("#server-notice")))
            await until(pilot, lambda: SAY in str(board.query_one("#server-notice").render()))
            await pilot.pause(0.2)
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, PeopleScreen))
            people = app.screen.query_one(OptionList)
            await pilot.pause(0.2)
            assert NAME in lines_of(people)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is board)

            assert await service.close_by_code(created["code"], "[/] maintenance [b]")
            await until(pilot, lambda: app.screen is not board)
            await pilot.pause(0.3)
            assert app.is_running
            await ann.close()


# --- the guard: every widget that shows text is made with markup off ---------------------
SHOWN_BY = ("Label", "Static", "notify", "OptionList", "RichLog")  # calls taking text
APP = Path(__file__).resolve().parent.parent / "trash_tui" / "app"


def markup_on() -> list[str]:
    """Calls in trash_tui/app that make a text widget (or a toast) without markup=False,
    DataTables made other than as a PlainTable, and border titles given a string built at
    run time (Textual reads a string as markup there)."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(APP)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                markup = next((k.value for k in node.keywords if k.arg == "markup"), None)
                if name in SHOWN_BY and not (isinstance(markup, ast.Constant)
                                             and markup.value is False):
                    found.append(f"{where} {name}(...) without markup=False")
                if name == "DataTable":
                    found.append(f"{where} DataTable(...): use PlainTable")
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if (isinstance(target, ast.Attribute)
                            and target.attr in ("border_title", "border_subtitle")
                            and not isinstance(node.value, ast.Constant | ast.Call)):
                        found.append(f"{where} {target.attr} = a string built at run time")
    return found


def test_no_widget_of_the_app_reads_the_text_it_shows_as_markup() -> None:
    assert markup_on() == []


@pytest.mark.parametrize("text", ["[/]", "[/x]", "[link=x]", "[b]", "[@click=app.quit]"])
def test_a_plain_table_shows_its_cells_as_typed(text: str) -> None:
    from trash_tui.app.widgets.plain import plain
    assert plain(text).plain == text
