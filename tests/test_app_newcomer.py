"""What a newcomer tripped over (issue 16), one test per item: notices that never cover
the status line, footers that fit at 80 columns, the wild's one-line prompt, a discard
that fits nowhere, sentences about "You" in the second person, and the rest (Textual
pilot, seeded games, no clock)."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

from board_helpers import summary_up
from textual import events

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.neighbor.widgets import last_roll
from trash_tui.app.screens.hot_seat import HotSeatScreen, default_names, names_problem
from trash_tui.app.screens.remote import NameScreen
from trash_tui.app.screens.unfinished import UnfinishedScreen
from trash_tui.app.trash.board import BoardScreen, slot_ranges, wild_prompt
from trash_tui.app.trash.endings import StandingsScreen, deal_lines
from trash_tui.app.trash.replay_screen import ReplayScreen
from trash_tui.cli.replay_cmd import shown_once
from trash_tui.engine.actions import DRAW_DISCARD, WILD_BASE
from trash_tui.engine.narrate import describe_event
from trash_tui.play.controller import MatchController, make_seats
from trash_tui.play.saving import MatchSaver
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import default_history_path
from trash_tui.tournament.config import load_tournament
from trash_tui.tournament.schedule import total_games


def board_app(seed: int = 7, **options):
    return create_app(options.pop("rules", Rules()), ["human", "greedy"], seed=seed,
                      animation="off", play_now=True, **options)


async def play_to(pilot, board: BoardScreen, wanted, limit: int = 3000) -> None:
    """The human takes the first legal action until ``wanted()``."""
    for _ in range(limit):
        await pilot.pause()
        if wanted():
            return
        if summary_up(pilot.app):
            await pilot.press("enter")
        elif board.controller.legal():
            await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
    raise AssertionError("the wanted moment never came")


def status(board: BoardScreen) -> str:
    return str(board.query_one("#board-status").render())


async def test_item_1_the_hint_is_a_line_of_the_status_line_and_goes_with_the_move() -> None:
    app = board_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        board = app.screen
        await play_to(pilot, board, lambda: board.controller.waiting_for_human)
        await pilot.press("h")
        for _ in range(100):
            await pilot.pause(0.1)
            if board.last_hint:
                break
        await pilot.pause()
        shown = status(board)
        assert shown.startswith("Hint: The expert would ")
        assert "Your move, You" in shown  # what to do is still there, under the hint
        assert not app.screen.query("Toast")  # nothing over the status line
        await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        await pilot.pause()
        assert "Hint:" not in status(board)  # the hint was about the last move


async def test_item_1_continuing_and_leaving_say_it_in_the_screens_own_lines() -> None:
    app = board_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        board = app.screen
        await play_to(pilot, board, lambda: len(board.controller.actions) >= 3 and
                      board.controller.waiting_for_human)
        await pilot.press("escape")
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert "c continues your match" in str(lobby.query_one("#lobby-continue-note")
                                               .render())
        await pilot.press("c")
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert "The match goes on where it stopped." in status(board)
        assert not app.screen.query("Toast")


async def test_item_1_a_refused_choice_in_the_lobby_is_a_line_in_its_box() -> None:
    app = create_app(Rules(), ["human", "normal"], seed=5, animation="off")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.screen.query_one("#lobby-humans").value = 4
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "More humans than players" in str(app.screen.query_one("#lobby-notice")
                                                 .render())
        assert not app.screen.query("Toast")
        app.screen.query_one("#lobby-humans").value = 1  # the form changes: it goes
        await pilot.pause()
        assert str(app.screen.query_one("#lobby-notice").render()) == ""


def test_item_5_the_wilds_prompt_is_one_short_line() -> None:
    assert wild_prompt([2, 5, 7], 10) == "Wild: 1–9, 0 for slot 10 (free: 2, 5, 7)"
    assert wild_prompt([1, 2, 3, 4, 6], 6) == "Wild: 1–6 (free: 1–4, 6)"
    assert slot_ranges([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) == "1–10"
    assert slot_ranges([9, 10]) == "9, 10"


async def test_item_5_the_board_asks_for_the_wilds_slot_in_one_line() -> None:
    app = board_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        await play_to(pilot, board, lambda: any(a > WILD_BASE
                                                for a in board.controller.legal()))
        shown = status(board)
        assert "Wild: 1–9, 0 for slot 10 (free: " in shown
        assert "put the wild on slot" not in shown
        assert len(shown.splitlines()) == 1


async def test_item_4_a_discard_that_fits_nowhere_is_marked_and_d_asks_first() -> None:
    app = board_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        board = app.screen
        await play_to(pilot, board, lambda: board.useless_discard() is not None)
        card, why = board.useless_discard()
        assert f"d: take the top discard ({card} fits nowhere" in status(board)
        before = len(board.controller.actions)
        await pilot.press("d")
        await pilot.pause()
        assert len(board.controller.actions) == before  # not taken: asked first
        assert f"{card} fits nowhere ({why})" in status(board)
        assert "Press d again to take it anyway" in status(board)
        await pilot.press("d")
        await pilot.pause()
        assert board.controller.actions[before] == DRAW_DISCARD
        assert f"You took {card}: it fits nowhere" in status(board)
        assert "your turn is over" in status(board)


def store_finished_match() -> int:
    """One finished 3-slot match in the history database (the first human plays first
    legal moves); returns its id."""
    with open_history(default_history_path()) as history:
        controller = MatchController(Rules(start_size=3),
                                     make_seats(["human", "greedy"], 3), 3)
        match_id = history.matches.start_match("local", controller.rules.to_dict(),
                                               ["human", "greedy"], controller.names, 3)
        controller.listeners.append(MatchSaver(history, match_id))
        while not controller.over:
            if controller.waiting_for_human:
                controller.play(controller.legal()[0])
            else:
                controller.step_bot()
    return match_id


def footer_overflow(screen) -> list[str]:
    """The footer keys of ``screen`` that do not fit left of the palette key (or the
    screen's edge)."""
    from trash_tui.app.widgets.footer import TrashFooter

    footer = screen.query_one(TrashFooter)
    drawn = {(key.key, key.action) for key in footer.drawn_keys()}
    return [f"{key.key_display} {key.description}" for key in footer.shown_keys()
            if (key.key, key.action) not in drawn]


async def test_item_3_every_footer_fits_at_80_columns() -> None:
    store_finished_match()
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seen = {}

        async def look(name: str) -> None:
            await pilot.pause()
            await pilot.pause()
            seen[name] = footer_overflow(app.screen)

        await pilot.press("n")
        board = app.screen
        await play_to(pilot, board, lambda: len(board.controller.actions) >= 3 and
                      board.controller.waiting_for_human)
        await look("board")
        await pilot.press("escape")
        await look("lobby with Continue offered")
        assert app.screen.has_unfinished
        for key, name in (("h", "history"), ("enter", "replay")):
            await pilot.press(key)
            await look(name)
        await pilot.press("escape", "escape", "t")
        await look("tournaments")
        await pilot.press("escape", "s")
        await look("settings")
        await pilot.press("escape", "r")
        await look("rules help")
    assert seen == {name: [] for name in seen}, seen
    assert len(seen) == 7


# --- item 9: grammar and names -------------------------------------------------------
def test_item_9_sentences_about_you_are_in_the_second_person() -> None:
    names = ["You", "Normal (2)"]
    said = [describe_event(event, names) for event in (
        ("cut", [(0, 5), (1, 8)], 0), ("deal", 1, 0, (10, 10)), ("place", 0, 3, 3, 20),
        ("penalty", 0, 5), ("win", 0), ("extra", "last-turn", (0,)),
        ("reveal", 0, (3,), True), ("match", 0, (1, 2)))]
    assert said == [
        "Cut: You 5♠, Normal (2) 8♠ — you deal",
        "Deal 1: you play first; layouts You 10, Normal (2) 10",
        "You put 3♠ on slot 3 and turn up 4♥",
        "You pay for the forgotten call: draw and discard 5♠",
        "You complete the layout and win the deal",
        "Extra turns: you get one last turn",
        "You turn up 3♠ — all in place: you shrink too",
        "You win the match. Places: You 1, Normal (2) 2"]


def test_item_9_verbs_agree_with_every_other_subject() -> None:
    names = ["Ann 2", "Normal (2)", "Bob"]
    assert describe_event(("place", 0, 3, 3, 20), names) == \
        "Ann 2 puts 3♠ on slot 3 and turns up 4♥"  # "… 2" is a name, not "You"
    assert describe_event(("extra", "last-turn", (1,)), names) == \
        "Extra turns: Normal (2) gets one last turn"
    assert describe_event(("extra", "last-turn", (1, 2)), names) == \
        "Extra turns: Normal (2) and Bob get one last turn"
    assert describe_event(("extra", "free-draws", (1,)), names) == \
        "Extra turns: Normal (2) gets 1 free draw"
    assert describe_event(("deal", 2, 2, (9, 9, 10)), names) == \
        "Deal 2: Bob plays first; layouts Ann 2 9, Normal (2) 9, Bob 10"


def test_item_9_the_end_of_a_deal_speaks_to_you() -> None:
    controller = MatchController(Rules(start_size=2), make_seats(["human", "greedy"], 3), 3)
    while not controller.match.history:
        if controller.waiting_for_human:
            controller.play(controller.legal()[0])
        else:
            controller.step_bot()
    lines = deal_lines(controller.match, controller.match.history[-1], controller.names)
    text = "\n".join(lines)
    assert "You completes" not in text and "You wins" not in text
    assert "You plays" not in text and "You shrinks" not in text and "You stays" not in text
    assert ("You completed first and win the deal." in lines or
            "Greedy (2) completed first and wins the deal." in lines)
    assert any(line.startswith(("  ✓ You shrink", "  · You stay", "  ★ You ")) for line in lines)


def test_item_9_the_dice_game_says_who_rolls_first_in_the_right_person() -> None:
    assert last_roll([], ["You", "Ann", "Bob"], 0)[1] == "You roll first"
    assert last_roll([], ["You", "Ann", "Bob"], 1)[1] == "Ann rolls first"


def test_item_9_the_cli_replay_shows_every_name_once() -> None:
    assert shown_once(["You", "Normal (2)"]) == ["You", "Normal (2)"]
    assert shown_once(["greedy", "greedy", "hard"]) == ["greedy (1)", "greedy (2)", "hard"]


def test_item_9_hot_seat_names_are_checked() -> None:
    assert names_problem(["Ann", "Bob"]) is None
    assert "same name" in (names_problem(["Ann", "ann "]) or "")
    assert "Player 2" in (names_problem(["Ann", ""]) or "")
    assert default_names(3, "You") == ["Player 1", "Player 2", "Player 3"]
    assert default_names(2, "Robin") == ["Robin", "Player 2"]


async def test_item_9_hot_seat_asks_the_players_names_for_the_dice_game_too() -> None:
    app = create_app(Rules(), ["human", "normal"], seed=5, animation="off")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#lobby-game").value = "help-your-neighbor"
        await pilot.pause()
        lobby.query_one("#lobby-players").value = 3
        lobby.query_one("#lobby-humans").value = 2
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, HotSeatScreen)
        app.screen.query_one("#hot-seat-1").value = "Ann"
        app.screen.query_one("#hot-seat-2").value = "Ann"
        await pilot.click("#hot-seat-start")
        await pilot.pause()
        assert isinstance(app.screen, HotSeatScreen)  # two players, one name: refused
        assert "same name" in str(app.screen.query_one("#hot-seat-problem").render())
        app.screen.query_one("#hot-seat-2").value = "Bob"
        app.screen.query_one("#hot-seat-2").focus()
        await pilot.press("enter")  # Enter on the last name starts
        await pilot.pause()
        assert app.screen.controller.names[:2] == ["Ann", "Bob"]


# --- item 10: cut or stale text ------------------------------------------------------
def screen_words(app) -> str:
    """The screen's text with box borders dropped and runs of spaces made one, so a
    sentence wrapped over two lines reads as one."""
    svg = app.export_screenshot()
    texts = re.findall(r"<text [^>]*>(.*?)</text>", svg)
    text = html.unescape(" ".join(texts)).replace("\xa0", " ")
    return " ".join(re.sub(r"[│┃║▊▎▌▐█▔▁╭╮╰╯─━]", " ", text).split())


async def test_item_10_the_end_of_match_box_shows_every_sentence_whole() -> None:
    app = board_app(rules=Rules(start_size=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        await play_to(pilot, board, lambda: isinstance(app.screen, StandingsScreen))
        await pilot.pause()
        shown = screen_words(app)
        for line in app.screen.lines:
            assert " ".join(line.split()) in shown, line
        assert "the match" in shown


async def test_item_10_the_log_keeps_up_with_the_board_during_your_chain() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="fast", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        log = board.query_one("#board-log")
        frames: list[tuple[bool, str, str]] = []
        show = board.show

        def watched(observation, upto: int) -> None:
            show(observation, upto)
            if board.animating and board.controller.seats[observation.to_move].is_human:
                said = [line for line in (describe_event(e, board.controller.names)
                                          for e in board.controller.match.events[:upto]) if line]
                at_end = getattr(log, "at_end", None)  # the board's own log, or a RichLog
                if at_end is None:
                    at_end = log.scroll_y == log.max_scroll_y
                frames.append((at_end, said[-1], log.lines[-1].text))

        board.show = watched
        for _ in range(600):
            await pilot.pause(0.02)
            if len(frames) >= 12 or summary_up(app):
                break
            if board.controller.waiting_for_human and not board.animating:
                await pilot.press(BoardScreen.key_for(board.controller.legal()[0]))
        assert len(frames) >= 6  # some of your chains were shown step by step
        for at_end, last_said, last_line in frames:
            assert at_end  # the newest line is in view with the frame it describes
            assert last_said.endswith(last_line.rstrip())  # (the log wraps long lines)


# --- item 7: n with an unfinished match ----------------------------------------------
async def leave_an_unfinished_match(app, pilot) -> int:
    await pilot.press("n")
    board = app.screen
    await play_to(pilot, board, lambda: len(board.controller.actions) >= 3 and
                  board.controller.waiting_for_human)
    await pilot.press("escape")
    await pilot.pause()
    return board.controller.match_id


async def test_item_7_n_asks_what_becomes_of_the_unfinished_match() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = await leave_an_unfinished_match(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, UnfinishedScreen)  # asked, not started
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("n", "c")  # continue it instead
        await pilot.pause()
        assert app.screen.controller.match_id == first
        await pilot.press("escape", "n", "k")  # keep it, and a new match starts
        await pilot.pause()
        second = app.screen.controller.match_id
        assert second != first
        await play_to(pilot, app.screen, lambda: app.screen.controller.waiting_for_human)
        await pilot.press("escape", "n", "a")  # abandon the latest, and a third starts
        await pilot.pause()
        third = app.screen.controller.match_id
        assert third not in (first, second)
        statuses = {row.id: row.outcome for row in app.history.matches.of_player("local")}
        assert statuses == {first: "unfinished", second: "abandoned", third: "unfinished"}


async def test_item_7_the_history_says_which_are_unfinished_or_abandoned() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        match_id = await leave_an_unfinished_match(app, pilot)
        app.history.matches.abandon_match(match_id)
        await leave_an_unfinished_match(app, pilot)
        await pilot.press("h")
        await pilot.pause()
        table = app.screen.query_one("#history-table")
        results = [str(table.get_row_at(i)[3]) for i in range(table.row_count)]
        assert results == ["▶ unfinished", "abandoned"]
        await pilot.press("down")
        await pilot.pause()
        assert "abandoned; Enter: step through what was played" in str(
            app.screen.query_one("#history-detail").render())
        await pilot.press("enter")  # an abandoned match is stepped through, not continued
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.cursor.length == len(app.history.matches.match_actions(match_id))


# --- item 8: the history's order and its date ----------------------------------------
async def test_item_8_the_history_shows_the_date_it_is_sorted_by() -> None:
    with open_history(default_history_path()) as history:
        older = history.matches.start_match("local", {}, ["human", "greedy"], ["You", "G"], 1)
        newer = history.matches.start_match("local", {}, ["human", "greedy"], ["You", "G"], 2)
        history.db.execute("UPDATE matches SET started = ?, updated = ? WHERE id = ?",
                           (1_700_000_000, 1_790_000_000, older))  # started first, played last
        history.db.execute("UPDATE matches SET started = ?, updated = ? WHERE id = ?",
                           (1_750_000_000, 1_750_000_000, newer))
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        table = app.screen.query_one("#history-table")
        assert str(next(iter(table.columns.values())).label) == "Last played"
        dates = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert dates == sorted(dates, reverse=True)  # the order is the column's
        assert dates[0] == time.strftime("%Y-%m-%d %H:%M", time.localtime(1_790_000_000))
        assert "latest played first" in str(app.screen.query_one("#history-title").render())


# --- item 6: Enter on the SSH name prompt ---------------------------------------------
async def test_item_6_enter_on_the_name_shows_at_once_and_repeats_are_ignored(
        tmp_path: Path) -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=3, animation="off",
                     owner="SHA256:new-key", remote=True, settings_path=tmp_path / "p.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, NameScreen)
        prompt.query_one("Input").value = "Robin"
        prompt.choose()  # Enter: taken at once, before the lobby is built
        assert prompt.sitting
        assert "Sitting down…" in str(prompt.query_one("#name-problem").render())
        assert prompt.query_one("Input").disabled
        for key, char in (("enter", "\r"), ("enter", "\r"), ("n", "n")):
            # impatient repeats, typed while the lobby is being built (as keys read
            # from a busy server's terminal are)
            app.post_message(events.Key(key, char))
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)  # in the lobby, and nothing started
        assert app.settings.name == "Robin"
        assert not any(isinstance(screen, BoardScreen | HotSeatScreen | UnfinishedScreen)
                       for screen in app.screen_stack)
        await pilot.press("h")  # keys typed once the lobby is up are taken
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HistoryScreen"


async def test_item_6_a_key_typed_as_soon_as_the_lobby_shows_is_taken(tmp_path: Path) -> None:
    """A quick player who sees the lobby and types at once is not ignored: the lobby is
    built under the name prompt (at the first key typed in it), and the first key after
    the prompt is gone is its own."""
    app = create_app(Rules(), ["human", "greedy"], seed=3, animation="off",
                     owner="SHA256:new-key", remote=True, settings_path=tmp_path / "p.toml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, NameScreen)
        await pilot.press("ctrl+u")
        await pilot.pause()
        assert app.screen is prompt
        assert isinstance(app.screen_stack[-2], LobbyScreen)  # built under the prompt
        prompt.query_one("Input").value = "Robin"
        prompt.choose()
        while app.screen is prompt:
            await pilot.pause()
        app.post_message(events.Key("h", "h"))  # typed the moment the lobby is there
        await pilot.pause()
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HistoryScreen"


# --- item 2: tournaments at 80×24 -----------------------------------------------------
REPO = Path(__file__).resolve().parent.parent


def test_item_2_a_quick_tournament_is_shipped() -> None:
    config = load_tournament(REPO / "tournaments" / "quick.toml")
    assert total_games(config) <= 200  # seconds, where the next smallest plays 1,000+


async def test_item_2_every_panel_of_the_tournaments_screen_is_on_screen_at_80x24(
        tmp_path: Path) -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off",
                     tournaments_dir=REPO / "tournaments")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        files = screen.query_one("#tournaments-files")
        assert screen.selected_file().path.name == "quick.toml"  # the one to try first
        await pilot.press("r")
        for _ in range(200):
            await pilot.pause(0.1)
            if screen.running is None:
                break
        assert screen.running is None  # finished in seconds
        await pilot.pause()
        # issue 27: one view at a time at 80 columns: the results first after a run (v
        # switches), each panel of the view in sight above the footer
        results = screen.query_one("#tournaments-results")
        assert results.region.height >= 12 and "Quick try" in results.lines[0]
        for view in (("#tournaments-runs", "#tournaments-results"),
                     ("#tournaments-files", "#tournaments-detail", "#tournaments-run",
                      "#tournaments-progress", "#tournaments-status")):
            for panel in view:
                region = screen.query_one(panel).region
                assert region.height > 0 and region.bottom <= 23, panel  # above the footer
                assert region.right <= 80, panel
            await pilot.press("v")
            await pilot.pause()
        assert [str(column.label) for column in files.columns.values()] == \
            ["file", "games", "name"]  # what fits at 80 columns, the rest underneath
        assert "random, easy, greedy, normal" in str(
            screen.query_one("#tournaments-detail").render())
