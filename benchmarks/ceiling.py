"""The most any policy can win against max and exact on the scratch test's openings, proved by search.

    .venv/bin/python benchmarks/ceiling.py                 # every game, 200 openings per seat
    .venv/bin/python benchmarks/ceiling.py sungka -n 50

The scratch target is measured from 4 random opening moves (``benchmarks/best_recipe.py``: game
``g`` opens with ``numpy.random.default_rng([10**6, g])``, as the arena's openings of seed 10**6), 200
games per seat against ``max`` and ``exact``. Both baselines are deterministic, so from each
opening either some line of play beats the baseline or none does, and
:class:`mancala_marl.agents.best_response.BestResponse` decides which by exhaustive search (an
opening it cannot settle within the node budget is counted apart). The share of openings that
can be won is then the ceiling of that test: no policy, learned or searched, can score more.

``--policy SPEC`` also plays that policy from every opening that can be won and, for each one it
does not win, finds its first losing move: the first of its moves after which no line wins any
more. Where those fall (early, late) says what the policy lacks.

Writes ``ceiling.json`` and ``ceiling.md`` (with ``--policy``, ``<policy>.json`` and ``.md``,
named after the spec) to ``--results-dir`` (default ``benchmarks/results/ceiling/``): one row per
game, baseline and seat, replaced when run again; each row keeps the command that made it.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time

from mancala_marl.agents import make_policy
from mancala_marl.agents.best_response import NO_WIN, UNKNOWN, WIN, BestResponse
from mancala_marl.cli.arguments import count_argument
from mancala_marl.games import GAMES, make_game
from mancala_marl.matches.arena import SEATS, opening_position
from results_dir import add_results_dir, results_dir

OPPONENTS = ("max", "exact")
SCRATCH_TEST_SEED = 10**6  # train.evaluation.play's openings in best_recipe.py's test


def first_losing_move(game, policy, baseline, solver: BestResponse, state, learner: int, budget: int):
    """Play ``policy`` (the learner) against ``baseline`` from the winnable ``state``; None if it
    wins, else the number of its first move after which no line wins (1 = its first move)."""
    policy.reset(0)
    state, moves, first = state.copy(), 0, None
    while not game.is_terminal(state):
        if game.to_move(state) != learner:
            game.apply(state, baseline.act(game, state.copy()))
            continue
        game.apply(state, policy.act(game, state.copy()))
        moves += 1
        if first is None and not game.is_terminal(state) and solver.can_win(state, learner, budget) == NO_WIN:
            first = moves
    scores = game.scores(state)
    if scores[learner] > scores[1 - learner]:
        return None
    # No position on the way was proved lost (the last move lost it, or the budget left one unsettled).
    return moves if first is None else first


def ceiling(game, opponent: str, n: int, opening: int, seed: int, budget: int, policy_spec=None) -> list[dict]:
    """One row per seat: how many of the ``n`` openings can be won, cannot, or were not settled
    (and with ``policy_spec``, how many of those that can be won it wins, and its first losing moves)."""
    solver = BestResponse(game, opponent)
    baseline = make_policy(opponent)
    policy = None if policy_spec is None else make_policy(policy_spec)
    rows = []
    for learner, seat in enumerate(SEATS):
        start = time.perf_counter()
        results, lost, nodes, mistakes = {WIN: 0, NO_WIN: 0, UNKNOWN: 0}, [], 0, []
        for index in range(n):
            start_state = opening_position(game, seed, index, opening)
            result = solver.can_win(start_state, learner, budget)
            results[result] += 1
            nodes = max(nodes, solver.nodes)
            if result != WIN:
                lost.append(index)
            elif policy is not None:
                mistakes.append(first_losing_move(game, policy, baseline, solver, start_state, learner, budget))
        rows.append({"game": game.name, "opponent": opponent, "seat": seat, "openings": n, "winnable": results[WIN],
                     "proved_not_winnable": results[NO_WIN], "unsettled": results[UNKNOWN],
                     "ceiling": results[WIN] / n, "not_won": lost, "most_positions": nodes,
                     "seconds": round(time.perf_counter() - start, 2)})
        print(f"{game.name} vs {opponent}, {seat} seat: {results[WIN]} of {n} openings can be won, "
              f"{results[NO_WIN]} cannot, {results[UNKNOWN]} unsettled ({rows[-1]['seconds']} s)", flush=True)
        if policy is not None:
            losing = sorted(m for m in mistakes if m is not None)
            rows[-1].update(policy=policy_spec, policy_won=len(mistakes) - len(losing), first_losing_moves=losing)
            print(f"  {policy_spec} wins {rows[-1]['policy_won']} of them; its first losing move in the others: "
                  f"{losing}", flush=True)
    return rows


def ceiling_text(row: dict) -> str:
    low, high = row["winnable"] / row["openings"], (row["winnable"] + row["unsettled"]) / row["openings"]
    return f"{100 * low:.1f}%" if low == high else f"{100 * low:.1f}-{100 * high:.1f}%"


def markdown(rows: list[dict], command: str) -> str:
    seed = rows[0]["seed"]
    which = " (the scratch test's, as best_recipe.py plays them)" if seed == SCRATCH_TEST_SEED else ""
    lines = [f"Made with `{command}` on {platform.node() or 'this machine'}. Openings: {rows[0]['opening_moves']} random "
             f"moves, the arena's of seed {seed}{which}; the learner in the given seat against a deterministic "
             "baseline. Can be won: an exhaustive search found a winning line; cannot: it proved there is none. "
             "The ceiling is the share that can be won (a range where some were unsettled): a count over these openings, "
             "not an estimate.", "",
             "| game | opponent | seat | openings | can be won | cannot | unsettled | ceiling | not won (opening index) "
             "| most positions searched | seconds |", "|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    policy = rows[0].get("policy")
    if policy:
        lines[0] += (f" `{policy}` played every opening that can be won; its first losing move is the first of "
                     "its moves after which no line won any more (1: its first move).")
        lines[2] += f" `{policy}` won | its first losing moves |"
        lines[3] += "---:|---|"
    for r in rows:
        lines.append(f"| {r['game']} | {r['opponent']} | {r['seat']} | {r['openings']} | {r['winnable']} | "
                     f"{r['proved_not_winnable']} | {r['unsettled']} | {ceiling_text(r)} | "
                     f"{', '.join(map(str, r['not_won'])) or '-'} | {r['most_positions']:,} | {r['seconds']} |")
        if policy:
            lines[-1] += f" {r['policy_won']} | {', '.join(map(str, r['first_losing_moves'])) or '-'} |"
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("-n", "--openings", type=count_argument("games"), default=200,
                        help="openings per seat (default 200)")
    parser.add_argument("--opening", type=count_argument("opening"), default=4,
                        help="random moves per opening (default 4)")
    parser.add_argument("--seed", type=int, default=SCRATCH_TEST_SEED,
                        help=f"openings of the arena's seed SEED (default {SCRATCH_TEST_SEED}: the scratch test's)")
    parser.add_argument("--budget", type=count_argument("positions"), default=5_000_000,
                        help="positions searched per opening at most")
    parser.add_argument("--policy", metavar="SPEC", help="also play this policy from the openings that can be won")
    add_results_dir(parser)
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: choose from {', '.join(GAMES)}")
    command = "python benchmarks/ceiling.py " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.policy is not None:
        make_policy(args.policy)  # a bad spec is named before any search
    name = "ceiling" if args.policy is None else re.sub(r"[^A-Za-z0-9=.-]+", "_", args.policy)
    rows = []
    for game in args.games or GAMES:
        for opponent in OPPONENTS:
            for row in ceiling(make_game(game), opponent, args.openings, args.opening, args.seed, args.budget,
                               args.policy):
                rows.append({**row, "opening_moves": args.opening, "seed": args.seed})
    save_rows(results_dir(args) / name, rows, command, markdown)
    return 0


def save_rows(stem, rows: list[dict], command: str, to_markdown) -> None:
    """Merge ``rows`` into ``STEM.json`` (replacing the rows of the same game, opponent and seat,
    keeping the others), then write ``STEM.md`` with ``to_markdown(rows, commands)``, naming the
    command of every row it holds."""
    path = stem.parent / f"{stem.name}.json"  # not with_suffix: a spec's stem may hold a dot (time=0.045)
    old = json.loads(path.read_text()) if path.is_file() else {"rows": []}
    kept = [{"command": old.get("command", ""), **r} for r in old["rows"]]  # files before rows had their own
    new = {(r["game"], r["opponent"], r["seat"]) for r in rows}
    rows = [r for r in kept if (r["game"], r["opponent"], r["seat"]) not in new] + \
        [{**r, "command": command.strip()} for r in rows]
    rows.sort(key=lambda r: (list(GAMES).index(r["game"]), OPPONENTS.index(r["opponent"]), SEATS.index(r["seat"])))
    commands = "`; `".join(dict.fromkeys(r["command"] for r in rows if r["command"]))
    path.write_text(json.dumps({"command": commands.replace("`", ""), "rows": rows}, indent=1))
    (stem.parent / f"{stem.name}.md").write_text(to_markdown(rows, commands))
    print(f"wrote {stem}.md")


if __name__ == "__main__":
    sys.exit(main())
