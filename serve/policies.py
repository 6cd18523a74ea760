"""Policies as a web request may name them: checked against the registry, bounded in time and
memory by the server, and never reading a file the server was not told to trust.

A spec from a request (``"alphabeta:depth=6"``) is parsed as the command line parses it, then:
its name must be one of :data:`WEB_POLICIES` (``solver`` searches without a clock, so it is not
one); a network file (``model:NAME``, ``alphazero:path=NAME``) is taken only when the server was
started with ``--networks DIR``, and only as the name of a file directly in that folder; every
search gets the server's time cap per move (``alphabeta``'s and ``greedy``'s ``time_limit``, ``alphazero``'s
``time``, or ``sims`` up to :data:`MAX_SIMS`); search tables are bounded by :data:`MAX_TT_BITS`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from mancala_marl.agents import POLICIES, make_policy, parse_policy_spec
from mancala_marl.errors import BadInput
from mancala_marl.games.params import Param

# The registry's policies a request may name (those the registry has: `perfect` once installed).
WEB_POLICIES = ("random", "max", "exact", "simple", "greedy", "alphabeta", "alphazero", "pretrained", "model")
NETWORK_POLICIES = {"model": "path", "alphazero": "path"}  # the parameter that names a file
MAX_TT_BITS = 20  # 2**20 entries, about 19 MB a table: a request cannot ask for gigabytes
WEB_TT_BITS = 18  # alphabeta's table unless a request asks for more: 5 MB
MAX_SIMS = 5_000  # about 0.2 s a move
MAX_CHAIN = 12  # greedy's default: Sungka's turns can run to millions of move sequences past it
MAX_SPEC = 200  # characters


def web_policy(spec, move_time: float, networks: Path | None = None):
    """The policy ``spec`` names, made for a request; a ValueError (one line) says why not."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
        raise BadInput(f"a policy is a spec string of 1 to {MAX_SPEC} characters, e.g. 'alphabeta:depth=4', "
                         f"got {str(spec)[:60]!r}")
    name, args, params = parse_policy_spec(spec)
    allowed = [known for known in WEB_POLICIES if known in POLICIES]
    if name not in allowed:
        why = " (it searches without a clock; use alphabeta)" if name == "solver" else ""
        raise BadInput(f"policy {name!r} cannot be played here{why}; these can: {', '.join(allowed)}")
    if name in NETWORK_POLICIES:
        key = NETWORK_POLICIES[name]
        if args:
            params.setdefault(key, args.pop(0))
        if key in params and params[key] is not None:
            params[key] = str(network_file(params[key], networks))
        elif name == "model":
            raise BadInput("model needs a network file: model:NAME, a file in the server's --networks folder")
    if args:
        raise BadInput(f"policy spec {spec!r}: parameters must be name=value")
    if name in ("alphabeta", "greedy"):
        params["time_limit"] = min(float(params.get("time_limit") or move_time), move_time)
    if name == "alphabeta":
        if "tt_bits" in params:
            why = f"this server's cap: a table of 2**{MAX_TT_BITS} entries, about 19 MB"
            capped("alphabeta", "tt_bits", MAX_TT_BITS, why).check(params["tt_bits"])
        params.setdefault("tt_bits", WEB_TT_BITS)
    if name == "alphazero":
        if params.get("time") is not None:
            params["time"] = min(_number(params["time"]), move_time)
        elif "sims" in params:
            why = f"this server's cap, about 0.2 s a move; or give time=SECONDS, up to {move_time:g}"
            capped("alphazero", "sims", MAX_SIMS, why).check(params["sims"])
    if name == "greedy" and "max_chain" in params:
        why = "this server's cap: past it a Sungka turn can run to millions of sequences"
        capped("greedy", "max_chain", MAX_CHAIN, why).check(params["max_chain"])
    policy = make_policy(name, **params)
    policy.label = spec.strip()
    return policy


def capped(policy: str, name: str, high: int, why: str) -> Param:
    """The parameter ``name`` as ``policy`` declares it, with the server's bound ``high`` (never
    above the policy's own; ``why``: the reason, for the message): it checks a request's value and
    refuses it in one line naming the parameter, the value and the range taken here."""
    declared = next(param for param in POLICIES[policy].parameters if param.name == name)
    return dataclasses.replace(declared, high=min(high, declared.high), why_high=why)


def _number(value) -> float:
    """A number from a request, for the server's cap on time; the policy's own check names bad types."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def network_file(name, networks: Path | None) -> Path:
    """A file of the ``--networks`` folder, named by its name alone: no folders, no ``..``."""
    if networks is None:
        raise BadInput("network files cannot be named from the web: start the server with --networks DIR "
                         "to allow the files of one folder")
    text = str(name)
    if not text or text in (".", "..") or "/" in text or "\\" in text or text.startswith("."):
        raise BadInput(f"a network is named by its file name in the --networks folder, got {text[:60]!r}")
    path = networks / text
    if not path.is_file():
        raise BadInput(f"no network file {text!r} in the --networks folder; it holds: "
                         f"{', '.join(sorted(p.name for p in networks.iterdir() if p.is_file())[:20]) or 'nothing'}")
    return path
