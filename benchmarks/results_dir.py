"""Where a benchmark writes its files: ``benchmarks/results``, the shipped figures that README and
the docs quote, unless ``--results-dir`` names another folder (to try a
script, or a shorter run of it, without replacing them)."""

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
