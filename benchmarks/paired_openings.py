"""Who decides a game between strong players: the players, or the opening they start from?

    .venv/bin/python benchmarks/paired_openings.py sungka --a alphazero:time=0.045 \\
        --b alphabeta:depth=64,time_limit=0.5 -n 50 --verdict-time 5

The arena plays every random opening twice, A first then B first (:mod:`mancala_marl.matches.arena`).
Paired that way, each opening falls in one of five kinds:

- **A won both** or **B won both**: a player won it from either seat;
- **first seat won both** or **second seat won both**: whoever had that seat won, whoever played;
- **split by a draw**: a draw in at least one of the two games.

A's points per game are 1/2 + (A won both - B won both) / (2 n) + what the draws add: only openings
that one player wins from both seats, and draws, move the score off 1/2. When nearly every opening
is decided by its seat, even between players of very different search effort, the players tested
cannot separate on that test. That is evidence, not proof, that a target of "more than 1/2" is
out of reach there: a stronger player might still convert openings these do not.

``--verdict-time T`` also searches every opening position (the position after the random moves)
with alpha-beta for T seconds and records its value for the first seat: a search much longer than
either player's (a store-margin estimate, not a solved value), saying which seat the opening
favours, to set beside who won.

Writes ``paired_openings.json`` (one entry per game and pair, replaced when run again) and
``paired_openings.md`` to ``--results-dir`` (default ``benchmarks/results/paired_openings/``).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

import numpy as np

from mancala_marl.agents import make_policy
from mancala_marl.games import GAMES
from mancala_marl.games import parse_game
from mancala_marl.matches.arena import opening_position, play_match, seat_summary
from results_dir import add_results_dir, results_dir

KINDS = ("A won both", "B won both", "first seat won both", "second seat won both", "split by a draw")


def classify(m1, m2) -> str:
    """The kind of an opening from A's margins in its two games (A moved first in the first)."""
    if m1 == 0 or m2 == 0:
        return "split by a draw"
    if m1 > 0 and m2 > 0:
        return "A won both"
    if m1 < 0 and m2 < 0:
        return "B won both"
    return "first seat won both" if m1 > 0 else "second seat won both"


def verdict(game, state: np.ndarray, seconds: float) -> dict:
    """Alpha-beta's value of ``state`` after ``seconds`` of iterative deepening, for the first seat."""
    if game.is_terminal(state):
        s0, s1 = game.scores(state)
        return {"value_first_seat": int(s0 - s1), "depth": 0}
    search = make_policy(f"alphabeta:depth=64,time_limit={seconds}")
    search.act(game, state.copy())
    sign = 1 if game.to_move(state) == 0 else -1
    return {"value_first_seat": sign * int(search.last_value), "depth": int(search.last_depth)}


def run(game_spec: str, a: str, b: str, n: int, opening: int, seed: int, workers: int,
        verdict_time: float | None) -> dict:
    game = parse_game(game_spec)
    start = time.time()
    records = play_match(game, a, b, n, seed, workers, opening)
    by_seat = {(r["seat"], r["index"]): r for r in records}
    openings = []
    for i in range(n):
        m1, m2 = (by_seat[(seat, i)]["score_a"] - by_seat[(seat, i)]["score_b"] for seat in ("first", "second"))
        row = {"index": i, "kind": classify(m1, m2), "margin_a_first": m1, "margin_a_second": m2}
        if verdict_time:
            row.update(verdict(game, opening_position(game, seed, i, opening), verdict_time))
        openings.append(row)
    counts = {kind: sum(o["kind"] == kind for o in openings) for kind in KINDS}
    overall = seat_summary(records)
    result = {"game": game.name, "params": dict(game.params), "a": a, "b": b, "openings": n, "opening": opening,
              "seed": seed, "points_per_game_a": (overall["wins"] + overall["draws"] / 2) / overall["games"], "kinds": counts, "per_opening": openings,
              "seconds": round(time.time() - start, 1)}
    if verdict_time:
        decided = [o for o in openings if o["kind"] in KINDS[2:4]]
        agree = sum((o["kind"] == "first seat won both") == (o["value_first_seat"] > 0) for o in decided
                    if o["value_first_seat"] != 0)
        result.update({"verdict_time": verdict_time, "seat_decided_where_verdict_agrees": agree,
                       "seat_decided": len(decided)})
    return result


def markdown(entries: list[dict]) -> str:
    lines = ["Each opening (random moves, as many as the row's command says) is played twice, A first then B "
             "first; see `benchmarks/paired_openings.py`'s docstring. Rows are separate runs, commands below.", "",
             "| game | A | B | openings | A's points per game | " + " | ".join(KINDS) + " | long search agrees |",
             "|---|---|---|---:|---:|" + "---:|" * len(KINDS) + "---|"]
    for e in entries:
        agree = (f"{e['seat_decided_where_verdict_agrees']} of {e['seat_decided']} seat-decided "
                 f"({e['verdict_time']} s a position)") if "verdict_time" in e else "-"
        lines.append(f"| {e['game']} | `{e['a']}` | `{e['b']}` | {e['openings']} | {e['points_per_game_a']:.3f} | "
                     + " | ".join(str(e["kinds"][k]) for k in KINDS) + f" | {agree} |")
    lines += ["", "Commands (machine, wall clock):", ""]
    lines += [f"- `{e['command']}` ({e['machine']}, {e['seconds'] / 60:.1f} min)" for e in entries]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help=f"one of {', '.join(GAMES)} (rule parameters as in the arena)")
    parser.add_argument("--a", default="alphazero:time=0.045", help="policy A (default alphazero:time=0.045)")
    parser.add_argument("--b", default="alphabeta:depth=64,time_limit=0.5",
                        help="policy B (default alphabeta:depth=64,time_limit=0.5)")
    parser.add_argument("-n", type=int, default=50, help="openings, each played in both seats (default 50)")
    parser.add_argument("--opening", type=int, default=4, help="random moves of every opening (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="the arena's seed, which draws the openings (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--verdict-time", type=float, default=None, metavar="T",
                        help="also search every opening position with alpha-beta for T seconds")
    add_results_dir(parser)
    args = parser.parse_args()
    entry = run(args.game, args.a, args.b, args.n, args.opening, args.seed, args.workers, args.verdict_time)
    entry["command"] = "python benchmarks/paired_openings.py " + " ".join(sys.argv[1:])
    entry["machine"] = f"{platform.machine()}, {args.workers} worker(s)"
    path = results_dir(args) / "paired_openings.json"
    entries = json.loads(path.read_text())["entries"] if path.is_file() else []
    key = ("game", "params", "a", "b", "opening", "seed")
    entries = [e for e in entries if tuple(e[k] for k in key) != tuple(entry[k] for k in key)] + [entry]
    entries.sort(key=lambda e: list(GAMES).index(e["game"]))  # registry order; runs of a game stay in order
    path.write_text(json.dumps({"entries": entries}, indent=1))
    path.with_name("paired_openings.md").write_text(markdown(entries))
    print(markdown([entry]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
