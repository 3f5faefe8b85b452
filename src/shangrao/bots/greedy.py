"""The ``greedy`` bot: minimise shanten (with 宝 as wildcards), keep the 宝, win when it can.

Rules it follows, in order, using only its observation:

* **Win** whenever WIN is legal (self-draw, 杠开, 抢杠, 地糊) — except 偷机 below.
* **接宝** (CATCH_BAO) whenever it is legal.
* **偷机** (decline a win in the 宝吊 state): when the hand before the draw is in
  the 宝吊 state (:func:`shangrao.analysis.is_baodiao_state`) and the win on offer
  scores a plain 宝吊头 (``baodiao`` / ``pengpenghu_baodiao``), the bot compares
  ``value_now`` (the hand value of this win) with the expected value of drawing
  once more from the same state::

      EV = survival * sum_k p_k * value_k

  where ``p_k`` is the share of unseen tiles of kind k (unseen = 136 minus the
  indicator, its own hand, all melds and all discards), ``value_k`` the hand value
  of the win the draw of k would give (every draw wins from the 宝吊 state:
  宝吊宝 for a 宝, 宝吊无宝 when a reading needs no 宝, else 宝吊头), and
  ``survival`` (default 0.9) the chance no other seat ends the hand before its
  next draw.  It declines (PASS is not needed: it simply discards the drawn
  tile, keeping the 宝吊 state) when ``EV > value_now`` and at least
  ``touji_min_wall`` (default 16) tiles are left in the wall.  With the default
  values this mostly happens when several kinds would give 宝吊无宝.
* **Discard**: the tile whose removal leaves the lowest shanten (all forms,
  wildcards included); ties broken by the fewest neighbours the tile has in
  hand (an honor: its copies; a suited tile: tiles of its suit within two
  ranks, weighted 2 for ±1 and 1 for ±2), then by isolated honors and
  terminals first, then by the highest kind.  With ``ukeire=True`` ties are
  broken instead by the number of unseen tiles that would lower the shanten
  (stronger, several times slower).  It never discards a 宝 unless every
  tile in hand is a 宝.
* **Kongs** (concealed or added, in its turn): only when the shanten does not
  get worse and the tile is not the 宝 kind.
* **Claims** (pung, kong, chow on a discard): the one giving the lowest shanten
  after it, if that is not worse than the shanten now (ties: kong, pung, chow);
  never uses 宝 tiles of its hand in a meld (no pung/kong/chow that spends a 宝).
  Otherwise PASS.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..analysis import is_baodiao_state
from ..analysis.tables import HandKey
from ..game.actions import Action, ActionType
from ..game.phase import Phase
from ..game.state import Observation
from ..melds import Meld
from ..scoring import WinBy, WinSituation, score
from ..tiles import TERMINALS_AND_HONORS

__all__ = ["GreedyBot"]

A = ActionType


def _neighbourhood(c: list[int]) -> list[int]:
    """Kinds that can lower the shanten of hand ``c`` (near tiles, terminals/honors for 十三浪/九幺)."""
    ks = set(TERMINALS_AND_HONORS)
    for k in range(27):
        if c[k]:
            base = k - k % 9
            for d in (-2, -1, 0, 1, 2):
                x = k + d
                if base <= x < base + 9:
                    ks.add(x)
    # 十三浪 may want any rank of a suit 3 apart: add a sparse grid
    ks.update((1, 4, 7, 10, 13, 16, 19, 22, 25, 2, 5, 11, 14, 20, 23, 3, 6, 12, 15, 21, 24))
    return sorted(ks)


class _Hand:
    """One decision's hand: its :class:`~shangrao.analysis.tables.HandKey` with the melds it has."""

    __slots__ = ("jiuyao_ok", "key", "m")

    def __init__(self, c: Sequence[int], bao: int, melds: Sequence[Meld]) -> None:
        self.key = HandKey(c, bao)
        self.m = 4 - len(melds)
        self.jiuyao_ok = all(t in TERMINALS_AND_HONORS for m in melds for t in m.tiles)

    def shanten(
        self,
        remove: tuple[int, ...] = (),
        add: tuple[int, ...] = (),
        melds_added: int = 0,
        meld_tiles: tuple[int, ...] = (),
    ) -> int:
        """Shanten after taking the kinds ``remove`` out and putting ``add`` in (and declaring melds)."""
        jiuyao_ok = self.jiuyao_ok and all(t in TERMINALS_AND_HONORS for t in meld_tiles)
        return self.key.shanten(self.m - melds_added, jiuyao_ok, remove, add)


def _connectivity(c: list[int], k: int) -> int:
    """How many tiles of the hand ``c`` (after the discard) would work with a tile of kind ``k``."""
    if k >= 27:
        return 3 * c[k]
    r = k % 9
    score = 3 * c[k]
    if r >= 1:
        score += 2 * c[k - 1]
    if r <= 7:
        score += 2 * c[k + 1]
    if r >= 2:
        score += c[k - 2]
    if r <= 6:
        score += c[k + 2]
    return score


class GreedyBot:
    name = "greedy"

    def __init__(
        self, seed: int | str | None = None, touji_min_wall: int = 16, survival: float = 0.9, ukeire: bool = False
    ) -> None:
        self.rng = random.Random(seed)
        self.touji_min_wall = touji_min_wall
        self.survival = survival
        self.ukeire = ukeire

    # ------------------------------------------------------------------ choose
    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if obs.phase == Phase.ROB:
            return Action(A.WIN) if A.WIN in types else Action(A.PASS)
        if obs.phase == Phase.CLAIM:
            if A.WIN in types:
                return Action(A.WIN)
            if A.CATCH_BAO in types:
                return Action(A.CATCH_BAO)
            return self._claim(obs, legal)
        if A.WIN in types:
            if not self._touji(obs):
                return Action(A.WIN)
            return Action(A.DISCARD, obs.drawn)
        kong = self._kong(obs, legal)
        if kong is not None:
            return kong
        return self._discard(obs, legal)

    def _touji(self, obs: Observation) -> bool:
        if obs.drawn is None or obs.tiles_left < self.touji_min_wall or obs.drawn == obs.bao:
            return False
        melds = obs.melds[obs.seat]
        before = list(obs.hand_34)
        before[obs.drawn] -= 1
        if not is_baodiao_state(before, obs.bao, melds):
            return False
        hand = tuple(k for k in range(34) for _ in range(before[k]))
        seat = obs.seat
        payers_flown = (obs.flown[(seat + 1) % 4], obs.flown[(seat + 2) % 4], obs.flown[(seat + 3) % 4])

        def value(k: int) -> tuple[str, int]:
            drawn = hand.count(obs.bao) + sum(m.tiles.count(obs.bao) for m in melds) + obs.flown[seat] + (k == obs.bao)
            sit = WinSituation(
                hand=hand,
                win_tile=k,
                melds=tuple(melds),
                bao=obs.bao,
                win_by=WinBy.SELF_DRAW,
                winner_flown=obs.flown[seat],
                payers_flown=payers_flown,
                winner_held_bao=True,
                four_bao=drawn == 4 and not any(payers_flown),
            )
            r = score(sit)
            return (r.pattern.id if r.winning and r.pattern is not None else "", r.hand_value)

        pid, now = value(obs.drawn)
        if pid not in ("baodiao", "pengpenghu_baodiao"):
            return False
        unseen = obs.unseen()
        total = sum(unseen)
        if total == 0:
            return False
        ev = 0.0
        for k in range(34):
            if unseen[k]:
                try:
                    ev += unseen[k] / total * value(k)[1]
                except ValueError:
                    continue
        return self.survival * ev > now

    def _kong(self, obs: Observation, legal: list[Action]) -> Action | None:
        h = _Hand(list(obs.hand_34), obs.bao, obs.melds[obs.seat])
        now = h.shanten()
        for a in legal:
            if a.type is A.CONCEALED_KONG and a.kind != obs.bao:
                # after the kong a replacement is drawn: compare ready-ness of the 3m+1 hand
                if h.shanten(remove=(a.kind,) * 4, melds_added=1, meld_tiles=(a.kind,)) <= now:
                    return a
            elif a.type is A.ADDED_KONG and a.kind != obs.bao and h.shanten(remove=(a.kind,)) <= now:
                return a
        return None

    def _discard(self, obs: Observation, legal: list[Action]) -> Action:
        c = list(obs.hand_34)
        bao = obs.bao
        h = _Hand(c, bao, obs.melds[obs.seat])
        cands = [(a.kind, a) for a in legal if a.type is A.DISCARD]  # (the kind discarded, the action)
        non_bao = [p for p in cands if p[0] != bao]
        if non_bao:
            cands = non_bao
        scored = [(h.shanten(remove=(t,)), t, a) for t, a in cands]
        best = min(s for s, _, _ in scored)
        tied = [(t, a) for s, t, a in scored if s == best]
        if len(tied) == 1:
            return tied[0][1]
        if self.ukeire:
            unseen = obs.unseen()
            ranked = []
            for t, a in tied:
                c[t] -= 1
                useful = 0
                for k in _neighbourhood(c):
                    if unseen[k] and k != t and h.shanten(remove=(t,), add=(k,)) < best:
                        useful += unseen[k]
                c[t] += 1
                ranked.append((useful, t, a))
            ranked.sort(key=lambda x: (x[0], x[1]), reverse=True)
            return ranked[0][2]
        ranked2 = []
        for t, a in tied:
            c[t] -= 1
            conn = _connectivity(c, t)
            c[t] += 1
            ranked2.append((conn, 0 if t in TERMINALS_AND_HONORS else 1, -t, a))
        ranked2.sort(key=lambda x: x[:3])
        return ranked2[0][3]

    def _claim(self, obs: Observation, legal: list[Action]) -> Action:
        bao = obs.bao
        h = _Hand(list(obs.hand_34), bao, obs.melds[obs.seat])
        assert obs.last_discard is not None
        k = obs.last_discard[1]
        now = h.shanten()
        best: tuple[int, int, Action] | None = None
        for a in legal:
            t = a.type
            if t is A.PUNG or t is A.KONG:
                if k == bao:
                    continue
                n = 2 if t is A.PUNG else 3
                s = h.shanten(remove=(k,) * n, melds_added=1, meld_tiles=(k,))
                rank = 1 if t is A.PUNG else 0
            elif t is A.CHOW:
                tiles = (a.kind, a.kind + 1, a.kind + 2)
                if any(x == bao for x in tiles if x != k):
                    continue
                s = h.shanten(remove=tuple(x for x in tiles if x != k), melds_added=1, meld_tiles=tiles)
                rank = 2
            else:
                continue
            if s <= now and (best is None or (s, rank) < best[:2]):
                best = (s, rank, a)
        return best[2] if best is not None else Action(A.PASS)
