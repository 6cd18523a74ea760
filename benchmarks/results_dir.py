"""Where a benchmark writes its files: ``benchmarks/results/<script>/``, one folder per benchmark
script (``speed.py`` writes to ``benchmarks/results/speed/``), holding the shipped figures that
README and the docs quote, current runs only (git keeps the older ones), unless ``--results-dir``
names another folder (to try a script, or a shorter run of it, without replacing them): the files
then go into that folder itself. A script with ``--quick`` (a smoke run) writes nothing then unless
``--results-dir`` is given: its figures are not the shipped ones.

The folder is named after the script that calls :func:`add_results_dir` or
:func:`add_quick_results_dir` (its ``__file__``), or after ``script`` where one is given."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def shipped(script: str | Path) -> Path:
    """The folder of the shipped figures of ``script`` (a path or a name; ``.py`` dropped):
    ``benchmarks/results/<script>``."""
    return RESULTS / Path(script).stem


def _calling_script(depth: int = 2) -> str:
    """The file of the function's caller's caller: the benchmark script that asked for its folder."""
    return sys._getframe(depth).f_globals.get("__file__") or sys.argv[0]


def _shown(folder: Path) -> str:
    return folder.relative_to(RESULTS.parents[1]).as_posix()


def add_results_dir(parser: argparse.ArgumentParser, script: str | Path | None = None) -> None:
    folder = shipped(script or _calling_script())
    parser.add_argument("--results-dir", type=Path, default=folder, metavar="DIR",
                        help=f"folder for the results files (default: {_shown(folder)}, the shipped figures; "
                             "give another to try the script without replacing them)")


def results_dir(args: argparse.Namespace) -> Path:
    """``--results-dir``, made if it does not exist yet."""
    args.results_dir.mkdir(parents=True, exist_ok=True)
    return args.results_dir


def add_quick_results_dir(parser: argparse.ArgumentParser, files: str, script: str | Path | None = None) -> None:
    """``--results-dir`` of a script with ``--quick``; ``files`` names what it writes there."""
    folder = shipped(script or _calling_script())
    parser.set_defaults(shipped_results_dir=folder)
    parser.add_argument("--results-dir", type=Path, default=None, metavar="DIR",
                        help=f"folder for {files} (default: {_shown(folder)}, the shipped figures; with --quick, "
                             "none: nothing is written)")


def quick_results_dir(args: argparse.Namespace, quick: bool) -> Path | None:
    """``--results-dir``, or the script's shipped folder unless ``quick``, made if it does not exist
    yet; None for a quick run given none (then print :data:`NOTHING_WRITTEN`)."""
    folder = args.results_dir or (None if quick else args.shipped_results_dir)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    return folder


NOTHING_WRITTEN = "a --quick run: nothing written (give --results-dir DIR to keep its figures)"


def write_results(args: argparse.Namespace, quick: bool, stem: str, results: dict, table: str,
                  indent: int = 2) -> Path | None:
    """``<stem>.json`` (``results``) and ``<stem>.md`` (``table``) in :func:`quick_results_dir`,
    saying where; for a quick run given no folder, :data:`NOTHING_WRITTEN` and None."""
    import json

    folder = quick_results_dir(args, quick)
    if folder is None:
        print(NOTHING_WRITTEN)
        return None
    (folder / f"{stem}.json").write_text(json.dumps(results, indent=indent))
    (folder / f"{stem}.md").write_text(table)
    print(f"wrote {folder / f'{stem}.json'} and {stem}.md")
    return folder
