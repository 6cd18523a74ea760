"""Database files: written atomically, read only after every check passes.

A file is ``MAGIC``, the length of a JSON header (8 bytes, little-endian), the header, then the
values, a signed byte each. The header names the game, its rules, the layers held and how many
values follow, and carries the values' SHA-256. A file that is short, long, corrupt or built for
other rules is refused with a message that says how to build it again; it is never read as it is.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from mancala_marl.atomic import write_atomically
from mancala_marl.errors import BadInput

MAGIC = b"MANCALA-MARL-ENDGAME\n"
FORMAT_VERSION = 1
_CHUNK = 1 << 26


def checksum(values: np.ndarray) -> str:
    digest = hashlib.sha256()
    flat = values.reshape(-1).view(np.uint8)
    for start in range(0, flat.size, _CHUNK):
        digest.update(flat[start:start + _CHUNK])
    return digest.hexdigest()


def save(path: Path, header: dict, values: np.ndarray) -> None:
    """Write ``values`` (int8) under ``header`` to ``path``, all or nothing: a temporary file in the
    same folder, flushed to disk, then renamed over ``path``."""
    header = dict(header, format=FORMAT_VERSION, entries=int(values.size), sha256=checksum(values))
    text = json.dumps(header, sort_keys=True).encode()

    def write(temporary: Path) -> None:
        with open(temporary, "wb") as out:
            out.write(MAGIC + len(text).to_bytes(8, "little") + text)
            values.tofile(out)

    write_atomically(path, write)


class DatabaseFileError(BadInput):
    """A database file that cannot be used as it is; the message says why and how to rebuild it."""


def load(path: Path, expected: dict, rebuild: str) -> np.ndarray:
    """The values of the file at ``path``, after checking its size, its header against every key of
    ``expected`` and its checksum; a :class:`DatabaseFileError` ending in ``rebuild`` otherwise."""
    path = Path(path)

    def refuse(why: str) -> DatabaseFileError:
        return DatabaseFileError(f"endgame database {path}: {why}; {rebuild}")

    size = path.stat().st_size
    with open(path, "rb") as source:
        if source.read(len(MAGIC)) != MAGIC:
            raise refuse("not an endgame database file (its first bytes are not the format's)")
        length = int.from_bytes(source.read(8), "little")
        if length > 1 << 20 or len(MAGIC) + 8 + length > size:
            raise refuse("its header is cut off or corrupt")
        try:
            header = json.loads(source.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise refuse("its header is corrupt") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT_VERSION:
            raise refuse(f"it is of format {header.get('format') if isinstance(header, dict) else '?'}, "
                         f"this version reads {FORMAT_VERSION}")
        for key, value in expected.items():
            if header.get(key) != value:
                raise refuse(f"it was built for {key}={header.get(key)!r}, not {value!r}")
        entries = header.get("entries")
        if not isinstance(entries, int) or size != len(MAGIC) + 8 + length + entries:
            raise refuse(f"it holds {size - len(MAGIC) - 8 - length} bytes of values where its header says "
                         f"{entries} (a partial or damaged file)")
        values = np.fromfile(source, dtype=np.int8, count=entries)
    if checksum(values) != header.get("sha256"):
        raise refuse("its values do not match their checksum (a damaged file)")
    return values
