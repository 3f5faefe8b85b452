"""A :class:`~shangrao.rules.RuleSet` as the int array the compiled kernels read.

``encode_rules(rules)`` returns an ``int32`` array of length :data:`N_RULES`, one entry per
``RuleSet`` field in declaration order (bools as 0/1); the ``R_*`` constants are the indices.
:func:`decode_rules` is the inverse.  The kernels (:mod:`shangrao.sim.kernels`) take the array as an
argument, so one compiled function serves every rule set.

>>> from shangrao.rules import RuleSet
>>> a = encode_rules(RuleSet(robbing_kong_factor=4))
>>> int(a[R_ROBBING_KONG_FACTOR]), decode_rules(a) == RuleSet(robbing_kong_factor=4)
(4, True)
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np

from ..rules import DEFAULT_RULES, RuleSet, RuleSetError

__all__ = [
    "RULE_FIELDS",
    "N_RULES",
    "encode_rules",
    "decode_rules",
    "R_BASE_POINTS",
    "R_HEAVENLY_POINTS",
    "R_EARTHLY_POINTS",
    "R_ROBBING_KONG_FACTOR",
    "R_ROB_CONCEALED_KONG",
    "R_ROB_EXPOSED_KONG",
    "R_EARTHLY_WIN",
    "R_PUNG_KONG_BONUS",
    "R_CONCEALED_KONG_BONUS",
    "R_FOUR_BAO_BONUS",
    "R_CAUGHT_BAO_BONUS",
    "R_HANDS_PER_MATCH",
    "R_KONG_AFTER_PUNG",
    "R_ADDED_KONG_DRAWN_ONLY",
    "R_JIUYAO_MELDS",
    "R_WIN_ON_BAO_TILE",
    "R_BAODIAO_BAO_NEEDS_TOUJI",
]

#: the RuleSet fields in the order of the encoded array
RULE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet))
N_RULES = len(RULE_FIELDS)

R_BASE_POINTS = 0
R_HEAVENLY_POINTS = 1
R_EARTHLY_POINTS = 2
R_ROBBING_KONG_FACTOR = 3
R_ROB_CONCEALED_KONG = 4
R_ROB_EXPOSED_KONG = 5
R_EARTHLY_WIN = 6
R_PUNG_KONG_BONUS = 7
R_CONCEALED_KONG_BONUS = 8
R_FOUR_BAO_BONUS = 9
R_CAUGHT_BAO_BONUS = 10
R_HANDS_PER_MATCH = 11
R_KONG_AFTER_PUNG = 12
R_ADDED_KONG_DRAWN_ONLY = 13
R_JIUYAO_MELDS = 14
R_WIN_ON_BAO_TILE = 15
R_BAODIAO_BAO_NEEDS_TOUJI = 16

_INDEX = {name: globals()["R_" + name.upper()] for name in RULE_FIELDS}
# a RuleSet field added without its R_ constant (or in another order) would silently shift the array
assert all(_INDEX[name] == i for i, name in enumerate(RULE_FIELDS)), "sim/rules.py: R_* out of step with RuleSet"


def encode_rules(rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """``int32[N_RULES]``: every option of ``rules`` at its ``R_*`` index (bools as 0/1).

    Raises ``TypeError`` for something that is not a :class:`RuleSet`.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    return np.array([int(getattr(rules, name)) for name in RULE_FIELDS], dtype=np.int32)


def decode_rules(array: Any) -> RuleSet:
    """The :class:`RuleSet` of an encoded array (the inverse of :func:`encode_rules`).

    Raises :class:`~shangrao.rules.RuleSetError` (a ``ValueError``) for a wrong length or a value
    the option does not take.
    """
    a = np.asarray(array)
    if a.shape != (N_RULES,):
        raise RuleSetError(f"an encoded rule set has shape ({N_RULES},), got {a.shape}")
    values: dict[str, Any] = {}
    for f in fields(RuleSet):
        v = int(a[_INDEX[f.name]])
        if f.type in ("bool", bool):
            if v not in (0, 1):
                raise RuleSetError(f"rule {f.name} must be 0 or 1 in an encoded rule set, got {v}")
            values[f.name] = bool(v)
        else:
            values[f.name] = v
    return RuleSet(**values)
