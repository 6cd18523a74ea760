"""Golden playthroughs: one recorded game per variant and rule set (each game's ``examples``),
played through the AEC environment by random legal moves from a fixed seed, so that a change to
any rule shows up as the first move where a board, a mask, a turn or a reward differs.

Each file ``<game>_<k>.json`` holds the rules (``examples[k]``), the seed, and per move the agent
to move, its action mask, the action, then the state's leading cells (the board, the player to
move and the game's own slots up to ``key_cells``: Oware's history is kept as its count and
digest), both agents' rewards under ``reward="score_diff"`` and ``reward="result"``, and whether
the game is over. ``python -m tests.golden --regenerate`` rewrites them when a rule change is meant.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mancala_marl import ENV_MODULES, GAMES
from mancala_marl.errors import BadInput

FOLDER = Path(__file__).parent
REGENERATE = "python -m tests.golden --regenerate"
SEEDS = range(40)  # tried in order: the first whose game shows every event any of them shows
EVENTS = ("extra_turn", "capture", "mark", "end")


def cases() -> list[tuple[str, int, dict]]:
    """(game, k, rules) for every registered game and each of its example rule sets."""
    return [(name, k, dict(rules)) for name, cls in GAMES.items() for k, rules in enumerate(cls.examples)]


def path_of(name: str, k: int) -> Path:
    return FOLDER / f"{name}_{k}.json"


def _envs(name: str, rules: dict):
    module = ENV_MODULES[name]
    envs = [module.env(**rules, reward=reward) for reward in ("score_diff", "result")]
    for env in envs:
        env.reset()
    return envs


def play(name: str, rules: dict, seed: int, actions: list[int] | None = None):
    """Yield one record per move of a game through the AEC env: random legal moves from ``seed``,
    or ``actions`` as given (a replay, which stops early where an action is not legal)."""
    rng = np.random.default_rng(seed)
    envs = _envs(name, rules)
    game = envs[0].unwrapped.game
    moves = 0
    while envs[0].agents and not (envs[0].terminations[envs[0].agent_selection]
                                  or envs[0].truncations[envs[0].agent_selection]):
        agent = envs[0].agent_selection
        mask = envs[0].observe(agent)["action_mask"]
        if actions is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        elif moves < len(actions) and actions[moves] < len(mask) and mask[actions[moves]]:
            action = actions[moves]
        else:
            return
        for env in envs:
            env.step(action)
        state = envs[0].unwrapped.state()
        yield {"agent": agent, "mask": "".join(map(str, mask)), "action": action,
               "cells": state[:game.key_cells].tolist(),
               "score_diff": [envs[0].rewards[a] for a in envs[0].possible_agents],
               "result": [envs[1].rewards[a] for a in envs[1].possible_agents],
               "over": bool(game.is_terminal(state))}
        moves += 1


def events(name: str, rules: dict, records: list[dict]) -> set[str]:
    """What happens in a recorded game, as the generic tests can tell it of any game: the same
    agent moving twice running, the other side losing seeds, a mark on the board (a tuzduk), the end."""
    game = GAMES[name](**rules)
    found = set()
    before = game.init()
    for previous, record in zip([None, *records], records):
        if previous is not None and previous["agent"] == record["agent"]:
            found.add("extra_turn")
        state = before.copy()
        state[:game.key_cells] = record["cells"]
        mover = int(record["agent"][-1])
        side = slice((1 - mover) * (game.pits + 1), (1 - mover) * (game.pits + 1) + game.pits)
        if state[side].sum() < before[side].sum():
            found.add("capture")
        if game.marked_pits(state)[0] != game.marked_pits(before)[0]:
            found.add("mark")
        before = state
    if records and records[-1]["over"]:
        found.add("end")
    return found


def rule_options(name: str, rules: dict) -> dict:
    """The rule options ``rules`` sets apart from the board's size (pits and seeds), each at its
    default instead: ``{"empty_capture": {..., "empty_capture": False}}``."""
    cls = GAMES[name]
    return {param.name: {**rules, param.name: param.default} for param in cls.parameters[2:]
            if rules.get(param.name, param.default) != param.default}


def differs(recorded: list[dict], replayed: list[dict]) -> bool:
    return len(recorded) != len(replayed) or any(a != b for a, b in zip(recorded, replayed))


def plays_a_part(name: str, other: dict, seed: int, records: list[dict]) -> bool:
    """Whether the game ``records`` (of ``seed``) replays differently under the rules ``other`` (one
    option set back to its default), or those rules are refused (the option is needed)."""
    try:
        return differs(records, list(play(name, other, seed, [m["action"] for m in records])))
    except BadInput:
        return True


def record(name: str, k: int, rules: dict) -> dict:
    """The golden game of one rule set: the first seed whose game shows every event seen in any,
    and in which each rule option that the rule set sets plays a part (its game replayed with the
    option at its default differs)."""
    games = [(seed, list(play(name, rules, seed))) for seed in SEEDS]
    seen = [events(name, rules, records) for _, records in games]
    wanted = set().union(*seen)
    options = rule_options(name, rules).values()
    seed, records = next((seed, records) for (seed, records), found in zip(games, seen) if found == wanted
                         and all(plays_a_part(name, other, seed, records) for other in options))
    return {"game": name, "example": k, "rules": rules, "seed": seed, "events": sorted(wanted), "moves": records}


def dump(data: dict) -> str:
    """JSON with one move a line, so that a diff of a rule change reads move by move."""
    head = {key: value for key, value in data.items() if key != "moves"}
    moves = ",\n".join("  " + json.dumps(move, separators=(",", ":")) for move in data["moves"])
    return json.dumps(head)[:-1] + ', "moves": [\n' + moves + "\n]}\n"


def regenerate() -> list[Path]:
    written = []
    for name, k, rules in cases():
        path = path_of(name, k)
        path.write_text(dump(record(name, k, rules)))
        written.append(path)
    return written
