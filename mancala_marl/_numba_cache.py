"""Keep numba's on-disk cache (``cache=True``) honest.

Numba keys a cached function on its own file only: after an edit to a kernel it calls from
another file (a rule in ``games/``, say), the callers' cached machine code would go on running
the old rule. So all compiled modules of the package are hashed together, and when the hash
changes every cached function is thrown away and compiled afresh.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
FOLDERS = (ROOT, ROOT / "games", ROOT.parent / "agents")
STAMP = ROOT / "__pycache__" / "numba_sources.sha1"


def drop_stale_cache() -> None:
    sources = sorted(p for folder in FOLDERS for p in folder.glob("*.py"))
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in sources)).hexdigest()
    try:
        if STAMP.exists() and STAMP.read_text() == digest:
            return
        for folder in FOLDERS:
            for stale in (folder / "__pycache__").glob("*.nb[ic]"):
                stale.unlink()
        STAMP.parent.mkdir(exist_ok=True)
        STAMP.write_text(digest)
    except OSError:  # a read-only install: its files cannot change under the cache anyway
        pass
