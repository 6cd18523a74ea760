"""Test collection: tests/jax/ needs the [jax] extra and runs from .venv-jax (make test-jax); a
virtualenv without jax leaves it out instead of failing on its imports."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("jax") else ["jax"]
