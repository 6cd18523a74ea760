"""Run folders continued by ``--resume`` (``train``, ``distill`` and ``alphazero``): the
:class:`Run` lifecycle they share, their default names, and the hint each command ends with.

A resumed run goes on with the settings in its ``config.json``: changing how a run learns halfway
would make its results describe neither setting. A few settings may change, because they say how
long it runs, how it is watched or how it is stored, not what it learns: each command names its
own. Any other setting the caller sets to a value other than the run's is
refused, not silently dropped, and so is another game.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
import sys
from dataclasses import asdict, fields
from pathlib import Path

from mancala_marl.atomic import write_atomically
from mancala_marl.errors import BadInput

from .files import folder_fault

# How a run is shown and how many threads or processes it uses, not what it learns: any command
# may change these on --resume.
DISPLAY = {"progress_bar", "verbose", "workers", "threads", "torch_threads"}


def default_run_dir(game: str, rules: dict | None, *parts: str) -> str:
    """``runs/GAME-PARTS``, with the rules that differ from the defaults after the game's name, in
    one form however they were typed (``runs/kalah-pits=4-seeds=3-...``): runs of other rules get
    folders of their own, which a later --resume finds by the same options."""
    from mancala_marl.games import make_game

    return mix_run_dir([make_game(game, **(rules or {}))], *parts)


def mix_run_dir(games, *parts: str) -> str:
    """``runs/GAME+GAME-PARTS`` for a run of several games (each as :func:`default_run_dir` names one)."""
    return "runs/" + "-".join(["+".join(run_name(game) for game in games), *parts])


def run_name(game) -> str:
    """A game as a run's folder names it: its spec (a MancalaGames file's name, not its path) with
    ``-`` for the spec's punctuation."""
    spec = Path(game.source_file).stem.lower() if game.source_file else game.cli_spec()
    return spec.replace(":", "-").replace(",", "-")


def program() -> str:
    """How to run this command again from here: ``mancala-marl`` where that is on PATH and is this
    program, else the path it was started by (``.venv/bin/mancala-marl``, as `make demo` starts it)."""
    started = Path(sys.argv[0] if sys.argv else "")
    if started.stem != "mancala-marl":  # python -m ..., pytest: no path worth showing
        return "mancala-marl"
    on_path = shutil.which("mancala-marl")
    # (Windows: the launcher's argv[0] has no .exe, which's answer has)
    if on_path and (Path(on_path).parent.resolve(), Path(on_path).stem) == (started.parent.resolve(), started.stem):
        return "mancala-marl"
    return shlex.quote(str(started))


def play_hint(game, opponent: str) -> str:
    """The command that plays against what a run made: ``game`` a Game, ``opponent`` a policy spec."""
    return f"play it: {program()} play {game.cli_spec()} --opponent {shlex.quote(opponent)}"


def resume_command(command: str, game: str, run_dir) -> str:
    """The command line that continues a run: its own settings come from its config.json."""
    return f"{program()} {command} {game} --resume --run-dir {shlex.quote(str(run_dir))}"


class Run:
    """A run's folder through its life, the same for every trainer: a fresh start (refused where a
    run is) or ``--resume`` (with the run's own settings: :func:`resumed_config`), its config.json,
    files written atomically, its evaluations, and Ctrl-C, which says how to go on. A trainer
    keeps only its learning loop.

    ``command``: the subcommand that continues the run; ``checkpoint``: the file, relative to
    ``folder``, that a resumed run goes on from; ``unit``: what one checkpoint ends (``"round"``);
    ``resumable``: the settings --resume may change (besides :data:`DISPLAY`);
    ``resumes_before_checkpoint``: a run whose data are saved before its first checkpoint, which
    therefore exists, and goes on, from its config.json on."""

    def __init__(self, folder, command: str, checkpoint: str, unit: str = "checkpoint", resumable=frozenset(),
                 resumes_before_checkpoint: bool = False):
        self.folder = Path(folder)
        self.command, self.unit, self.resumable = command, unit, set(resumable)
        self.resumes_before_checkpoint = resumes_before_checkpoint
        self.checkpoint = self.folder / checkpoint
        self.evaluations = self.folder / "evaluations.csv"
        self.game = None  # the game's name, once start() has the config

    def start(self, config, resume: bool, given=None, separate: frozenset = frozenset()):
        """The config the run goes on with. A new run takes ``config``, and is refused where the
        folder holds a run. A resumed one takes its saved config, with the settings of
        ``resumable`` that the caller set (``given``; ``separate`` as in :func:`resumed_config`),
        and needs its checkpoint unless ``resumes_before_checkpoint``."""
        fault = folder_fault(self.folder, "--run-dir")  # a missing folder under --resume: no_checkpoint says it
        if fault:
            raise BadInput(fault)
        if resume:
            if not self.resumes_before_checkpoint and not self.checkpoint.is_file():
                raise no_checkpoint(self.folder, self.checkpoint)
            config = resumed_config(config, self.folder, self.resumable, separate=separate, given=given)
        else:
            check_fresh(self.folder, self.folder / "config.json" if self.resumes_before_checkpoint else self.checkpoint)
        self.game = config.game
        return config

    def finished(self, done: str, total: int, option: str, typed: bool) -> BadInput:
        """The refusal of a --resume to a total the run has reached (``done``: ``"trained 500 moves"``)."""
        said = f"{option} is" if typed else f"its total (no {option} given) is"
        return BadInput(f"--resume: the run in {self.folder} has {done} already, and {said} {total}: "
                          f"give a larger {option} to train on")

    def write_config(self, config) -> None:
        """``config.json``, what --resume reads back: the config (a dataclass) as it is now."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(asdict(config), indent=2)
        write_atomically(self.folder / "config.json", lambda tmp: tmp.write_text(text))

    def tensorboard(self):
        """A writer of TensorBoard logs in ``tb/`` (torch's)."""
        from torch.utils.tensorboard import SummaryWriter

        return SummaryWriter(str(self.folder / "tb"))

    def evaluated(self, rows: list[dict], x: int, seconds: float, writer=None, step: int | None = None) -> str:
        """Record evaluation ``rows`` (:func:`mancala_marl.matches.evaluation.evaluate`) at ``x``
        (moves or positions learned from: the curve's axis) in evaluations.csv and, with a
        ``writer``, in TensorBoard at ``step`` (default ``x``); returns them as one short line."""
        from mancala_marl.matches.evaluation import append_evaluations, win_rate_cells

        append_evaluations(self.evaluations, rows, x, seconds)
        for row in rows if writer is not None else ():
            writer.add_scalar(f"eval/win_rate/{row['opponent']}/{row['seat']}", row["win_rate"], x if step is None else step)
        return win_rate_cells(rows)

    def resume_command(self) -> str:
        return resume_command(self.command, self.game, self.folder)

    @contextlib.contextmanager
    def interruptible(self):
        """On Ctrl-C, where the run has a checkpoint, say the command that goes on after its last
        finished ``unit``; then stop as before."""
        try:
            yield
        except KeyboardInterrupt:
            if self.checkpoint.is_file():
                print(f"stopped; to go on after the last finished {self.unit}: {self.resume_command()}",
                      file=sys.stderr)
            raise


def check_fresh(run_dir: Path, checkpoint: Path) -> None:
    """Refuse to start a new run where one is (its checkpoint), or where a run that stopped before
    its first checkpoint left evaluations that the new run's would be appended to."""
    if checkpoint.is_file():
        raise BadInput(f"{run_dir} already holds a run; pass --resume to continue it or choose another --run-dir")
    if (run_dir / "evaluations.csv").is_file():
        raise BadInput(f"{run_dir} holds the evaluations of a run that stopped before its first checkpoint; "
                         "remove the folder or choose another --run-dir")


def no_checkpoint(run_dir, checkpoint) -> FileNotFoundError:
    """The error of ``--resume`` where ``checkpoint`` is missing: a run stopped before its first
    checkpoint (its config.json is there) starts again."""
    if (Path(run_dir) / "config.json").is_file():
        again = ("remove the folder and start again" if (Path(run_dir) / "evaluations.csv").is_file()
                 else "start it again without --resume")
        return FileNotFoundError(f"--resume: the run in {run_dir} stopped before its first checkpoint "
                                 f"({checkpoint} missing): {again}")
    return FileNotFoundError(f"--resume: no checkpoint at {checkpoint}")


def read_config(run_dir) -> dict:
    """The settings saved in ``run_dir/config.json``; a clear error if it is missing or unreadable."""
    path = Path(run_dir) / "config.json"
    if not path.is_file():
        raise FileNotFoundError(f"--resume: no run to continue in {run_dir} ({path.name} missing)")
    try:
        saved = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(f"--resume: {path} is not a readable run configuration ({error})") from None
    if not isinstance(saved, dict):
        raise BadInput(f"--resume: {path} is not a readable run configuration (not a JSON object)")
    return saved


def resumed_config(config, run_dir, changeable: set, separate: frozenset = frozenset(), given=None):
    """The config a run in ``run_dir`` continues with: its saved one, except the settings in
    ``changeable`` (and :data:`DISPLAY`) that the caller set, taken from ``config``.

    ``config`` is what the caller asked for (a dataclass: TrainConfig, DistillConfig,
    AlphaZeroConfig); ``given`` names the settings the caller set (a command line passes the
    options typed on it); by default, those where ``config`` differs from the defaults. Settings
    in ``separate`` (a run's new length, passed on its own) are neither checked nor taken."""
    cls = type(config)
    saved = read_config(run_dir)
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(saved) - names)
    if unknown:
        raise BadInput(f"--resume: {Path(run_dir) / 'config.json'} is not the configuration of a "
                         f"{cls.__name__} run (unknown settings {unknown})")
    asked, default = asdict(config), asdict(cls())
    if given is None:
        given = {name for name in names if not same(asked[name], default[name])}
    given = set(given) - separate
    if "game" in given or asked["rule_params"]:
        check_game(run_dir, asked["game"], asked["rule_params"], saved)
    given -= {"game", "rule_params"}
    kept = changeable | DISPLAY
    clashes = [f"{name}={asked[name]!r} (the run's: {saved.get(name, default[name])!r})"
               for name in sorted(given - kept) if not same(asked[name], saved.get(name, default[name]))]
    if clashes:
        raise BadInput(f"--resume continues {run_dir} with its own settings, and these differ from them: "
                         f"{'; '.join(clashes)}. Drop them, or start a new run in another --run-dir")
    return cls(**{**saved, **{name: asked[name] for name in given & kept}})


def same(a, b) -> bool:
    """Equal once both are written as config.json writes them (a tuple reads back as a list)."""
    return json.loads(json.dumps(a)) == json.loads(json.dumps(b))


def check_game(run_dir, game: str, rules: dict, saved: dict | None = None) -> None:
    """Refuse to continue a run of another game, or of other rules where ``rules`` names any
    (the command line's GAME, rules and all; rules given at their default values are the same rules).
    Without a run there, nothing to check: resuming then fails on what is missing."""
    from mancala_marl.games import make_game

    if saved is None:
        if not (Path(run_dir) / "config.json").is_file():
            return
        saved = read_config(run_dir)
    theirs = saved.get("rule_params", {})
    if game != saved.get("game") or (rules and make_game(game, **rules).params
                                     != make_game(game, **theirs).params):
        raise BadInput(f"--resume: {run_dir} is a run of {describe(saved.get('game'), theirs)}, "
                         f"not {describe(game, rules)}")


def describe(game, rules) -> str:
    return f"{game} {rules}" if rules else str(game)


def load_checkpoint(load, path, what: str = "checkpoint"):
    """``load(path)``, with any failure to read it reported as one line naming the file."""
    try:
        return load(path)
    except (FileNotFoundError, MemoryError):
        raise
    except Exception as error:  # unpickling a damaged file can raise almost anything
        raise BadInput(f"--resume: cannot read the {what} {path} ({type(error).__name__}: {error}); "
                         f"it is damaged or not from this run") from None
