"""Files of a run written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path, write) -> None:
    """``write(tmp)`` to a temporary file beside ``path``, then renamed to ``path``: a run stopped
    halfway leaves the previous file whole. The temporary name keeps the suffix, which numpy and
    SB3 would otherwise add."""
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    write(tmp)
    os.replace(tmp, path)
