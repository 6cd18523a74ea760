"""Round robins with Elo-style ratings and the Sungka paper's Table II (the commands
``tournament`` and ``paper-table`` are ``mancala_marl.cli.tournament``).

Ratings: the Bradley-Terry maximum-likelihood fit on every game (a draw counts half a win each
way), on the Elo scale (a 400-point gap = 10:1 odds), with one virtual draw per pair so that a
policy that wins every game still gets a finite rating; shifted so that the mean is 1500.
"""

from __future__ import annotations

import itertools

import numpy as np

from mancala_marl.agents import check_policies
from mancala_marl.errors import BadInput
from mancala_marl.games import parse_game
from mancala_marl.progress import console, titled_table

from .arena import arena, game_label, opening_label

PAPER_OPPONENTS = (("Random", "random"), ("Max", "max"), ("Exact", "exact"))


def elo_ratings(names: list[str], results: list[dict], iterations: int = 2000) -> dict[str, float]:
    """Ratings from pairwise arena results (each with "a", "b" and "overall" wins/draws/losses)."""
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((k, k))  # wins[i, j]: points of i against j
    for r in results:
        i, j = index[r["a"]], index[r["b"]]
        o = r["overall"]
        wins[i, j] += o["wins"] + 0.5 * o["draws"] + 0.5  # + half of one virtual draw
        wins[j, i] += o["losses"] + 0.5 * o["draws"] + 0.5
    games = wins + wins.T
    gamma = np.ones(k)
    for _ in range(iterations):  # Hunter's MM algorithm for Bradley-Terry
        denominator = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = wins.sum(axis=1) / np.where(denominator > 0, denominator, 1)
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, gamma, rtol=1e-10):
            break
        gamma = new
    ratings = 400 * np.log10(gamma)
    ratings += 1500 - ratings.mean()
    return {name: float(r) for name, r in zip(names, ratings)}


def round_robin(game, names: list[str], n: int, seed: int = 0, workers: int = 1, opening: int = 0,
                progress=None) -> dict:
    """Every pair of ``names`` plays :func:`arena` (``n`` games per seat); returns results and ratings."""
    if len(set(names)) < 2:
        raise BadInput(f"a tournament needs at least two different policies, got {names!r}")
    # Results and ratings are keyed by the spec, so a repeat cannot be a player of its own.
    repeated = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    if len(repeated) == 1:
        raise BadInput(f"policy {repeated[0]!r} is given {times(names.count(repeated[0]))}: each policy takes "
                         f"part in a tournament once")
    if repeated:
        raise BadInput(f"policies {', '.join(map(repr, repeated))} are each given more than once: each policy "
                         f"takes part in a tournament once")
    game = parse_game(game)
    check_policies(game, names)
    results = []
    for a, b in itertools.combinations(names, 2):
        results.append(arena(game, a, b, n, seed, workers, opening))
        if progress:
            progress(results[-1])
    return {"game": game.spec_name, "title": game.known_as, "params": game.params, "policies": names, "games_per_seat": n, "seed": seed,
            "opening": opening, "pairs": results, "ratings": elo_ratings(names, results)}


def times(count: int) -> str:
    return "twice" if count == 2 else f"{count} times"


def score_matrix(result: dict) -> dict:
    """{a: {b: a's points per game against b}} (win 1, draw 0.5), both seats together."""
    table = {a: {} for a in result["policies"]}
    for r in result["pairs"]:
        o = r["overall"]
        table[r["a"]][r["b"]] = (o["wins"] + 0.5 * o["draws"]) / o["games"]
        table[r["b"]][r["a"]] = (o["losses"] + 0.5 * o["draws"]) / o["games"]
    return table


def tournament_markdown(result: dict) -> str:
    names = sorted(result["policies"], key=lambda p: -result["ratings"][p])
    matrix = score_matrix(result)
    lines = ["| policy | rating | " + " | ".join(names) + " |", "|---|---:|" + "---:|" * len(names)]
    for a in names:
        cells = ["-" if a == b else f"{matrix[a][b]:.2f}" if b in matrix[a] else "" for b in names]  # "": not played
        lines.append(f"| {a} | {result['ratings'][a]:.0f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paper_table(game, policy: str, n: int = 1000, seed: int = 0, workers: int = 1, opening: int = 0) -> dict:
    """The Sungka paper's Table II for ``policy``: rows Random, Max, Exact, Self; per seat the
    average reward (the policy's own final store, in seeds, as in the paper where the two
    rewards of a game add up to the 98 stones) and the win percentage. Self = against a copy."""
    game = parse_game(game)
    check_policies(game, [policy])
    rows = []
    for label, opponent in PAPER_OPPONENTS + (("Self", policy),):
        r = arena(game, policy, opponent, n, seed, workers, opening)
        rows.append({"row": f"vs. {label}" + (" Policy" if label != "Self" else ""), "opponent": opponent,
                     "ended_in_opening": r["ended_in_opening"],
                     **{seat: {"average_reward": r["seats"][seat]["mean_score"],
                               "win_percentage": 100 * r["seats"][seat]["win_rate"]} for seat in ("first", "second")}})
    return {"game": game.spec_name, "title": game.known_as, "params": game.params, "policy": policy, "games_per_seat": n, "seed": seed,
            "opening": opening, "total_games": 2 * n * len(rows),
            "ended_in_opening": sum(row["ended_in_opening"] for row in rows), "rows": rows}


def print_paper_table(result: dict, file=None) -> None:

    shown = console(file)
    for seat, caption in (("first", "(a) As First Turn"), ("second", "(b) As Second Turn")):
        table = titled_table(f"{result['policy']} on {game_label(result)}, {result['games_per_seat']} games"
                             f"{opening_label(result)}",
                      caption=caption)
        table.add_column("Policy")
        table.add_column("Average Reward", justify="right")
        table.add_column("Win Percentage", justify="right")
        for row in result["rows"]:
            table.add_row(row["row"], f"{row[seat]['average_reward']:.3f}", f"{row[seat]['win_percentage']:.1f}%")
        shown.print(table)


def print_tournament(result: dict, file=None) -> None:

    names = sorted(result["policies"], key=lambda p: -result["ratings"][p])
    matrix = score_matrix(result)
    table = titled_table(f"{game_label(result)}: {result['games_per_seat']} games per seat and pair"
                         f"{opening_label(result)}",
                  caption="row's points per game against the column (win 1, draw 0.5), both seats; "
                          "Elo-style rating, mean 1500")
    table.add_column("policy")
    table.add_column("rating", justify="right")
    for i, _ in enumerate(names):
        table.add_column(str(i + 1), justify="right")
    for i, a in enumerate(names):
        table.add_row(f"{i + 1}. {a}", f"{result['ratings'][a]:.0f}",
                      *["-" if a == b else f"{matrix[a][b]:.2f}" for b in names])
    console(file).print(table)
