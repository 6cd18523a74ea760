"""``mancala_marl.svg.save_svg`` of the JAX states (as ``pgx.save_svg``): the board the numba state of the same
position draws, for one state and for a batch; rules other than the defaults need their game."""

import jax
import numpy as np
import pytest

from mancala_marl.games import make_game
from mancala_marl.jax import JAX_VARIANTS, make, to_state
from mancala_marl.svg import board_svg, save_svg


@pytest.mark.parametrize("name", JAX_VARIANTS)
def test_a_jax_state_is_drawn_as_its_numba_state(name, tmp_path):
    env = make(name)
    state = jax.jit(env.init)(jax.random.PRNGKey(0))  # (run eagerly, the family's step takes a minute)
    state = jax.jit(env.step)(state, int(np.flatnonzero(np.asarray(state.legal_action_mask))[0]))
    save_svg(state, tmp_path / "one.svg")
    assert (tmp_path / "one.svg").read_text() == board_svg(make_game(name), to_state(state))
    batch = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 3))
    save_svg(batch, tmp_path / "batch.svg")
    text = (tmp_path / "batch.svg").read_text()
    assert text.count('class="board"') == 3 and text.count(f'data-cell="{make_game(name).pits}"') == 3


def test_other_rules_need_their_game(tmp_path):
    env = make("kalah", pits=4, seeds=3)
    state = env.init(jax.random.PRNGKey(0))
    with pytest.raises(ValueError, match="pass the game of its rules"):
        save_svg(state, tmp_path / "x.svg")
    save_svg(state, tmp_path / "x.svg", game=make_game("kalah", pits=4, seeds=3))
    assert 'data-pits="4"' in (tmp_path / "x.svg").read_text()
