"""``_compile.kernel(refcounts=False)`` rests on numba's private ``_nrt`` option (NRT, its
reference counts), which numba may rename or drop in any release: pyproject bounds numba to the
versions tested, and these tests say in one line what to pin when a new one lacks it. The package
is imported inside the test that needs it: on such a numba, importing it fails (the games'
registration runs kernels), and the first test still says why."""

from __future__ import annotations

import numba
import numpy as np

OPTION = "_nrt"  # numba/core/options.py: DefaultOptions._nrt, a CPU target option (numba/core/cpu.py)
GONE = (f"numba {numba.__version__} no longer has the private {OPTION} option that kernel(refcounts=False) "
        f"needs; pin numba<{numba.__version__}")


def _compiled_afresh(dispatcher):
    """``dispatcher``'s function compiled again from its options, with no disk cache: a copy loaded
    from the cache would never have numba read the options."""
    options = {name: value for name, value in dispatcher.targetoptions.items() if name != "nopython"}  # (njit's own)
    return numba.njit(**options)(dispatcher.py_func)


def test_numba_still_declares_the_private_nrt_option():
    from numba.core import cpu
    assert hasattr(getattr(cpu, "CPUTargetOptions", None), OPTION), GONE


def test_a_kernel_without_reference_counts_runs_and_cannot_allocate():
    from mancala_marl._compile import copy_cells, kernel

    def copy_and_bump(source, target):
        copy_cells(source, target, 2)
        target[0] += 1

    def allocates(n):
        return np.zeros(n).sum()

    copy_and_bump, allocates = kernel(copy_and_bump, refcounts=False), kernel(allocates, refcounts=False)
    assert copy_and_bump.targetoptions.get(OPTION) is False, f"kernel(refcounts=False) no longer passes {OPTION}=False"
    source, target = np.array([3, 4, 5]), np.zeros(3, dtype=np.int64)
    try:
        _compiled_afresh(copy_and_bump)(source, target)
    except KeyError as error:  # numba's "Unrecognized options"
        raise AssertionError(f"{GONE} ({error})") from None
    assert target.tolist() == [4, 4, 0]
    try:
        _compiled_afresh(allocates)(3)
    except numba.TypingError:  # no runtime to allocate with: the option took effect
        return
    raise AssertionError(f"numba {numba.__version__} compiled an allocation under {OPTION}=False: the option no "
                         f"longer switches reference counts off; pin numba<{numba.__version__}")
