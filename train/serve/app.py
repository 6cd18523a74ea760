"""The web app: the page (package data, no CDN) and the JSON API it plays through.

Every refusal is a 4xx with ``{"error": "one line"}``: 400 for a bad request, 404 for an unknown
game id, 409 for a move the game does not take now, 413 for a body past :data:`MAX_BODY`, 503
when the server holds its most live games. What may search (a policy's reply, a new game's
opening replies, the engines' view) runs in Starlette's thread pool, so a search of one game does
not hold up the others; a move of a game that two people play (no search: a fraction of a
millisecond) is played on the event loop, which spares it the hand-over to a thread and back.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mancala_marl.agents import POLICIES
from mancala_marl.games import GAMES, IllegalMoveError
from mancala_marl.svg import board_svg

from . import analysis
from .games import Conflict, Full, NotFound, Table, check_rules, rules_text
from .policies import WEB_POLICIES

MAX_BODY = 64 * 1024  # bytes: a game record of 1000 moves is about 20 KB
DEFAULT_OPPONENT = "alphazero"  # the shipped network, 200 simulations a move


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())[:500]}, status_code=status)


async def _body(request: Request) -> dict:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise _Refused(413, f"a request body is at most {MAX_BODY} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise _Refused(413, f"a request body is at most {MAX_BODY} bytes")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise _Refused(400, f"the body is not JSON: {error}") from None
    if not isinstance(body, dict):
        raise _Refused(400, "the body must be a JSON object")
    return body


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _answers(handler):
    """Turn the refusals of the game table and the library into one-line 4xx answers."""
    async def route(request: Request):
        try:
            return await handler(request)
        except _Refused as error:
            return _error(error.status, str(error))
        except NotFound as error:
            return _error(404, str(error))
        except Conflict as error:
            return _error(409, str(error))
        except Full as error:
            return _error(503, str(error))
        except (ValueError, IllegalMoveError, ImportError) as error:  # ImportError: a policy's missing extra
            return _error(400, str(error))
    return route


def create_app(table: Table | None = None):
    """The Starlette app, serving ``table``'s games (a new :class:`Table` with its defaults if None)."""
    table = table or Table()

    async def list_games(request):
        games = [{"name": name, "rules_doc": rules_text(cls()),
                  "parameters": [{"name": p.name, "type": p.type.__name__, "default": p.default, "doc": p.doc,
                                  "low": p.low, "high": p.high, "choices": list(p.choices)}
                                 for p in cls.parameters],
                  "examples": list(cls.examples), "pit_word": cls.pit_word, "seed_word": cls.seed_word}
                 for name, cls in GAMES.items()]
        policies = [name for name in WEB_POLICIES if name in POLICIES]
        return JSONResponse({"games": games, "policies": policies, "default_opponent": DEFAULT_OPPONENT,
                             "move_time": table.move_time, "engines": list(analysis.ENGINES)})

    async def new_game(request):
        body = await _body(request)
        unknown = sorted(set(body) - {"game", "rules", "opponent", "seat", "players", "moves"})
        if unknown:
            raise _Refused(400, f"unknown field {unknown[0]!r}; a new game takes game, rules, opponent, seat, "
                                f"players, moves")
        if "players" in body:
            players = body["players"]
            if not isinstance(players, list) or len(players) != 2:
                raise _Refused(400, "players must be a list of two policy specs or nulls (null: a person)")
        else:
            seat = body.get("seat", 0)
            if seat not in (0, 1) or isinstance(seat, bool):
                raise _Refused(400, f"seat must be 0 or 1, got {seat!r}")
            opponent = body.get("opponent", DEFAULT_OPPONENT)
            players = [None, opponent] if seat == 0 else [opponent, None]
        game_id, match, played = await run_in_threadpool(
            table.new, body.get("game", "kalah"), body.get("rules", {}), players, body.get("moves", []))
        return JSONResponse({"id": game_id, "state": match.state_json(), "played": played, **match.record()},
                            status_code=201)

    async def get_game(request):
        match = table.get(request.path_params["id"])
        return JSONResponse({"id": request.path_params["id"], "state": match.state_json(), **match.record(),
                             "rules_doc": rules_text(match.game)})

    async def move(request):
        body = await _body(request)
        if "pit" not in body:
            raise _Refused(400, "a move is {\"pit\": k}, the mover's pit 0-based")
        game_id = request.path_params["id"]
        if table.get(game_id).people_only:  # no reply to search for: a move of the rules, played here
            match, played = table.move(game_id, body["pit"])
        else:
            match, played = await run_in_threadpool(table.move, game_id, body["pit"])
        return JSONResponse({"state": match.state_json(), "played": played})

    async def step(request):
        match, played = await run_in_threadpool(table.step, request.path_params["id"])
        return JSONResponse({"state": match.state_json(), "played": played})

    async def undo(request):
        match = table.get(request.path_params["id"])
        with match.lock:
            match.undo()
            return JSONResponse({"state": match.state_json(), **match.record()})

    async def analyse(request):
        match = table.get(request.path_params["id"])
        engine = request.query_params.get("engine", "alphabeta")
        with match.lock:
            state = match.state.copy()
        if match.over:
            raise Conflict("the game is over: there is no move to weigh")
        view = await run_in_threadpool(analysis.analyse, match.game, state, engine, table.move_time)
        return JSONResponse(view)

    async def board(request):
        """The board as SVG: the page's picture, with ``data-cell``/``data-seeds`` on every cell."""
        match = table.get(request.path_params["id"])
        return Response(board_svg(match.game, match.state), media_type="image/svg+xml")

    async def preview(request):
        """A game's starting board as SVG, for the rules chosen in the query (``?pits=4``)."""
        name = request.path_params["name"]
        rules = {key: _query_value(value) for key, value in request.query_params.items()}
        from mancala_marl.games import make_game
        game = make_game(name, **check_rules(name, rules))
        return Response(board_svg(game, game.init()), media_type="image/svg+xml")

    async def page(request):
        return Response(_static("index.html"), media_type="text/html")

    async def not_found(request, exc):
        if request.url.path.startswith("/api/"):
            return _error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")
        return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain")

    static = resources.files("mancala_marl.train.serve") / "static"
    routes = [
        Route("/", page),
        Route("/api/games", _answers(list_games), methods=["GET"]),
        Route("/api/games", _answers(new_game), methods=["POST"]),
        Route("/api/games/{id}", _answers(get_game), methods=["GET"]),
        Route("/api/games/{id}/moves", _answers(move), methods=["POST"]),
        Route("/api/games/{id}/step", _answers(step), methods=["POST"]),
        Route("/api/games/{id}/undo", _answers(undo), methods=["POST"]),
        Route("/api/games/{id}/analysis", _answers(analyse), methods=["GET"]),
        Route("/api/games/{id}/board.svg", _answers(board), methods=["GET"]),
        Route("/api/boards/{name}.svg", _answers(preview), methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=str(Path(str(static))))),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: not_found})


def _static(name: str) -> bytes:
    return (resources.files("mancala_marl.train.serve") / "static" / name).read_bytes()


def _query_value(text: str):
    """A rule's value from a query string, read as the command line reads it (4, true, "mover")."""
    from mancala_marl.agents.base import literal

    return literal(text)


def warm_up() -> None:
    """Load the compiled kernels a first visitor would otherwise wait for (seconds each): a move
    of every game replayed, a move of the default opponent and of each engine."""
    from mancala_marl.games import make_game

    from .games import Table

    table = Table(move_time=0.05)
    for name in GAMES:
        game_id, _, _ = table.new(name, {}, [None, None])
        table.move(game_id, table.get(game_id).state_json()["legal"][0])
    game_id, match, _ = table.new("kalah", {}, [None, DEFAULT_OPPONENT])
    for engine in analysis.ENGINES:
        analysis.analyse(make_game("kalah"), match.state, engine, 0.05)
