"""What the subcommands share in reading their command line: the parser, the argument types, the
help texts, and the step from typed options to a run's config.

This is the command side: the library (arena, trainers, policies) never imports it, so that each
works without the command line (tests/test_imports.py checks it).
"""

from __future__ import annotations

import argparse
from dataclasses import fields

from mancala_marl.agents.base import literal, split_policy_specs
from mancala_marl.errors import BadInput
from mancala_marl.games import GAMES, TRADITIONAL

BAD_INPUT, INTERRUPTED, BROKEN_PIPE = 2, 130, 141  # the shell's statuses for an interrupt and SIGPIPE
GAME_HELP = (f"a game: {', '.join(GAMES)}, a traditional game by name ({', '.join(TRADITIONAL)}) "
             f"or a MancalaGames rules file (path/Ayo.txt), with rule parameters after a colon if wanted: "
             f"kalah:pits=4,seeds=3, wari:seeds=5. A game's rules and parameters: mancala-marl rules GAME")
# Written out rather than read from the registry, which would import every policy for --help
# (tests/test_cli.py checks that it names each registered one).
POLICY_HELP = ("a policy: random, max, exact, simple, greedy, alphabeta[:depth=4,time_limit=0.5], solver, perfect, "
               "pretrained[:kind=distilled], alphazero[:sims=N or time=S], model:RUN/final.zip (or a bare .zip path)")


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (argparse prints the whole usage first)."""

    def error(self, message):
        self.exit(BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())  # a message that spans lines (numba, SB3) on one
    return text or type(error).__name__


def seed_argument(text: str) -> int:
    """``--seed``, refused here if numpy, torch or SB3 would refuse it later (a negative seed failed
    deep in gymnasium's reset, as ``-1000``: the env's seed, not the one given)."""
    from mancala_marl.agents import check_seed
    try:
        return check_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to 2**32 - 1, got {text!r}") from None


def count_argument(kind: str):
    """An argparse ``type`` for a count of ``kind`` (a key of ``mancala_marl.limits.LIMITS``):
    the number, or argparse's one-line error with the range (``--workers 0``, ``-n 1e30``)."""
    from mancala_marl.limits import LIMITS

    return param_argument(LIMITS[kind])


def param_argument(param):
    """An argparse ``type`` for a value of ``param`` (a declared :class:`Param`: a count of
    ``mancala_marl.limits``, a run's setting, a policy's parameter): the value, or argparse's
    one-line error with its range and the reason for the bound passed (``--db-seeds 200``,
    ``--time-limit x``, ``-n 1e30``)."""
    def read(text: str):
        value = None
        try:
            value = param.type(text)
            return param.check(value)
        except ValueError:  # not a number, or out of range
            why = ""
            if value is not None and param.type in (int, float) and not param.in_range(value):
                why = param.why_low if value != value or value < param.low else param.why_high
            why = f" ({why})" if why else ""
            raise argparse.ArgumentTypeError(f"must be {param.kind} {param.bounds}{why}, got {text!r}") from None

    read.__name__ = param.name  # argparse names the type in some messages
    return read


def add_param_argument(parser, param, *flags, default=None, note: str = "", **kwargs) -> None:
    """The option of a declared setting (a :class:`Param`: a run's, or a count of
    ``mancala_marl.limits``): ``--NAME`` (or ``flags``), read and checked by the declaration (its
    type and range, or its choices), with a help made of its doc, its range, its default
    (``param.default``) and ``note``. The option's own ``default`` is None unless given, so that
    --resume can tell the settings typed from those left out."""
    flags = flags or ("--" + param.name.replace("_", "-"),)
    if param.type is str and param.choices:
        kwargs.setdefault("choices", param.choices)
        words = []
    else:
        kwargs.setdefault("type", param_argument(param))
        words = [param.range_text]
    if param.default is not None:
        words.append(f"default {param.default}")
    words += [note] * bool(note)
    help_text = f"{param.doc} ({'; '.join(words)})".replace("%", "%%")  # argparse formats help with %
    parser.add_argument(*flags, default=default, help=help_text, **kwargs)


def add_perfect_arguments(parser, time_help: str) -> None:
    """The options of the commands that ask the ``perfect`` policy (solve, grade): its database's
    size and the time it may take, with the policy's own ranges."""
    from mancala_marl.agents.perfect import DB_SEEDS, TIME_LIMIT

    parser.add_argument("--db-seeds", type=param_argument(DB_SEEDS), default=None, metavar="N",
                        help="the endgame database covers positions with at most N seeds in play (default: what "
                             "builds in under a minute: 16 seeds on 6 Kalah pits, 12 on 6 Oware houses)")
    parser.add_argument("--time-limit", type=param_argument(TIME_LIMIT), default=None, metavar="S", help=time_help)


def key_values(items, what: str) -> dict:
    """``["learning_rate=1e-4"]`` (--hyper) -> ``{"learning_rate": 0.0001}``, values read as literals."""
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise BadInput(f"{what} must look like KEY=VALUE, got {item!r}")
        if key in out:
            raise BadInput(f"{what} gives {key} twice")
        out[key] = literal(value)
    return out


def layer_sizes(text: str, option: str) -> list[int]:
    """``"256,256"`` -> ``[256, 256]``; anything else is a ValueError naming ``option``."""
    try:
        return [int(size) for size in text.split(",")]
    except ValueError:
        raise BadInput(f"{option} must be comma-separated layer sizes, got {text!r}") from None


def add_game_argument(parser, several: bool = False) -> None:
    """GAME of the training commands, written as arena writes it: a name, with its rules if wanted
    (``kalah:pits=4,seeds=3``), the one way every command takes rules; with ``several``, one or
    more of them (a list)."""
    from mancala_marl.games import make_game

    def game(text: str) -> str:
        name = text.partition(":")[0]
        if name not in GAMES:
            try:
                make_game(name)  # its message names the games
            except ValueError as error:
                raise argparse.ArgumentTypeError(str(error)) from None
        return text

    if several:
        parser.add_argument("game", type=game, metavar="GAME", nargs="+",
                            help=GAME_HELP + "; several games of the two-row family (--backend jax, --obs-type "
                                 "rules) train one network on all of them")
    else:
        parser.add_argument("game", type=game, metavar="GAME", help=GAME_HELP)


def fold_game_rules(args) -> None:
    """Split GAME into the game's name (``args.game``) and the rules written after its colon
    (``args.rules``, a dict; None where none are written, so that --resume keeps the run's)."""
    from mancala_marl.games import split_game_spec

    args.game, written = split_game_spec(args.game)
    args.rules = written or None


def add_match_arguments(parser, games: int = 100) -> None:
    """The options of the commands that play matches (arena, tournament, paper-table)."""
    parser.add_argument("-n", "--games", type=count_argument("games"), default=games,
                        help=f"games in EACH seat (default {games})")
    parser.add_argument("--seed", type=seed_argument, default=0, help="seed of every game's policies and opening")
    parser.add_argument("--workers", type=count_argument("workers"), default=1,
                        help="parallel processes, no more than the games (default 1)")
    parser.add_argument("--opening", type=count_argument("opening"), default=0, metavar="K",
                        help="play the first K moves of every game at random (same opening in both seats)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout and nothing else")


# what every training command reads alike: GAME's rules (:func:`fold_game_rules`), --eval-opponents
# (comma-separated specs)
COMMON_RENAMED = {"rule_params": "rules"}
COMMON_READ = {"rule_params": lambda rules, _: rules, "eval_opponents": split_policy_specs}


def typed_settings(args, config_class, renamed: dict | None = None, read: dict | None = None) -> dict:
    """``{field: value}`` for each field of ``config_class`` (a run's config dataclass) whose option
    was typed on the command line. An option is named as its field unless ``renamed`` maps the
    field to another name (``states_per_round``: ``--states``); ``read`` maps a field to how its
    option's text is read (a function of the text and the option's name, for its error). Every
    training command reads GAME's rules and --eval-opponents alike (:data:`COMMON_RENAMED`,
    :data:`COMMON_READ`). The options default to None, so that --resume can tell those typed (even
    at the default's value) from those left out; GAME is not an option here, nor is --no-progress."""
    renamed, read = {**COMMON_RENAMED, **(renamed or {})}, {**COMMON_READ, **(read or {})}
    values = {}
    for field in fields(config_class):
        option = renamed.get(field.name, field.name)
        value = getattr(args, option, None)
        if field.name == "game" or value is None:
            continue
        values[field.name] = read[field.name](value, "--" + option.replace("_", "-")) if field.name in read else value
    return values


def config_and_given(args, config_class, values: dict):
    """The config of a command line (GAME, --no-progress and ``values``), and the names of the
    settings it sets, which --resume compares with the run's own."""
    config = config_class(game=args.game, progress_bar=not args.no_progress, **values)
    return config, {"game", "progress_bar", *values}


def command_config(args, config_class, renamed: dict | None = None, read: dict | None = None):
    """The config of a training command's line and the settings it names (:func:`config_and_given`):
    GAME's rules split off, then :func:`typed_settings`."""
    fold_game_rules(args)
    return config_and_given(args, config_class, typed_settings(args, config_class, renamed, read))
