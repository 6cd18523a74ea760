"""A run over several devices (4 fake CPU devices, in a fresh interpreter: XLA reads the flag at
start): each device plays its share of the games as one device would with its key, and the network
stays the same on every device."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
import jax, numpy as np
from mancala_marl.games import make_game
from mancala_marl.train.alphazero.jax import JaxAlphaZeroConfig, train
from mancala_marl.train.alphazero.jax.learner import Learner, learner

assert len(jax.devices()) == 4
tiny = dict(game="kalah", rule_params={"pits": 4, "seeds": 3}, generations=2, games=16, moves=30, sims=4,
            hidden=[16], buffer=2000, batch_size=64, obs_type="counts", eval_every=0, progress_bar=False)
config = JaxAlphaZeroConfig(**tiny)
game = make_game("kalah", pits=4, seeds=3)
four = learner(config, game, jax.devices())  # the one train() below takes: compiled once
state = four.initial(0)
keys = jax.random.key_data(jax.random.split(jax.random.key(5), 4))
replay, counts = four._generation(state["params"], keys, state["replay"])
one = Learner(JaxAlphaZeroConfig(**{**tiny, "games": 4, "buffer": 500, "batch_size": 16}), game, jax.devices()[:1])
same, params = [], jax.tree_util.tree_map(np.asarray, state["params"])
for d in range(4):
    alone, _ = one._generation(params, np.asarray(keys[d:d + 1]), one.initial(0)["replay"])
    same.append(all(np.array_equal(np.asarray(replay[k])[d], np.asarray(alone[k])[0]) for k in replay))
state, stats = four.generation(state, 1e-3)
shards = [np.asarray(s.data) for s in state["params"]["policy.weight"].addressable_shards]
path = train(config, sys.argv[1])
print(json.dumps({"same": same, "shards": len(shards), "replicated": all(np.array_equal(shards[0], s) for s in shards),
                  "sizes": np.asarray(state["replay"]["size"]).tolist(), "steps": stats.get("steps", 0),
                  "network": str(path)}))
"""


def test_four_devices_share_the_games_and_keep_one_network(tmp_path):
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4", "JAX_PLATFORMS": "cpu"}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "run")], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["same"] == [True] * 4  # device d's positions are those one device plays with key d
    assert result["shards"] == 4 and result["replicated"]
    assert all(size > 0 for size in result["sizes"]) and result["steps"] > 0
    with open(tmp_path / "run" / "config.json") as handle:
        assert json.load(handle)["games"] == 16
    meta = json.loads(str(__import__("numpy").load(result["network"])["__meta__"]))
    assert meta["devices"] == 4 and meta["generation"] == 2
