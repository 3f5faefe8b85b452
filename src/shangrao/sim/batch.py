"""Checked batch entry points over the kernels: many hands' win checks and shanten in one call.

:func:`is_winning_many` / :func:`shanten_many` answer as :func:`shangrao.analysis.is_winning` and the
tables' :func:`shangrao.analysis.shanten` (``HandKey(...).shanten``: copy-blind, issue 22) would, row by
row, for an ``[N, 34]`` array of hands — after checking the whole batch once, so that a bad row is
refused with one :class:`BatchError` naming the row and the field, and nothing is computed.

>>> import numpy as np
>>> from shangrao.tiles import parse_tiles, to_34
>>> hands = np.array([to_34(parse_tiles("123m456p789s111z22z")), to_34(parse_tiles("123m456p789s111z23z"))])
>>> is_winning_many(hands).tolist(), shanten_many(hands).tolist()
([True, False], [-1, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError
from . import kernels as K

__all__ = ["BatchError", "is_winning_many", "shanten_many"]


class BatchError(InputError):
    """A batch of hands that the kernels cannot take: names the field and the first bad row (a ValueError)."""


def _per_row(value: Any, n: int, name: str, low: int, high: int, none: int | None = None) -> np.ndarray:
    """``value`` (a scalar or ``[N]``) as ``int64[N]`` within ``low..high``; None → ``none`` if allowed."""
    if value is None:
        if none is None:
            raise BatchError(f"{name}: must be given")
        return np.full(n, none, dtype=np.int64)
    a = np.asarray(value)
    if a.dtype == object and a.ndim == 1:  # a list holding None for some rows
        a = np.array([none if v is None and none is not None else v for v in a.tolist()])
    if a.dtype.kind == "b" or a.dtype.kind not in "iu":
        raise BatchError(f"{name}: must be integers, got {a.dtype}")
    if a.ndim == 0:
        a = np.full(n, int(a), dtype=np.int64)
    elif a.shape != (n,):
        raise BatchError(f"{name}: must be one value or one per hand, shape ({n},), got {a.shape}")
    a = a.astype(np.int64)
    bad = np.flatnonzero((a < low) | (a > high))
    if bad.size:
        i = int(bad[0])
        raise BatchError(f"{name}[{i}]: must be {low}..{high}, got {int(a[i])}")
    return a


def _check(
    hands: Any, bao: Any, declared_melds: Any, jiuyao_ok: Any, sizes: tuple[int, ...], what: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 34:
        raise BatchError(f"hands: must be an array of shape (N, 34), got {h.shape}")
    if h.dtype.kind == "b" or h.dtype.kind not in "iu":
        raise BatchError(f"hands: must hold integer counts, got {h.dtype}")
    n = h.shape[0]
    bad = np.argwhere((h < 0) | (h > 4))
    if bad.size:
        i, k = (int(x) for x in bad[0])
        raise BatchError(f"hands[{i}]: the count of kind {k} must be 0..4, got {int(h[i, k])}")
    b = _per_row(bao, n, "bao", -1, 33, none=K.NO_BAO)
    d = _per_row(declared_melds, n, "declared_melds", 0, 4)
    m = 4 - d
    size = h.sum(axis=1, dtype=np.int64) - 3 * m
    ok = np.isin(size, sizes)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        want = " or ".join(str(3 * int(m[i]) + s) for s in sizes)
        raise BatchError(
            f"hands[{i}]: {what} with {int(d[i])} declared meld(s) needs {want} tiles, got {int(h[i].sum())}"
        )
    if jiuyao_ok is None:
        j = d == 0  # as analysis.is_winning with a count of melds: 九幺 only without declared melds
    else:
        j = np.asarray(jiuyao_ok)
        if j.dtype.kind != "b":
            raise BatchError(f"jiuyao_ok: must be booleans, got {j.dtype}")
        if j.ndim == 0:
            j = np.full(n, bool(j))
        elif j.shape != (n,):
            raise BatchError(f"jiuyao_ok: must be one value or one per hand, shape ({n},), got {j.shape}")
    return np.ascontiguousarray(h, dtype=np.int8), b, m, np.ascontiguousarray(j, dtype=np.bool_)


def is_winning_many(hands: Any, bao: Any = None, declared_melds: Any = 0, jiuyao_ok: Any = None) -> np.ndarray:
    """``bool[N]``: whether each complete hand wins (糊牌的规定 2, 宝 as wildcards).

    hands: ``[N, 34]`` integer counts of concealed hands (宝 included), each of ``3*(4-melds)+2``
    tiles.  bao: the 宝 kind (0..33, -1 or None for none), one for all or ``[N]``.  declared_melds:
    0..4, one or ``[N]``.  jiuyao_ok: whether 九幺 may be read (default: only without declared melds,
    as :func:`shangrao.analysis.is_winning` with a count).  Raises :class:`BatchError` naming the
    field and the first bad row.
    """
    h, b, m, j = _check(hands, bao, declared_melds, jiuyao_ok, (2,), "a win check")
    suit, honor = K.tables()
    out = np.zeros(h.shape[0], dtype=np.bool_)
    K.is_win_batch(suit, honor, h, b, m, j, out)
    return out


def shanten_many(hands: Any, bao: Any = None, declared_melds: Any = 0, jiuyao_ok: Any = None) -> np.ndarray:
    """``int64[N]``: the tables' shanten of each hand (-1 complete, 0 ready; ``HandKey.shanten``).

    hands of ``3*(4-melds)+1`` or ``+2`` tiles; the other arguments and errors as
    :func:`is_winning_many`.
    """
    h, b, m, j = _check(hands, bao, declared_melds, jiuyao_ok, (1, 2), "shanten")
    suit, honor = K.tables()
    out = np.zeros(h.shape[0], dtype=np.int64)
    K.shanten_batch(suit, honor, h, b, m, j, out)
    return out
