"""``mancala-marl demo``: one game between two policies, the board printed after every move."""

from __future__ import annotations

from mancala_marl import ENV_MODULES


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="play one game between two policies and print the board")
    parser.add_argument("game", nargs="?", default="sungka", choices=sorted(ENV_MODULES))
    parser.add_argument("--first", default="random", help="policy of player_0 (default: random)")
    parser.add_argument("--second", default="random", help="policy of player_1 (default: random)")
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(func=run)


def run(args) -> int:
    from agents import make_policy

    env = ENV_MODULES[args.game].env(render_mode="ansi")
    env.reset(seed=args.seed)
    raw = env.unwrapped
    policies = {"player_0": make_policy(args.first, seed=args.seed),
                "player_1": make_policy(args.second, seed=args.seed + 1)}
    print(env.render())
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        move = policies[agent].act(raw.game, raw.state())
        env.step(move)
        print(f"{agent} ({policies[agent].name}) sows pit {move}")
        print(env.render())
    s0, s1 = raw.game.scores(raw.state())
    print(f"final score {s0}-{s1}: " + ("draw" if s0 == s1 else f"player_{int(s1 > s0)} wins"))
    return 0
