"""Load on ``mancala-marl serve``, on loopback only: many clients playing through the JSON API at once.

    python benchmarks/serve_load.py                 # 8, then 64 hot-seat clients for 60 s; an open loop of
                                                    # 1,000 moves/s; 8 beside 8 searching games; 8 against
                                                    # alphazero; 8 against a bare Starlette endpoint
    python benchmarks/serve_load.py --quick         # 8 and 2 clients for 5 s each, a smoke run (writes nothing)

The server runs as its own process (``mancala-marl serve --port 0 --max-games 100000``, bound to
127.0.0.1), so that its memory is its own: read from /proc before the first phase and after the
last. It keeps every game played (until idle for half an hour), so it is let hold the most the
command allows: the default 256 would refuse new games within seconds. Each client is
a thread with one kept-alive connection that plays whole games: POST /api/games, then a random
legal pit per POST /api/games/{id}/moves until the game ends, then a new game. The clients of a
phase run in ``--client-processes`` processes (default 4, each with its share of the threads),
not all in this one: 64 threads of http.client and json under one interpreter lock would take a
core of their own and queue their own answers, which the latency would then count as the
server's. Still loopback only, the same number of clients, each phase bounded in time. Hot-seat games
(``"players": [null, null]``) measure the server's own cost per move: the rules, the replay of
each move that the page animates, the JSON; games against ``alphazero`` (its default, 200
simulations a move) add a search to every answer. The server's CPU time per move request says what
a move costs it, apart from the queue on a busy machine. Reported per phase: moves per second (a
person's move and the replies it brings), p50 and p99 latency of the move requests, errors (any
answer but 200/201, or a failed connection). Three targets are read off one run: the server's CPU
per hot-seat move request at most twice a bare Starlette endpoint's on the same uvicorn
(:func:`bare_server`), a p99 of at most 50 ms at a fixed open loop of 1,000 moves/s, and the same
beside 8 games whose every reply searches for the server's whole move time. Writes
``serve_load.json`` and ``serve_load.md`` to ``--results-dir`` (default benchmarks/results/serve_load/;
``--quick``: nothing unless one is given).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import platform
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from results_dir import NOTHING_WRITTEN, add_quick_results_dir, quick_results_dir

HOST = "127.0.0.1"  # loopback only: the benchmark never listens beyond this machine
SEARCHER = "alphabeta:depth=64"  # never reaches its depth: searches for the server's whole move time


def start_server(move_time: float, bare: bool = False) -> tuple[subprocess.Popen, int]:
    """``mancala-marl serve`` on loopback, or (``bare``) :func:`bare_server` in its place."""
    mancala = Path(sys.executable).with_name("mancala-marl")
    command = ([sys.executable, __file__, "--bare-server"] if bare else
               [str(mancala), "serve", "--host", HOST, "--port", "0", "--max-games", "100000", "--move-time",
                str(move_time)])
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()  # "mancala-marl serve: http://127.0.0.1:PORT/ (Ctrl-C to stop)"
    port = int(line.split(f"{HOST}:")[1].split("/")[0])
    return server, port


def bare_server() -> None:
    """The floor a move's cost is measured against: Starlette on the same uvicorn as ``serve`` (the
    same socket and settings), whose two routes read the JSON body and answer a fixed JSON of a
    move's shape, a game that never ends. What ``serve`` spends past this is its own."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    state = {"board": [4] * 6 + [0] + [4] * 6 + [0], "to_move": 0, "legal": list(range(6)), "scores": [0, 0],
             "done": False, "winner": None, "marks": [], "moves": 0}

    async def new_game(request: Request):
        await request.json()
        return JSONResponse({"id": "bare", "state": state, "played": []}, status_code=201)

    async def move(request: Request):
        body = await request.json()
        return JSONResponse({"state": state, "played": [{"player": 0, "pit": body["pit"], "by": "person",
                                                         "events": [], "steps": [[1, 5]] * 4, "board": state["board"]}]})

    app = Starlette(routes=[Route("/api/games", new_game, methods=["POST"]),
                            Route("/api/games/{id}/moves", move, methods=["POST"])])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # as serve binds it
    sock.bind((HOST, 0))
    print(f"bare: http://{HOST}:{sock.getsockname()[1]}/", flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_keep_alive=30)).run(
        sockets=[sock])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """CPU seconds the process has used (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Connection(http.client.HTTPConnection):
    """A kept-alive connection that sends each request as soon as it is written (TCP_NODELAY, as
    browsers do): http.client writes a request's headers and its body apart, and without it the
    body would wait for the server to acknowledge the headers (Nagle's algorithm)."""

    def connect(self):
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Client(threading.Thread):
    """Plays whole games on one kept-alive connection until ``until``: closed loop (each move sent
    when the last is answered) or, with ``interval``, open loop: move k is due at start + k *
    interval and its latency counts from then, so a server that falls behind is charged for the
    wait its backlog causes (no coordinated omission)."""

    def __init__(self, port: int, players, until: float, seed: int, interval: float | None = None):
        super().__init__(daemon=True)
        self.port, self.players, self.until, self.interval = port, players, until, interval
        self.rng = random.Random(seed)
        self.latencies, self.moves, self.errors, self.games = [], 0, 0, 0

    def request(self, conn, method, path, body=None):
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        if response.status not in (200, 201):
            self.errors += 1
            return None
        return json.loads(data)

    def run(self):
        conn = Connection(HOST, self.port, timeout=30)
        due = time.perf_counter() + (self.rng.random() * self.interval if self.interval else 0)  # spread out
        while time.monotonic() < self.until:
            try:
                game = self.request(conn, "POST", "/api/games", {"game": "kalah", "players": self.players})
                if game is None:
                    continue
                state = game["state"]
                while not state["done"] and time.monotonic() < self.until:
                    start = time.perf_counter()
                    if self.interval:
                        time.sleep(max(0.0, due - start))
                        start, due = due, due + self.interval
                    reply = self.request(conn, "POST", f"/api/games/{game['id']}/moves",
                                         {"pit": self.rng.choice(state["legal"])})
                    self.latencies.append(time.perf_counter() - start)
                    if reply is None:
                        break
                    self.moves += len(reply["played"])
                    state = reply["state"]
                self.games += 1
            except (OSError, http.client.HTTPException):
                self.errors += 1
                conn.close()
                conn = Connection(HOST, self.port, timeout=30)
        conn.close()


def listening(port: int, seconds: float = 30.0) -> None:
    """Wait until the server takes connections (it prints its address before it listens)."""
    until = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > until:
                raise
            time.sleep(0.1)


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:  # a client's kept-alive connection can hold uvicorn's shutdown
        server.kill()
        server.wait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def play(port: int, players, until: float, seeds: list[int], interval: float | None = None) -> dict:
    """One client process's share of a phase: a client thread per seed, until ``until`` (monotonic)."""
    threads = [Client(port, players, until, seed, interval) for seed in seeds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"latencies": [x for t in threads for x in t.latencies], "moves": sum(t.moves for t in threads),
            "errors": sum(t.errors for t in threads), "games": sum(t.games for t in threads)}


def phase(pool, processes: int, port: int, pid: int, name: str, clients: int, players, seconds: float,
          searchers: int = 0, rate: float | None = None) -> dict:
    """``clients`` playing ``players`` for ``seconds``, measured: closed loop, or open loop at
    ``rate`` moves a second in all. Beside them, where ``searchers``, as many games against a
    search that takes the server's whole move time on each reply (``alphabeta:depth=64``), played
    and not measured: how long the others wait while they search."""
    interval = clients / rate if rate else None
    until = time.monotonic() + seconds  # the same clock in every process
    beside = [Client(port, [None, SEARCHER], until, 1000 + k) for k in range(searchers)]
    for thread in beside:  # they wait on the server almost all the time: threads of this process
        thread.start()
    cpu = cpu_s(pid)
    start = time.perf_counter()
    shares = pool.starmap(play, [(port, players, until, list(range(clients))[k::processes], interval)
                                 for k in range(min(processes, clients))])
    wall = time.perf_counter() - start
    cpu = cpu_s(pid) - cpu
    for thread in beside:
        thread.join()
    latencies = [x for share in shares for x in share["latencies"]]
    moves = sum(share["moves"] for share in shares)
    return {"phase": name, "clients": clients, "players": players, "seconds": round(wall, 1), "rate": rate,
            "games": sum(share["games"] for share in shares), "moves": moves,
            "moves_per_s": round(moves / wall, 1),
            "requests": len(latencies), "p50_ms": round(1e3 * percentile(latencies, 0.5), 1),
            "p99_ms": round(1e3 * percentile(latencies, 0.99), 1), "errors": sum(s["errors"] for s in shares),
            "server_cpu_ms_per_request": round(1e3 * cpu / max(len(latencies), 1), 3),
            "searches_beside": searchers, "searches_done": sum(t.moves for t in beside) // 2}


def main() -> None:
    if sys.argv[1:] == ["--bare-server"]:  # the process start_server(bare=True) runs
        bare_server()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase (default 60)")
    parser.add_argument("--hot-seat", type=int, default=64, help="hot-seat clients (default 64)")
    parser.add_argument("--alphazero", type=int, default=8, help="clients against alphazero (default 8)")
    parser.add_argument("--few", type=int, default=8,
                        help="hot-seat clients of a first, lighter phase (default 8; 0: none): the latency "
                             "of a server that is not saturated")
    parser.add_argument("--searchers", type=int, default=8,
                        help="games whose every reply searches for the whole move time, beside a phase of "
                             "--few hot-seat clients (default 8; 0: no such phase): does a search hold up others?")
    parser.add_argument("--rate", type=float, default=1000.0,
                        help="moves a second of an open-loop hot-seat phase (default 1000; 0: none), sent by "
                             "--open-clients connections on a fixed schedule")
    parser.add_argument("--open-clients", type=int, default=16, help="connections of the open-loop phase (default 16)")
    parser.add_argument("--move-time", type=float, default=0.5, help="the server's time cap per search (default 0.5)")
    parser.add_argument("--client-processes", type=int, default=4,
                        help="processes the clients of a phase are shared among (default 4)")
    parser.add_argument("--quick", action="store_true", help="8 and 2 clients for 5 s each: a smoke run")
    add_quick_results_dir(parser, "serve_load.json and serve_load.md")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.hot_seat, args.alphazero, args.few, args.searchers, args.rate = 5.0, 8, 2, 0, 2, 200.0
    server, port = start_server(args.move_time)
    try:
        for _ in range(200):  # the server compiles its kernels once at start (warm_up)
            try:
                warm = Client(port, [None, None], time.monotonic() + 2, 0)
                warm.run()
                warm = Client(port, [None, "alphazero"], time.monotonic() + 3, 0)
                warm.run()
                break
            except OSError:
                time.sleep(0.5)
        before = rss_mb(server.pid)
        processes = max(1, args.client_processes)
        with multiprocessing.Pool(processes) as pool:  # started before the first phase's clock
            rows = [phase(pool, processes, port, server.pid, "hot-seat", clients, [None, None], args.seconds)
                    for clients in (args.few, args.hot_seat) if clients]
            if args.rate:
                rows.append(phase(pool, processes, port, server.pid, f"hot-seat, open loop at {args.rate:g}/s",
                                  args.open_clients, [None, None], args.seconds, rate=args.rate))
            if args.searchers:
                rows.append(phase(pool, processes, port, server.pid, f"hot-seat beside {args.searchers} searches",
                                  max(args.few, 2), [None, None], args.seconds, args.searchers))
            if args.alphazero:
                rows.append(phase(pool, processes, port, server.pid, "against alphazero", args.alphazero,
                                  [None, "alphazero"], args.seconds))
        after = rss_mb(server.pid)
    finally:
        stop(server)
    bare, bare_port = start_server(args.move_time, bare=True)
    try:  # the same clients against the floor, on the same uvicorn: what serve's own work costs
        listening(bare_port)
        with multiprocessing.Pool(processes) as pool:
            rows.append(phase(pool, processes, bare_port, bare.pid, "bare Starlette endpoint", max(args.few, 2),
                              [None, None], args.seconds))
    finally:
        stop(bare)
    hot_seat = next(r for r in rows if r["phase"] == "hot-seat")
    # of CPU times kept to the microsecond: to 0.01 ms, the bare endpoint's 0.05-0.06 alone moved the ratio 10%
    targets = {"cpu_ratio_to_bare": round(hot_seat["server_cpu_ms_per_request"]
                                          / max(rows[-1]["server_cpu_ms_per_request"], 1e-9), 2),
               "open_loop_p99_ms": next((r["p99_ms"] for r in rows if r["rate"]), None),
               "beside_searches_p99_ms": next((r["p99_ms"] for r in rows if r["searches_beside"]), None)}
    result = {"command": "python benchmarks/serve_load.py" + "".join(f" {a}" for a in sys.argv[1:]),
              "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
              "client_processes": max(1, args.client_processes),
              "load_average_1min_at_end": round(os.getloadavg()[0], 2),  # the machine is shared: how busy it was
              "server_rss_mb_before": round(before, 1), "server_rss_mb_after": round(after, 1),
              "targets": targets, "rows": rows}
    table = ["| phase | clients | moves/s | p50 ms | p99 ms | errors | games | server CPU ms a request | searches beside |",
             "|---|---|---|---|---|---|---|---|---|"]
    table += [f"| {r['phase']} | {r['clients']} | {r['moves_per_s']} | {r['p50_ms']} | {r['p99_ms']} | {r['errors']} | "
              f"{r['games']} | {r['server_cpu_ms_per_request']} | {r['searches_done'] if r['searches_beside'] else ''} |"
              for r in rows]
    text = (f"`{result['command']}` on {result['machine']}, the clients in {result['client_processes']} processes: "
            f"server memory {result['server_rss_mb_before']} MB before, {result['server_rss_mb_after']} MB after; "
            f"load average {result['load_average_1min_at_end']} at the end.\n\n" + "\n".join(table) + "\n\n"
            f"Server CPU a hot-seat move request against the bare endpoint's: {targets['cpu_ratio_to_bare']}x "
            f"(target at most 2x); p99 at a fixed open loop of {args.rate:g} moves/s: {targets['open_loop_p99_ms']} ms, "
            f"and beside {args.searchers} searches of the whole move time ({args.move_time:g} s): "
            f"{targets['beside_searches_p99_ms']} ms (targets at most 50 ms).\n")
    print(text)
    folder = quick_results_dir(args, args.quick)
    if folder is None:
        print(NOTHING_WRITTEN)
        return
    (folder / "serve_load.json").write_text(json.dumps(result, indent=1) + "\n")
    (folder / "serve_load.md").write_text(text)


if __name__ == "__main__":
    main()
