"""Flat action table and observation planes: the documented observation of policies and environments.

See :mod:`shangrao.env` for the documented tables.  This module needs NumPy only (no gymnasium or
PettingZoo), so policy bots (:mod:`shangrao.bots.policy`, the shipped ``learned`` bot) and datasets
use it without the ``rl`` extra; :mod:`shangrao.env.encoding` is the same module under its old name.  Everything here is built
from :meth:`shangrao.game.Game.observation` and :meth:`Game.legal_actions`, so
an encoded observation never holds another seat's concealed tiles or the wall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .game import Action, ActionType, Game, Observation
from .melds import MeldType

__all__ = [
    "ADDED_KONG_INDEX",
    "InvalidActionError",
    "CATCH_BAO_INDEX",
    "CHOW_INDEX",
    "CONCEALED_KONG_INDEX",
    "DISCARD_INDEX",
    "KONG_INDEX",
    "N_ACTIONS",
    "N_PLANES",
    "OBS_HIGH",
    "OBS_SHAPE",
    "PASS_INDEX",
    "PLANE_HIGH",
    "PLANE_NAMES",
    "PUNG_INDEX",
    "SCALAR",
    "WIN_INDEX",
    "N_STATE_ROWS",
    "STATE_HIGH",
    "STATE_SHAPE",
    "action_mask",
    "action_name",
    "check_action",
    "encode_state",
    "action_to_index",
    "claimed_kind",
    "encode_observation",
    "index_to_action",
    "legal_index_map",
]

# ---------------------------------------------------------------------------- actions
DISCARD_INDEX = 0  # 0..33: discard kind k
CHOW_INDEX = 34  # 34, 35, 36: chow with the claimed tile lowest / middle / highest
PUNG_INDEX = 37
KONG_INDEX = 38  # kong on a discard (碰杠 with a concealed triplet)
ADDED_KONG_INDEX = 39  # 39..72: added kong of kind k
CONCEALED_KONG_INDEX = 73  # 73..106: concealed kong of kind k
WIN_INDEX = 107
PASS_INDEX = 108  # also declines a win: 偷机
CATCH_BAO_INDEX = 109  # 接宝
N_ACTIONS = 110

_A = ActionType
_SIMPLE = {
    _A.WIN: WIN_INDEX,
    _A.PASS: PASS_INDEX,
    _A.CATCH_BAO: CATCH_BAO_INDEX,
    _A.PUNG: PUNG_INDEX,
    _A.KONG: KONG_INDEX,
}
_SIMPLE_INV = {v: k for k, v in _SIMPLE.items()}


def claimed_kind(game: Game) -> int | None:
    """The kind of the discard on the table (claim phase), else None."""
    cl = game.claim
    return None if cl is None else cl.kind


def action_to_index(action: Action, claimed: int | None = None) -> int:
    """The flat index of an engine action.

    claimed: the kind of the discard on the table; needed for CHOW only (the
    position of the claimed tile in the chow).
    """
    t = action.type
    if t is _A.DISCARD:
        return DISCARD_INDEX + action.kind
    if t is _A.CHOW:
        if claimed is None:
            raise ValueError(f"{action}: a chow's flat index needs the claimed kind")
        pos = claimed - action.kind
        if not 0 <= pos <= 2:
            raise ValueError(f"{action} does not contain the claimed kind {claimed}")
        return CHOW_INDEX + pos
    if t is _A.ADDED_KONG:
        return ADDED_KONG_INDEX + action.kind
    if t is _A.CONCEALED_KONG:
        return CONCEALED_KONG_INDEX + action.kind
    return _SIMPLE[t]


def index_to_action(index: int, claimed: int | None = None) -> Action:
    """The engine action of a flat index (``claimed``: the discard on the table, for 吃/碰/kong)."""
    i = int(index)
    if not 0 <= i < N_ACTIONS:
        raise ValueError(f"flat action {index!r} out of range 0..{N_ACTIONS - 1}")
    if i < CHOW_INDEX:
        return Action(_A.DISCARD, i)
    if i < PUNG_INDEX:
        if claimed is None:
            raise ValueError(f"flat action {i} (chow) needs a discard on the table")
        return Action(_A.CHOW, claimed - (i - CHOW_INDEX))
    if ADDED_KONG_INDEX <= i < CONCEALED_KONG_INDEX:
        return Action(_A.ADDED_KONG, i - ADDED_KONG_INDEX)
    if CONCEALED_KONG_INDEX <= i < WIN_INDEX:
        return Action(_A.CONCEALED_KONG, i - CONCEALED_KONG_INDEX)
    t = _SIMPLE_INV[i]
    if t in (_A.PUNG, _A.KONG):
        if claimed is None:
            raise ValueError(f"flat action {i} ({t.value}) needs a discard on the table")
        return Action(t, claimed)
    return Action(t)


def action_name(index: int) -> str:
    """A readable name of a flat index (``discard 5m``, ``chow (claimed middle)``, ``win`` ...)."""
    from .tiles import format_tile

    i = int(index)
    if i < CHOW_INDEX:
        return f"discard {format_tile(i)}"
    if i < PUNG_INDEX:
        return f"chow (claimed {('lowest', 'middle', 'highest')[i - CHOW_INDEX]})"
    if ADDED_KONG_INDEX <= i < CONCEALED_KONG_INDEX:
        return f"added_kong {format_tile(i - ADDED_KONG_INDEX)}"
    if CONCEALED_KONG_INDEX <= i < WIN_INDEX:
        return f"concealed_kong {format_tile(i - CONCEALED_KONG_INDEX)}"
    return _SIMPLE_INV[i].value


def legal_index_map(game: Game) -> dict[int, Action]:
    """``{flat index: engine action}`` for the legal actions of the seat to decide.

    Exact: one index per legal action (checked, raises AssertionError otherwise).
    """
    claimed = claimed_kind(game)
    legal = game.legal_actions()
    out = {action_to_index(a, claimed): a for a in legal}
    assert len(out) == len(legal), f"flat action collision in {legal}"
    return out


def action_mask(indices: Sequence[int] | Mapping[int, object]) -> np.ndarray:
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask[list(indices)] = 1
    return mask


# ---------------------------------------------------------------------------- observation
#: plane names of 0.1.0 (``pond_*`` became ``discards_*``): still found by ``PLANE_NAMES.index``, with a warning
_OLD_PLANE_NAMES = {f"pond_{r}": f"discards_{r}" for r in ("self", "next", "opposite", "previous")}


class _PlaneNames(tuple[str, ...]):
    """The plane names; ``index()`` also takes the old ``pond_*`` names (DeprecationWarning)."""

    __slots__ = ()

    def index(self, value: Any, *args: Any) -> int:
        new = _OLD_PLANE_NAMES.get(value)
        if new is not None:
            import warnings

            warnings.warn(f"plane {value!r} is named {new!r} since Shangrao-v1", DeprecationWarning, stacklevel=2)
            value = new
        return tuple.index(self, value, *args)

    def __contains__(self, value: object) -> bool:
        return tuple.__contains__(self, _OLD_PLANE_NAMES.get(value, value) if isinstance(value, str) else value)


PLANE_NAMES = _PlaneNames(
    (
        "hand",
        "drawn",
        "melds_self",
        "melds_next",
        "melds_opposite",
        "melds_previous",
        "kongs_self",
        "kongs_next",
        "kongs_opposite",
        "kongs_previous",
        "discards_self",
        "discards_next",
        "discards_opposite",
        "discards_previous",
        "bao",
        "indicator",
        "claim_tile",
        "rob_tile",
        "seen",
        "scalars",
    )
)
N_PLANES = len(PLANE_NAMES)
OBS_SHAPE = (N_PLANES, 34)
_P = {name: i for i, name in enumerate(PLANE_NAMES)}

# columns of the "scalars" plane
SCALAR = {
    "tiles_left": 0,
    "dealer": 1,  # 1..4: dealer one-hot, relative seat
    "flown": 5,  # 5..8: 飞宝 count per relative seat
    "hand_size": 9,  # 9..12: concealed tile count per relative seat
    "bao_drawn": 13,
    "phase": 14,  # 14..18: act, discard, claim, rob, over
    "discarder": 19,  # 19..22: relative seat of the discard on the table
    "kong_maker": 23,  # 23..26: relative seat of the kong in the rob window
    "kong_chain": 27,
    "first_discard": 28,
    "seat": 29,  # 29..32: own absolute seat one-hot (0 = east at the match start)
    "hands_left": 33,  # hands of the episode left, this one included
}
_PHASES = ("act", "discard", "claim", "rob", "over")

_high = np.zeros(OBS_SHAPE, dtype=np.int8)
for _name, _h in (
    ("hand", 4),
    ("drawn", 1),
    ("bao", 1),
    ("indicator", 1),
    ("claim_tile", 1),
    ("rob_tile", 1),
    ("seen", 4),
):
    _high[_P[_name]] = _h
for _r in range(4):
    _high[_P["melds_self"] + _r] = 4
    _high[_P["kongs_self"] + _r] = 2
    _high[_P["discards_self"] + _r] = 4
_sc = _high[_P["scalars"]]
_sc[:] = 1
_sc[SCALAR["tiles_left"]] = 127
_sc[SCALAR["flown"] : SCALAR["flown"] + 4] = 4
_sc[SCALAR["hand_size"] : SCALAR["hand_size"] + 4] = 14
_sc[SCALAR["bao_drawn"]] = 4
_sc[SCALAR["kong_chain"]] = 4
_sc[SCALAR["hands_left"]] = 127
OBS_HIGH = _high
OBS_HIGH.setflags(write=False)
PLANE_HIGH = {name: int(OBS_HIGH[i].max()) for i, name in enumerate(PLANE_NAMES)}


_KONG = MeldType.KONG
_CKONG = MeldType.CONCEALED_KONG
_SC0 = 19 * 34
_S_FLOWN = _SC0 + SCALAR["flown"]
_S_SIZE = _SC0 + SCALAR["hand_size"]


def encode_observation(obs: Observation, hands_left: int = 1) -> np.ndarray:
    """The (N_PLANES, 34) int8 planes of one seat's :class:`~shangrao.game.Observation`."""
    # built in a flat Python list (much faster than item assignment into numpy), then one copy
    out = [0] * (N_PLANES * 34)
    me = obs.seat
    out[0:34] = obs.hand_34
    if obs.drawn is not None:
        out[34 + obs.drawn] = 1
    seen = list(obs.hand_34)
    for s in range(4):
        r = (s - me) % 4
        mbase = (2 + r) * 34
        kbase = (6 + r) * 34
        for m in obs.melds[s]:
            for k in m.tiles:
                out[mbase + k] += 1
                seen[k] += 1
            if m.type is _KONG:
                out[kbase + m.tiles[0]] = 1
            elif m.type is _CKONG:
                out[kbase + m.tiles[0]] = 2
        pbase = (10 + r) * 34
        for k in obs.discards[s]:
            out[pbase + k] += 1
            seen[k] += 1
        out[_S_FLOWN + r] = min(obs.flown[s], 4)
        out[_S_SIZE + r] = obs.hand_sizes[s]
    out[14 * 34 + obs.bao] = 1
    out[15 * 34 + obs.indicator] = 1
    seen[obs.indicator] += 1
    if obs.last_discard is not None:
        ds, dk = obs.last_discard
        out[16 * 34 + dk] = 1
        out[_SC0 + SCALAR["discarder"] + (ds - me) % 4] = 1
    if obs.kong is not None:
        ks, kk, _ = obs.kong
        out[17 * 34 + kk] = 1
        out[_SC0 + SCALAR["kong_maker"] + (ks - me) % 4] = 1
        seen[kk] = 4  # all four copies of a declared kong are shown
    out[18 * 34 : 19 * 34] = [min(4, x) for x in seen]
    out[_SC0 + SCALAR["tiles_left"]] = min(obs.tiles_left, 127)
    out[_SC0 + SCALAR["dealer"] + (obs.dealer - me) % 4] = 1
    out[_SC0 + SCALAR["bao_drawn"]] = obs.bao_drawn
    out[_SC0 + SCALAR["phase"] + _PHASES.index(obs.phase)] = 1
    out[_SC0 + SCALAR["kong_chain"]] = min(obs.kong_chain, 4)
    out[_SC0 + SCALAR["first_discard"]] = int(obs.first_discard)
    out[_SC0 + SCALAR["seat"] + me] = 1
    out[_SC0 + SCALAR["hands_left"]] = max(0, min(hands_left, 127))
    return np.array(out, dtype=np.int8).reshape(OBS_SHAPE)


# ---------------------------------------------------------------------------- actions given by a learner
def check_action(action: object, who: str = "action") -> int:
    """A flat action as an int, or :class:`InvalidActionError` (a ValueError) naming it.

    Accepted: Python and NumPy integers (also 0-d integer arrays) in ``0..N_ACTIONS-1``.  Refused: floats
    (also ``3.0`` and NumPy floats), bools, strings, None and out-of-range integers.
    """
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise InvalidActionError(
            f"{who}: {action!r} ({type(action).__name__}) is not an integer flat action 0..{N_ACTIONS - 1}"
        )
    i = int(action)
    if not 0 <= i < N_ACTIONS:
        raise InvalidActionError(f"{who}: flat action {i} is out of range 0..{N_ACTIONS - 1}")
    return i


from .game import IllegalActionError as _IllegalActionError  # noqa: E402


class InvalidActionError(_IllegalActionError):
    """An action that is not a flat action at all: not an integer, or out of range (see :func:`check_action`)."""


# ---------------------------------------------------------------------------- perfect-information state
N_STATE_ROWS = 4 * N_PLANES + 2
STATE_SHAPE = (N_STATE_ROWS, 34)
_state_high = np.zeros(STATE_SHAPE, dtype=np.int8)
for _s in range(4):
    _state_high[_s * N_PLANES : (_s + 1) * N_PLANES] = OBS_HIGH
_state_high[4 * N_PLANES] = 4
_state_high[4 * N_PLANES + 1] = 1
STATE_HIGH = _state_high
STATE_HIGH.setflags(write=False)


def encode_state(game: Game, hands_left: int = 1) -> np.ndarray:
    """The perfect-information state (``N_STATE_ROWS``, 34) int8, for centralized critics and oracles.

    Rows ``20*s .. 20*s+19``: seat ``s``'s own observation planes (absolute seat order, so every
    concealed hand is in it); row 80: the live wall's tiles per kind; row 81: one-hot of the kind
    of the next tile drawn from the wall's head (zeros when the wall is empty).
    """
    out = np.zeros(STATE_SHAPE, dtype=np.int8)
    for s in range(4):
        out[s * N_PLANES : (s + 1) * N_PLANES] = encode_observation(game.observation(s), hands_left)
    live = game.live[game.head : game.tail + 1]
    row = out[4 * N_PLANES]
    for t in live:
        row[t >> 2] += 1
    if live:
        out[4 * N_PLANES + 1, live[0] >> 2] = 1
    return out


#: names before Shangrao-v1 (0.1): still importable, with a DeprecationWarning
_OLD_NAMES = {
    "DISCARD": "DISCARD_INDEX",
    "CHOW": "CHOW_INDEX",
    "PUNG": "PUNG_INDEX",
    "KONG": "KONG_INDEX",
    "ADDED_KONG": "ADDED_KONG_INDEX",
    "CONCEALED_KONG": "CONCEALED_KONG_INDEX",
    "WIN": "WIN_INDEX",
    "PASS": "PASS_INDEX",
    "CATCH_BAO": "CATCH_BAO_INDEX",
}


def __getattr__(name: str) -> Any:
    new = _OLD_NAMES.get(name)
    if new is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import warnings

    warnings.warn(f"{name} is named {new} since Shangrao-v1 (shangrao.env.{new})", DeprecationWarning, stacklevel=2)
    return globals()[new]
