"""What the command line draws with rich: the one progress bar of long work (databases, matches,
grading, training), and the consoles of its tables and bars."""

from __future__ import annotations


def console(file=None):
    """A rich console for the command line's tables: as wide as the terminal, or 120 columns when
    the output goes to a file or a pipe (rich's 80 broke titles and policy names into pieces)."""
    from rich.console import Console

    shown = Console(file=file)
    return shown if shown.is_terminal else Console(file=file, width=120)


def titled_table(title: str, **options):
    """A rich Table at least as wide as its title: rich wraps a title to the width of the columns,
    which broke a long one into lines."""
    from rich.table import Table

    return Table(title=title, min_width=len(title), **options)


def progress_console(file=None):
    """A rich console for a progress bar: the terminal, or to a file or a pipe one line as long as
    it needs (at rich's 80 columns the last column, the status of a run, was cut off)."""
    from rich.console import Console

    shown = Console(file=file)
    return shown if shown.is_terminal else Console(file=file, width=10_000)


def progress_bar(disable: bool = False, status: bool = False, record: bool = False):
    """A rich ``Progress`` on stderr, with a spinner (it turns while a long step runs, between two
    advances of the count), its tasks' descriptions, counts, time spent and time left; add a task
    with ``add_task(description, total=N)``. None is drawn when ``disable`` or when stderr is not a
    terminal: in a file or a pipe a bar that vanishes leaves only a blank line.

    ``status``: a last column shows each task's ``status`` field, a line the work keeps up to date
    (``add_task(..., status="")``, ``update(task, status=...)``). ``record``: the bar of a run,
    kept as a record of it: on stdout (:func:`progress_console`), left on screen when done, and in
    a file or a pipe drawn once, as it stood at the end, on one line."""
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    shown = progress_console() if record else Console(stderr=True)
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn()]
    if status:
        columns.append(TextColumn("{task.fields[status]}"))
    return Progress(*columns, console=shown, transient=not record,
                    disable=disable or not (record or shown.is_terminal))


__all__ = ["console", "progress_bar", "progress_console", "titled_table"]
