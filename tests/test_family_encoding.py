"""The family's ``rules`` observation: the board padded from the observer's side, then the rule
set encoded, the same length for every rule set; each rule that changes changes the encoding."""

import numpy as np
import pytest

from mancala_marl import observations
from mancala_marl.games import Family, make_game
from mancala_marl.games.family import sample_rules
from mancala_marl.games.family_encoding import BOARD_LENGTH, RULES_HOLES, encode_rules, rules_length
from mancala_marl.games.family_space import PARAMETERS


def test_the_board_is_padded_from_the_observers_side():
    game = make_game("family", holes=3, seeds=2)
    state = game.from_board([1, 2, 3, 7, 4, 5, 6, 8], to_move=1)
    seen = observations.encode(game, state, 1, "rules")
    own = [4, 5, 6] + [0] * (RULES_HOLES - 3) + [8]
    theirs = [1, 2, 3] + [0] * (RULES_HOLES - 3) + [7]
    assert seen[:BOARD_LENGTH].tolist() == own + theirs
    assert observations.encode(game, state, 0, "rules")[:BOARD_LENGTH].tolist() == theirs + own
    assert np.array_equal(seen[BOARD_LENGTH:], encode_rules(game))


def test_the_encoding_reads_each_rule():
    wari = make_game("wari")
    code = encode_rules(wari)
    assert code.shape == (rules_length(),) and code.dtype == np.float32 and ((0 <= code) & (code <= 1)).all()
    # every choice one-hot, every switch 0/1, in the declared order
    assert code.sum() == pytest.approx(sum(1.0 if p.choices else 0.0 for p in PARAMETERS) + sum(
        float(wari.params[p.name]) for p in PARAMETERS if p.type is bool) + sum(
        min(max(wari.params[p.name], 0) / {"holes": 16, "seeds": 10}.get(p.name, 8), 1) for p in PARAMETERS
        if p.type is int) + wari.total_seeds / 160)
    rng = np.random.default_rng(0)
    for _ in range(40):
        rules = sample_rules(rng, holes=(2, 8), seeds=(1, 4))
        game = Family(**rules)
        assert encode_rules(game).shape == (rules_length(),)
        assert observations.observation_space(game, "rules").shape == (BOARD_LENGTH + rules_length(),)


@pytest.mark.parametrize("name, other", [("holes", 5), ("seeds", 3), ("sow_store", True), ("laps", "relay"),
                                          ("direction", "cw"), ("capture_min", 3), ("must_share", False),
                                          ("grand_slam", "no_capture"), ("leftover", "mover"),
                                          ("early_win", False), ("end_below", 2)])
def test_a_rule_changed_changes_the_encoding(name, other):
    wari = make_game("wari")
    changed = make_game("wari", **{name: other})
    assert not np.array_equal(encode_rules(wari), encode_rules(changed))


def test_rows_past_sixteen_holes_have_no_rules_observation():
    assert "rules" in observations.obs_types(make_game("family", holes=16, seeds=1))
    with pytest.raises(ValueError, match=r"obs_type must be one of .* for family, got 'rules'"):
        observations.encode(make_game("family", holes=17, seeds=1), make_game("family", holes=17, seeds=1).init(), 0,
                            "rules")
