"""The compiled core's hand state, declared once: every field's name, shape and meaning.

A whole hand of :mod:`shangrao.sim.core` is one flat ``int64[STATE_SIZE]`` array (:data:`ST_DTYPE`):
the fastest layout numba compiles (docs/dev/architecture.md, "The core's state", measured against a
structured record) and what a search copies with one ``st.copy()``.  Its fields are declared here,
once, in :data:`FIELDS`; everything else is generated from that declaration at import:

* :data:`OFS` — each field's offset by name (``OFS.cur``, ``OFS.counts`` …), a ``NamedTuple`` of ints that
  numba reads as compile-time constants inside a kernel (``st[OFS.cur]``);
* :data:`STATE_SIZE` — the total length;
* :class:`HandView` — a Python named view of one state (``HandView(st).scores`` is the ``int64[4]``
  slice of the scores, ``HandView(st).cur`` the int), for the Python side (play, vector, events):
  no Python module reads a raw offset;
* :func:`schema_table` — the Markdown table of the fields that ``docs/dev/architecture.md`` shows
  (``tests/sim/test_schema.py`` checks that the doc's table is this one).

>>> from shangrao.sim.schema import OFS, STATE_SIZE, HandView
>>> OFS.head, OFS.tail, OFS.phase
(0, 1, 2)
>>> HandView.shape_of("counts")
(4, 34)
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .kernels import N_OUT

__all__ = [
    "FIELDS",
    "Field",
    "HandView",
    "OFS",
    "Offsets",
    "ST_DTYPE",
    "STATE_SIZE",
    "MELD_W",
    "DISC_MAX",
    "OPT_MAX",
    "schema_table",
]

#: the dtype of the hand state (and of the event rows): amounts are 64-bit (docs/performance.md)
ST_DTYPE = np.int64
#: one declared meld's slots: type, kind, claimed kind, from-seat, then 4 tile ids (-1: none)
MELD_W = 8
#: discards kept per seat (no hand comes near it)
DISC_MAX = 40
#: claim options kept per seat
OPT_MAX = 12


class Field(NamedTuple):
    """One field of the hand state: its name, its shape (``()`` for one int) and what it holds."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        """The number of int64 slots it takes (the product of its shape, 1 for a scalar)."""
        return math.prod(self.shape)


#: the hand state's fields, in layout order (the one declaration)
FIELDS: tuple[Field, ...] = (
    # the hand
    Field("head", (), "index in ``live`` of the next tile drawn from the head"),
    Field("tail", (), "index in ``live`` of the next tile drawn from the tail (kong replacements)"),
    Field("phase", (), "P_ACT, P_DISCARD, P_CLAIM, P_ROB or P_OVER"),
    Field("cur", (), "the seat to decide (-1 when the hand is over)"),
    Field("turn", (), "the seat whose turn it is"),
    Field("dealer", (), "the dealer's seat"),
    Field("bao", (), "the 宝 kind (0..33)"),
    Field("indicator", (), "the indicator's tile id"),
    Field("actions_taken", (), "decisions applied so far (天糊: the dealer's first)"),
    Field("kong_chain", (), "kongs declared since the last draw from the head (杠开 n)"),
    Field("first_discard", (), "1 while the dealer's first discard is being claimed (地糊)"),
    Field("dealer_acted", (), "1 once the dealer has discarded"),
    Field("after_pung", (), "the seat that just punged (may kong before discarding), -1 none"),
    Field("won_tile", (), "the tile id won on, -1 none"),
    Field("n_events", (), "event rows written"),
    Field("n_decisions", (), "decisions written"),
    Field("drawn", (), "1 when the hand ended drawn (荒牌)"),
    Field("n_winners", (), "winners"),
    Field("winners", (3,), "the winners' seats (turn order from the discarding or robbed seat)"),
    Field("next_dealer", (), "the next hand's dealer"),
    Field("hand_no", (), "the hand's number in its match"),
    Field("error", (), "an internal inconsistency: 1 scoring refused a win, 2 events full, 3 decisions full"),
    # the claim window (a discard being claimed)
    Field("cl_discarder", (), "the discarding seat"),
    Field("cl_tile", (), "the discarded tile id"),
    Field("cl_kind", (), "its kind"),
    Field("cl_queue_head", (), "the next seat in ``cl_queue`` to answer"),
    Field("cl_queue_len", (), "seats with options"),
    Field("cl_queue", (3,), "the seats with options, in turn order"),
    Field("cl_best", (), "the priority of the best declaration so far"),
    Field("cl_declared_seat", (), "the seat of the best declaration, -1 none"),
    Field("cl_declared_action", (), "its action code"),
    Field("cl_n_options", (4,), "each seat's claim options"),
    Field("cl_options", (4, OPT_MAX), "each seat's claim option codes (sorted, pass last)"),
    # the rob window (a kong that may be robbed)
    Field("pk_seat", (), "the seat declaring the kong"),
    Field("pk_meld_type", (), "its meld type (M_*)"),
    Field("pk_kind", (), "its kind"),
    Field("pk_claimed", (), "the claimed kind"),
    Field("pk_from", (), "the seat claimed from"),
    Field("pk_ids", (4,), "the kong's tile ids"),
    Field("pk_tile", (), "the tile a robber wins on"),
    Field("pk_added", (), "1 for an added kong (加杠)"),
    Field("pk_index", (), "an added kong's meld index"),
    Field("pk_queue_head", (), "the next seat in ``pk_queue`` to answer"),
    Field("pk_queue_len", (), "seats that may rob"),
    Field("pk_queue", (3,), "the seats that may rob, in turn order"),
    Field("pk_n_robbers", (), "seats that robbed"),
    Field("pk_robbers", (3,), "their seats"),
    Field("pk_active", (), "1 while the rob window is open"),
    # per seat
    Field("flown", (4,), "飞宝 (宝 discarded) per seat"),
    Field("bao_drawn", (4,), "宝 drawn (dealt included) per seat"),
    Field("caught", (4,), "1 once the seat caught a 宝 (接宝)"),
    Field("touji", (4,), "偷机 (declined self-drawn wins) per seat"),
    Field("last_draw", (4,), "the tile id the seat drew last, -1 none (or discarded since)"),
    Field("scores", (4,), "the scores now"),
    Field("start", (4,), "the scores before the hand"),
    Field("n_melds", (4,), "declared melds per seat"),
    Field("n_discards", (4,), "discards per seat (claimed ones too)"),
    Field("counts", (4, 34), "the concealed tiles: copies of each kind"),
    Field("mask", (4, 34), "the concealed tiles: bit j set when id 4·kind + j is held"),
    Field("melds", (4, 4, MELD_W), "declared melds: type, kind, claimed kind, from-seat, 4 ids (-1: none)"),
    Field("discards", (4, DISC_MAX), "discarded ids in order (claimed ones as -1 - id)"),
    Field("live", (135,), "the live wall (136 less the indicator), head first"),
    Field("wall", (136,), "the whole wall as dealt (the deal event, the converter)"),
    Field("dice", (2,), "the two dice"),
    Field("win_out", (3, N_OUT), "score_win's output of each win (kernels.O_*: pattern, amounts, doublings, notes)"),
    Field("codes", (4, 5), "each seat's hand codes (man, pin, sou, honors in base 5, 宝 left out) and its 宝 count"),
)


def _offsets() -> tuple[dict[str, int], int]:
    out: dict[str, int] = {}
    o = 0
    for f in FIELDS:
        if f.name in out:
            raise ValueError(f"schema: field {f.name!r} declared twice")
        out[f.name] = o
        o += f.size
    return out, o


_OFFSETS, STATE_SIZE = _offsets()

#: the offsets by field name, as a ``NamedTuple`` type generated from :data:`FIELDS`
Offsets: Any = NamedTuple("Offsets", [(f.name, int) for f in FIELDS])  # type: ignore[misc]
#: each field's offset in the state (numba folds ``st[OFS.name]`` to a constant index)
OFS: Any = Offsets(**_OFFSETS)

_BY_NAME = {f.name: f for f in FIELDS}


class HandView:
    """A named view of one hand state ``st`` (``int64[STATE_SIZE]``, shared, not copied).

    ``view.name`` reads a field: an ``int`` for a scalar field, else an ``int64`` array view of the
    field's shape (writing into it writes the state).  ``view.name = value`` writes a field (a
    scalar, or an array broadcast to its shape).  An unknown name raises ``AttributeError`` naming
    the fields; a state of another shape raises ``ValueError``.
    """

    __slots__ = ("st",)

    def __init__(self, st: npt.NDArray[np.int64]) -> None:
        if not isinstance(st, np.ndarray) or st.shape != (STATE_SIZE,):
            raise ValueError(
                f"HandView: a hand state is an int64[{STATE_SIZE}] array, got {getattr(st, 'shape', type(st).__name__)}"
            )
        object.__setattr__(self, "st", st)

    @staticmethod
    def shape_of(name: str) -> tuple[int, ...]:
        """The declared shape of field ``name`` (``()`` for a scalar); ``AttributeError`` if none."""
        return HandView._field(name).shape

    @staticmethod
    def _field(name: str) -> Field:
        try:
            return _BY_NAME[name]
        except KeyError:
            raise AttributeError(f"the hand state has no field {name!r}; fields: {', '.join(_BY_NAME)}") from None

    def __getattr__(self, name: str) -> Any:
        f = HandView._field(name)
        o = _OFFSETS[name]
        if not f.shape:
            return int(self.st[o])
        return self.st[o : o + f.size].reshape(f.shape)

    def __setattr__(self, name: str, value: Any) -> None:
        f = HandView._field(name)
        o = _OFFSETS[name]
        if not f.shape:
            self.st[o] = value
        else:
            self.st[o : o + f.size].reshape(f.shape)[...] = value

    def __repr__(self) -> str:
        return f"HandView(phase={self.phase}, cur={self.cur}, n_events={self.n_events})"


def schema_table() -> str:
    """The Markdown table of :data:`FIELDS` (field, offset, shape, meaning) and the total size."""
    lines = ["| field | offset | shape | meaning |", "|---|---|---|---|"]
    for f in FIELDS:
        shape = "1" if not f.shape else " × ".join(str(x) for x in f.shape)
        lines.append(f"| `{f.name}` | {_OFFSETS[f.name]} | {shape} | {f.meaning} |")
    lines.append(f"| (total) | {STATE_SIZE} | | int64 slots |")
    return "\n".join(lines)
