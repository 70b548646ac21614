"""What a newcomer still tripped over at home (issue 27), one test per item (Textual
pilot, seeded games, no clock)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from trash_tui.app.app import LobbyScreen, create_app
from trash_tui.app.screens.remote import LocalNameScreen
from trash_tui.app.trash.board import BoardScreen
from trash_tui.players.rater import open_history
from trash_tui.rules import Rules
from trash_tui.settings import Settings, load_settings


def first_start(path: Path, **options):
    """The app as ``trash`` builds it on the first start: a settings file with no name."""
    settings, problems = load_settings(path)
    return create_app(settings=settings, problems=problems, settings_path=path, seed=7,
                      animation="off", **options)


async def test_item_4_the_first_start_asks_the_name_and_uses_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[app]\ntheme = "nord"\n')
    app = first_start(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "What is your name?" in shown
        await pilot.press("Y", "o", "u", "enter")  # the placeholder is not a name
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        assert "of your own" in str(app.screen.query_one("#name-problem").render())
        await pilot.press("ctrl+u", *"Robin", "enter")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.settings.name == "Robin"
        await pilot.press("n")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert "Your move, Robin" in str(app.screen.query_one("#board-status").render())
    saved = tomllib.loads(path.read_text())
    assert saved["app"]["name"] == "Robin" and saved["app"]["theme"] == "nord"
    assert load_settings(path)[0].name_chosen
    again = first_start(path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, LobbyScreen)  # asked once


async def test_item_4_trash_play_asks_first_and_keeps_its_options_to_this_run(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"  # no file yet
    settings, _ = load_settings(path)
    app = create_app(Rules(start_size=4), ["human", "greedy"], settings=settings,
                     settings_path=path, seed=7, animation="off", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        await pilot.press(*"Ann", "enter")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert app.screen.controller.rules.start_size == 4
    saved = load_settings(path)[0]
    assert saved.name == "Ann" and saved.rules == Rules() and saved.seats == Settings().seats


async def test_item_4_esc_leaves_the_name_for_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    app = first_start(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LocalNameScreen)
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
    assert not path.exists()


LOBBY_SCREENS = {"new_match", "app.open_history", "app.open_tournaments",
                 "app.open_leaderboard", "app.open_stats", "app.open_rules",
                 "app.open_settings", "app.quit"}


def lobby_app(**options):
    return create_app(settings=Settings(animation="off", name="Robin"), seed=7, **options)


async def test_item_2_every_screen_the_lobby_leads_to_is_in_its_footer_and_buttons() -> None:
    from trash_tui.app.widgets.footer import TrashFooter

    for size in ((80, 24), (100, 30), (160, 48)):
        app = lobby_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            footer = app.screen.query_one(TrashFooter)
            drawn = {key.action for key in footer.drawn_keys()}
            assert drawn >= LOBBY_SCREENS, (size, drawn)
            shown = {(key.key, key.action) for key in footer.shown_keys()}
            assert shown <= {(key.key, key.action) for key in footer.drawn_keys()}
            assert footer.region.bottom == size[1]  # under the lobby's box
            assert app.screen.query_one("#lobby").region.bottom <= footer.region.y
            labels = {str(button.label) for button in app.screen.query("Button")}
            assert {"Leaderboard", "Statistics"} <= labels
            assert len(footer.drawn_keys()) and max(k.line for k in footer.drawn_keys()) \
                == (1 if size[0] < 120 else 0)


async def test_item_2_the_buttons_and_question_mark_open_their_screens() -> None:
    from trash_tui.app.players.leaderboard_screen import LeaderboardScreen
    from trash_tui.app.players.stats_screen import StatsScreen
    from trash_tui.app.screens.rules_help import RulesHelpScreen

    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for button, screen in (("#lobby-leaderboard", LeaderboardScreen),
                               ("#lobby-stats", StatsScreen)):
            await pilot.click(button)
            await pilot.pause()
            assert isinstance(app.screen, screen)
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesHelpScreen)


async def test_item_2_the_palette_keys_are_a_box_that_esc_closes() -> None:
    from trash_tui.app.screens.keys import KeysScreen

    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        width = lobby.query_one("#lobby").region.width
        [keys] = [c for c in app.get_system_commands(lobby) if c.title == "Keys"]
        keys.callback()
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen)
        listed = str(app.screen.query_one("#keys-list").render())
        for words in ("n  New match", "l  Leaderboard", "p  Statistics", "r ?  Rules"):
            assert words in listed, listed
        assert not lobby.query("HelpPanel")
        assert lobby.query_one("#lobby").region.width == width  # not squeezed
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lobby


async def test_item_7_the_dice_game_in_the_lobby_has_its_rules_and_its_players() -> None:
    from textual.widgets import Select

    from trash_tui.app.neighbor.dialogs import NeighborRulesScreen
    from trash_tui.app.screens.rules_help import RulesHelpScreen
    from trash_tui.games import NEIGHBOR, TRASH

    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        players = lobby.query_one("#lobby-players", Select)
        assert players.value == 2
        lobby.query_one("#lobby-game", Select).value = NEIGHBOR
        await pilot.pause()
        assert players.value == 3
        assert not lobby.query_one("#lobby-rules-row").display  # no "your house rules"
        assert "no house rules" in str(lobby.query_one("#lobby-rules-note").render())
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, NeighborRulesScreen)
        await pilot.press("escape")
        await pilot.pause()
        players.value = 5
        lobby.query_one("#lobby-game", Select).value = TRASH
        await pilot.pause()
        assert players.value == 2 and lobby.query_one("#lobby-rules-row").display
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesHelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        lobby.query_one("#lobby-game", Select).value = NEIGHBOR
        await pilot.pause()
        assert players.value == 5  # each game keeps its own


async def test_item_8_a_roomy_lobby_uses_the_room() -> None:
    small, large = lobby_app(), lobby_app()
    async with small.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not small.screen.query_one("#lobby-side").display
        narrow = small.screen.query_one("#lobby").region
    async with large.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        box = large.screen.query_one("#lobby").region
        assert large.screen.query_one("#lobby-side").display
        assert box.width >= 130 > narrow.width
        assert all(field.region.height == 3 for field in large.screen.query("Select"))
        assert "None yet" in str(large.screen.query_one("#lobby-last").render())


async def test_item_8_the_lobby_follows_the_terminal_as_it_is_resized() -> None:
    """Built for the size it starts at, restyled as the window changes: one-line fields
    at 80x24, bordered fields and the last matches when roomy, and back."""
    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        fields = list(lobby.query("Select"))
        assert len(fields) == 5 and all(field.region.height == 1 for field in fields)
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert all(field.region.height == 3 for field in fields)
        assert lobby.query_one("#lobby-side").display
        assert "None yet" in str(lobby.query_one("#lobby-last").render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert all(field.region.height == 1 for field in fields)
        assert not lobby.query_one("#lobby-side").display


async def test_item_9_the_palette_offers_no_new_match_during_a_match() -> None:
    app = create_app(Rules(), ["human", "greedy"], seed=7, animation="off", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert not titles & {"New match", "Continue"} and "Rules help" in titles
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert {"New match", "Continue"} <= titles


async def test_item_6_the_piles_are_drawn_when_the_discard_pile_is_empty() -> None:
    from trash_tui.app.widgets.table import PileView
    from trash_tui.cards import parse_card
    from trash_tui.engine.actions import DRAW_STOCK

    jack_of_diamonds = parse_card("JD")

    for size in ((80, 24), (100, 30), (160, 48)):
        app = create_app(Rules(), ["human", "greedy"], seed=1, animation="off",
                         play_now=True)  # (the human moves first: nothing discarded yet)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            board = app.screen
            assert isinstance(board, BoardScreen)
            piles = board.query_one(PileView)
            assert piles.top is None and DRAW_STOCK in board.controller.legal()
            assert piles._mode(piles.size.width) == "normal"
            # a jack (wild) held over the empty discard pile, as in the middle of a chain
            piles.hand, piles.hand_wild = jack_of_diamonds, True
            assert piles._mode(piles.size.width) == "normal", size
            drawn = piles._text(piles.size.width).plain
            assert "Discard: empty" not in drawn and "In hand: J♦" in drawn


async def test_item_5_a_cut_name_keeps_the_number_that_tells_seats_apart() -> None:
    from trash_tui.app.widgets.table import LayoutView, cut_name

    assert cut_name("Normal (2)", 8) == "Nor… (2)" and cut_name("Normal (3)", 8) == "Nor… (3)"
    assert cut_name("Normal (2)", 10) == "Normal (2)" and cut_name("Robin", 4) == "Rob…"
    for size in ((80, 24), (100, 30)):
        app = create_app(Rules(start_size=5), ["human", "normal", "normal", "normal"],
                         seed=7, animation="off", play_now=True)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            headers = {}
            for view in app.screen.query(LayoutView):
                header = view.header(view.size.width).plain
                headers[view.seat_label] = header
                if view.seat_label.startswith("Normal"):
                    assert header.split()[-1] in ("5", "slots")
                    assert view.seat_label[-3:] in header, (size, header)
            # room for every bot's whole name: the word "slots" goes first
            assert all(name in header for name, header in headers.items()), (size, headers)


async def test_item_7_a_dice_game_counts_its_rolls_alike_everywhere(tmp_path: Path) -> None:
    from trash_tui.app.neighbor.dialogs import standings_lines
    from trash_tui.app.players.stats_screen import summary_lines
    from trash_tui.app.screens.history import HistoryScreen
    from trash_tui.cli.players_cmd import stats_lines
    from trash_tui.games import NEIGHBOR
    from trash_tui.play.saving import start_saved_neighbor_game
    from trash_tui.players.stats import player_stats
    from trash_tui.settings import default_history_path

    with open_history(default_history_path()) as history:
        game = start_saved_neighbor_game(history, "local", ["human", "smart", "random"], 79,
                                         "Robin")
        while not game.over:
            if game.waiting_for_human:
                game.play(game.legal()[0])
            else:
                game.step_bot()
        rolls = game.observation().turn
        end_box = standings_lines(game.observation(), game.names)[-1]
        row = history.matches.get_match(game.match_id)
        stats = player_stats(history, "local", NEIGHBOR, "Robin")
    assert row.actions != rolls  # the decisions are more than the rolls: not what is shown
    assert end_box == f"{rolls} rolls in all"
    assert f"Rolls/game  {rolls}" in summary_lines(stats)
    assert f"rolls/game   {rolls}" in stats_lines(stats)
    app = lobby_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        history_screen = app.screen
        assert isinstance(history_screen, HistoryScreen)
        detail = str(history_screen.query_one("#history-detail").render())
        assert f"{rolls} rolls in" in detail and "moves" not in detail
        table = history_screen.query_one("DataTable")
        assert str(rolls) in [str(cell) for cell in table.get_row_at(0)]


async def test_item_9_the_replay_footer_lists_pgup_with_every_other_key() -> None:
    from test_app_newcomer import store_finished_match

    from trash_tui.app.trash.replay_screen import ReplayScreen
    from trash_tui.app.widgets.footer import TrashFooter

    store_finished_match()
    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        footer = app.screen.query_one(TrashFooter)
        drawn = {key.key_display for key in footer.drawn_keys()}
        assert {"pgup", "pgdn", "←", "→", "home", "end", "esc"} <= drawn, drawn
        assert len(footer.drawn_keys()) == len(footer.shown_keys())
        await pilot.press("end", "pageup")
        await pilot.pause()
        assert app.screen.cursor.position < app.screen.cursor.length


async def test_item_9_typing_into_a_clicked_number_field_replaces_its_value() -> None:
    from trash_tui.app.screens.settings import SettingsScreen

    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        field = app.screen.query_one("#rule-start_size")
        await pilot.click("#rule-start_size")
        await pilot.pause()
        assert app.screen.focused is field
        await pilot.press("5")
        await pilot.pause()
        assert field.value == "5"  # not "510"
        await pilot.click("#rule-start_size", offset=(1, 0))  # already in it: a cursor
        await pilot.press("0")
        await pilot.pause()
        assert field.value in ("05", "50")


def test_item_9_the_rating_chart_marks_whole_ratings() -> None:
    from trash_tui.app.players.stats_screen import whole_ticks

    for low, high in ((1500, 1500), (1592, 1603), (1497, 1600), (1170, 1768), (1, 7)):
        ticks = whole_ticks(low, high)
        assert ticks and len(ticks) <= 5 and all(isinstance(t, int) for t in ticks)
        assert all(low <= tick <= high for tick in ticks), (low, high, ticks)
    assert whole_ticks(1592, 1603) == [1595, 1600]  # (Textual's own: 1597.7)


async def test_item_9_a_match_continued_in_another_window_leaves_this_one_read_only() -> None:
    from trash_tui.app.widgets.footer import TrashFooter
    from trash_tui.settings import default_history_path

    app = create_app(Rules(), ["human", "greedy"], seed=1, animation="off", play_now=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen) and board.controller.waiting_for_human
        [saver] = [s for s in board.controller.listeners if hasattr(s, "holder")]
        with open_history(default_history_path()) as other:  # "c" in a second terminal
            other.matches.take_match(saver.match_id)
        moves = len(board.controller.actions)
        await pilot.press("s")  # asked before the move: refused, nothing played unsaved
        await pilot.pause()
        assert len(board.controller.actions) == moves
        status = str(board.query_one("#board-status").render())
        assert status.count("\n") == 0 and "now being played in another window" in status
        assert "no longer saved" not in status
        footer = board.query_one(TrashFooter)
        assert {key.action for key in footer.drawn_keys() if not key.palette} <= {
            "leave", "app.open_rules"}
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_item_2_the_lobby_keeps_its_notices_in_sight_at_80x24() -> None:
    from textual.widgets import Static

    app = lobby_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#lobby-continue-note", Static).update(
            "c continues your match: 4 players, deal 3, 141 moves so far.")
        suggestion = lobby.query_one("#lobby-suggestion", Static)
        suggestion.update("Your rating is nearest the normal bot: try Opponents: normal.")
        suggestion.display = True
        lobby.say("More humans than players: choose more players or fewer humans.", "error")
        await pilot.pause()
        box = lobby.query_one("#lobby").region
        footer_top = app.size.height - 2
        assert box.bottom <= footer_top
        notice = lobby.query_one("#lobby-notice").region
        assert notice.height >= 1 and notice.bottom <= box.bottom - 1  # inside the border
