"""Files written whole or not at all: databases, networks, models, checkpoints, a run's config."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path, write) -> Path:
    """``write(temporary)`` to a new file beside ``path``, flushed to disk, then renamed to
    ``path``; returns ``path``.

    A write stopped halfway (a crash, Ctrl-C, a full disk) leaves the previous file whole and no
    temporary behind. Each write gets a temporary of its own (``tempfile``), so two writers of one
    path at once never take each other's half-written file; the last to finish wins, whole. The
    temporary keeps ``path``'s suffix, which numpy and SB3 would otherwise add to its name.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=f".partial{path.suffix}")
    os.close(handle)
    temporary = Path(name)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as open() would make it (mkstemp's are private)
        write(temporary)
        with open(temporary, "rb+") as written:  # on disk before the rename makes it the file
            os.fsync(written.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


__all__ = ["write_atomically"]
