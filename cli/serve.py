"""``mancala-marl serve``: the web app on uvicorn, on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mancala_marl.errors import BadInput
from mancala_marl.extras import require

LOOPBACK = "127.0.0.1"


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="play and watch the games in a browser (needs the [serve] extra)",
        description="Serve a page to play any game against any policy, two people at one board, or watch two "
                    "policies play, with the engines' view; and the JSON API it plays through (docs/api.md).")
    parser.add_argument("--host", default=LOOPBACK,
                        help=f"address to listen on (default {LOOPBACK}: this machine only; anything else lets "
                             "other machines play on yours, and says so)")
    parser.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free one)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    parser.add_argument("--move-time", type=_seconds, default=0.5,
                        help="the most seconds a search may take for one move or one view (default 0.5)")
    parser.add_argument("--max-games", type=_games, default=256, help="live games held at once (default 256)")
    parser.add_argument("--idle", type=_idle, default=1800.0,
                        help="seconds after which an untouched game is dropped (default 1800)")
    parser.add_argument("--networks", type=Path, default=None,
                        help="a folder whose network files a request may name (model:NAME, alphazero:path=NAME); "
                             "without it, none. An SB3 .zip is unpickled when loaded: put only files you trust there")
    parser.set_defaults(func=run)


def _bounded(kind, low, high, what):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be in {low}..{high}, got {text}")
        return value
    return parse


_port = _bounded(int, 0, 65535, "--port")
_seconds = _bounded(float, 0.01, 60.0, "--move-time")
_games = _bounded(int, 1, 100_000, "--max-games")
_idle = _bounded(float, 1.0, 7 * 24 * 3600.0, "--idle")


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
