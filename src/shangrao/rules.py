"""The rule set: every choice a Shangrao-area table may play differently.

Defaults are the seed text's reading and the decisions recorded in
``docs/rules.md`` (D1-D9).  A :class:`RuleSet` is frozen, hashable, and is
written into every game record (:meth:`RuleSet.to_dict` / :meth:`RuleSet.from_dict`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import InputError, quote

__all__ = ["RuleSet", "DEFAULT_RULES", "RULE_LABELS", "RuleSetError"]


def _printable(name: str, limit: int = 60) -> str:
    """A user-given name as it goes into a one-line message (``'a\\nb'`` rather than a line break; a name
    longer than ``limit`` characters is cut, with its length)."""
    return name if name.isprintable() and len(name) <= limit else quote(name, limit)


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

    House rules the seed leaves open or that tables play differently (docs/rules.md, next to
    each clause; the default is the reading the engine has always used):

    kong_after_pung: a kong (concealed, or added) right after 碰, before the discard
        (default False, R6: the seed forbids it after 吃 and we read 碰 the same way).
    added_kong_drawn_only: an added kong (碰杠 onto one's pung) only with the tile just drawn
        ("抓进一张…也可报开杠"; default False: any held tile, at any own turn).
    jiuyao_melds: 九幺 may hold declared melds of 1/9/honor tiles (default True, R7, as the
        seed's largest example); False: 九幺 (form and 注 2 doubling) only with no declared melds.
    win_on_bao_tile: 地糊 and 抢杠 may be won on a tile of the 宝 kind (default True, R4).
    baodiao_bao_needs_touji: 宝吊宝/宝吊无宝 only after at least one 偷机 (the strict reading of
        clauses (8)(9) "在偷机的时候"; default False: any win from the 宝吊 state that fits).
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
    kong_after_pung: bool = False
    added_kong_drawn_only: bool = False
    jiuyao_melds: bool = True
    win_on_bao_tile: bool = True
    baodiao_bao_needs_touji: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise RuleSetError(f"rule {f.name} must be true or false, got {quote(value)}")
            else:
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_RULE_INT:
                    raise RuleSetError(f"rule {f.name} must be an int 0..{MAX_RULE_INT}, got {quote(value)}")
        if self.hands_per_match < 1:
            raise RuleSetError("rule hands_per_match must be at least 1")

    def to_dict(self, *, house_defaults: bool = True) -> dict[str, Any]:
        """Every option by name.  ``house_defaults=False`` leaves out the house rules at their
        defaults (the event log's deal does so: a game without house rules logs its rules exactly
        as 0.1.0 did, and :meth:`from_dict` fills the defaults back in)."""
        d = asdict(self)
        if not house_defaults:
            for name, default in _HOUSE_RULE_DEFAULTS.items():
                if d[name] == default:
                    del d[name]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Build from a dict; unknown keys raise :class:`RuleSetError` naming them."""
        if not isinstance(data, dict):
            raise RuleSetError(f"rules must be an object, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in set(data) - names)
        if unknown:  # each quoted cut to 40 characters, at most 5 of them: never a huge key echoed
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            raise RuleSetError(
                f"unknown rule option(s): {', '.join(_printable(x, 40) for x in unknown[:5])}{more}; "
                f"known: {', '.join(sorted(names))}"
            )
        return cls(**data)

    def replace(self, **changes: Any) -> RuleSet:
        return RuleSet.from_dict({**self.to_dict(), **changes})


#: the options added after 0.1.0 (house rules) with their defaults; see :meth:`RuleSet.to_dict`
_HOUSE_RULE_DEFAULTS: dict[str, Any] = {
    name: getattr(RuleSet(), name)
    for name in (
        "kong_after_pung",
        "added_kong_drawn_only",
        "jiuyao_melds",
        "win_on_bao_tile",
        "baodiao_bao_needs_touji",
    )
}

DEFAULT_RULES = RuleSet()


#: every rule option's words (Chinese, English), as the 开桌 card and a room's rules show them
#: (``GET /api/labels``' section ``rules``)
RULE_LABELS: dict[str, tuple[str, str]] = {
    "base_points": ("基本分", "base points"),
    "heavenly_points": ("天糊分", "天糊 points"),
    "earthly_points": ("地糊分", "地糊 points"),
    "robbing_kong_factor": ("抢杠倍数", "抢杠 factor"),
    "rob_concealed_kong": ("可抢暗杠", "rob a concealed kong"),
    "rob_exposed_kong": ("可抢明杠", "rob a kong on a discard"),
    "earthly_win": ("可地糊", "地糊 allowed"),
    "pung_kong_bonus": ("碰杠奖励", "碰杠 bonus"),
    "concealed_kong_bonus": ("自摸杠奖励", "自摸杠 bonus"),
    "four_bao_bonus": ("四个宝奖励", "四个宝 bonus"),
    "caught_bao_bonus": ("接宝奖励", "接宝 bonus"),
    "hands_per_match": ("局数", "hands per match"),
    "kong_after_pung": ("碰后可杠", "kong right after 碰"),
    "added_kong_drawn_only": ("碰杠只用新摸的牌", "added kong only with the tile drawn"),
    "jiuyao_melds": ("九幺可有副露", "九幺 with declared melds"),
    "win_on_bao_tile": ("宝牌可地糊/抢杠", "地糊/抢杠 on a 宝 tile"),
    "baodiao_bao_needs_touji": ("宝吊宝须偷机", "宝吊宝/宝吊无宝 only after 偷机"),
}
