"""``mancala-marl serve``: the web app on uvicorn, on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import sys
from pathlib import Path

from mancala_marl.cli.arguments import add_param_argument
from mancala_marl.errors import BadInput
from mancala_marl.extras import require
from mancala_marl.games.params import Param

LOOPBACK = "127.0.0.1"
# the options that are numbers: their types, ranges, defaults and help
PORT = Param("port", int, 8000, "port", low=0, high=65535)
MOVE_TIME = Param("move_time", float, 0.5, "the most seconds a search may take for one move or one view",
                  low=0.01, high=60)
MAX_GAMES = Param("max_games", int, 256, "live games held at once", low=1, high=100_000)
IDLE = Param("idle", float, 1800.0, "seconds after which an untouched game is dropped", low=1, high=7 * 24 * 3600)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="play and watch the games in a browser (needs the [serve] extra)",
        description="Serve a page to play any game against any policy, two people at one board, or watch two "
                    "policies play, with the engines' view; and the JSON API it plays through (docs/api.md).")
    parser.add_argument("--host", default=LOOPBACK,
                        help=f"address to listen on (default {LOOPBACK}: this machine only; anything else lets "
                             "other machines play on yours, and says so)")
    add_param_argument(parser, PORT, default=PORT.default, note="0: any free one")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    for param in (MOVE_TIME, MAX_GAMES, IDLE):
        add_param_argument(parser, param, default=param.default)
    parser.add_argument("--networks", type=Path, default=None,
                        help="a folder whose network files a request may name (model:NAME, alphazero:path=NAME); "
                             "without it, none. An SB3 .zip is unpickled when loaded: put only files you trust there")
    parser.set_defaults(func=run)


def run(args) -> int:
    require("serve", "mancala-marl serve")
    import socket
    import threading
    import webbrowser

    import uvicorn

    from mancala_marl.serve.app import create_app, warm_up
    from mancala_marl.serve.games import Table

    if args.networks is not None and not args.networks.is_dir():
        raise BadInput(f"--networks {args.networks}: not a folder")
    if args.host not in (LOOPBACK, "localhost", "::1"):
        print(f"WARNING: listening on {args.host}, not {LOOPBACK}: anyone who can reach this machine can play "
              "on it and use its CPU. There is no login.", file=sys.stderr)
    table = Table(move_time=args.move_time, max_games=args.max_games, idle_s=args.idle,
                  networks=args.networks.resolve() if args.networks else None)
    # proto IPPROTO_TCP: asyncio sets TCP_NODELAY only on such sockets; without it each small answer
    # waited 40 ms for the client's delayed ACK (Nagle's algorithm)
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))  # bound here, so that port 0 is known before the address is printed
    host, port = sock.getsockname()[:2]
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"mancala-marl serve: {url} (Ctrl-C to stop)", flush=True)
    threading.Thread(target=warm_up, daemon=True).start()  # the first visitor need not wait for compiling
    if args.open:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    # access_log=False: no line is logged at this level anyway, and uvicorn then skips making one per answer
    config = uvicorn.Config(create_app(table), log_level="warning", access_log=False, timeout_keep_alive=30)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
