"""Declared parameters: a name, a type, a default, the values taken and a line of doc.

Each game declares its rule parameters as a tuple of :class:`Param` (``Kalah.parameters``), and
each policy its own (:mod:`mancala_marl.agents`); from that one declaration come the checks with
their messages, the constructor's signature, the ``spec`` array the kernels read, the command
line's help and the docs' tables of parameters. A training run's settings are declared alike
(``mancala_marl.train.training.SETTINGS``): their checks, defaults and command-line options.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from mancala_marl.errors import BadInput


TYPE_WORDS = {int: "an integer", float: "a number", bool: "True or False", str: "a string"}


@dataclass(frozen=True)
class Param:
    """One parameter.

    ``type`` is int, float, bool or str; an int or float takes ``low..high`` (both included), a
    str one of ``choices`` (a kernel reads its index in ``choices``). ``choices`` may be given as
    an IntEnum whose codes are 0, 1, ... in order: its members' names in lower case are the
    choices, and ``codes`` keeps the enum, so that a kernel's ``Lap.RELAY`` is the code of
    "relay". ``optional``: None is also taken (it stands for "none given", e.g. no time limit).
    ``why_low`` and ``why_high`` are the reasons for the bounds, given with the error when a value
    falls outside one. ``expects``: what the parameter takes in words, where the words made from
    the rest would read worse.
    """

    name: str
    type: type
    default: object
    doc: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | type[IntEnum] = ()
    optional: bool = False
    why_low: str = ""
    why_high: str = ""
    expects: str = ""
    codes: type[IntEnum] | None = None

    def __post_init__(self):
        if isinstance(self.choices, type) and issubclass(self.choices, IntEnum):
            object.__setattr__(self, "codes", self.choices)
            object.__setattr__(self, "choices", choice_names(self.choices))
        if self.type not in TYPE_WORDS:
            raise TypeError(f"parameter {self.name}: type must be one of int, float, bool, str, got {self.type!r}")
        if self.type in (int, float) and (self.low is None or self.high is None):
            raise TypeError(f"parameter {self.name}: a number needs its range, low and high")
        if not (self.default is None and self.optional):
            self.check(self.default)

    @property
    def kind(self) -> str:
        """What the parameter takes, in words: "an integer", "one of ['either', 'mover']"."""
        if self.type is str and self.choices:
            return f"one of {list(self.choices)!r}"
        return TYPE_WORDS[self.type]

    @property
    def takes(self) -> str:
        """All it takes, in words: "an integer >= 1 and <= 512 (turns)", "... or None"."""
        if self.expects:
            return self.expects
        words = " ".join(filter(None, (self.kind, self.bounds, f"({self.doc})")))
        return words + " or None" * self.optional

    @property
    def bounds(self) -> str:
        """The range in words: ``">= 1 and <= 64"``, empty for bool and str parameters."""
        if self.type not in (int, float):
            return ""
        return f">= {_number(self.low)} and <= {_number(self.high)}"

    def type_ok(self, value) -> bool:
        if value is None:
            return self.optional
        if self.type is bool:
            return isinstance(value, (bool, np.bool_))
        if self.type is str:  # a free one is text, or a file's path
            return value in self.choices if self.choices else isinstance(value, (str, os.PathLike))
        numbers = (int, np.integer) if self.type is int else (int, float, np.integer, np.floating)
        return isinstance(value, numbers) and not isinstance(value, (bool, np.bool_))

    def in_range(self, value) -> bool:
        """Whether a value of the right type is within the bounds (NaN is not)."""
        if value is None or self.type not in (int, float):
            return True
        return self.low <= value <= self.high

    def check(self, value):
        """``value`` as the kernels and ``params`` hold it (a Python int, float, bool or str), or a
        ValueError naming the parameter, the value and what it takes."""
        if not self.type_ok(value):  # a number's range too: "must be an integer >= 0 and <= 127"
            takes = " ".join(filter(None, (self.kind, self.bounds))) + " or None" * self.optional
            raise BadInput(f"{self.name} must be {takes}, got {value!r}")
        if not self.in_range(value):
            below = value != value or value < self.low  # NaN is below (math.isnan refuses a 400-digit int)
            bound = f">= {_number(self.low)}" if below else f"<= {_number(self.high)}"
            why = self.why_low if below else self.why_high
            why = f" ({why})" if why else ""
            raise BadInput(f"{self.name} must be {bound}{why}, got {value!r}; it takes {self.range_text}")
        return None if value is None else self.type(value)

    def code(self, value) -> int:
        """The value as an entry of a kernel's int64 ``spec``: a choice's index, a bool as 0 or 1."""
        return self.choices.index(value) if self.type is str else int(value)

    @property
    def range_text(self) -> str:
        """The values taken, for messages and help: ``1..64``, ``True or False``, ``either or mover``."""
        if self.type in (int, float):
            return f"{_number(self.low)}..{_number(self.high)}"
        if self.type is str:
            return " or ".join(self.choices) if self.choices else "text"
        return "true or false" if self.type is bool else TYPE_WORDS[self.type]

    def shown(self, value) -> str:
        """``value`` as the command line writes it: a boolean in lower case (``seeds=4``, ``sow_store=true``)."""
        return str(value).lower() if self.type is bool else str(value)

    def help(self, doc: bool = True) -> str:
        """One line for help texts: ``pits=6 (1..64): pits a side``, without the doc if not ``doc``."""
        return f"{self.name}={self.shown(self.default)} ({self.range_text})" + (f": {self.doc}" if doc else "")


def choice_names(codes: type[IntEnum]) -> tuple[str, ...]:
    """The names of an enum of choices in lower case, in the order of their codes, which must be
    their positions (a kernel reads a choice by its position)."""
    if [member.value for member in codes] != list(range(len(codes))):
        raise TypeError(f"{codes.__name__}'s codes must be 0, 1, ... in order, got {[m.value for m in codes]}")
    return tuple(member.name.lower() for member in codes)


def _number(value) -> str:
    """A bound as people write it: 4294967295 as 2**32 - 1, 1e308 as it is."""
    if isinstance(value, int) and value >= 2**20 and (value + 1) & value == 0:
        return f"2**{value.bit_length()} - 1"
    if isinstance(value, int) and value >= 2**20 and value & (value - 1) == 0:
        return f"2**{value.bit_length() - 1}"
    return repr(value) if isinstance(value, float) else str(value)


def check_values(params: tuple[Param, ...], values: dict, owner: str) -> dict:
    """Every declared parameter's value, checked, in the order of the declaration: the ones
    ``values`` gives, the defaults for the rest. An unknown name is refused, naming ``owner``."""
    known = {param.name: param for param in params}
    unknown = [key for key in values if key not in known]
    if unknown:
        raise BadInput(f"{owner} has no parameter {', '.join(map(repr, unknown))}; "
                         f"its parameters: {', '.join(known)}")
    return {param.name: param.check(values.get(param.name, param.default)) for param in params}


def check_fields(settings, params) -> None:
    """Each of ``params`` checked against the attribute of ``settings`` (a run's config) of its
    name: the first out of range is refused, in one line naming it, its value and its range."""
    for param in params:
        param.check(getattr(settings, param.name))


def parse_spec(spec: str) -> tuple[str, list, dict]:
    """Split a command-line spec of a game or a policy into (name, positional args, keyword params).

    ``"alphabeta:depth=4,time_limit=0.5"`` -> ``("alphabeta", [], {"depth": 4, "time_limit": 0.5})``;
    ``"model:runs/ppo.zip"`` -> ``("model", ["runs/ppo.zip"], {})``. Values are read as Python
    literals (numbers, True/False/None) where they parse, else kept as strings.
    """
    name, _, rest = spec.partition(":")
    args, params = [], {}
    for part in (p.strip() for p in rest.split(",")) if rest else []:
        if not part:  # "depth=4,," read as depth=4 hid a slip (a value left out?)
            raise BadInput(f"{spec!r} has an empty parameter (a comma too many); write name=value,name=value")
        key, eq, value = part.partition("=")
        if eq and key.isidentifier():
            if key in params:  # the last would win without a word
                raise BadInput(f"{spec!r} gives {key} twice")
            params[key] = literal(value)
        else:
            args.append(literal(part, words=False))  # "model:none" is a file called none
    return name.strip(), args, params


def literal(text: str, words: bool = True):
    """A command-line value as Python reads it: numbers, True/False/None (with ``words``, also
    spelt true, false, none, as shells and YAML write them), lists and dicts; anything else stays
    a string."""
    spelt = {"true": True, "false": False, "none": None}
    if words and text.strip().lower() in spelt:
        return spelt[text.strip().lower()]
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
