"""A run's folder, checked before anything is written to it (files themselves are written whole
or not at all by :func:`mancala_marl.atomic.write_atomically`)."""

from __future__ import annotations

from pathlib import Path


def folder_fault(path, option: str, must_exist: bool = False) -> str | None:
    """What keeps ``path`` from being a run's folder, named for the option that gave it
    (``--run-dir``), or None: a file or device in its place, a file where a parent folder should
    be, or (``must_exist``) no folder at all. ``mkdir`` and ``open`` name none of these plainly
    ("[Errno 17] File exists" for ``--run-dir /dev/null``)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        return f"{option} {path} is not a folder: it is a {'file' if path.is_file() else 'special file'}"
    if not path.exists():
        if must_exist:
            return f"{option} {path}: no such folder"
        parent = next((p for p in path.parents if p.exists()), None)
        if parent is not None and not parent.is_dir():
            return f"{option} {path}: {parent} is a file, not a folder"
    return None
