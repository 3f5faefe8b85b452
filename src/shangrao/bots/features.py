"""Per-action features computed from the observation planes (the ``mlp-features`` architecture).

:func:`action_features` ``(planes (B,20,34) int8, mask (B,110) int8, version) -> (B, 110, F) float32``,
zero for illegal actions.  Two versions (a checkpoint records the one it was trained on:
:class:`shangrao.bots.policy.MLPPolicy`'s ``feature_version``; a checkpoint without one is version 1):

* **version 1** (``F = 4``, the shipped ``learned`` bot): columns 0-3 below, zero for win, pass
  and 接宝, and the whole row zero in a decision whose legal actions are only win, pass and 接宝;
* **version 2** (``F = 7``, :data:`LATEST`): columns 0-6, also for pass and in rob windows.

=====  ====================================================================================
f      content (shanten with 宝 as wildcards, all forms, :class:`shangrao.analysis.tables.HandKey`)
=====  ====================================================================================
0      shanten after the action / 8 (a discard: the 13 tiles left; a claim or kong: after the meld;
       v2, pass in a claim or rob window: the hand kept)
1      1 if that shanten is the lowest any discard reaches (discards), or not worse than now (claims,
       kongs; v2: pass)
2      unseen tiles that would lower the shanten after this discard / 40 (only for discards of
       the lowest shanten, as ``ukeire`` counts them; else 0)
3      1 if the tile given up is the 宝 kind (a discard of 宝 is 飞宝; a claim that spends a 宝)
4      (v2) useful tiles after the option / 40: unseen copies of the kinds that would lower the
       shanten of the hand the option leaves (every discard, the kind discarded excluded; a kong
       on a discard, an added or a concealed kong, pass: the 3m+1 hand left; a chow or pung: the
       most any discard of the lowest shanten after it keeps)
5      (v2) win only: the value of the win on offer — the points the three payers pay for it
       (:attr:`ScoreResult.win_payments`, bonuses apart) / 16, at most 8
6      (v2) a decision that offers a win, every discard and pass: what declining keeps — the mean
       points a self-drawn win gives per unseen tile drawn next (the kinds that complete the hand
       the option leaves, each valued as a self-drawn win, weighted by its unseen copies, over all
       unseen tiles) / 16, at most 8; 0 when the hand left is not ready
=====  ====================================================================================

Everything is read from the planes (own hand row 0, drawn row 1, own melds rows 2 and 6, discards
rows 10-13, 宝 row 14, claimed tile row 16, kong row 17, seen row 18, the scalars row 19), so a
learned policy over these features still sees only its seat.  Win values (columns 5, 6) are scored
with :func:`shangrao.scoring.score` under the default rules (as ``greedy`` values a 偷机), from a
situation rebuilt from the planes: the declared melds read back from their tile counts (kongs from
row 6, the rest split into pungs first, then chows), 接宝 and 偷机 counted as none (the planes do
not show them), 天糊 when the dealer acts before any discard or meld with 82 tiles left.  A
situation scoring refuses counts 0.

:mod:`shangrao.sim.features` computes the same arrays in compiled code for a whole batch
(``tests/sim/test_features.py`` checks that they are equal, value for value, on thousands of decisions).
"""

from __future__ import annotations

import numpy as np

from ..analysis.tables import HandKey
from ..melds import Meld, MeldType
from ..scoring import SituationError, WinBy, WinSituation, score
from ..tiles import TERMINALS_AND_HONORS

__all__ = [
    "FEATURE_VERSIONS",
    "LATEST",
    "N_FEATURES",
    "action_features",
    "decision_features",
    "meld_split",
    "n_features",
]

#: features per action of each version
FEATURE_VERSIONS: dict[int, int] = {1: 4, 2: 7}
#: the newest version (new checkpoints use it)
LATEST = 2
#: the features of version 1 (the shipped ``learned`` bot's); :func:`n_features` for another version
N_FEATURES = FEATURE_VERSIONS[1]
#: the win values (columns 5, 6) are points / VALUE_SCALE, at most VALUE_CAP
VALUE_SCALE = 16.0
VALUE_CAP = 8.0
_TH = frozenset(TERMINALS_AND_HONORS)
# the scalars row (shangrao.encoding.SCALAR)
_SC = 19
_S_TILES_LEFT, _S_DEALER, _S_FLOWN, _S_BAO_DRAWN, _S_PHASE, _S_KONG_MAKER, _S_CHAIN = 0, 1, 5, 13, 14, 23, 27
_P_ACT, _P_CLAIM, _P_ROB = 0, 2, 3
#: tiles left when the dealer acts first (136 − the indicator − 52 dealt − the dealer's draw)
_FIRST_TURN_LEFT = 82


def n_features(version: int) -> int:
    """F of feature ``version`` (1 or 2); :class:`ValueError` naming the known versions otherwise."""
    try:
        return FEATURE_VERSIONS[version]
    except (KeyError, TypeError):
        raise ValueError(f"feature version {version!r}; known: {', '.join(str(v) for v in FEATURE_VERSIONS)}") from None


def _neighbourhood(c: list[int]) -> list[int]:
    from .greedy import _neighbourhood as nb

    return nb(c)


def meld_split(meld_tiles: np.ndarray, kongs: np.ndarray) -> list[tuple[int, int]]:
    """The declared melds read back from planes rows 2 and 6 of one seat: ``(type, lowest kind)``
    with type 0 chow, 1 pung, 2 exposed kong, 3 concealed kong (:class:`~shangrao.melds.MeldType`'s
    order): kongs (row 6: 1 exposed, 2 concealed) in kind order, then the rest of the tile counts
    split at the lowest kind left, a pung first, else a chow (the first split that uses every tile).
    ``meld_tiles``, ``kongs``: length-34 ints."""
    rem = [int(x) for x in meld_tiles]
    out: list[tuple[int, int]] = []
    for k in range(34):
        if kongs[k]:
            out.append((2 if int(kongs[k]) == 1 else 3, k))
            rem[k] -= 4

    def split(at: int) -> bool:
        k = at
        while k < 34 and rem[k] <= 0:
            k += 1
        if k == 34:
            return True
        if rem[k] >= 3:
            rem[k] -= 3
            out.append((1, k))
            if split(k):
                return True
            out.pop()
            rem[k] += 3
        if k < 27 and k % 9 <= 6 and rem[k + 1] > 0 and rem[k + 2] > 0:
            for x in (k, k + 1, k + 2):
                rem[x] -= 1
            out.append((0, k))
            if split(k):
                return True
            out.pop()
            for x in (k, k + 1, k + 2):
                rem[x] += 1
        return False

    split(0)
    return out


_MELD_TYPES = (MeldType.CHOW, MeldType.PUNG, MeldType.KONG, MeldType.CONCEALED_KONG)


class _Values:
    """Scores the wins of one decision from its planes (columns 5 and 6)."""

    def __init__(self, planes: np.ndarray, bao: int) -> None:
        sc = planes[_SC]
        self.bao = bao
        self.melds = tuple(
            Meld(_MELD_TYPES[t], (k, k + 1, k + 2) if t == 0 else (k,) * (3 if t == 1 else 4))
            for t, k in meld_split(planes[2], planes[6])
        )
        self.flown = [int(sc[_S_FLOWN + r]) for r in range(4)]
        self.bao_drawn = int(sc[_S_BAO_DRAWN])

    def value(
        self,
        hand: list[int],
        win_tile: int,
        win_by: WinBy = WinBy.SELF_DRAW,
        heavenly: bool = False,
        kong_chain: int = 0,
        robbed: int | None = None,
        flown_extra: int = 0,
        next_draw: bool = False,
    ) -> int:
        """The points the payers pay for this win (0 when it scores no win or is refused).  ``hand``:
        length-34 counts before the win tile; ``next_draw``: a win on the next draw (its 宝 counts
        towards 四个宝), else the win on offer now."""
        bao = self.bao
        drawn = self.bao_drawn + (1 if next_draw and win_tile == bao else 0)
        try:
            r = score(
                WinSituation(
                    hand=tuple(k for k in range(34) for _ in range(hand[k])),
                    win_tile=win_tile,
                    melds=self.melds,
                    bao=bao,
                    win_by=win_by,
                    heavenly=heavenly,
                    kong_chain=kong_chain,
                    winner_flown=self.flown[0] + flown_extra,
                    payers_flown=(self.flown[1], self.flown[2], self.flown[3]),
                    winner_held_bao=self.bao_drawn > 0 or win_tile == bao,
                    four_bao=drawn == 4,
                    robbed=robbed,
                )
            )
        except SituationError:
            return 0
        return sum(r.win_payments) if r.winning else 0


def _scaled(points: float) -> float:
    v = points / VALUE_SCALE
    return v if v < VALUE_CAP else VALUE_CAP


def decision_features(planes: np.ndarray, mask: np.ndarray, version: int = 1) -> np.ndarray:
    """The (110, F) float32 features of one decision (the module docstring): ``planes`` (20, 34) int8,
    ``mask`` (110,) of 0/1; ``version`` 1 or 2 (:class:`ValueError` otherwise)."""
    nf = n_features(version)
    out = np.zeros((110, nf), dtype=np.float32)
    legal = np.flatnonzero(mask)
    if not len(legal) or (version == 1 and legal.min() >= 107 and legal.max() <= 109):
        return out
    v2 = version >= 2
    c = [int(x) for x in planes[0]]
    bao = int(planes[14].argmax())
    meld_tiles = planes[2]
    n_kongs = int(np.count_nonzero(planes[6]))
    n_melds = (int(meld_tiles.sum()) - 4 * n_kongs) // 3 + n_kongs
    jiuyao_ok = all(k in _TH for k in np.flatnonzero(meld_tiles))
    key = HandKey(c, bao)
    m = 4 - n_melds
    unseen = [max(0, 4 - int(x)) for x in planes[18]]
    legal_set = {int(i) for i in legal}
    offers_win = v2 and 107 in legal_set
    values = _Values(planes, bao) if offers_win else None

    def sh(
        remove: tuple[int, ...] = (), add: tuple[int, ...] = (), melds_added: int = 0, tiles: tuple[int, ...] = ()
    ) -> int:
        ok = jiuyao_ok and all(t in _TH for t in tiles)
        return int(key.shanten(m - melds_added, ok, remove, add))

    def useful(
        remove: tuple[int, ...], target: int, melds_added: int = 0, tiles: tuple[int, ...] = (), skip: int = -1
    ) -> int:
        """Unseen copies of the kinds near the hand less ``remove`` whose draw brings its shanten below ``target``."""
        for x in remove:
            c[x] -= 1
        near = _neighbourhood(c)
        for x in remove:
            c[x] += 1
        ok = jiuyao_ok and all(t in _TH for t in tiles)
        draws = [t for t in near if unseen[t] and t != skip]
        return sum(unseen[t] for t in key.draws_below(m - melds_added, ok, remove, draws, target))

    def kept(remove: tuple[int, ...], flown_extra: int) -> float:
        """Column 6: the mean points per unseen tile of the self-drawn wins the hand less ``remove`` waits on."""
        assert values is not None
        if sh(remove) != 0:
            return 0.0
        total = sum(unseen)
        if total == 0:
            return 0.0
        hand = list(c)
        for x in remove:
            hand[x] -= 1
        acc = 0.0
        for t in range(34):
            if unseen[t] and sh(remove, (t,)) == -1:
                acc += unseen[t] * values.value(hand, t, flown_extra=flown_extra, next_draw=True)
        return _scaled(acc / total)

    discards = [int(i) for i in legal if i < 34]
    if discards:
        shs = {k: sh(remove=(k,)) for k in discards}
        best = min(shs.values())
        for k, s in shs.items():
            out[k, 0] = s / 8.0
            out[k, 3] = float(k == bao)
            if s == best:
                out[k, 1] = 1.0
                out[k, 2] = useful((k,), best, skip=k) / 40.0
            if v2:
                out[k, 4] = (useful((k,), s, skip=k) / 40.0) if s != best else out[k, 2]
                if offers_win:
                    out[k, 6] = kept((k,), 1 if k == bao else 0)
    claims = [int(i) for i in legal if 34 <= i <= 38]
    if claims:
        now = sh()
        k = int(planes[16].argmax())
        for i in claims:
            tiles: tuple[int, ...]
            if i <= 36:
                low = k - (i - 34)
                tiles = (low, low + 1, low + 2)
                used = tuple(x for x in tiles if x != k)
                spends_bao = any(x == bao for x in used)
            else:
                tiles = (k,)
                used = (k,) * (2 if i == 37 else 3)
                spends_bao = k == bao
            s = sh(remove=used, melds_added=1, tiles=tiles)
            out[i, 0] = s / 8.0
            out[i, 1] = float(s <= now)
            out[i, 3] = float(spends_bao)
            if v2:
                if i == 38:  # 3m+1 tiles left: a replacement is drawn
                    out[i, 4] = useful(used, s, 1, tiles) / 40.0
                else:  # 3m+2 tiles left: the best discard after the meld
                    after = list(c)
                    for x in used:
                        after[x] -= 1
                    each = {d: sh(used + (d,), (), 1, tiles) for d in range(34) if after[d]}
                    low_s = min(each.values())
                    out[i, 4] = (
                        max(useful(used + (d,), low_s, 1, tiles, skip=d) for d, e in each.items() if e == low_s) / 40.0
                    )
    kongs = [int(i) for i in legal if 39 <= i <= 106]
    if kongs:
        now = sh()
        for i in kongs:
            if i < 73:
                k = i - 39
                rm: tuple[int, ...] = (k,)
                s = sh(remove=rm)
                add_melds = 0
            else:
                k = i - 73
                rm = (k,) * 4
                s = sh(remove=rm, melds_added=1, tiles=(k,))
                add_melds = 1
            out[i, 0] = s / 8.0
            out[i, 1] = float(s <= now)
            out[i, 3] = float(k == bao)
            if v2:
                out[i, 4] = useful(rm, s, add_melds, (k,) if add_melds else ()) / 40.0
    if v2 and 108 in legal_set:
        s = sh()
        out[108, 0] = s / 8.0
        out[108, 1] = 1.0
        out[108, 4] = useful((), s) / 40.0
        if offers_win:
            out[108, 6] = kept((), 0)
    if offers_win:
        assert values is not None
        sc = planes[_SC]
        ph = int(sc[_S_PHASE : _S_PHASE + 5].argmax())
        if ph == _P_ACT:
            drawn = int(planes[1].argmax())
            hand = list(c)
            hand[drawn] -= 1
            heavenly = (
                int(sc[_S_DEALER]) == 1
                and int(sc[_S_TILES_LEFT]) == _FIRST_TURN_LEFT
                and not planes[2:6].any()
                and not planes[10:14].any()
            )
            points = values.value(hand, drawn, heavenly=heavenly, kong_chain=int(sc[_S_CHAIN]))
        elif ph == _P_ROB:
            robbed = int(sc[_S_KONG_MAKER : _S_KONG_MAKER + 4].argmax()) - 1
            points = values.value(list(c), int(planes[17].argmax()), WinBy.ROBBING_KONG, robbed=robbed)
        else:
            points = values.value(list(c), int(planes[16].argmax()), WinBy.DEALER_FIRST_DISCARD)
        out[107, 5] = _scaled(float(points))
    return out


def action_features(planes: np.ndarray, mask: np.ndarray, version: int = 1) -> np.ndarray:
    """(B, 110, F) float32: :func:`decision_features` of each row (``planes`` (B, 20, 34) int8, ``mask``
    (B, 110) of 0/1); ``version`` 1 or 2 (:class:`ValueError` otherwise)."""
    nf = n_features(version)
    return (
        np.stack([decision_features(p, mk, version) for p, mk in zip(planes, mask)])
        if len(planes)
        else np.zeros((0, 110, nf), dtype=np.float32)
    )
