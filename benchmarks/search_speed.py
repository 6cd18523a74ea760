"""The searches' speed, this tree against an earlier revision, in one run.

    .venv/bin/python benchmarks/search_speed.py --baseline HEAD~3

Four figures, one for each search: ``alphabeta:depth=6`` in ms a move on every game (30
positions after seeded random openings), Kalah(6,4) solved from the start with the 20-seed
database (seconds; the database is built into the cache first if it is missing, and not
timed), Oware endgames' move results (ms a position, 20 of them) and the best-response search
against ``max`` and ``exact`` (ms a question, 400 of them). With ``--baseline REV`` the revision
is installed into a temporary folder (``pip install --no-deps --target``, the code only) and both
are measured turn about, ``--rounds`` times each, so that the load of the machine falls on both
alike; the best round of each is kept. Writes search_speed.json and .md to ``--results-dir``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_dir import add_results_dir, results_dir

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("kalah", "sungka", "togyz_kumalak", "oware")


def openings(game, count: int, seed: int, moves: tuple[int, int] = (0, 12)):
    """``count`` positions still in play, each after a random number in ``moves`` (low, high
    exclusive) of random moves from the start."""
    import numpy as np
    rng = np.random.default_rng(seed)
    states = []
    while len(states) < count:
        state = game.init()
        for _ in range(int(rng.integers(*moves))):
            if game.is_terminal(state):
                break
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if not game.is_terminal(state):
            states.append(state)
    return states


def measure() -> dict:
    """The four figures of the code that ``import mancala_marl`` finds (run in a subprocess)."""
    import numpy as np
    from mancala_marl.agents import make_policy
    from mancala_marl.agents.best_response import BestResponse
    from mancala_marl.endgame import database, solver
    from mancala_marl.errors import NotSolved
    from mancala_marl.games import make_game

    out = {}
    for name in GAMES:
        game, policy = make_game(name), make_policy("alphabeta:depth=6")
        states = openings(game, 30, 0)
        policy.act(game, states[0].copy())  # compiled or loaded from numba's cache
        policy.reset()
        start = time.perf_counter()
        for state in states:
            policy.act(game, state.copy())
        out[f"alphabeta depth 6, {name} (ms a move)"] = 1e3 * (time.perf_counter() - start) / len(states)

    kalah = make_game("kalah")
    perfect = solver(database(kalah, 20))
    late = kalah.init()
    while kalah.seeds_in_play(late) > 26:
        late = kalah.apply(late, int(np.flatnonzero(kalah.legal_mask(late))[0]))
    if not kalah.is_terminal(late):
        perfect.value(late)  # compiled or loaded from numba's cache
    perfect = solver(perfect.db)  # a fresh table: the first solve is the one timed
    start = time.perf_counter()
    value = perfect.value(kalah.init())
    out["Kalah(6,4) solved (s)"] = time.perf_counter() - start
    out["Kalah(6,4) value"] = value

    oware = make_game("oware")
    results = solver(database(oware, 12))
    endgames = []
    rng = np.random.default_rng(1)
    while len(endgames) < 20:
        state = oware.init()
        while not oware.is_terminal(state) and oware.seeds_in_play(state) > 12:
            oware.apply(state, int(rng.choice(np.flatnonzero(oware.legal_mask(state)))))
        if not oware.is_terminal(state):
            endgames.append(state)
    results.move_results(endgames[0])
    start = time.perf_counter()
    for state in endgames:
        try:
            results.move_results(state)
        except NotSolved:  # a fifth of them need more than the 5M positions a question may search
            pass
    out["Oware endgames, move results (ms a position)"] = 1e3 * (time.perf_counter() - start) / len(endgames)

    # Against the baselines a win is usually found within a few hundred positions, so what a
    # question costs is mostly the call: the figure is ms a question, the learner the one behind.
    kalah_states = openings(kalah, 200, 5, moves=(4, 30))
    spent = 0.0
    for opponent in ("max", "exact"):
        response = BestResponse(kalah, opponent, table_bits=22)
        for timed in (False, True):  # the first pass compiles, and touches the table's fresh pages
            start = time.perf_counter()
            for state in kalah_states:
                scores = kalah.scores(state)
                response.can_win(state, int(scores[0] > scores[1]), budget=2_000_000)
            spent += (time.perf_counter() - start) * timed
    out["best response to max and exact, Kalah (ms a question)"] = 1e3 * spent / (2 * len(kalah_states))
    return out


def run_in(site: Path | None) -> dict:
    """:func:`measure` in a fresh interpreter, importing the package from ``site`` (None: this tree)."""
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    code = f"import sys, json; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import search_speed; " \
           "print(json.dumps(search_speed.measure()))"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tempfile.gettempdir(), capture_output=True,
                          text=True)
    if done.returncode:
        sys.exit(f"the measurement of {site or 'this tree'} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def install(revision: str, folder: Path) -> Path:
    """The code of ``revision`` installed into ``folder``/site, as a wheel would lay it out."""
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision], check=True,
                   capture_output=True)
    try:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                        "--target", str(folder / "site"), str(tree)], check=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    return folder / "site"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="REV", help="a git revision to measure beside this tree")
    parser.add_argument("--rounds", type=int, default=2, help="measurements of each, turn about (default 2)")
    add_results_dir(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        sides = {"this tree": None}
        if args.baseline:
            sides = {args.baseline: install(args.baseline, Path(folder)), "this tree": None}
        best: dict[str, dict] = {}
        for round_ in range(args.rounds):
            for side, site in sides.items():
                figures = run_in(site)
                print(f"round {round_ + 1}, {side}: {figures}", file=sys.stderr)
                kept = best.setdefault(side, figures)
                for key, value in figures.items():
                    kept[key] = min(kept[key], value) if "value" not in key else value
    keys = list(best["this tree"])
    lines = [f"Made with `python benchmarks/search_speed.py {' '.join(sys.argv[1:])}` on this machine's CPU, "
             f"the best of {args.rounds} rounds each, turn about.", "",
             "| figure | " + " | ".join(best) + " |", "|---|" + "---:|" * len(best)]
    for key in keys:
        lines.append(f"| {key} | " + " | ".join(f"{best[side][key]:,.4g}" for side in best) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    folder = results_dir(args)
    (folder / "search_speed.md").write_text(text)
    (folder / "search_speed.json").write_text(json.dumps({"command": sys.argv, "figures": best}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
