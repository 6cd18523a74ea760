"""A JAX run's two checkpoint files, each written atomically and checked against the run on load.

- ``checkpoints/last.npz``, after every generation, small: the network, the optimiser state, the
  devices' random keys and the progress (generation, seconds, positions).
- ``checkpoints/replay.npz``, at the end, on Ctrl-C and every ``replay_every`` minutes: the replay
  buffer, the games in play and the window of their positions, with the progress it was saved at.
  A run killed between two of them resumes with the network of its last generation and the buffer
  of its last snapshot, and says how much self-play that loses.
"""

from __future__ import annotations

import jax
import numpy as np

from mancala_marl.errors import BadInput
from .learner import REPLAY

PROGRESS = ("generation", "seconds", "positions")


def host_copy(tree):
    """Every array of ``tree`` copied to the host (a copy, not a view: the devices' buffers are
    donated to the next generation, which overwrites them)."""
    return jax.tree_util.tree_map(lambda a: np.array(a, copy=True), tree)


def _write(path, arrays: dict) -> None:
    from mancala_marl.atomic import write_atomically

    write_atomically(path, lambda tmp: np.savez(tmp, **arrays))


def save_checkpoint(path, state: dict, progress: dict) -> None:
    """The network, optimiser state and keys of ``state`` (host arrays) and ``progress``."""
    arrays = {f"params/{k}": v for k, v in state["params"].items()}
    arrays.update({f"opt/{i}": v for i, v in enumerate(jax.tree_util.tree_leaves(state["opt_state"]))})
    arrays.update(key=state["key"], **{k: np.asarray(progress[k]) for k in PROGRESS})
    _write(path, arrays)


def save_replay(path, state: dict, progress: dict) -> None:
    """The buffer, the games and the window of ``state`` (host arrays), at ``progress``."""
    arrays = {f"replay/{k}": v for k, v in state["replay"].items()}
    arrays.update({f"games/{i}": v for i, v in enumerate(jax.tree_util.tree_leaves(state["games"]))})
    arrays.update({f"window/{i}": v for i, v in enumerate(jax.tree_util.tree_leaves(state["window"]))})
    arrays.update({k: np.asarray(progress[k]) for k in PROGRESS})
    _write(path, arrays)


def _read(path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def _check(arrays: dict, wanted: dict) -> None:
    for name, like in wanted.items():
        if name not in arrays:
            raise BadInput(f"{name} is missing")
        if arrays[name].shape != np.shape(like) or arrays[name].dtype != np.asarray(like).dtype:
            raise BadInput(f"{name} is {arrays[name].dtype}{list(arrays[name].shape)}, this run's is "
                             f"{np.asarray(like).dtype}{list(np.shape(like))}")


def _progress(arrays: dict) -> dict:
    return {"generation": int(arrays["generation"]), "seconds": float(arrays["seconds"]),
            "positions": int(arrays["positions"])}


def load_checkpoint(path, template: dict) -> tuple[dict, dict]:
    """The network, optimiser state and keys saved at ``path``, and the progress; refused unless
    every array has the shape and type of ``template`` (the state a run of these settings starts
    from). Keys saved on another number of devices are drawn again from the first one."""
    arrays = _read(path)
    leaves, tree = jax.tree_util.tree_flatten(template["opt_state"])
    if "key" in arrays and arrays["key"].ndim == 2 and arrays["key"].shape[0] != np.shape(template["key"])[0]:
        keys = jax.random.split(jax.random.wrap_key_data(arrays["key"][0]), np.shape(template["key"])[0])
        arrays["key"] = np.asarray(jax.random.key_data(keys))
    _check(arrays, {**{f"params/{k}": v for k, v in template["params"].items()},
                    **{f"opt/{i}": v for i, v in enumerate(leaves)}, "key": template["key"]})
    state = {"params": {k: arrays[f"params/{k}"] for k in template["params"]},
             "opt_state": jax.tree_util.tree_unflatten(tree, [arrays[f"opt/{i}"] for i in range(len(leaves))]),
             "key": arrays["key"]}
    return state, _progress(arrays)


def load_replay(path, template: dict) -> tuple[dict, dict, bool]:
    """(the buffer, games and window saved at ``path``, the progress it was saved at, whether the
    games came back). A buffer saved on another number of devices is dealt out again over this
    run's, and its games start again (their positions in the window are lost)."""
    arrays = _read(path)
    games_leaves, games_tree = jax.tree_util.tree_flatten(template["games"])
    window_leaves, window_tree = jax.tree_util.tree_flatten(template["window"])
    same_devices = "replay/size" in arrays and arrays["replay/size"].shape == template["replay"]["size"].shape
    if not same_devices and "replay/size" in arrays:
        arrays.update({f"replay/{k}": v for k, v in redeal(arrays, template["replay"]).items()})
    wanted = {f"replay/{k}": v for k, v in template["replay"].items()}
    if same_devices:
        wanted.update({f"games/{i}": v for i, v in enumerate(games_leaves)})
        wanted.update({f"window/{i}": v for i, v in enumerate(window_leaves)})
    _check(arrays, wanted)
    state = {"replay": {k: arrays[f"replay/{k}"] for k in template["replay"]}}
    if same_devices:
        state["games"] = jax.tree_util.tree_unflatten(games_tree, [arrays[f"games/{i}"] for i in range(len(games_leaves))])
        state["window"] = jax.tree_util.tree_unflatten(window_tree,
                                                       [arrays[f"window/{i}"] for i in range(len(window_leaves))])
    else:
        state.update(games=template["games"], window=template["window"])
    return state, _progress(arrays), same_devices


def redeal(arrays: dict, template: dict) -> dict:
    """The saved buffer's positions (``replay/...`` of ``arrays``, one part per device it was
    saved on) dealt out in turn over ``template``'s devices (the run as it resumes)."""
    sizes = arrays["replay/size"]
    devices, capacity = template["size"].shape[0], template["obs"].shape[1]
    out = {k: np.zeros_like(v) for k, v in template.items()}
    for name in REPLAY:
        kept = np.concatenate([arrays[f"replay/{name}"][d, :size] for d, size in enumerate(sizes)])
        for d in range(devices):
            part = kept[d::devices][:capacity]
            out[name][d, :len(part)] = part
            out["size"][d] = len(part)
    out["next"] = out["size"] % capacity
    return out
