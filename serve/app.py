"""The web app: the page (package data, no CDN) and the JSON API it plays through.

Every refusal is a 4xx with ``{"error": "one line"}``: 400 for a bad request, 404 for an unknown
game id, 409 for a move the game does not take now, 413 for a body past :data:`MAX_BODY`, 503
when the server holds its most live games. The refusals are mapped once, by their type
(Starlette's ``exception_handlers``); anything else is a bug, answered 500.

No game waits on another's search. Every search (a policy's reply, a new game's opening replies,
``step``, the engines' view, the perfect-play database) runs in a search thread of lower priority
(``search`` of :mod:`mancala_marl.serve.games`), and the compiled kernels it spends its time in
release the interpreter lock (:mod:`mancala_marl._compile`), so the event loop goes on answering
while it runs. A game with a
policy in a seat holds its own lock for the length of the policy's search: every request on such a
game (undo and reads included) takes that lock in a worker thread, never on the event loop. A game
that two people play has no search to wait on: its requests run on the event loop (a move is a
fraction of a millisecond), which spares them the hand-over to a thread and back; so does its
creation, unless it replays imported moves.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse as StarletteJSONResponse
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mancala_marl.agents import POLICIES
from mancala_marl.errors import BadInput
from mancala_marl.extras import MissingExtraError
from mancala_marl.games import GAMES, NAMED, NAMED_GAMES, make_game
from mancala_marl.svg import board_svg

from . import analysis
from .games import WEB_PITS, WEB_SEEDS, Conflict, Full, Match, NotFound, Table, check_rules, search
from .policies import WEB_POLICIES

MAX_BODY = 64 * 1024  # bytes: a game record of 1000 moves is about 20 KB
DEFAULT_OPPONENT = "alphazero"  # the shipped network, 200 simulations a move
FALLBACK_OPPONENT = "alphabeta"  # where no network is shipped for a game's rules (the family's games)
NEW_GAME_FIELDS = ("game", "rules", "opponent", "seat", "players", "moves")
MOVE_FIELDS = ("pit",)


class JSONResponse(StarletteJSONResponse):
    """Starlette's JSON answer, byte for byte, from an encoder made once: ``json.dumps`` with its
    arguments makes a new one for every answer."""

    encoder = json.JSONEncoder(ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))

    def render(self, content) -> bytes:
        return self.encoder.encode(content).encode("utf-8")


def default_opponent(name) -> str:
    """The opponent a new game of ``name`` gets when the request names none: the shipped AlphaZero
    network where one was trained for the game's default rules (Kalah, Sungka, Togyz Kumalak,
    Oware), else alphabeta (the family and its traditional games). An unknown name gets the
    default, for the game's own refusal to name."""
    known = isinstance(name, str) and (name in GAMES or name in NAMED)
    return _default_opponent(name) if known else DEFAULT_OPPONENT


@functools.cache  # one answer per known name: a new game's request asks it without a file lookup
def _default_opponent(name: str) -> str:
    game = make_game(name)
    if game.preset is not None and game.preset.params:
        return FALLBACK_OPPONENT
    from mancala_marl.agents.alphazero import shipped_network

    try:
        shipped_network(game)
    except BadInput:
        return FALLBACK_OPPONENT
    return DEFAULT_OPPONENT


def preset_rules(game) -> dict:
    """The rule parameters of a traditional game (``game.preset``) that differ from its registered
    game's defaults: what makes it that game."""
    defaults = {param.name: param.default for param in type(game).parameters}
    return {key: value for key, value in game.params.items() if defaults[key] != value}


def rules_doc(game) -> str:
    """The rules a page shows for ``game``: its rules in a player's words (``Game.rules_text``),
    after a traditional game's own lines (where it is played, what sets it apart, its source)."""
    text, preset = game.rules_text(), game.preset
    if preset is None:
        return text
    return f"{preset.title}, {preset.region}. {preset.about}\nSource: {preset.source}.\n\n{text}"


class Refused(BadInput):
    """A request refused before it reaches the games, with the status to answer."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())[:500]}, status_code=status)


def _status(status: int):
    return lambda request, error: _error(status, str(error))


# Looked up along each exception's classes, the most specific first: NotFound before BadInput.
ERROR_STATUS = {NotFound: 404, Conflict: 409, Full: 503,
                BadInput: 400, MissingExtraError: 400}  # a policy whose extra is not installed


async def _body(request: Request, fields: tuple[str, ...]) -> dict:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes, with no field but ``fields``."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
    # Read from the ASGI messages themselves, counted as they come (a chunked body has no length to
    # check first): Starlette's request.body() reaches the same bytes through an async generator,
    # and a move's body and its JSON then took 4.4 us, not 3.0 (in-process, no HTTP)
    raw, more = b"", True
    while more:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()  # as request.body() does
        raw += message.get("body", b"")
        if len(raw) > MAX_BODY:
            raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
        more = message.get("more_body", False)
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise Refused(400, f"the body is not JSON: {error}") from None
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise Refused(400, f"unknown field {json.dumps(unknown[0])[:40]}; this request takes {', '.join(fields)}")
    return body


async def _locked(match: Match, read):
    """``read(match)`` under the game's lock: on the event loop where no search can hold that lock
    (people in both seats), else in a worker thread, where only this request waits for it."""
    def run():
        with match.lock:
            return read(match)
    return run() if match.people_only else await run_in_threadpool(run)


def create_app(table: Table | None = None):
    """The Starlette app, serving ``table``'s games (a new :class:`Table` with its defaults if None)."""
    table = table or Table()
    catalog = {}  # the answer of GET /api/games, made on its first request

    async def list_games(request):
        if not catalog:
            catalog.update(_catalog(table))
        return JSONResponse(catalog)

    async def new_game(request):
        body = await _body(request, NEW_GAME_FIELDS)
        if "players" in body:
            players = body["players"]
            if not isinstance(players, list) or len(players) != 2:
                raise Refused(400, "players must be a list of two policy specs or nulls (null: a person)")
        else:
            seat = body.get("seat", 0)
            if seat not in (0, 1) or isinstance(seat, bool):
                raise Refused(400, f"seat must be 0 or 1, got {json.dumps(seat)[:40]}")
            opponent = body["opponent"] if "opponent" in body else default_opponent(body.get("game", "kalah"))
            players = [None, opponent] if seat == 0 else [opponent, None]
        name, rules, moves = body.get("game", "kalah"), body.get("rules", {}), body.get("moves", [])
        if players == [None, None] and not moves:  # no search and no replay: microseconds, played here
            game_id, match, played = table.new(name, rules, players, moves)  # (a hop to a thread costs more)
        else:
            game_id, match, played = await run_in_threadpool(table.new, name, rules, players, moves)
        state, record = await _locked(match, lambda m: (m.state_json(), m.record()))
        return JSONResponse({"id": game_id, "state": state, "played": played, **record,
                             "rules_doc": rules_doc(match.game)}, status_code=201)

    async def get_game(request):
        match = table.get(request.path_params["id"])
        state, record = await _locked(match, lambda m: (m.state_json(), m.record()))
        return JSONResponse({"id": request.path_params["id"], "state": state, **record,
                             "rules_doc": rules_doc(match.game)})

    async def move(request):
        body = await _body(request, MOVE_FIELDS)
        if "pit" not in body:
            raise Refused(400, "a move is {\"pit\": k}, the mover's pit 0-based")
        match = table.get(request.path_params["id"])
        if match.people_only:  # no reply to search for: a move of the rules, played here
            state, played = table.move(match, body["pit"])
        else:
            state, played = await run_in_threadpool(table.move, match, body["pit"])
        return JSONResponse({"state": state, "played": played})

    async def step(request):
        state, played = await run_in_threadpool(table.step, request.path_params["id"])
        return JSONResponse({"state": state, "played": played})

    async def undo(request):
        def undo_and_read(match):
            match.undo()
            return {"state": match.state_json(), **match.record()}
        return JSONResponse(await _locked(table.get(request.path_params["id"]), undo_and_read))

    async def analyse(request):
        match = table.get(request.path_params["id"])
        engine = request.query_params.get("engine", "alphabeta")
        over, state = await _locked(match, lambda m: (m.over, m.state.copy()))
        if over:
            raise Conflict("the game is over: there is no move to weigh")
        view = await run_in_threadpool(search, analysis.analyse, match.game, state, engine, table.move_time)
        return JSONResponse(view)

    async def board(request):
        """The board as SVG: the page's picture, with ``data-cell``/``data-seeds`` on every cell."""
        match = table.get(request.path_params["id"])
        state = await _locked(match, lambda m: m.state.copy())
        return Response(board_svg(match.game, state), media_type="image/svg+xml")

    async def preview(request):
        """A game's starting board as SVG, for the rules chosen in the query (``?pits=4``)."""
        name = request.path_params["name"]
        rules = {key: _query_value(value) for key, value in request.query_params.items()}
        game = make_game(name, **check_rules(name, rules))
        return Response(board_svg(game, game.init()), media_type="image/svg+xml")

    async def page(request):
        return Response(_static("index.html"), media_type="text/html")

    async def not_found(request, exc):
        if request.url.path.startswith("/api/"):
            return _error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")
        return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain")

    static = resources.files("mancala_marl.serve") / "static"
    routes = [  # the router tries them in order, a regular expression each: a move, the most frequent, first
        Route("/api/games/{id}/moves", move, methods=["POST"]),
        Route("/", page),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}/step", step, methods=["POST"]),
        Route("/api/games/{id}/undo", undo, methods=["POST"]),
        Route("/api/games/{id}/analysis", analyse, methods=["GET"]),
        Route("/api/games/{id}/board.svg", board, methods=["GET"]),
        Route("/api/boards/{name}.svg", preview, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=str(Path(str(static))))),
    ]
    handlers = {HTTPException: not_found, Refused: lambda request, error: _error(error.status, str(error)),
                **{kind: _status(status) for kind, status in ERROR_STATUS.items()}}
    return Starlette(routes=routes, exception_handlers=handlers)


def _catalog(table: Table) -> dict:
    """The answer of GET /api/games: the registered games with their parameters; the traditional
    games by name (``named``: each a registered game and its preset rules); the policies, the
    server's bounds and engines."""
    games = [{"name": name, "rules_doc": cls().rules_text(),
              "parameters": [{"name": p.name, "type": p.type.__name__, "default": p.default, "doc": p.doc,
                              "low": p.low, "high": p.high, "choices": list(p.choices)}
                             for p in cls.parameters],
              "examples": list(cls.examples), "pit_word": cls.pit_word, "seed_word": cls.seed_word,
              "opponent": default_opponent(name)}
             for name, cls in GAMES.items()]
    named = []
    for preset in NAMED_GAMES:
        game = make_game(preset.name)
        named.append({"name": preset.name, "title": preset.title, "game": preset.game, "region": preset.region,
                      "source": preset.source, "about": preset.about, "rules": preset_rules(game),
                      "rules_doc": rules_doc(game), "opponent": default_opponent(preset.name)})
    policies = [name for name in WEB_POLICIES if name in POLICIES]
    limits = {"pits": [WEB_PITS.low, WEB_PITS.high], "seeds": [WEB_SEEDS.low, WEB_SEEDS.high],
              "move_time": table.move_time}
    return {"games": games, "named": named, "policies": policies, "default_opponent": DEFAULT_OPPONENT,
            "move_time": table.move_time, "limits": limits, "engines": list(analysis.ENGINES)}


def _static(name: str) -> bytes:
    return (resources.files("mancala_marl.serve") / "static" / name).read_bytes()


def _query_value(text: str):
    """A rule's value from a query string, read as the command line reads it (4, true, "mover")."""
    from mancala_marl.agents.base import literal

    return literal(text)


def warm_up() -> None:
    """Load the compiled kernels a first visitor would otherwise wait for (seconds each): a move
    of every game replayed, a move of the default opponent and of each engine."""
    from .games import Table

    table = Table(move_time=0.05)
    for name in GAMES:
        game_id, match, _ = table.new(name, {}, [None, None])
        table.move(game_id, match.state_json()["legal"][0])
    game_id, match, _ = table.new("kalah", {}, [None, DEFAULT_OPPONENT])
    for engine in analysis.ENGINES:
        analysis.analyse(make_game("kalah"), match.state, engine, 0.05)
