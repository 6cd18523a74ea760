"""Sphinx extension: one page per registered game, written from its rules file at build time;
the charts drawn from benchmarks/results; and the tests' marks taken out of the code a reader sees.

Every game in :data:`mancala_marl.games.GAMES` gets ``games/<name>.md``: its rules in a player's words
(``Game.rules_text()``) and as implemented (the rules module's docstring), pictures of the board drawn by :mod:`mancala_marl.svg` (as the web page draws it) at
moments found by playing seeded random games (the start, a capture, an extra turn, a move that
sows on from a pit it reached, a pit marked by the rules, a pass, the end), a worked move
sequence with the code that replays it, the rule parameters, the observation and action spaces,
the rewards and the version history. A new variant gets its page from its file alone.

The traditional games by name (:data:`mancala_marl.games.NAMED_GAMES`) get one catalogue page,
``games/traditional.md``: each game's starting board, region, source, line, rules text and the
parameters that make it, with the MancalaGames file it matched in ``benchmarks/results/family_crosscheck/``.

The pages and pictures are build outputs (``docs/games/`` is ignored by git); the ladder chart of
``agents_arena.md`` is drawn here too, from ``benchmarks/results/ladder/ladder.json``.
"""

from __future__ import annotations

import inspect
import json
import pathlib
import re

import numpy as np

DOCS = pathlib.Path(__file__).resolve().parents[1]
GAMES_DIR = DOCS / "games"
IMAGES = GAMES_DIR / "img"
LADDER_JSON = DOCS.parent / "benchmarks" / "results" / "ladder" / "ladder.json"
LADDER_PNG = DOCS / "_generated" / "ladder.png"
SPEED_JSON = DOCS.parent / "benchmarks" / "results" / "speed" / "speed.json"
SPEED_PNG = DOCS / "_generated" / "speed.png"
CROSSCHECK_JSON = DOCS.parent / "benchmarks" / "results" / "family_crosscheck" / "family_crosscheck.json"
CATALOGUE = "traditional"  # games/traditional.md
TITLES = {"Family": "Two-row family"}  # a class whose name alone says too little
SEARCH_GAMES = 100  # seeded random games searched for each kind of move
WORKED_MOVES = 8


def title(cls) -> str:
    """``TogyzKumalak`` -> ``Togyz Kumalak``."""
    return TITLES.get(cls.__name__) or re.sub(r"(?<=[a-z])(?=[A-Z])", " ", cls.__name__)


def quoted(text: str) -> list[str]:
    """A player's text as a Markdown block quote, a paragraph per paragraph."""
    return [f"> {line}" if line else ">" for line in text.splitlines()]


def moved_on(game, before, after, mover, pit) -> bool:
    """Whether a move sowed more seeds into the pits than it picked up: it picked up a pit where
    it ended and sowed on (Sungka's relay). Captures and sweeps only take seeds off the pits."""
    taken = int(before[mover * (game.pits + 1) + pit])
    pits = [c for c in range(game.board_size) if c not in (game.pits, 2 * game.pits + 1)]
    grown = sum(max(int(after[c]) - int(before[c]), 0) for c in pits)
    return grown > taken


def kinds_of_move(game, before, after, mover, pit) -> list[str]:
    """The moments a move shows: ``capture``, ``extra_turn``, ``pass``, ``sows_on``, ``marked``, ``end``."""
    from mancala_marl.games.base import side_is_empty
    from mancala_marl.matches.narration import narrate, trace_move

    kinds = []
    over = game.is_terminal(after)
    gained = game.scores(after)[mover] - game.scores(before)[mover]
    made = set(game.marked_pits(after)[0]) - set(game.marked_pits(before)[0])
    if over:
        kinds.append("end")
    elif game.to_move(after) == mover:
        kinds.append("pass" if side_is_empty(after, game.pits, 1 - mover) else "extra_turn")
    elif gained and narrate(game, before, after, pit, *trace_move(game, before, pit, after))[1]:
        kinds.append("capture")
    if made:
        kinds.append("marked")
    if not over and moved_on(game, before, after, mover, pit):
        kinds.append("sows_on")
    return kinds


CAPTIONS = {
    "capture": "A capture",
    "extra_turn": "An extra turn: the last seed in the mover's own store",
    "sows_on": "Sowing on: the last seed lands in a full pit, which is picked up and sown on (relay)",
    "marked": "A pit taken out of play by the rules, drawn as a red X (Togyz Kumalak's tuzduk)",
    "pass": "A pass: the other player has no move, so the mover plays again",
    "end": "The last move, and the seeds left swept to the stores",
}


def find_moments(game, seed: int = 0) -> dict[str, tuple]:
    """For each kind of move, the first (before, after, mover, pit, description) found in seeded
    random games; only the kinds this game has appear."""
    from mancala_marl.matches.play import what_it_did

    found: dict[str, tuple] = {}
    rng = np.random.default_rng(seed)
    for _ in range(SEARCH_GAMES):
        state = game.init()
        while not game.is_terminal(state):
            mover = game.to_move(state)
            pit = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            after = game.apply(state.copy(), pit)
            # one kind a move, so that each kind has a picture of its own (Sungka's page showed
            # one relay that captured as its capture and its relay)
            new = [kind for kind in kinds_of_move(game, state, after, mover, pit) if kind not in found]
            if new:
                found[new[0]] = (state, after, mover, pit, what_it_did(game, state, pit).lstrip(": "))
            state = after
        if len(found) == len(CAPTIONS):
            break
    return found


def picture(game, states, path: pathlib.Path) -> None:
    """The boards of ``states`` side by side, as SVG: the drawing of the web page and of
    :func:`mancala_marl.svg.save_svg`, which scales without blur."""
    from mancala_marl.svg import batch_svg

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(batch_svg(game, np.stack(states), across=True, gap=24), encoding="utf-8")


def parameters_table(cls) -> list[str]:
    declared = getattr(cls, "parameters", None)
    rows = ["| parameter | default | takes | meaning |", "|---|---|---|---|"]
    if declared:  # typed declarations (mancala_marl.games.params.Param)
        for p in declared:
            takes = f"{p.kind}, {p.bounds}" if getattr(p, "bounds", "") else p.kind
            rows.append(f"| `{p.name}` | `{p.default!r}` | {takes} | {p.doc} |")
        return rows
    for p in inspect.signature(cls).parameters.values():
        kind = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
        rows.append(f"| `{p.name}` | `{p.default!r}` | {kind} | |")
    return rows


def spaces_table(name: str) -> list[str]:
    import mancala_marl
    from mancala_marl.observations import obs_types

    rows = ["| `obs_type` | `observation` shape | low .. high |", "|---|---|---|"]
    module = mancala_marl.ENV_MODULES[name]
    for obs_type in obs_types(module.raw_env().game):
        space = module.raw_env(obs_type=obs_type).observation_space("player_0")["observation"]
        rows.append(f"| `{obs_type}` | {space.shape} | {space.low.min():g} .. {space.high.max():g} |")
    return rows


def board_text(game, state, num_moves: int | None = None) -> str:
    from mancala_marl.render import ansi

    return ansi(game, state, num_moves)


def worked_sequence(name: str, game) -> list[str]:
    """A seeded game's first moves, each with what it did, and the code that replays them."""
    from mancala_marl.matches.play import what_it_did

    rng = np.random.default_rng(1)
    state, lines, pits = game.init(), [], []
    for _ in range(WORKED_MOVES):
        if game.is_terminal(state):
            break
        mover = game.to_move(state)
        pit = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        after = game.apply(state.copy(), pit)
        lines.append(f"{len(pits) + 1}. player_{mover} sows {game.pit_word[:-1]} {pit}{what_it_did(game, state, pit)}.")
        pits.append(pit)
        state = after
    code = [
        "```python",
        f"from mancala_marl import {name}_v0",
        "",
        f"env = {name}_v0.raw_env(render_mode=\"ansi\")",
        "env.reset()",
        f"for pit in {pits}:  # each the pit of the agent to move, as env.agent_selection says",
        "    env.step(pit)",
        "print(env.render())",
        "```",
    ]
    return lines + ["", "The same moves through the AEC API:", "", *code, "", "prints", "", "```text",
                    board_text(game, state, len(pits)).rstrip("\n"), "```"]


def game_page(name: str, cls) -> str:
    import mancala_marl

    game = cls()
    module = cls.__module__
    env_module = mancala_marl.ENV_MODULES[name].__name__.rsplit(".", 1)[1]
    pit, seed = game.pit_word[:-1], game.seed_word[:-1]
    out = [
        f"# {title(cls)}",
        "",
        f"`mancala_marl.{env_module}` (PettingZoo AEC), `{mancala_marl.gym_id(name)}` (Gymnasium, "
        f"one seat against a policy), rules class {{class}}`{module}.{cls.__name__}`, command line "
        f"name `{name}`. By default {game.pits} {game.pit_word} of {game.seeds} {game.seed_word} a side, "
        f"{game.total_seeds} in all.",
        "",
        "## How it is played",
        "",
        f"In a player's words, written from the rule parameters (`Game.rules_text()`, also `mancala-marl rules "
        f"{name}`, the web app's Rules dialog and `?` in `mancala-marl play`); the defaults here.",
        "",
        *quoted(game.rules_text()),
        "",
        "## The rules as implemented",
        "",
        "The rules module's notes for developers: the board's layout in the state, each rule's exact reading.",
        "",
        "```{eval-rst}",
        f".. automodule:: {module}",
        "   :no-index:",
        "   :no-members:",
        "```",
        "",
        "## Pictures",
        "",
        "Drawn by `mancala_marl.svg` (as the web page and `save_svg` draw it): player_1's row on top, "
        "running right to left, player_0's row below, running left to right, each player's store "
        f"on its right (player_1's on the left of the picture), so sowing goes anticlockwise. The "
        f"{game.pit_word} of the player to move have a yellow ring; a red X marks a {pit} the rules "
        "have taken out of play (Togyz Kumalak's tuzduk). Numbers are the seeds in each "
        f"{pit} and store; {game.pit_word} are numbered 0..{game.pits - 1} from each player's left.",
        "",
    ]
    IMAGES.mkdir(parents=True, exist_ok=True)
    picture(game, [game.init()], IMAGES / f"{name}_start.svg")
    out += [f"```{{figure}} img/{name}_start.svg", f":alt: {title(cls)} at the start",
            "", f"The start: {game.seeds} {game.seed_word} in every {pit}, player_0 to move.", "```", ""]
    moments = find_moments(game)
    for kind in [k for k in CAPTIONS if k in moments]:
        before, after, mover, pit_no, said = moments[kind]
        picture(game, [before, after], IMAGES / f"{name}_{kind}.svg")
        out += [f"```{{figure}} img/{name}_{kind}.svg", f":alt: {CAPTIONS[kind]}", "",
                f"{CAPTIONS[kind]}. Before and after player_{mover} sows {pit} {pit_no}: {said}.", "```", ""]
    out += ["## A worked move sequence", "", "A game of random legal moves (seed 1), move by move:", "",
            *worked_sequence(name, game), ""]
    out += ["## Parameters", "", f"Rule parameters, as keywords of `{env_module}.env(...)`, of "
            f"`{cls.__name__}(...)` and on the command line as `{name}:{game.pit_word}=4,...`:", "",
            *parameters_table(cls), "",
            "Every environment also takes `obs_type`, `reward`, `max_moves=1000` (truncation) and "
            "`render_mode` (`\"human\"`, `\"ansi\"`, `\"rgb_array\"`): see [](../environments.md).", ""]
    out += ["## Observations and actions", "",
            f"An action is one of the mover's own {game.pit_word}, `Discrete({game.pits})`, numbered in "
            "its own sowing order. The observation is a Dict of `observation` (float32, from the "
            f"observer's side) and `action_mask` (int8, length {game.pits}; all zeros for the agent "
            "not to move). The encodings, with the default rules:", "", *spaces_table(name), "",
            "What each encoding holds: [](../environments.md#observations).", ""]
    out += ["## Rewards", "",
            "`reward=\"result\"` (default): +1 to the winner and -1 to the loser at the end, 0 for a "
            "draw and on every other step. `reward=\"score_diff\"`: after each move the mover gets its "
            "store gain minus the opponent's, the opponent the negative. An illegal move through "
            "`env()` loses the game with -1; `raw_env()` raises `IllegalMoveError` naming the rule.", ""]
    presets = [g for g in named_games() if g.game == name and g.name != name]
    if presets:
        out += ["## Traditional games on these rules", "",
                f"{len(presets)} traditional games are points of these rules, each with its preset parameters "
                f"(`make_game(\"{presets[0].name}\")`, `{presets[0].name}:seeds=5` on the command line): "
                + ", ".join(f"{{ref}}`{g.title} <named-{g.name}>`" for g in presets)
                + f". Their pictures, regions and sources: [](./{CATALOGUE}.md).", ""]
    out += ["## Version history", "", f"- `{env_module}`: the first version. See [](../changelog.md).", ""]
    return "\n".join(out)


def named_games():
    from mancala_marl.games import NAMED_GAMES

    return NAMED_GAMES


def preset_rules(game) -> dict:
    """The parameters of a traditional game that differ from its registered game's defaults."""
    defaults = {param.name: param.default for param in type(game).parameters}
    return {key: value for key, value in game.params.items() if defaults[key] != value}


def spec_params(spec: str) -> dict:
    """``"Family(holes=6, seeds=4, ...)"`` (a game's repr, as the cross-check writes it) -> its
    parameters; {} for anything else."""
    import ast

    try:
        call = ast.parse(spec, mode="eval").body
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    except (SyntaxError, ValueError, AttributeError):
        return {}


def crosscheck() -> tuple[dict, list]:
    """The family cross-check's summary and its matched files, each (file, its entry, the rules it
    was read as): ``({}, [])`` without the results file."""
    try:
        results = json.loads(CROSSCHECK_JSON.read_text())
    except (OSError, ValueError):
        return {}, []
    matched = [(file, entry, spec_params(entry.get("game_spec", "")))
               for file, entry in results.get("files", {}).items() if entry.get("status") == "matched"]
    return {**results.get("summary", {}), "per_file": results.get("games")}, matched


def matched_files(game, matched) -> list:
    """The matched files read as ``game``'s rules: each parameter the run wrote as ours (a
    parameter added since, absent there, at its default)."""
    defaults = {param.name: param.default for param in type(game).parameters}
    return [(file, entry) for file, entry, params in matched
            if params and all(params.get(key, defaults[key]) == value for key, value in game.params.items())]


def linked(text: str) -> str:
    """A source with its address as a link (MyST's ``<https://...>``)."""
    return re.sub(r"(https?://\S+)", r"<\1>", text)


def catalogue_page() -> str:
    """``games/traditional.md``: every traditional game by name, its starting board, region,
    source, line and parameters, and the MancalaGames file it was held to."""
    from mancala_marl import gym_id
    from mancala_marl.games import GAMES, make_game

    summary, matched = crosscheck()
    games = named_games()
    family = [g for g in games if g.game == "family"]
    out = [
        "# Traditional games",
        "",
        f"{len(games)} traditional games by name. {len(family)} of them are points of the "
        f"[two-row family](family.md) (`mancala_marl.games.family`), its parameters read from "
        "MancalaGames' catalogue (StoneShark's engine of 141 traditional games, whose files "
        "`mancala_marl.games.load_mancalagames` reads), each one held to MancalaGames' engine "
        "move for move by `benchmarks/family_crosscheck.py`: random games played in lockstep, the "
        "boards compared after every move.",
    ]
    if summary:
        out[-1] += (" Its last run ([`benchmarks/results/family_crosscheck/family_crosscheck.md`]"
                    "(path:../../benchmarks/results/family_crosscheck/family_crosscheck.md)): "
                    f"{summary.get('matched', 0)} of {summary.get('files', 0)} files matched over "
                    f"{summary.get('per_file')} games each, {summary.get('mismatch', 0)} mismatch, "
                    f"{summary.get('moves', 0):,} moves compared; the rest are refused in one line naming "
                    "the rule the family does not play.")
    out += [
        "",
        "A game of rounds refilled from the ends of the rows (Dakon, Pallanguli, Bosh...) plays its whole match: "
        "each round's seeds refill the next round's holes, the holes a player cannot fill closed for that round, "
        "until a player cannot fill enough of them (`rounds=\"one\"` plays its first round alone); the other "
        "games of rounds are their first round here. Oware, Togyz Kumalak and Sungka keep rules files "
        "of their own. Each is made by name, and changed by its parameters:",
        "",
        "```python",
        "import gymnasium",
        "",
        "import mancala_marl",
        "from mancala_marl.games import make_game",
        "",
        "dakon = make_game(\"dakon\")  # the rules alone",
        "variant = make_game(\"wari\", seeds=5)  # parse_game(\"wari:seeds=5\") reads the command line's form",
        "env = mancala_marl.make_env(\"dakon\")  # PettingZoo AEC; also \"wari:seeds=5\" or a MancalaGames file",
        "single = gymnasium.make(\"mancala_marl/Dakon-v0\", opponent=\"random\")  # one seat, the table's id",
        "```",
        "",
        "and every command takes the name wherever it takes a game (`mancala-marl play dakon`); "
        "[the web app](../serve.md) lists them. The pictures are drawn by `mancala_marl.svg`, as on the "
        "game pages: player_0's row below, sowing anticlockwise unless a game says clockwise. The board "
        "column is the holes a side × the seeds in each at the start.",
        "",
        "| game | region | board | rules | Gymnasium id |",
        "|---|---|---|---|---|",
    ]
    for g in games:
        game = make_game(g.name)
        rules = f"[{title(GAMES[g.game])}]({g.game}.md)"
        out.append(f"| {{ref}}`{g.title} <named-{g.name}>` | {g.region} | {game.pits} × {game.seeds} | {rules} "
                   f"| `{gym_id(g.name)}` |")
    out.append("")
    for g in games:
        game = make_game(g.name)
        IMAGES.mkdir(parents=True, exist_ok=True)
        picture(game, [game.init()], IMAGES / f"named_{g.name}.svg")
        out += [f"(named-{g.name})=", f"## {g.title}", "",
                f"```{{figure}} img/named_{g.name}.svg", f":alt: {g.title} at the start", "",
                f"{g.title} at the start: {game.pits} {game.pit_word} a side, {game.seeds} {game.seed_word} in each.", "```",
                "", g.about, "", *quoted(game.rules_text()), "",
                f"- Region: {g.region}",
                f"- Source: {linked(g.source)}"]
        if g.game == "family":
            changed = preset_rules(game)
            params = ", ".join(f"`{k}={v!r}`" for k, v in changed.items()) or "the family's defaults"
            out.append(f"- Parameters: {params}")
            files = matched_files(game, matched)
            if files:
                out.append("- Held to MancalaGames: " + "; ".join(
                    f"`{file}`, {entry['games']} games, {entry['moves']:,} moves, no mismatch"
                    for file, entry in files))
        else:
            module = GAMES[g.game].__module__
            out.append(f"- Parameters: its own rules: {{mod}}`{module}` ([{title(GAMES[g.game])}]({g.game}.md))")
        out += [f"- By name: `make_game(\"{g.name}\")`, `make_env(\"{g.name}\")`, "
                f"`gymnasium.make(\"{gym_id(g.name)}\")`, `{g.name}` on the command line", ""]
    return "\n".join(out)


def games_index(names) -> str:
    from mancala_marl.games import GAMES

    out = ["# Games", "", "One page per game, written from its rules file when the docs are built; "
           f"{len(named_games())} traditional games by name, most of them points of the two-row family, "
           f"have a catalogue: [](./{CATALOGUE}.md).", "",
           "```{toctree}", ":maxdepth: 1", "", *names, CATALOGUE, "```", "",
           "| game | summary |", "|---|---|"]
    for name in names:
        summary = inspect.getmodule(GAMES[name]).__doc__.strip().splitlines()[0]
        out.append(f"| [{title(GAMES[name])}]({name}.md) | {summary.replace('|', '/')} |")
    return "\n".join(out) + "\n"


def ladder_figure(ladders: dict):
    """The figure of :func:`ladder_chart`, from the ladder file's ``ladders``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(ladders)
    fig, axes = plt.subplots(1, len(games), figsize=(4.2 * len(games), 4.8), sharex=True)
    # The panels share one x-axis, so one limit for all, the largest rating's: a limit set per
    # panel was the last panel's for every one, and cut off the others' longest bars.
    top = max(rating for ladder in ladders.values() for rating in ladder["ratings"].values())
    for ax, game in zip(np.atleast_1d(axes), games):
        ratings = sorted(ladders[game]["ratings"].items(), key=lambda kv: kv[1])
        ax.barh([p for p, _ in ratings], [r for _, r in ratings], color="#b07c4a")
        ax.set_title(game)
        ax.tick_params(axis="y", labelsize=8)
        ax.set_xlabel("rating (mean 1500)")
    np.atleast_1d(axes)[0].set_xlim(0, top * 1.05)
    fig.tight_layout()
    return fig


def ladder_chart(path: pathlib.Path) -> None:
    """Each game's Bradley-Terry ratings from the shipped ladder, one panel per game."""
    import matplotlib.pyplot as plt

    fig = ladder_figure(json.loads(LADDER_JSON.read_text())["ladders"])
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def speed_chart(path: pathlib.Path) -> None:
    """AEC steps per CPU-second of ours and the peers, and the batch engine's playouts by batch size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    speed = json.loads(SPEED_JSON.read_text())
    aec = sorted(speed["aec_steps_per_s"].items(), key=lambda kv: kv[1]["cpu"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    left.barh([name for name, _ in aec], [v["cpu"] / 1000 for _, v in aec],
              color=["#b07c4a" if name.startswith("mancala_marl") else "#8a8a8a" for name, _ in aec])
    left.set_xlabel("thousand steps per CPU-second")
    left.tick_params(axis="y", labelsize=8)
    batch = speed["batch_moves_per_s"]
    sizes = sorted({int(k.split("batch=")[1].split()[0]) for k in batch})
    games = list(dict.fromkeys(k.split()[0] for k in batch))
    for game in games:
        right.plot(sizes, [batch[f"{game} batch={n} cores=1 per CPU-second"] / 1e6 for n in sizes], marker="o", label=game)
    right.set_xscale("log")
    right.set_xlabel("games in the batch")
    right.set_ylabel("million moves per CPU-second, one core")
    right.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def write_pages(app=None) -> list[pathlib.Path]:
    """Write every game's page, the games index and the ladder chart; returns the pages written."""
    from mancala_marl.games import GAMES

    GAMES_DIR.mkdir(exist_ok=True)
    written = []
    for name, cls in GAMES.items():
        path = GAMES_DIR / f"{name}.md"
        path.write_text(game_page(name, cls))
        written.append(path)
    (GAMES_DIR / "index.md").write_text(games_index(list(GAMES)))
    (GAMES_DIR / f"{CATALOGUE}.md").write_text(catalogue_page())
    written.append(GAMES_DIR / f"{CATALOGUE}.md")
    ladder_chart(LADDER_PNG)
    speed_chart(SPEED_PNG)
    return written


TEST_MARK = re.compile(r"[ \t]+#\s*docs-test:.*$|^#\s*docs-test:.*\n", flags=re.M)


def hide_test_marks(app, docname, source):
    """Take the ``# docs-test: ...`` marks (how the tests shorten a run; tutorials/index.md) out
    of the code blocks a reader sees; the tests read them from the Markdown source."""
    parts = re.split(r"(```[a-z]+\n.*?```)", source[0], flags=re.S)
    source[0] = "".join(TEST_MARK.sub("", part) if part.startswith("```") else part for part in parts)


def setup(app):
    app.connect("builder-inited", write_pages)
    app.connect("source-read", hide_test_marks)
    return {"version": "1", "parallel_read_safe": True}


if __name__ == "__main__":  # python docs/_ext/game_pages.py: write the pages without building
    for page in write_pages():
        print(page)
