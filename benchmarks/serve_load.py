"""Load on ``mancala-marl serve``, on loopback only: many clients playing through the JSON API at once.

    python benchmarks/serve_load.py                 # 8, then 64 hot-seat clients for 60 s, then 8 against alphazero
    python benchmarks/serve_load.py --quick         # 8 and 2 clients for 5 s each, a smoke run (writes nothing)

The server runs as its own process (``mancala-marl serve --port 0``, bound to 127.0.0.1), so that
its memory is its own: read from /proc before the first phase and after the last. Each client is
a thread with one kept-alive connection that plays whole games: POST /api/games, then a random
legal pit per POST /api/games/{id}/moves until the game ends, then a new game. Hot-seat games
(``"players": [null, null]``) measure the server's own cost per move: the rules, the replay of
each move that the page animates, the JSON; games against ``alphazero`` (its default, 200
simulations a move) add a search to every answer. The server's CPU time per move request says what
a move costs it, apart from the queue on a busy machine. Reported per phase: moves per second (a
person's move and the replies it brings), p50 and p99 latency of the move requests, errors (any
answer but 200/201, or a failed connection). Writes ``serve_load.json`` and ``serve_load.md`` to
``--results-dir`` (default benchmarks/results; ``--quick``: nothing unless one is given).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

from results_dir import NOTHING_WRITTEN, add_quick_results_dir, quick_results_dir

HOST = "127.0.0.1"  # loopback only: the benchmark never listens beyond this machine


def start_server(move_time: float) -> tuple[subprocess.Popen, int]:
    mancala = Path(sys.executable).with_name("mancala-marl")
    server = subprocess.Popen([str(mancala), "serve", "--host", HOST, "--port", "0", "--max-games", "4096",
                               "--move-time", str(move_time)], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()  # "mancala-marl serve: http://127.0.0.1:PORT/ (Ctrl-C to stop)"
    port = int(line.split(f"{HOST}:")[1].split("/")[0])
    return server, port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """CPU seconds the process has used (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client(threading.Thread):
    def __init__(self, port: int, players, until: float, seed: int):
        super().__init__(daemon=True)
        self.port, self.players, self.until = port, players, until
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
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        while time.monotonic() < self.until:
            try:
                game = self.request(conn, "POST", "/api/games", {"game": "kalah", "players": self.players})
                if game is None:
                    continue
                state = game["state"]
                while not state["done"] and time.monotonic() < self.until:
                    start = time.perf_counter()
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
                conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        conn.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def phase(port: int, pid: int, name: str, clients: int, players, seconds: float) -> dict:
    until = time.monotonic() + seconds
    cpu = cpu_s(pid)
    threads = [Client(port, players, until, seed) for seed in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    cpu = cpu_s(pid) - cpu
    latencies = [x for t in threads for x in t.latencies]
    return {"phase": name, "clients": clients, "players": players, "seconds": round(wall, 1),
            "games": sum(t.games for t in threads), "moves": sum(t.moves for t in threads),
            "moves_per_s": round(sum(t.moves for t in threads) / wall, 1),
            "requests": len(latencies), "p50_ms": round(1e3 * percentile(latencies, 0.5), 1),
            "p99_ms": round(1e3 * percentile(latencies, 0.99), 1), "errors": sum(t.errors for t in threads),
            "server_cpu_ms_per_request": round(1e3 * cpu / max(len(latencies), 1), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase (default 60)")
    parser.add_argument("--hot-seat", type=int, default=64, help="hot-seat clients (default 64)")
    parser.add_argument("--alphazero", type=int, default=8, help="clients against alphazero (default 8)")
    parser.add_argument("--few", type=int, default=8,
                        help="hot-seat clients of a first, lighter phase (default 8; 0: none): the latency "
                             "of a server that is not saturated")
    parser.add_argument("--move-time", type=float, default=0.5, help="the server's time cap per search (default 0.5)")
    parser.add_argument("--quick", action="store_true", help="8 and 2 clients for 5 s each: a smoke run")
    add_quick_results_dir(parser, "serve_load.json and serve_load.md")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.hot_seat, args.alphazero, args.few = 5.0, 8, 2, 0
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
        rows = [phase(port, server.pid, "hot-seat", clients, [None, None], args.seconds)
                for clients in (args.few, args.hot_seat) if clients]
        rows.append(phase(port, server.pid, "against alphazero", args.alphazero, [None, "alphazero"], args.seconds))
        after = rss_mb(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # a client's kept-alive connection can hold uvicorn's shutdown
            server.kill()
            server.wait()
    result = {"command": "python benchmarks/serve_load.py" + "".join(f" {a}" for a in sys.argv[1:]),
              "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
              "load_average_1min_at_end": round(os.getloadavg()[0], 2),  # the machine is shared: how busy it was
              "server_rss_mb_before": round(before, 1), "server_rss_mb_after": round(after, 1), "rows": rows}
    table = ["| phase | clients | moves/s | p50 ms | p99 ms | errors | games | server CPU ms a request |",
             "|---|---|---|---|---|---|---|---|"]
    table += [f"| {r['phase']} | {r['clients']} | {r['moves_per_s']} | {r['p50_ms']} | {r['p99_ms']} | {r['errors']} | "
              f"{r['games']} | {r['server_cpu_ms_per_request']} |" for r in rows]
    text = (f"`{result['command']}` on {result['machine']}: server memory {result['server_rss_mb_before']} MB "
            f"before, {result['server_rss_mb_after']} MB after; load average {result['load_average_1min_at_end']} at the end.\n\n" + "\n".join(table) + "\n")
    print(text)
    folder = quick_results_dir(args, args.quick)
    if folder is None:
        print(NOTHING_WRITTEN)
        return
    (folder / "serve_load.json").write_text(json.dumps(result, indent=1) + "\n")
    (folder / "serve_load.md").write_text(text)


if __name__ == "__main__":
    main()
