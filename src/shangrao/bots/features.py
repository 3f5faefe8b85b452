"""Per-action features computed from the observation planes (the ``mlp-features`` architecture).

:func:`action_features` ``(planes (B,20,34) int8, mask (B,110) int8) -> (B, 110, F) float32`` with
``F = N_FEATURES = 4``, zero for illegal actions and for actions without a hand shape (win, pass, 接宝):

=====  ====================================================================================
f      content (shanten with 宝 as wildcards, all forms, :class:`shangrao.analysis.tables.HandKey`)
=====  ====================================================================================
0      shanten after the action / 8 (a discard: the 13 tiles left; a claim or kong: after the meld)
1      1 if that shanten is the lowest any discard reaches (discards), or not worse than now (claims, kongs)
2      unseen tiles that would lower the shanten after this discard / 40 (only for discards of
       the lowest shanten, as ``ukeire`` counts them; else 0)
3      1 if the tile given up is the 宝 kind (a discard of 宝 is 飞宝; a claim that spends a 宝)
=====  ====================================================================================

Everything is read from the planes (own hand row 0, own melds rows 2 and 6, 宝 row 14, claimed
tile row 16, seen row 18), so a learned policy over these features still sees only its seat.
"""

from __future__ import annotations

import numpy as np

from ..analysis.tables import HandKey
from ..tiles import TERMINALS_AND_HONORS

__all__ = ["N_FEATURES", "action_features", "decision_features"]

N_FEATURES = 4
_TH = frozenset(TERMINALS_AND_HONORS)


def _neighbourhood(c: list[int]) -> list[int]:
    from .greedy import _neighbourhood as nb

    return nb(c)


def decision_features(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The (110, F) features of one decision (see the module docstring)."""
    out = np.zeros((110, N_FEATURES), dtype=np.float32)
    legal = np.flatnonzero(mask)
    if not len(legal) or (legal.min() >= 107 and legal.max() <= 109):
        return out
    c = [int(x) for x in planes[0]]
    bao = int(planes[14].argmax())
    meld_tiles = planes[2]
    n_kongs = int(np.count_nonzero(planes[6]))
    n_melds = (int(meld_tiles.sum()) - 4 * n_kongs) // 3 + n_kongs
    jiuyao_ok = all(k in _TH for k in np.flatnonzero(meld_tiles))
    key = HandKey(c, bao)
    m = 4 - n_melds

    def sh(
        remove: tuple[int, ...] = (), add: tuple[int, ...] = (), melds_added: int = 0, tiles: tuple[int, ...] = ()
    ) -> int:
        ok = jiuyao_ok and all(t in _TH for t in tiles)
        return int(key.shanten(m - melds_added, ok, remove, add))

    discards = [int(i) for i in legal if i < 34]
    if discards:
        shs = {k: sh(remove=(k,)) for k in discards}
        best = min(shs.values())
        unseen = [max(0, 4 - int(x)) for x in planes[18]]
        for k, s in shs.items():
            out[k, 0] = s / 8.0
            out[k, 3] = float(k == bao)
            if s == best:
                out[k, 1] = 1.0
                c[k] -= 1
                useful = 0
                for t in _neighbourhood(c):
                    if unseen[t] and t != k and sh(remove=(k,), add=(t,)) < best:
                        useful += unseen[t]
                c[k] += 1
                out[k, 2] = useful / 40.0
    claims = [int(i) for i in legal if 34 <= i <= 38]
    if claims:
        now = sh()
        k = int(planes[16].argmax())
        for i in claims:
            if i <= 36:
                low = k - (i - 34)
                tiles = (low, low + 1, low + 2)
                s = sh(remove=tuple(x for x in tiles if x != k), melds_added=1, tiles=tiles)
                spends_bao = any(x == bao for x in tiles if x != k)
            else:
                n = 2 if i == 37 else 3
                s = sh(remove=(k,) * n, melds_added=1, tiles=(k,))
                spends_bao = k == bao
            out[i, 0] = s / 8.0
            out[i, 1] = float(s <= now)
            out[i, 3] = float(spends_bao)
    kongs = [int(i) for i in legal if 39 <= i <= 106]
    if kongs:
        now = sh()
        for i in kongs:
            if i < 73:
                k = i - 39
                s = sh(remove=(k,))
            else:
                k = i - 73
                s = sh(remove=(k,) * 4, melds_added=1, tiles=(k,))
            out[i, 0] = s / 8.0
            out[i, 1] = float(s <= now)
            out[i, 3] = float(k == bao)
    return out


def action_features(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """(B, 110, F) float32: :func:`decision_features` of each row."""
    return (
        np.stack([decision_features(p, mk) for p, mk in zip(planes, mask)])
        if len(planes)
        else np.zeros((0, 110, N_FEATURES), dtype=np.float32)
    )
