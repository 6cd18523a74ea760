"""The one progress bar of long work (databases, matches, grading): rich, on stderr, gone once done."""

from __future__ import annotations


def progress_bar(disable: bool = False):
    """A rich ``Progress`` on stderr, with a spinner (it turns while a long step runs, between two
    advances of the count), its tasks' descriptions, counts, time spent and time left; add a task
    with ``add_task(description, total=N)``. None is drawn when ``disable`` or when stderr is not a
    terminal: in a file or a pipe a bar that vanishes leaves only a blank line."""
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    shown = Console(stderr=True)
    return Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), console=shown, transient=True,
                    disable=disable or not shown.is_terminal)


__all__ = ["progress_bar"]
