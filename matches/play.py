"""A person plays against a policy in the terminal (the command is ``mancala_marl.cli.play``).

The board is printed before every move of the person (pits numbered as on the board); the
person types a pit number, or ``q`` to resign (a deliberate end: status 0). Bad input (not a
number, a pit out of range, a pit the rules do not allow) is refused with the reason and asked
again; the end of input (Ctrl-D) abandons the game with a message and status 1, Ctrl-C with
status 130 (as every command: the shell's status for an interrupt), never a traceback. Each move
is reported with what it did: seeds into the mover's store, the pits it captured, an extra turn,
a pass, a tuzduk, the end of the game. ``?`` prints the rules of the game being played and how
the pits are numbered. A search that compiles on its first run says so before the game.

The default opponent is the shipped AlphaZero network with search; on rules it was not trained
for, the time-limited alpha-beta search takes its place (said so). An opponent the person names
that cannot play the game (a network trained for other rules) is refused before it starts.
"""

from __future__ import annotations

import sys
import threading

from mancala_marl.errors import BadInput
from mancala_marl.games import parse_game
from mancala_marl.render import ansi

from .narration import narrate, trace_move

ABANDONED = 1
INTERRUPTED = 130  # as the command line answers Ctrl-C in the other commands
RESIGN = "resign"
HELP = ("?", "h", "help")
# A searching policy compiles its kernels on its first move after an install (about 20 s for
# alphazero); a warm-up taking longer than this says so, where the person saw nothing before.
PREPARING_NOTICE_S = 1.0
DEFAULT_OPPONENT = "alphazero:time=0.5"
FALLBACK_OPPONENT = "alphabeta:depth=64,time_limit=0.5"  # for rules no shipped network was trained on


def default_opponent(game, write):
    """:data:`DEFAULT_OPPONENT`, or on rules it was not trained for :data:`FALLBACK_OPPONENT`."""
    from mancala_marl.agents import make_policy

    policy = make_policy(DEFAULT_OPPONENT)
    try:
        policy.prepare(game)
        return policy
    except BadInput:  # "was trained for kalah {...} but is used on kalah {...}"
        write(f"no shipped AlphaZero network plays {game.cli_spec()}: your opponent is {FALLBACK_OPPONENT}\n")
        return make_policy(FALLBACK_OPPONENT)


def what_it_did(game, before, pit: int, whose: str = "its") -> str:
    """What ``pit`` played on ``before`` did, told from the rules' own replay of it
    (:mod:`.narration`): seeds into the mover's store, the opponent's pits it captured, a tuzduk
    made, who moves next when it is the mover again (an extra turn, or the other's pass), and the
    end of the game with its sweep."""
    mover = game.to_move(before)
    after = game.apply(before.copy(), pit)
    named, captured = narrate(game, before, after, pit, *trace_move(game, before, pit, after))
    said = []
    if "round over" in named:  # the stores and rows were refilled for the next round: say the round's end
        ended = game.last_round(after)
        result = "a draw" if ended["winner"] is None else f"player_{ended['winner']} wins it"
        closed = ", ".join(f"player_{side}'s hole {hole}" for side, hole in game.marked_pits(after)[0])
        return (f": round {ended['round']} ends, {result}, {ended['seeds'][0]} seeds to {ended['seeds'][1]}; round "
                f"{game.round_of(after)} begins, player_{game.to_move(after)} to start"
                + (f" ({closed} closed)" if closed else ""))
    gained = game.scores(after)[mover] - game.scores(before)[mover]
    made = set(game.marked_pits(after)[0]) - set(game.marked_pits(before)[0])
    if gained:
        said.append(f"{gained} into {whose} store" + (f", capturing player_{1 - mover}'s "
                                                        f"{game.pit_word[:-1]} {' and '.join(map(str, captured))}"
                                                        if captured else ""))
    said += [f"a tuzduk on hole {hole} of player_{side}" for side, hole in sorted(made)]
    if "game over" in named and getattr(game, "is_match", False):
        said.append(f"round {game.round_of(after)} ends, and with it the match")
    elif "game over" in named:
        said.append("the game ends and the seeds left go to the store of their side")
    elif "pass" in named:
        said.append(f"player_{1 - mover} has no move and passes")
    elif "extra turn" in named:
        said.append("an extra turn")
    return f": {', '.join(said)}" if said else ""


def rules_text(game) -> str:
    """The in-game help: the rules of the game being played, in a player's words, and how the pits
    are numbered for the person."""
    return (f"\n{game.labelled}\n\n{game.rules_text()}\n\nYour {game.pit_word} are on the bottom row, numbered "
            f"0..{game.pits - 1} left to right, the direction you sow in; your store is at the end of the row."
            + (f" A move also names its way: k sows pit k counter-clockwise (left to right along your row), "
               f"{game.pits} + k sows it clockwise." if game.actions > game.pits else "") + "\n")


def warm_up(policy, game, write) -> None:
    """Play one move of ``policy`` on a copy of the start, so that its compiling happens before the
    game; if that takes longer than :data:`PREPARING_NOTICE_S`, say why the wait."""
    said = []

    def notice():
        said.append(True)
        write(f"preparing {policy.name}: compiling its search, on the first run only (up to ~30 s)... ")

    timer = threading.Timer(PREPARING_NOTICE_S, notice)
    timer.start()
    try:
        policy.act(game, game.init())
    finally:
        timer.cancel()
        timer.join()
    if said:
        write("ready\n")


def ask_move(game, state, read, write) -> int | str | None:
    """The person's pit, asked until it is legal; :data:`RESIGN` when they quit, None when input ends."""
    legal = [int(p) for p in game.legal_mask(state).nonzero()[0]]
    while True:
        write(f"your move, legal pits {legal} (? for the rules, q to quit): ")
        line = read()
        if line == "":  # end of input: readline returns "" only then
            write("\nend of input: game abandoned\n")
            return None
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            write("you resigned\n")
            return RESIGN
        if text.lower() in HELP:
            write(rules_text(game))
            continue
        try:
            pit = int(text)
        except ValueError:
            write(f"{text!r} is not a pit number; type one of {legal}\n")
            continue
        if not 0 <= pit < game.actions:
            write(f"pit {pit} is out of range: {game.action_words} are 0..{game.actions - 1}\n")
        elif pit not in legal:  # the game's own reason: an empty pit, a tuzduk, Oware's must-feed rule
            write(f"{game.illegal_reason(state, pit)}; legal pits are {legal}\n")
        else:
            return pit


def play(game, opponent, human_seat: int = 0, seed: int = 0, stdin=None, stdout=None) -> int:
    """Play one game on the given streams; returns 0 when it was played out or the person resigned,
    1 when it was abandoned at the end of input, 130 on Ctrl-C."""
    from mancala_marl.agents import make_policy

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    write = (lambda text: (stdout.write(text), stdout.flush()))
    game = parse_game(game)
    if opponent is None:
        policy = default_opponent(game, write)
    else:
        policy = make_policy(opponent) if isinstance(opponent, str) else opponent
    policy.prepare(game)  # before the person's first move, not after it
    state = game.init()
    write(f"{game.labelled}: you are player_{human_seat} ({'first' if human_seat == 0 else 'second'}), "
          f"against {policy.name}. Your pits are the bottom row, numbered from your left; "
          f"type ? for the rules.\n")
    try:
        warm_up(policy, game, write)
        policy.reset(seed)  # after the warm-up, so that the game's moves are the seed's
        while not game.is_terminal(state):
            if game.to_move(state) == human_seat:
                write("\n" + ansi(game, state, seat=human_seat))
                move = ask_move(game, state, stdin.readline, write)
                if move == RESIGN:
                    return 0
                if move is None:
                    return ABANDONED
                write(f"you (player_{human_seat}) sow pit {move}{what_it_did(game, state, move, 'your')}\n")
                game.apply(state, move)
            else:
                move = policy.act(game, state.copy())
                write(f"{policy.name} (player_{1 - human_seat}) sows pit {move}{what_it_did(game, state, move)}\n")
                game.apply(state, move)
    except KeyboardInterrupt:
        write("\ninterrupted: game abandoned\n")
        return INTERRUPTED
    write("\n" + ansi(game, state, seat=human_seat))
    mine, theirs = game.scores(state)[human_seat], game.scores(state)[1 - human_seat]
    verdict = "a draw" if mine == theirs else ("you win" if mine > theirs else "you lose")
    write(f"final score: you {mine}, {policy.name} {theirs}: {verdict}\n")
    return 0
