"""Kalah and Sungka as points of the two-row family: their rules written as the family's
parameters (``kalah_rules``, ``sungka_rules``) play move for move as their own kernels over random
games with their rule parameters: the legal moves, every cell, the player to move, the end and the
result."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mancala_marl.games import make_game
from mancala_marl.games.family import Family, kalah_rules, sungka_rules


def play_in_lockstep(family, game, rng, games=5):
    for _ in range(games):
        ours, theirs = family.init(), game.init()
        while not game.is_terminal(theirs):
            assert family.legal_mask(ours).tolist() == game.legal_mask(theirs).tolist()
            pit = int(rng.choice(np.flatnonzero(game.legal_mask(theirs))))
            family.apply(ours, pit)
            game.apply(theirs, pit)
            assert ours[:family.board_size].tolist() == theirs[:game.board_size].tolist()
            assert family.to_move(ours) == game.to_move(theirs)
        assert family.is_terminal(ours)
        assert family.returns(ours).tolist() == game.returns(theirs).tolist()


@settings(max_examples=60, deadline=None)
@given(pits=st.integers(2, 8), seeds=st.integers(1, 6), empty_capture=st.booleans(),
       end_rule=st.sampled_from(["either", "mover"]), seed=st.integers(0, 2**32 - 1))
def test_kalah_as_family_parameters_plays_move_for_move_as_the_kalah_kernel(pits, seeds, empty_capture, end_rule,
                                                                             seed):
    kalah = make_game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture, end_rule=end_rule)
    play_in_lockstep(Family(**kalah_rules(pits, seeds, empty_capture, end_rule)), kalah, np.random.default_rng(seed))


@settings(max_examples=40, deadline=None)
@given(houses=st.integers(2, 7), stones=st.integers(1, 7), sunog_needs_opposite=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_sungka_as_family_parameters_plays_move_for_move_as_the_sungka_kernel(houses, stones, sunog_needs_opposite,
                                                                               seed):
    sungka = make_game("sungka", houses=houses, stones=stones, sunog_needs_opposite=sunog_needs_opposite)
    play_in_lockstep(Family(**sungka_rules(houses, stones, sunog_needs_opposite)), sungka,
                     np.random.default_rng(seed))


@pytest.mark.parametrize("rules, game", [(kalah_rules(), "kalah"), (sungka_rules(), "sungka")])
def test_the_defaults_are_the_games_defaults(rules, game):
    # the standard Kalah(6, 4) and Sungka(7, 7), each with its own rules as the family writes them
    made = make_game(game)
    assert (rules["holes"], rules["seeds"]) == (made.pits, made.seeds)
    assert Family(**rules).params["early_win"] is False  # both play on to the end
