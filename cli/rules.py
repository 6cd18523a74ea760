"""``mancala-marl rules [GAME]``: the games there are, or one game's rules and the parameters
that change them (what every command's GAME takes after its colon: ``wari:seeds=5``)."""

from __future__ import annotations

import json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "rules", help="the games, or one game's rules and its rule parameters",
        description="Without GAME: every game by name, with where it is played. With GAME (a name, a "
                    "spec such as wari:seeds=5, or a MancalaGames rules file): its rules, then each rule "
                    "parameter with its value in this game, its range and what it does.")
    parser.add_argument("game", nargs="?", metavar="GAME", help="the game (default: list the games)")
    parser.add_argument("--json", action="store_true",
                        help='print one JSON object: {"game", "title", "params", "rules"} (or the list of games)')
    parser.set_defaults(func=run)


def game_list() -> list[dict]:
    """The registry's games and the named games, each ``{"game", "title", "region", "about"}``."""
    from mancala_marl.games import GAMES, NAMED

    named = [{"game": g.name, "title": g.title, "region": g.region, "about": g.about} for g in NAMED.values()]
    rest = [{"game": name, "title": name, "region": "", "about": UNNAMED.get(name, "")}
            for name in GAMES if name not in NAMED]
    return rest + named


# the registered games that are no named game, in a line each as the named games have theirs
UNNAMED = {"kalah": "Six pits of four and two stores; a last seed in the own store gives another turn, one in an "
                    "empty own pit takes the pit across.",
           "family": "Any game of the two-row family, by its rule parameters (Wari's rules by default)."}


def parameter_lines(game) -> list[str]:
    """One line a rule parameter: ``holes=7 (1..64; default 6): holes a side``, the value this game
    has (a named game's own, where it sets one)."""
    lines = []
    for param in game.parameters:
        value = game.params[param.name]
        note = "" if value == param.default else f"; default {param.shown(param.default)}"
        lines.append(f"  {param.name}={param.shown(value)} ({param.range_text}{note}): {param.doc}")
    return lines


def run(args) -> int:
    from mancala_marl.games import parse_game

    if args.game is None:
        games = game_list()
        if args.json:
            print(json.dumps({"games": games}))
            return 0
        width = max(len(g["game"]) for g in games)
        for g in games:
            named = f"{g['title']} ({g['region']}): " if g["region"] else ""
            print(f"{g['game']:<{width}}  {named}{g['about']}")
        print("\nmancala-marl rules GAME: a game's rules and parameters")
        return 0
    game = parse_game(args.game)
    text = game.rules_text()
    if args.json:
        print(json.dumps({"game": game.spec_name, "title": game.known_as, "params": game.params, "rules": text}))
        return 0
    print(f"{game.labelled}\n\n{text}\n\nRule parameters (GAME:name=value,... changes them):")
    print("\n".join(parameter_lines(game)))
    return 0
