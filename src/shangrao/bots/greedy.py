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
  indicator, its own hand, all melds and all ponds), ``value_k`` the hand value
  of the win the draw of k would give (every draw wins from the 宝吊 state:
  宝吊宝 for a 宝, 宝吊无宝 when a reading needs no 宝, else 宝吊头), and
  ``survival`` (default 0.9) the chance no other seat ends the hand before its
  next draw.  It declines (PASS is not needed: it simply discards the drawn
  tile, keeping the 宝吊 state) when ``EV > value_now`` and at least
  ``touji_min_wall`` (default 16) tiles are left in the wall.  With the default
  values this mostly happens when several kinds would give 宝吊无宝.
* **Discard**: the tile whose removal leaves the lowest shanten (all forms,
  wildcards included); ties broken by the number of unseen tiles that would
  lower the shanten (useful tiles), then by the highest kind.  It never
  discards a 宝 unless every tile in hand is a 宝.
* **Kongs** (concealed or added, in its turn): only when the shanten does not
  get worse and the tile is not the 宝 kind.
* **Claims** (pung, kong, chow on a discard): the one giving the lowest shanten
  after it, if that is not worse than the shanten now (ties: kong, pung, chow);
  never uses 宝 tiles of its hand in a meld (no pung/kong/chow that spends a 宝).
  Otherwise PASS.
"""

from __future__ import annotations

import random

from ..analysis import is_baodiao_state, shanten
from ..game.actions import Action, ActionType
from ..game.state import Observation
from ..melds import Meld, MeldKind
from ..scoring import WinBy, WinSituation, score

__all__ = ["GreedyBot"]

A = ActionType
_TERMS = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])


def _neighbourhood(c: list[int]) -> list[int]:
    """Kinds that can lower the shanten of hand ``c`` (near tiles, terminals/honors for 十三浪/九幺)."""
    ks = set(_TERMS)
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


_SHANTEN_CACHE: dict = {}


def _shanten_cached(c: list[int], bao: int, melds) -> int:
    """shanten() memoised on (counts, bao, number of melds, melds all 1/9/honor) — all it depends on."""
    key = (tuple(c), bao, len(melds), all(t in _TERMS for m in melds for t in m.tiles))
    v = _SHANTEN_CACHE.get(key)
    if v is None:
        if len(_SHANTEN_CACHE) > 500_000:
            _SHANTEN_CACHE.clear()
        v = shanten(c, bao, melds)
        _SHANTEN_CACHE[key] = v
    return v


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int | str | None = None, touji_min_wall: int = 16, survival: float = 0.9) -> None:
        self.rng = random.Random(seed)
        self.touji_min_wall = touji_min_wall
        self.survival = survival

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _unseen(obs: Observation) -> list[int]:
        seen = list(obs.hand_34)
        seen[obs.indicator] += 1
        for ms in obs.melds:
            for m in ms:
                for t in m.tiles:
                    seen[t] += 1
        for pond in obs.discards:
            for t in pond:
                seen[t] += 1
        return [max(0, 4 - s) for s in seen]

    def _shanten(self, cache: dict, c: list[int], bao: int, melds) -> int:
        return _shanten_cached(c, bao, melds)

    # ------------------------------------------------------------------ choose
    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if obs.phase == "rob":
            return Action(A.WIN) if A.WIN in types else Action(A.PASS)
        if obs.phase == "claim":
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
        payers_flown = tuple(obs.flown[(seat + i) % 4] for i in range(1, 4))

        def value(k: int) -> tuple[str, int]:
            sit = WinSituation(hand=hand, win_tile=k, melds=tuple(melds), bao=obs.bao, win_by=WinBy.SELF_DRAW,
                               winner_flown=obs.flown[seat], payers_flown=payers_flown,
                               winner_held_bao=True)
            r = score(sit)
            return (r.pattern.id if r.winning else "", r.hand_value)

        pid, now = value(obs.drawn)
        if pid not in ("baodiao", "pengpenghu_baodiao"):
            return False
        unseen = self._unseen(obs)
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
        c = list(obs.hand_34)
        melds = list(obs.melds[obs.seat])
        cache: dict = {}
        now = self._shanten(cache, c, obs.bao, melds)
        for a in legal:
            if a.type is A.CONCEALED_KONG and a.tile != obs.bao:
                c2 = list(c)
                c2[a.tile] -= 4
                m2 = melds + [Meld(MeldKind.CONCEALED_KONG, (a.tile,) * 4)]
                # after the kong a replacement is drawn: compare ready-ness of the 3m+1 hand
                if _shanten_cached(c2, obs.bao, m2) <= now:
                    return a
            elif a.type is A.ADDED_KONG and a.tile != obs.bao:
                c2 = list(c)
                c2[a.tile] -= 1
                m2 = [Meld(MeldKind.KONG, (a.tile,) * 4) if (m.kind is MeldKind.PUNG and m.tiles[0] == a.tile) else m
                      for m in melds]
                if _shanten_cached(c2, obs.bao, m2) <= now:
                    return a
        return None

    def _discard(self, obs: Observation, legal: list[Action]) -> Action:
        c = list(obs.hand_34)
        melds = obs.melds[obs.seat]
        bao = obs.bao
        cache: dict = {}
        cands = [a for a in legal if a.type is A.DISCARD]
        non_bao = [a for a in cands if a.tile != bao]
        if non_bao:
            cands = non_bao
        scored = []
        for a in cands:
            c[a.tile] -= 1
            scored.append((self._shanten(cache, c, bao, melds), a))
            c[a.tile] += 1
        best = min(s for s, _ in scored)
        tied = [a for s, a in scored if s == best]
        if len(tied) == 1:
            return tied[0]
        unseen = self._unseen(obs)
        ranked = []
        for a in tied:
            c[a.tile] -= 1
            useful = 0
            for k in _neighbourhood(c):
                if unseen[k] and k != a.tile:
                    c[k] += 1
                    if self._shanten(cache, c, bao, melds) < best:
                        useful += unseen[k]
                    c[k] -= 1
            c[a.tile] += 1
            ranked.append((useful, a.tile, a))
        ranked.sort(key=lambda x: (x[0], x[1]), reverse=True)
        return ranked[0][2]

    def _claim(self, obs: Observation, legal: list[Action]) -> Action:
        c = list(obs.hand_34)
        melds = list(obs.melds[obs.seat])
        bao = obs.bao
        assert obs.last_discard is not None
        k = obs.last_discard[1]
        now = _shanten_cached(c, bao, melds)
        best: tuple[int, int, Action] | None = None
        for a in legal:
            t = a.type
            if t is A.PUNG or t is A.KONG:
                if k == bao:
                    continue
                n = 2 if t is A.PUNG else 3
                c2 = list(c)
                c2[k] -= n
                m2 = melds + [Meld(MeldKind.PUNG if t is A.PUNG else MeldKind.KONG, (k,) * (n + 1))]
                rank = 1 if t is A.PUNG else 0
            elif t is A.CHOW:
                tiles = (a.tile, a.tile + 1, a.tile + 2)
                if any(x == bao for x in tiles if x != k):
                    continue
                c2 = list(c)
                for x in tiles:
                    if x != k:
                        c2[x] -= 1
                m2 = melds + [Meld(MeldKind.CHOW, tiles)]
                rank = 2
            else:
                continue
            s = _shanten_cached(c2, bao, m2)
            if s <= now and (best is None or (s, rank) < best[:2]):
                best = (s, rank, a)
        return best[2] if best is not None else Action(A.PASS)
