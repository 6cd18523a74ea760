"""The JAX tests share XLA's compilation cache: a program that several tests (or both pytest-xdist
workers) compile, such as a game's step at one batch size, is compiled once a run. On a CPU a
family step takes seconds to compile and milliseconds to run."""

from pathlib import Path

import jax

CACHE = Path(__file__).resolve().parents[2] / ".pytest_cache" / "jax-compilation"
jax.config.update("jax_compilation_cache_dir", str(CACHE))
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)
