"""Where a benchmark writes its files: ``benchmarks/results``, the shipped figures that README and
the docs quote, unless ``--results-dir`` names another folder (to try a
script, or a shorter run of it, without replacing them). A script with ``--quick`` (a smoke run)
writes nothing then unless ``--results-dir`` is given: its figures are not the shipped ones."""

from __future__ import annotations

import argparse
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent / "results"


def add_results_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--results-dir", type=Path, default=SHIPPED, metavar="DIR",
                        help="folder for the results files (default: benchmarks/results, the shipped figures; "
                             "give another to try the script without replacing them)")


def results_dir(args: argparse.Namespace) -> Path:
    """``--results-dir``, made if it does not exist yet."""
    args.results_dir.mkdir(parents=True, exist_ok=True)
    return args.results_dir


def add_quick_results_dir(parser: argparse.ArgumentParser, files: str) -> None:
    """``--results-dir`` of a script with ``--quick``; ``files`` names what it writes there."""
    parser.add_argument("--results-dir", type=Path, default=None, metavar="DIR",
                        help=f"folder for {files} (default: benchmarks/results, the shipped figures; with --quick, "
                             "none: nothing is written)")


def quick_results_dir(args: argparse.Namespace, quick: bool) -> Path | None:
    """``--results-dir``, or the shipped folder unless ``quick``, made if it does not exist yet;
    None for a quick run given none (then print :data:`NOTHING_WRITTEN`)."""
    folder = args.results_dir or (None if quick else SHIPPED)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    return folder


NOTHING_WRITTEN = "a --quick run: nothing written (give --results-dir DIR to keep its figures)"
