"""AlphaZero: the batched PUCT search against exact values, the network file, the policy on every
game, and the self-play trainer's run directory, resume and errors."""

import json

import numpy as np
import pytest

from mancala_marl import observations
from mancala_marl.agents import make_policy, mcts
from mancala_marl.agents.alphazero import (
    OBS_TYPES,
    AlphaZeroPolicy,
    Network,
    feature_layout,
    features,
    search,
)
from mancala_marl.errors import BadInput
from mancala_marl.games import make_game
from mancala_marl.train.alphazero import AlphaZeroConfig, torch_network, train

from .helpers import random_game
from .registry import DEFAULTS, EXAMPLES


def random_network(game, seed=0, hidden=(16,), obs_type="moves"):
    """A small untrained network: what the search does must not depend on it being good."""
    rng = np.random.default_rng(seed)
    sizes = [feature_layout(game, obs_type)[1], *hidden]
    weights = {}
    for k in range(len(hidden)):
        weights[f"hidden_{k}.weight"] = rng.normal(0, 0.1, (sizes[k + 1], sizes[k])).astype(np.float32)
        weights[f"hidden_{k}.bias"] = np.zeros(sizes[k + 1], np.float32)
    weights["policy.weight"] = rng.normal(0, 0.1, (game.actions, sizes[-1])).astype(np.float32)
    weights["policy.bias"] = np.zeros(game.actions, np.float32)
    weights["value.weight"] = rng.normal(0, 0.1, (1, sizes[-1])).astype(np.float32)
    weights["value.bias"] = np.zeros(1, np.float32)
    meta = {"game": game.name, "rule_params": dict(game.params), "features": sizes[0], "hidden": list(hidden),
            "obs_type": obs_type}
    return Network(weights, meta), weights


class Uninformed:
    """Uniform priors and value 0: the search is then plain UCT with exact terminal values."""

    def __init__(self, pits):
        self.pits = pits

    def __call__(self, x):
        return np.zeros((len(x), self.pits), np.float32), np.zeros(len(x), np.float32)


@pytest.mark.parametrize("name, params", [("kalah", dict(pits=3, seeds=2)), ("sungka", dict(houses=3, stones=2)),
                                          ("oware", dict(houses=2, seeds=1))])
def test_search_values_converge_to_the_solvers_on_small_boards(name, params):
    """Extra turns, passes and Oware's repetitions keep the right player to move in the tree:
    with enough simulations the root's best move wins whenever the solver says it can."""
    game = make_game(name, **params)
    solver = make_policy("solver")
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(30):
        history, _ = random_game(game, rng)
        state = history[len(history) // 2][0]
        value = solver.value(game, state)
        forest = mcts.Forest(game, 1, 3002)
        forest.reset(state[None])
        search(game, Uninformed(game.pits), forest, 3000)
        move = int(np.argmax(forest.root_visits()[0]))
        child = state.copy()
        game.apply(child, move)
        after = solver.value(game, child) if not game.is_terminal(child) else None
        if after is None:
            s = game.scores(child)
            after_margin = s[game.to_move(state)] - s[1 - game.to_move(state)]
        else:
            after_margin = after if game.to_move(child) == game.to_move(state) else -after
        assert np.sign(after_margin) == np.sign(value), (state, move, value, after_margin)
        checked += 1
    assert checked == 30


def test_batched_search_equals_one_tree_at_a_time():
    game = make_game("kalah")
    net, _ = random_network(game)
    states = np.array([h[0] for h in random_game(game, np.random.default_rng(2))[0][:6]])
    together = mcts.Forest(game, len(states), 52)
    together.reset(states)
    search(game, net, together, 50)
    for k, state in enumerate(states):
        alone = mcts.Forest(game, 1, 52)
        alone.reset(state[None])
        search(game, net, alone, 50)
        assert np.array_equal(alone.root_visits()[0], together.root_visits()[k])


def test_compiled_simulations_equal_the_python_loop():
    """A Network runs its simulations compiled; any other callable goes step by step in Python."""
    game = make_game("oware")
    net, _ = random_network(game, seed=5)
    states = np.array([h[0] for h in random_game(game, np.random.default_rng(6))[0][:5]])
    compiled, stepwise = mcts.Forest(game, len(states), 202), mcts.Forest(game, len(states), 202)
    compiled.reset(states)
    stepwise.reset(states)
    search(game, net, compiled, 200)
    search(game, lambda x: net(x), stepwise, 200, obs_type=net.obs_type)
    assert np.array_equal(compiled.root_visits(), stepwise.root_visits())
    assert np.allclose(compiled.value_sum[:, 0], stepwise.value_sum[:, 0], atol=1e-4)


def test_the_forest_refuses_more_simulations_than_it_holds():
    game = make_game("kalah")
    forest = mcts.Forest(game, 1, 10)
    forest.reset(game.init()[None])
    with pytest.raises(ValueError, match="search tree full"):
        search(game, Uninformed(game.pits), forest, 50)


@pytest.mark.parametrize("game, obs_type", [(game, obs_type) for game in EXAMPLES for obs_type in OBS_TYPES
                                            if obs_type in observations.obs_types(game)], ids=repr)
def test_the_policy_plays_legal_moves_on_every_game(game, obs_type, tmp_path):
    net, weights = random_network(game, obs_type=obs_type)
    path = tmp_path / "net.npz"
    net.save(path, weights)
    rng = np.random.default_rng(0)
    for spec in (f"alphazero:path={path},sims=0", f"alphazero:path={path},sims=20",
                 f"alphazero:path={path},time=0.01"):
        policy = make_policy(spec)
        for state, _ in random_game(game, rng)[0][::7]:
            before = state.copy()
            assert game.legal_mask(state)[policy.act(game, state)]
            assert np.array_equal(state, before)


def test_sims_0_plays_the_networks_most_likely_legal_move():
    game = make_game("kalah")
    net, _ = random_network(game, seed=3)
    policy = AlphaZeroPolicy(sims=0, net=net)
    for state, _ in random_game(game, np.random.default_rng(4))[0]:
        logits, _ = net(features(game, state, net.obs_type))
        legal = game.legal_mask(state)
        assert policy.act(game, state) == int(np.argmax(np.where(legal, logits[0], -np.inf)))


@pytest.mark.parametrize("spec", [dict(sims=50), dict(time=0.05)])
def test_a_forced_move_is_played_without_a_search(spec):
    game = make_game("kalah", pits=3, seeds=2)
    state = np.array([0, 0, 1, 5, 2, 2, 2, 0, 0])  # player 0 to move, only pit 2 holds seeds
    net, _ = random_network(game)
    policy = AlphaZeroPolicy(net=net, **spec)
    assert policy.act(game, state) == 2 and policy.last_sims == 0
    assert policy.act(game, game.init()) in (0, 1, 2) and policy.last_sims > 0


def test_network_files_are_checked(tmp_path):
    kalah, sungka = make_game("kalah"), make_game("sungka")
    net, weights = random_network(kalah)
    net.save(tmp_path / "kalah.npz", weights)
    with pytest.raises(ValueError, match="trained for kalah"):
        AlphaZeroPolicy(path=str(tmp_path / "kalah.npz")).act(sungka, sungka.init())
    (tmp_path / "junk.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not an alphazero network file"):
        AlphaZeroPolicy(path=str(tmp_path / "junk.npz"))
    with pytest.raises(FileNotFoundError, match="no network file"):
        AlphaZeroPolicy(path=str(tmp_path / "none.npz"))
    with pytest.raises(ValueError, match="sims must be an integer >= 0"):
        make_policy("alphazero:sims=-1")


def test_numpy_network_equals_the_torch_network_it_came_from():
    import torch

    from mancala_marl.train.alphazero import to_numpy_network

    game = make_game("togyz_kumalak")
    config = AlphaZeroConfig(game="togyz_kumalak", hidden=[32, 16])
    model = torch_network(config, game)
    x = features(game, np.array([h[0] for h in random_game(game, np.random.default_rng(0))[0][:20]]), config.obs_type)
    with torch.no_grad():
        logits, values = model(torch.from_numpy(x))
    net, _ = to_numpy_network(model, config, game)
    ours = net(x)
    assert np.allclose(ours[0], logits.numpy(), atol=1e-5) and np.allclose(ours[1], values.numpy(), atol=1e-5)


def tiny(**overrides):
    return AlphaZeroConfig(**{**dict(game="kalah", rule_params={"pits": 3, "seeds": 2}, generations=2, games=8,
                                     sims=8, hidden=[16], buffer=2000, batch_size=32, steps_per_generation=5,
                                     eval_every=1, eval_games=1, eval_sims=4, eval_opponents=["random"],
                                     progress_bar=False), **overrides})


def test_training_writes_a_run_that_resumes_with_nothing_lost(tmp_path):
    path = train(tiny(), tmp_path)
    assert path == tmp_path / "network.npz"
    net = Network.load(path)
    assert net.meta["generation"] == 2 and net.meta["game"] == "kalah"
    rows = (tmp_path / "evaluations.csv").read_text().splitlines()
    assert len(rows) == 1 + 2 * 2  # header, then (random, first/second) per evaluation
    with np.load(tmp_path / "checkpoints" / "buffer.npz") as buffer:
        kept = len(buffer["results"])
    assert kept == net.meta["positions"] > 0
    with pytest.raises(ValueError, match="already holds a run"):
        train(tiny(), tmp_path)
    train(tiny(), tmp_path, resume=True, generations=3)
    net = Network.load(path)
    assert net.meta["generation"] == 3 and net.meta["positions"] > kept
    assert json.loads((tmp_path / "config.json").read_text())["generations"] == 3
    for total in (3, 2):  # a finished run, or a total it has passed: refused, the run left as it was
        with pytest.raises(ValueError, match=rf"has played 3 generations already, and --generations is {total}"):
            train(tiny(), tmp_path, resume=True, generations=total)
    with pytest.raises(ValueError, match=r"and its total \(no --generations given\) is 3: give a larger --generations"):
        train(tiny(generations=3), tmp_path, resume=True)
    # as the command line calls it: the total in the config, named among the settings given
    with pytest.raises(ValueError, match=r"has played 3 generations already, and --generations is 3"):
        train(tiny(generations=3), tmp_path, resume=True, given={"game", "generations"})
    assert json.loads((tmp_path / "config.json").read_text())["generations"] == 3
    game = make_game("kalah", pits=3, seeds=2)
    assert game.legal_mask(game.init())[make_policy(f"alphazero:path={path},sims=4").act(game, game.init())]


def test_training_on_a_game_whose_moves_name_their_way(tmp_path):
    # Goat: three holes sown outward, the middle one either way: six actions, the network's six outputs
    rules = {"holes": 3, "seeds": 2, "direction": "outward", "choose_direction": "middle", "must_share": False}
    with pytest.raises(BadInput, match="also names its way"):
        train(tiny(game="family", rule_params=rules), tmp_path / "moves")  # the per-pit input, refused
    path = train(tiny(game="family", rule_params=rules, obs_type="counts"), tmp_path / "counts")
    net = Network.load(path)
    assert net.meta["game"] == "family" and net.meta["rule_params"]["direction"] == "outward"
    game = make_game("family", **rules)
    policy = make_policy(f"alphazero:path={path},sims=8")
    for state, _ in random_game(game, np.random.default_rng(2))[0]:
        assert game.legal_mask(state)[policy.act(game, state)]


def test_training_with_the_progress_bar_on_runs_and_reports_each_evaluation(tmp_path, capsys):
    # the command line's default; the bar's columns read fields that every generation must set again
    train(tiny(progress_bar=True, batch_size=100), tmp_path)  # one generation's positions are fewer
    first, second = capsys.readouterr().out.split("[generation 2]")
    assert "[generation 1]" in first and "random/f" in first and "random/f" in second
    # nothing fitted after the first generation: no losses are shown, rather than zeros
    assert "not fitted yet" in first and "a batch is 100" in first and "losses" not in first
    assert "losses" in second and "not fitted" not in second


def test_the_bar_to_a_file_keeps_its_last_column(tmp_path, capsys):
    # at rich's 80 columns for a file the status, last on the bar's line, was cut off
    train(tiny(progress_bar=True, generations=1, eval_opponents=["random", "max", "alphabeta:depth=2"]), tmp_path)
    lines = capsys.readouterr().out.splitlines()
    report, bar = lines[0], lines[-1]  # the generation's line, then the bar as it was at the end
    assert report.startswith("[generation 1]") and "alphabeta:depth=2/s" in report, lines  # not wrapped
    # the spinner's column, blank once the games are done, comes first
    assert bar.lstrip().startswith("generation 1: games") and "\u2026" not in bar and "alphabeta:depth=2/s" in bar, lines


def test_training_without_the_bar_prints_a_line_per_generation(tmp_path, capsys):
    # --no-progress printed nothing between evaluations: an hour could pass without a sign of life
    train(tiny(generations=3, eval_every=2), tmp_path)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("[generation")]
    assert [line.split("]")[0] for line in lines] == ["[generation 1", "[generation 2", "[generation 3"]
    assert "positions" in lines[0] and "random/f" not in lines[0] and "random/f" in lines[1]


def test_training_refuses_bad_settings(tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        train(tiny(), tmp_path / "none", resume=True)
    with pytest.raises(ValueError, match=r"games must be >= 1, got 0; it takes 1..65536"):
        train(tiny(games=0), tmp_path / "a")
    with pytest.raises(ValueError, match="unknown policy"):
        train(tiny(eval_opponents=["oracle"]), tmp_path / "b")


@pytest.mark.parametrize("policy_target", ["visits", "completed-q"])
@pytest.mark.parametrize("game", DEFAULTS, ids=repr)
def test_self_play_records_every_position_with_the_result_of_its_mover(game, policy_target):
    from mancala_marl.train.alphazero import self_play

    config = AlphaZeroConfig(game=game.name, games=4, sims=4, temperature_moves=100, policy_target=policy_target)
    net, _ = random_network(game)
    (obs, masks, policies, results), stats = self_play(game, net, config, np.random.default_rng(0),
                                                       mcts.Forest(game, 4, 6))
    assert len(obs) == len(results) == stats["positions"] and set(np.unique(results)) <= {-1.0, 0.0, 1.0}
    assert np.allclose(policies.sum(axis=1), 1.0) and not (policies[~masks] > 0).any()
    # Visit shares of at most 4 visits are multiples of 1/12; the improved prior (almost surely) is not.
    shares = np.isclose(policies * 12, np.round(policies * 12), atol=1e-4).all()
    assert shares == (policy_target == "visits")


def test_utility_blends_the_result_with_the_margin():
    assert mcts.utility(3.0, 0.0, 24.0) == 1.0 and mcts.utility(-3.0, 0.0, 24.0) == -1.0
    assert mcts.utility(0.0, 0.5, 24.0) == 0.0
    assert mcts.utility(6.0, 0.5, 24.0) == pytest.approx(0.5 + 0.5 * 6 / 24)
    assert mcts.utility(-6.0, 0.25, 24.0) == pytest.approx(-0.75 - 0.25 * 6 / 24)
    assert mcts.utility(40.0, 0.5, 24.0) == 1.0 and mcts.utility(-40.0, 1.0, 24.0) == -1.0


def _ending_moves_positions(game, rng, count):
    """``count`` positions with two or more legal moves, at least one of which ends the game."""
    found = []
    while len(found) < count:
        for state, _ in random_game(game, rng)[0]:
            moves = np.flatnonzero(game.legal_mask(state))
            ends = {}
            for move in moves:
                child = state.copy()
                game.apply(child, move)
                if game.is_terminal(child):
                    ends[int(move)] = child
            if len(moves) >= 2 and ends and len(found) < count:
                found.append((state, ends))
    return found


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_a_finished_game_is_worth_its_blended_utility_in_the_tree(compiled, tmp_path):
    """A root move that ends the game has, as its mean value, exactly the utility of the margin
    it ends with, from the mover's side; the compiled path takes the weight from the network's
    file, the Python path from the argument."""
    from mancala_marl.agents.alphazero import margin_unit

    game = make_game("kalah", pits=3, seeds=2)
    if compiled:
        net, weights = random_network(game, seed=2)
        net.meta["margin_weight"] = 0.5
        net.save(tmp_path / "net.npz", weights)
        net = Network.load(tmp_path / "net.npz")
        assert net.margin_weight == 0.5 and random_network(game)[0].margin_weight == 0.0
        run = (lambda forest: search(game, net, forest, 200))
    else:
        run = (lambda forest: search(game, Uninformed(game.pits), forest, 200, margin_weight=0.5))
    checked, fractional = 0, 0
    for state, ends in _ending_moves_positions(game, np.random.default_rng(7), 10):
        forest = mcts.Forest(game, 1, 202)
        forest.reset(state[None])
        run(forest)
        mover = game.to_move(state)
        for move, end in ends.items():
            scores = game.scores(end)
            expected = mcts.utility(float(scores[mover] - scores[1 - mover]), 0.5, margin_unit(game))
            n = forest.visits[0, 0, move]
            # float32 sums: a few hundred visits of the same value agree to about 1e-6
            assert n > 0 and forest.value_sum[0, 0, move] / n == pytest.approx(expected, rel=1e-5)
            checked += 1
            fractional += abs(expected) not in (0.0, 1.0)
    assert checked >= 10 and fractional > 0  # blended values, not only +-1


def test_self_play_with_a_margin_weight_records_the_blended_value():
    """One game at a time: every position's value is the blend of the final margin, from its
    mover's side (player 0's first position carries the game's result)."""
    from mancala_marl.agents.alphazero import margin_unit
    from mancala_marl.train.alphazero import self_play

    game = make_game("kalah", pits=3, seeds=2)
    config = AlphaZeroConfig(game="kalah", rule_params=dict(pits=3, seeds=2), games=1, sims=4, margin_weight=0.5)
    net, _ = random_network(game)
    rng = np.random.default_rng(0)
    blended = 0
    for _ in range(12):
        (_, _, _, results), stats = self_play(game, net, config, rng, mcts.Forest(game, 1, 6))
        first = results[0]  # the start position: player 0 to move
        assert np.sign(first) == np.sign(stats["first_player_score"] - 0.5)
        assert set(np.round(np.abs(results), 6)) == {round(abs(float(first)), 6)}  # one value, two signs
        if first != 0:
            # (1 - w) * sign + w * margin / unit with w = 1/2: a whole number of seeds, at least one
            seeds = (abs(first) - 0.5) * 2 * margin_unit(game)
            assert seeds == pytest.approx(round(seeds), abs=1e-4) and round(seeds) >= 1
            blended += abs(first) < 1
    assert blended > 0
    with pytest.raises(ValueError, match="margin_weight"):
        AlphaZeroConfig(margin_weight=1.5).check()


def test_self_play_with_value_q_records_the_outcome_blended_with_the_root_value():
    """The blend only changes what is recorded, not the games: with the same random stream, the
    same positions come out, and ``value_q=0.5`` records the mean of the outcome (``value_q=0``)
    and the root's search value (``value_q=1``), which is fractional where the outcome is +-1."""
    from mancala_marl.train.alphazero import self_play

    game = make_game("kalah", pits=3, seeds=2)
    net, _ = random_network(game)
    recorded = {}
    for q in (0.0, 0.5, 1.0):
        config = AlphaZeroConfig(game="kalah", rule_params=dict(pits=3, seeds=2), games=4, sims=8, value_q=q)
        (obs, _, _, results), _ = self_play(game, net, config, np.random.default_rng(3), mcts.Forest(game, 4, 10))
        recorded[q] = obs, results
    assert all(np.array_equal(recorded[0.0][0], recorded[q][0]) for q in (0.5, 1.0))
    outcome, root_value = recorded[0.0][1], recorded[1.0][1]
    assert set(np.unique(outcome)) <= {-1.0, 0.0, 1.0}
    assert np.abs(root_value).max() <= 1.0 and not np.isin(root_value, [-1.0, 0.0, 1.0]).all()
    # from the same side as the outcome: searches that see the game's end agree with it (a sign
    # slip would make this negative; it is about 0.5 for these seeds)
    assert np.corrcoef(outcome, root_value)[0, 1] > 0.3
    assert np.allclose(recorded[0.5][1], (outcome + root_value) / 2, atol=1e-6)
    with pytest.raises(ValueError, match="value_q"):
        AlphaZeroConfig(value_q=-0.1).check()


def test_completed_q_target_on_a_worked_root():
    """Uniform prior; move 0: 2 visits worth 1.0 in all (Q 0.5), move 1: 1 visit worth -0.5,
    move 2 unvisited, move 3 illegal. The unvisited move's Q is the mix (0 + 3 * 0) / 4 = 0 (the
    visited Qs weighted by the prior average 0); rescaled over the legal moves the Qs are 1, 0,
    1/2, weighted by (50 + 2) * 0.1 = 5.2."""
    from mancala_marl.train.alphazero import completed_q_target

    target = completed_q_target(np.zeros(4), 0.0, np.array([2, 1, 0, 0.0]), np.array([1.0, -0.5, 0, 0]),
                                np.array([True, True, True, False]))
    expected = np.exp([5.2, 0.0, 2.6]) / np.exp([5.2, 0.0, 2.6]).sum()
    assert target == pytest.approx([*expected, 0.0])


def test_completed_q_target_is_the_prior_before_any_visit_and_follows_q_after():
    from mancala_marl.train.alphazero import completed_q_target

    logits, mask = np.array([1.0, 0.0, -1.0]), np.ones(3, dtype=bool)
    prior = np.exp(logits) / np.exp(logits).sum()
    assert completed_q_target(logits, 0.3, np.zeros(3), np.zeros(3), mask) == pytest.approx(prior)
    # The least likely move turned out best and the likeliest worst: the target turns round.
    target = completed_q_target(logits, 0.0, np.array([10, 10, 10.0]), np.array([-9.0, 0.0, 9.0]), mask)
    assert target.argmax() == 2 and target.argmin() == 0 and target.sum() == pytest.approx(1.0)


def test_a_resumed_run_can_switch_its_policy_target_and_opening(tmp_path):
    def saved():
        config = json.loads((tmp_path / "config.json").read_text())
        return config["policy_target"], config["opening"], config["sims"]

    train(tiny(), tmp_path)
    assert saved() == ("visits", 0, 8)
    train(tiny(), tmp_path, resume=True, generations=3, policy_target="completed-q", opening=3)
    assert saved() == ("completed-q", 3, 8)
    assert Network.load(tmp_path / "network.npz").meta["opening"] == 3  # the file says how it was trained
    with pytest.raises(ValueError, match=r"sims=4 \(the run's: 8\)"):  # how it searches is the run's
        train(tiny(sims=4), tmp_path, resume=True, generations=4)
    train(tiny(), tmp_path, resume=True, generations=4)  # left at their defaults: the run's settings
    assert saved() == ("completed-q", 3, 8)
    assert Network.load(tmp_path / "network.npz").meta["generation"] == 4
    with pytest.raises(ValueError, match="policy_target must be one of"):
        AlphaZeroConfig(policy_target="votes").check()
    with pytest.raises(ValueError, match=r"opening must be >= 0, got -1; it takes 0..1000"):
        AlphaZeroConfig(opening=-1).check()


def test_random_opening_stops_before_a_move_that_would_end_the_game():
    from mancala_marl.train.alphazero import random_opening

    game = make_game("kalah", pits=3, seeds=2)
    # Player 0 to move with one seed left, in pit 2: sowing it into the store empties the side.
    state = np.array([0, 0, 1, 5, 2, 2, 2, 0, 0])
    assert game.legal_mask(state).tolist() == [False, False, True]
    assert random_opening(game, state, np.random.default_rng(0), 5) == 0
    assert state.tolist() == [0, 0, 1, 5, 2, 2, 2, 0, 0]
    state = game.init()
    assert random_opening(game, state, np.random.default_rng(0), 2) == 2
    assert state[:-1].sum() == 12 and not np.array_equal(state, game.init())  # seeds, then the mover


@pytest.mark.parametrize("game", DEFAULTS, ids=repr)
def test_self_play_from_random_openings_records_only_the_searched_moves(game):
    from mancala_marl.agents.alphazero import observe
    from mancala_marl.train.alphazero import self_play

    net, _ = random_network(game)
    start = observe(game, game.init()[None], "moves")[0]

    def games_recorded_from_the_start(opening):
        config = AlphaZeroConfig(game=game.name, games=16, sims=2, opening=opening)
        (obs, _, _, _), _ = self_play(game, net, config, np.random.default_rng(1), mcts.Forest(game, 16, 4))
        return sum(np.array_equal(row, start) for row in obs)  # the start cannot recur: stores only grow

    assert games_recorded_from_the_start(0) == 16
    assert games_recorded_from_the_start(6) < 16  # the others began after random moves, not recorded
