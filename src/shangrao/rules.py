"""The rule set: every choice a Shangrao-area table may play differently.

Defaults are the seed text's reading and the decisions recorded in
``docs/rules.md`` (D1-D9).  A :class:`RuleSet` is frozen, hashable, and is
written into every game record (:meth:`RuleSet.to_dict` / :meth:`RuleSet.from_dict`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .errors import InputError

__all__ = ["RuleSet", "DEFAULT_RULES", "RuleSetError"]


class RuleSetError(InputError):
    """A rule-set option has an unknown name or a bad value."""


#: the largest value of an int rule option: points beyond it no score display (or JavaScript) keeps exact
MAX_RULE_INT = 1_000_000


@dataclass(frozen=True)
class RuleSet:
    """Options of the game (defaults = the seed's / our reading).

    base_points: 基本分 in points (seed: 1).
    heavenly_points: flat points of 天糊 from each payer (seed: 10).
    earthly_points: flat points of 地糊 from each payer (seed: 10).
    robbing_kong_factor: 抢杠 multiplier (seed: ×6), paid by the robbed player alone.
    rob_concealed_kong: whether a concealed kong (自摸杠) may be robbed (default False).
    rob_exposed_kong: whether a kong made on a discard may be robbed (default True;
        an added kong may always be robbed).
    earthly_win: 地糊 allowed (a non-dealer wins on the dealer's first discard).
    pung_kong_bonus: 碰杠 bonus from each other player (seed: 1).
    concealed_kong_bonus: 自摸杠 bonus from each other player (seed: 2).
    four_bao_bonus: 四个宝 bonus from each other player (seed: 10).
    caught_bao_bonus: 接宝 bonus from each other player (seed: 10).
    hands_per_match: hands in a match (default 8).
    """

    base_points: int = 1
    heavenly_points: int = 10
    earthly_points: int = 10
    robbing_kong_factor: int = 6
    rob_concealed_kong: bool = False
    rob_exposed_kong: bool = True
    earthly_win: bool = True
    pung_kong_bonus: int = 1
    concealed_kong_bonus: int = 2
    four_bao_bonus: int = 10
    caught_bao_bonus: int = 10
    hands_per_match: int = 8

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise RuleSetError(f"rule {f.name} must be true or false, got {value!r}")
            else:
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_RULE_INT:
                    raise RuleSetError(f"rule {f.name} must be an int 0..{MAX_RULE_INT}, got {value!r}")
        if self.hands_per_match < 1:
            raise RuleSetError("rule hands_per_match must be at least 1")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> RuleSet:
        """Build from a dict; unknown keys raise :class:`RuleSetError` naming them."""
        if not isinstance(data, dict):
            raise RuleSetError(f"rules must be an object, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(unknown)}; known: {', '.join(sorted(names))}")
        return cls(**data)

    def replace(self, **changes) -> RuleSet:
        return RuleSet.from_dict({**self.to_dict(), **changes})


DEFAULT_RULES = RuleSet()
