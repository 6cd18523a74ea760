"""Smoke tests of the third-party integrations in ``examples/``.

Each library lives in its own virtualenv (RLlib pins an older gymnasium than the others), so
these tests run from those: ``make test-rllib`` and ``make test-marl`` (Tianshou, TorchRL,
OpenSpiel); ``make test`` runs both after the quick suite, which deselects them with
``-m "not integration"``.

A test marked ``@pytest.mark.integration("ray.rllib", make="test-rllib")`` is skipped, naming the
make target, when the module is not importable, except under CI (the ``CI`` environment variable
set), where a missing library is an install failure and the test fails.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # the parent package is missing
        return False


def pytest_runtest_setup(item):
    for marker in item.iter_markers("integration"):
        missing = [module for module in marker.args if not _importable(module)]
        if not missing:
            continue
        target = marker.kwargs.get("make", "test")
        message = (f"{', '.join(missing)} not installed in {sys.prefix}; "
                   f"run `make {target}`, which builds the virtualenv these tests need")
        if os.environ.get("CI"):
            pytest.fail(f"CI: {message}", pytrace=False)
        pytest.skip(message)
