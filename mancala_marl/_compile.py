"""``kernel``: numba's ``njit``, cached on disk wherever a cache can be written, releasing the
interpreter lock while it runs; and ``copy_cells``, the copy that kernels without reference
counts make.

``refcounts=False`` compiles a kernel without numba's reference counts on arrays (its runtime, NRT;
numba's private ``_nrt`` option, hence pyproject's upper bound on numba and tests/test_compile.py).
A kernel that is handed an array increments and decrements the array's count, an atomic instruction
each, on entry and on exit and around each call it makes with it; LLVM's pruning of the pairs gives
up on a large kernel's branches, and in the two-row family's kernels they were 60% of a move's
time, in alpha-beta's loop two thirds of a search's. Such a kernel borrows its arrays from its
caller, as every kernel of ours does; it must not allocate one (``np.empty``, ``.copy()``), nor
return one. It may call a kernel that allocates, compiled with ``refcounts=True`` (else a kernel
takes its caller's setting), which frees what it allocates before it returns. A slice's assignment
(``a[:] = b``) may allocate a copy of its source: such kernels copy cell by cell
(:func:`copy_cells`, here, where the rules and the searches both reach it). Numba refuses to
compile a kernel without reference counts that allocates, so a mistake shows at its first call. The
rules kernels that the searches call say ``refcounts=False`` themselves: numba keeps one compiled
copy of a kernel per signature, and the copy compiled first (from Python, with counts) would be the
one linked in.

Every kernel runs with ``nogil=True``: none touches a Python object, and a search of seconds in
one thread (a reply of ``mancala-marl serve``) must not stop the interpreter's other threads (the
server's event loop answering other games) for its length.

Numba writes its cache beside the source (``__pycache__``) or, when the package folder is
read-only, in the user's cache folder (``NUMBA_CACHE_DIR``, else ``~/.cache/numba``). Where
neither can be written, ``njit(cache=True)`` refuses to decorate; ``kernel`` then compiles
without a cache, so an install anywhere still works (each process compiles what it calls).

Numba keys a cached function on its own file only: after an edit to a kernel that a function in
another file calls (a rule in ``games/``, say), the caller's cached machine code would go on
running the old rule. So each package with compiled code calls :func:`drop_stale_cache` when it
is imported, naming the packages and modules its kernels call into; when their sources change,
its cached functions are thrown away. Dependencies point one way: the rules never look at the
packages built on them (the search core's hash is the rules' own).
"""

from __future__ import annotations

import hashlib
import importlib.util
import warnings
from pathlib import Path

import numba

# A kernel's ``numba.objmode`` block (a clock read every few thousand positions) takes the lock
# back for its few lines, as it must: numba's warning that it does says nothing to a user.
warnings.filterwarnings("ignore", "Code running in object mode won't allow parallel execution",
                        numba.NumbaWarning)


def kernel(function=None, refcounts=None, **options):
    """``numba.njit(cache=True, nogil=True, **options)``, falling back to no cache where none can be
    written; ``refcounts`` True or False: with or without reference counts (above; None: the
    caller's setting, on when called from Python)."""
    options.setdefault("nogil", True)
    if refcounts is not None:
        options["_nrt"] = refcounts

    def decorate(fn):
        try:
            return numba.njit(cache=True, **options)(fn)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            return numba.njit(**options)(fn)
    return decorate if function is None else decorate(function)


def _folder(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


def _sources(name: str) -> list[Path]:
    """A package's own ``.py`` files (not its subpackages'), or a module's one file."""
    folder = _folder(name)
    if folder is not None:
        return list(folder.glob("*.py"))
    spec = importlib.util.find_spec(name)
    return [Path(spec.origin)] if spec is not None and spec.origin else []


def drop_stale_cache(package: str, depends_on: tuple[str, ...] = ()) -> None:
    """Clear ``package``'s numba cache when its sources or those of ``depends_on`` (packages or
    modules) changed."""
    own = _folder(package)
    if own is None:
        return
    sources = sorted({p for name in (package, *depends_on) for p in _sources(name)})
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stamp = own / "__pycache__" / "numba_sources.sha1"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        for stale in (own / "__pycache__").glob("*.nb[ic]"):
            stale.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: its files cannot change under the cache anyway
        pass


@kernel(inline="always")
def copy_cells(source, target, cells):
    """The first ``cells`` of ``source`` into ``target``, cell by cell: a slice's assignment may
    allocate a copy of its source, which a kernel without reference counts cannot."""
    for cell in range(cells):
        target[cell] = source[cell]
