"""The Mancala games as JAX environments with Pgx's API (needs the [jax] extra)."""
from mancala_marl.jax.rules import Rules

__all__ = ["Rules"]
