"""Tournament results: per-bot statistics, ratings, the crosstable, seats, as data and text.

Everything is computed from the finished games in schedule order, so the same games give
the same results. The unit of sampling is the board (one deck in each seat rotation when
``duplicate`` is on; one game otherwise): intervals and ratings' bootstraps use boards.
Help Your Neighbor results carry ``"game"`` (Trash results leave it out, as before) and
report rolls per game instead of deals and turns.

The text shows names from the tournament file (and a failing bot's words) with control
characters removed or escaped (``trash_tui.text``); the data keep them as they are.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trash_tui.stats import wilson_interval
from trash_tui.text import clean, visible
from trash_tui.tournament.config import NEIGHBOR, TRASH, TournamentConfig
from trash_tui.tournament.ratings import (
    board_stats,
    bootstrap_intervals,
    bradley_terry,
    holm,
    match_stats,
    plackett_luce,
)

BOOTSTRAP_ROUNDS = 200


def _finite(x: float | None) -> float | None:
    """JSON has no infinity: unbounded values become None."""
    return None if x is None or not math.isfinite(x) else x


def _board_key(game: dict[str, Any]) -> tuple[int, int]:
    return (game["pairing"], game["board"])


def _win_credit(places: Sequence[int], seat: int) -> float:
    """1 for a sole winner, 1/m for m players sharing first place, 0 otherwise."""
    if places[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for p in places if p == 1)


def _ratings(config: TournamentConfig, games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(config.bots)
    boards: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for game in games:
        boards[_board_key(game)].append(game)
    groups = list(boards.values())
    if not groups:
        return {"model": None, "elo": [0.0] * n, "intervals": [(0.0, 0.0)] * n}
    if config.players == 2:
        model = "Bradley-Terry (Elo from pairwise results)"

        def fit(sample: Sequence[list[dict[str, Any]]]) -> list[float]:
            wins: dict[tuple[int, int], float] = defaultdict(float)
            for board in sample:
                for g in board:
                    a, b = g["seats"]
                    pa, pb = g["places"]
                    if pa < pb:
                        wins[(a, b)] += 1
                    elif pb < pa:
                        wins[(b, a)] += 1
                    else:
                        wins[(a, b)] += 0.5
                        wins[(b, a)] += 0.5
            return bradley_terry(wins, n)
    else:
        model = "Plackett-Luce (finishing orders)"

        def fit(sample: Sequence[list[dict[str, Any]]]) -> list[float]:
            orders = []
            for board in sample:
                for g in board:
                    order = sorted(range(len(g["seats"])), key=lambda s: (g["places"][s], s))
                    orders.append([g["seats"][s] for s in order])
            return plackett_luce(orders, n)
    elo = fit(groups)
    intervals = bootstrap_intervals(groups, fit, BOOTSTRAP_ROUNDS, config.seed)
    return {"model": model, "elo": elo, "intervals": intervals}


def _crosstable(config: TournamentConfig, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    names = config.bot_names
    per_board: dict[tuple[int, int], dict[tuple[int, int], list[float]]] = defaultdict(
        lambda: defaultdict(list))
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for game in games:
        seats, places = game["seats"], game["places"]
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if a >= b:
                    continue
                result = 1.0 if places[i] < places[j] else 0.0 if places[i] > places[j] else 0.5
                per_board[(a, b)][_board_key(game)].append(result)
                w_l_d = counts[(a, b)]
                w_l_d[0 if result == 1 else 1 if result == 0 else 2] += 1
    rows = []
    for (a, b), boards in sorted(per_board.items()):
        wins, losses, draws = counts[(a, b)]
        row: dict[str, Any] = {"bot": names[a], "opponent": names[b], "wins": wins,
                               "losses": losses, "draws": draws, "games": wins + losses + draws}
        if config.duplicate:
            scores = [sum(r) / len(r) for r in boards.values()]
            stats = board_stats(scores)
            row.update(boards=stats.boards, score=stats.mean, elo=_finite(stats.elo),
                       elo_margin=_finite(stats.elo_margin), los=stats.los,
                       p_value=stats.p_value, significant=stats.significant)
        else:
            pair = match_stats(wins, losses, draws)
            row.update(boards=len(boards), score=pair.score, elo=_finite(pair.elo),
                       elo_margin=_finite(pair.elo_margin), los=pair.los,
                       p_value=pair.p_value, significant=pair.significant)
        rows.append(row)
    tested = [r for r in rows if r["p_value"] is not None]
    for row, reject in zip(tested, holm([r["p_value"] for r in tested]), strict=True):
        row["significant_holm"] = reject
    for row in rows:
        row.setdefault("significant_holm", False)
    return rows


def compute_results(config: TournamentConfig, games: list[dict[str, Any]],
                    status: str = "finished", planned: int | None = None,
                    sprt: dict[str, Any] | None = None) -> dict[str, Any]:
    """All statistics of a run as one JSON-ready dict."""
    n, k = len(config.bots), config.players
    played = [0] * n
    wins = [0.0] * n
    place_sum = [0] * n
    forfeits: list[dict[str, Any]] = []
    forfeit_count = [0] * n
    seat_wins = [0.0] * k
    deals = turns = 0
    for game in games:
        places = game["places"]
        for seat, bot in enumerate(game["seats"]):
            played[bot] += 1
            credit = _win_credit(places, seat)
            wins[bot] += credit
            seat_wins[seat] += credit
            place_sum[bot] += places[seat]
        deals += game["deals"]
        turns += game["turns"]
        if game.get("forfeit"):
            forfeit = dict(game["forfeit"], index=game["index"])
            forfeits.append(forfeit)
            forfeit_count[game["seats"][forfeit["seat"]]] += 1
    ratings = _ratings(config, games)
    fair = 1.0 / k
    bots = []
    for b, entry in enumerate(config.bots):
        low, high = wilson_interval(round(wins[b]), played[b]) if played[b] else (0.0, 1.0)
        rate = wins[b] / played[b] if played[b] else 0.0
        elo_low, elo_high = ratings["intervals"][b]
        bots.append({
            "bot": entry.name, "games": played[b], "wins": wins[b], "win_rate": rate,
            "win_low": low, "win_high": high, "excess": rate - fair,
            "excess_low": low - fair, "excess_high": high - fair,
            "mean_place": place_sum[b] / played[b] if played[b] else None,
            "rating": ratings["elo"][b], "rating_low": elo_low, "rating_high": elo_high,
            "forfeits": forfeit_count[b],
        })
    total = len(games)
    seats = []
    for seat in range(k):
        low, high = wilson_interval(round(seat_wins[seat]), total) if total else (0.0, 1.0)
        seats.append({"seat": seat, "wins": seat_wins[seat],
                      "win_rate": seat_wins[seat] / total if total else 0.0,
                      "win_low": low, "win_high": high})
    results = {
        "tournament": config.name, "config": str(config.path), "seed": config.seed,
        "players": k, "format": config.format, "unit": config.unit,
        "duplicate": config.duplicate, "status": status, "games": total,
        "planned": planned if planned is not None else total, "fair_share": fair,
        "rating_model": ratings["model"], "bots": bots,
        "crosstable": _crosstable(config, games), "seats": seats,
        "mean_deals_per_match": deals / total if total and config.unit == "matches" else None,
        "mean_turns_per_deal": turns / deals if deals else None,
        "forfeits": forfeits, "sprt": sprt,
    }
    if config.game != TRASH:
        results["game"] = config.game
    return results


def write_results(results: dict[str, Any], out_dir: Path) -> None:
    """``results.json`` (everything) and ``results.csv`` (the per-bot table)."""
    (out_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n",
                                          encoding="utf-8")
    buffer = io.StringIO()
    columns = ["bot", "games", "wins", "win_rate", "win_low", "win_high", "excess",
               "mean_place", "rating", "rating_low", "rating_high", "forfeits"]
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in sorted(results["bots"], key=lambda r: -r["rating"]):
        writer.writerow(row)
    (out_dir / "results.csv").write_text(buffer.getvalue(), encoding="utf-8")


# --- text --------------------------------------------------------------------------------
def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def _signed(x: float | None, digits: int = 0) -> str:
    return "  -" if x is None else f"{x:+.{digits}f}"


def _elo_text(elo: float | None, margin: float | None) -> str:
    """A pairing's Elo difference and its 95% margin as a reader takes them: "n/a" when
    one bot won or lost every game (the difference is unbounded), "±∞" for a margin
    without bound."""
    if elo is None:
        return "Elo   n/a     "
    return f"Elo {_signed(elo)} ±{'∞' if margin is None else f'{margin:.0f}'}"


def shown_names(results: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``results`` whose names and forfeit messages are safe to print: names
    cleaned of control characters, a forfeit's words (a bot's) with them escaped."""
    shown = dict(results, tournament=clean(results["tournament"]))
    shown["bots"] = [dict(r, bot=clean(r["bot"])) for r in results["bots"]]
    shown["crosstable"] = [dict(r, bot=clean(r["bot"]), opponent=clean(r["opponent"]))
                           for r in results["crosstable"]]
    shown["forfeits"] = [dict(f, bot=clean(f["bot"]), kind=visible(f["kind"]),
                              detail=visible(f["detail"], 300))
                         for f in results["forfeits"]]
    return shown


def format_results(results: dict[str, Any], width: int = 80) -> str:
    """The standings, the crosstable, seats and a rating chart as plain text."""
    results = shown_names(results)
    lines = []
    status = {"finished": "finished", "stopped": "stopped early (run again to continue)",
              "sprt": "stopped by the SPRT"}.get(results["status"], results["status"])
    neighbor = results.get("game") == NEIGHBOR
    lines.append(f"{results['tournament']}: {results['games']} of {results['planned']} games, "
                 f"{'Help Your Neighbor, ' if neighbor else ''}"
                 f"{results['players']}-player tables, {results['format']}"
                 f"{', duplicate' if results['duplicate'] else ''} — {status}")
    fair = results["fair_share"]
    lines.append(f"Ratings: {results['rating_model']}; win rates with 95% Wilson intervals; "
                 f"fair share {100 * fair:.1f}%")
    lines.append("")
    name_width = max([len(r["bot"]) for r in results["bots"]] + [3])
    lines.append(f"{'#':>2} {'bot':<{name_width}} {'games':>6} {'wins':>7} {'win rate':>8} "
                 f"{'95% interval':>15} {'excess':>7} {'place':>5} {'rating':>13}"
                 f"{'  forfeits' if any(r['forfeits'] for r in results['bots']) else ''}")
    ranked = sorted(results["bots"], key=lambda r: -r["rating"])
    for i, r in enumerate(ranked, start=1):
        half = (r["rating_high"] - r["rating_low"]) / 2
        place = f"{r['mean_place']:5.2f}" if r["mean_place"] is not None else "    -"
        line = (f"{i:>2} {r['bot']:<{name_width}} {r['games']:>6} {r['wins']:>7g} "
                f"{_pct(r['win_rate']):>8} [{_pct(r['win_low'])},{_pct(r['win_high'])}] "
                f"{100 * r['excess']:+6.1f}% {place} {r['rating']:+7.0f} ±{half:<4.0f}")
        if any(x["forfeits"] for x in results["bots"]):
            line += f"  {r['forfeits']:>8}"
        lines.append(line)
    lines.append("")
    lines.append(format_chart(ranked, width))
    if results["crosstable"]:
        lines.append("")
        unit = "boards" if results["duplicate"] else "games"
        lines.append(f"Crosstable (score of the first against the second, per {unit}; "
                     "Elo ± 95%, LOS; * significant, ** after Holm's correction):")
        pair_width = max(len(f"{r['bot']} vs {r['opponent']}") for r in results["crosstable"])
        for r in results["crosstable"]:
            mark = "**" if r["significant_holm"] else "*" if r["significant"] else ""
            lines.append(
                f"  {r['bot'] + ' vs ' + r['opponent']:<{pair_width}}  "
                f"{r['wins']:>5}-{r['losses']}-{r['draws']}  score {_pct(r['score'])}  "
                f"{_elo_text(r['elo'], r['elo_margin'])}  LOS {r['los'] or 0:5.1f}%  {mark}")
    lines.append("")
    seats = ", ".join(f"seat {s['seat']} {_pct(s['win_rate']).strip()} "
                      f"[{_pct(s['win_low']).strip()}, {_pct(s['win_high']).strip()}]"
                      for s in results["seats"])
    lines.append(f"Wins by seat (first-player advantage): {seats}")
    per_match = results["mean_deals_per_match"]
    per_deal = results["mean_turns_per_deal"]
    if neighbor:  # one deal per game; its turns are the rolls
        lines.append("Mean rolls per game: " + (f"{per_deal:.2f}" if per_deal else "-"))
    else:
        lines.append("Mean deals per match: " + (f"{per_match:.2f}" if per_match else "-") +
                     "; mean turns per deal: " + (f"{per_deal:.2f}" if per_deal else "-"))
    if results["sprt"]:
        s = results["sprt"]
        decision = {"H1": "H1 accepted (the first bot is stronger by at least elo1)",
                    "H0": "H0 accepted (not stronger than elo0)"}.get(s["decision"] or "",
                                                                         "no decision yet")
        lines.append(f"SPRT: LLR {s['llr']:.3f} after {s['boards']} boards — {decision}")
    for forfeit in results["forfeits"][:10]:
        lines.append(f"Forfeit in game {forfeit['index']}: {forfeit['bot']} "
                     f"({forfeit['kind']}) {forfeit['detail']}")
    if len(results["forfeits"]) > 10:
        lines.append(f"... and {len(results['forfeits']) - 10} more forfeits (results.json)")
    return "\n".join(lines)


def format_chart(ranked: list[dict[str, Any]], width: int = 80) -> str:
    """Ratings with their 95% intervals as a text chart: ``[---*---]`` on a shared axis."""
    if not ranked:
        return ""
    low = min(r["rating_low"] for r in ranked)
    high = max(r["rating_high"] for r in ranked)
    if high - low < 1:
        low, high = low - 1, high + 1
    name_width = max(len(r["bot"]) for r in ranked)
    span = max(20, width - name_width - 18)

    def column(x: float) -> int:
        return round((x - low) / (high - low) * (span - 1))

    lines = [f"{'':<{name_width}}  {low:+.0f} Elo{'':<{max(0, span - 16)}}{high:+.0f} Elo"]
    for r in ranked:
        row = [" "] * span
        a, b, c = column(r["rating_low"]), column(r["rating"]), column(r["rating_high"])
        for x in range(a, c + 1):
            row[x] = "-"
        row[a], row[c], row[b] = "[", "]", "*"
        lines.append(f"{r['bot']:<{name_width}}  {''.join(row)}  {r['rating']:+.0f}")
    zero = column(0.0) if low <= 0 <= high else None
    if zero is not None:
        axis = [" "] * span
        axis[zero] = "|"
        lines.append(f"{'':<{name_width}}  {''.join(axis)}  (| = average)")
    return "\n".join(lines)
