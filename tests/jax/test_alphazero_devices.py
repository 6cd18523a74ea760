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
from mancala_marl.train.alphazero.jax.checkpoints import host_copy
from mancala_marl.train.alphazero.jax.learner import SPLIT, Learner, learner

assert len(jax.devices()) == 4
tiny = dict(game="kalah", rule_params={"pits": 4, "seeds": 3}, generations=2, games=16, moves=30, sims=4,
            hidden=[16], buffer=2000, batch_size=64, obs_type="counts", eval_every=0, progress_bar=False)
config = JaxAlphaZeroConfig(**tiny)
game = make_game("kalah", pits=4, seeds=3)
four = learner(config, game, jax.devices())  # the one train() below takes: compiled once
first = four.initial(0)
host = host_copy(first)  # the generation takes (donates) the devices' arrays
state, stats = four.generation(first, 1e-3)
one = Learner(JaxAlphaZeroConfig(**{**tiny, "games": 4, "buffer": 500, "batch_size": 16}), game, jax.devices()[:1])
same = []
for d in range(4):
    mine = {name: jax.tree_util.tree_map(lambda a: a[d:d + 1], host[name]) if name in SPLIT else host[name]
            for name in host}
    alone, _ = one.generation(one.place(mine), 1e-3)
    same.append(all(np.array_equal(np.asarray(a)[d], np.asarray(b)[0]) for part in ("replay", "games", "window")
                    for a, b in zip(jax.tree_util.tree_leaves(state[part]), jax.tree_util.tree_leaves(alone[part]))))
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
    assert result["same"] == [True] * 4  # device d's positions and games are those one device plays with its key
    assert result["shards"] == 4 and result["replicated"]
    assert all(size > 0 for size in result["sizes"]) and result["steps"] > 0
    with open(tmp_path / "run" / "config.json") as handle:
        assert json.load(handle)["games"] == 16
    meta = json.loads(str(__import__("numpy").load(result["network"])["__meta__"]))
    assert meta["devices"] == 4 and meta["generation"] == 2
