"""How narrow the road to a win is: at every move a policy makes from the scratch test's winnable
openings, how many of its legal moves still win against the baseline, and did it pick one?

    .venv/bin/python benchmarks/decisions.py sungka --policy pretrained
    .venv/bin/python benchmarks/decisions.py kalah --policy pretrained --opponent exact -n 100

Against ``max`` or ``exact`` (deterministic) each position is won or not whatever comes later, and
:class:`mancala_marl.agents.best_response.BestResponse` proves which, so each of the policy's
moves in a won position is scored exactly: a *decision* is a position it is to move in that some
line still wins, with ``k`` legal moves of which ``w`` win. Its game is followed up to its first
losing move (from there nothing wins, so no later move is a decision). Where the winning move is
the only one (``w == 1``) a policy must find it; the table says how often that happens per game,
and how often the policy finds it there and elsewhere. That is what a win rate of 99% asks: with
``d`` such decisions a game, a policy that finds the one winning move with probability ``p`` wins
about ``p ** d`` of the openings.

Writes ``<policy>.json`` and ``.md`` to ``--results-dir`` (default
``benchmarks/results/decisions/``): one row per game, baseline and seat, replaced when run again; each row
keeps the command that made it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from ceiling import OPPONENTS, SCRATCH_TEST_SEED, save_rows  # the test's baselines, openings, results files
from results_dir import add_results_dir, results_dir

from mancala_marl.agents import make_policy
from mancala_marl.agents.best_response import NO_WIN, WIN, BestResponse
from mancala_marl.cli.arguments import count_argument
from mancala_marl.games import GAMES, make_game
from mancala_marl.matches.arena import SEATS, opening_position


def winning_moves(game, solver: BestResponse, state, learner: int, budget: int) -> tuple[list[int], int]:
    """The learner's legal moves after which some line still wins, and how many were left unsettled."""
    winners, unsettled = [], 0
    for pit in map(int, game.legal_mask(state).nonzero()[0]):
        child = state.copy()
        game.apply(child, pit)
        if game.is_terminal(child):
            scores = game.scores(child)
            result = WIN if scores[learner] > scores[1 - learner] else NO_WIN
        else:
            result = solver.can_win(child, learner, budget)
        winners += [pit] if result == WIN else []
        unsettled += result not in (WIN, NO_WIN)
    return winners, unsettled


def decisions(game, policy, baseline, solver: BestResponse, state, learner: int, budget: int) -> list[dict]:
    """The policy's decisions (won positions it was to move in) in its game from ``state``, up to
    and including its first losing move: legal moves, winning moves, whether it chose one."""
    policy.reset(0)
    state, out = state.copy(), []
    while not game.is_terminal(state):
        if game.to_move(state) != learner:
            game.apply(state, baseline.act(game, state.copy()))
            continue
        winners, unsettled = winning_moves(game, solver, state, learner, budget)
        pit = policy.act(game, state.copy())
        out.append({"legal": int(game.legal_mask(state).sum()), "winning": len(winners), "unsettled": unsettled,
                    "found": pit in winners})
        if not winners or pit not in winners and not unsettled:
            break  # lost for good (or nothing wins here, which a winnable opening rules out)
        game.apply(state, pit)
    return out


def summary(rows: list[dict], games: int) -> dict:
    """Counts over a seat's decisions in ``games`` games: how many were forced (one winning move) and found."""
    forced = [d for d in rows if d["winning"] == 1]
    free = [d for d in rows if d["winning"] > 1]
    return {"decisions": len(rows), "forced": len(forced),
            "forced_found": sum(d["found"] for d in forced), "free": len(free),
            "free_found": sum(d["found"] for d in free), "forced_per_game": round(len(forced) / max(games, 1), 2),
            "unsettled_moves": sum(d["unsettled"] for d in rows)}


def run(game, opponent: str, policy_spec: str, n: int, opening: int, seed: int, budget: int) -> list[dict]:
    solver, baseline, policy = BestResponse(game, opponent), make_policy(opponent), make_policy(policy_spec)
    rows = []
    for learner, seat in enumerate(SEATS):
        start, seat_decisions, winnable, won = time.perf_counter(), [], 0, 0
        for index in range(n):
            state = opening_position(game, seed, index, opening)
            if solver.can_win(state, learner, budget) != WIN:
                continue
            winnable += 1
            made = decisions(game, policy, baseline, solver, state, learner, budget)
            won += all(d["found"] for d in made)
            seat_decisions += made
        row = {"game": game.name, "opponent": opponent, "seat": seat, "policy": policy_spec, "openings": n,
               "winnable": winnable, "kept_a_win": won, **summary(seat_decisions, winnable),
               "seconds": round(time.perf_counter() - start, 1)}
        rows.append(row)
        print(markdown_row(row), flush=True)
    return rows


def markdown_row(r: dict) -> str:
    rate = lambda found, total: f"{found} of {total} ({100 * found / total:.1f}%)" if total else "-"  # noqa: E731
    return (f"| {r['game']} | {r['opponent']} | {r['seat']} | {r['winnable']} | {r['kept_a_win']} | {r['decisions']} | "
            f"{r['forced']} ({r['forced_per_game']} a game) | {rate(r['forced_found'], r['forced'])} | "
            f"{rate(r['free_found'], r['free'])} | {r['unsettled_moves']} | {r['seconds']} |")


def markdown(rows: list[dict], command: str) -> str:
    lines = [f"Made with `{command}`. From each of the scratch test's openings (4 random moves, arena seed "
             f"{SCRATCH_TEST_SEED}) that can be won, `{rows[0]['policy']}` plays the baseline; a decision is a "
             "position it is to move in that some line still wins, counted up to its first losing move. Forced: "
             "exactly one legal move keeps a win. Kept a win: openings where every decision was right (a game "
             "won, unless a draw or the 1000-move stop intervened). Unsettled: moves the search's budget left "
             "undecided (counted as not winning).", "",
             "| game | opponent | seat | winnable openings | kept a win | decisions | forced decisions | "
             "found where forced | found where 2+ win | unsettled | seconds |",
             "|---|---|---|---:|---:|---:|---|---|---|---:|---:|"]
    return "\n".join(lines + [markdown_row(r) for r in rows]) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--policy", default="pretrained", help="the policy whose moves are scored (default pretrained)")
    parser.add_argument("--opponent", choices=OPPONENTS, action="append",
                        help="baseline (repeatable; default both)")
    parser.add_argument("-n", "--openings", type=count_argument("games"), default=200,
                        help="openings per seat (default 200)")
    parser.add_argument("--budget", type=count_argument("positions"), default=5_000_000,
                        help="positions searched per question at most")
    add_results_dir(parser)
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: choose from {', '.join(GAMES)}")
    make_policy(args.policy)  # a bad spec is named before any search
    command = "python benchmarks/decisions.py " + " ".join(sys.argv[1:] if argv is None else argv)
    rows = []
    for game in args.games or GAMES:
        for opponent in args.opponent or OPPONENTS:
            rows += run(make_game(game), opponent, args.policy, args.openings, 4, SCRATCH_TEST_SEED, args.budget)
    save_rows(results_dir(args) / re.sub(r"[^A-Za-z0-9=.-]+", "_", args.policy), rows, command, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
