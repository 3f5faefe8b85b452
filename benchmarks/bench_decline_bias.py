"""How far the search's play-outs overrate declining a win (偷机, 宝吊 …): sampled worlds against the truth.

    python benchmarks/bench_decline_bias.py [--hands 1500] [--seed 3611] [--worlds 256] [--keep 2]
                                            [--policy greedy] [--bots ukeire,ukeire,ukeire,ukeire]
                                            [--records PATH] [--summarize PATH ...]

Decisions: every self-drawn win offered (act phase, the win and at least one other legal action) in
``--hands`` core self-play hands of ``--bots`` (hand ``i`` shuffled from ``decline:{seed}:{i}``, dealer
``i % 4``, the bots seeded ``decline-bot:{seed}:{i}:{seat}``); the hand goes on with the bot's own choice.
Wins offered in a claim or rob window (接宝, 抢杠) are left out: tilted worlds are dealt on the seat's
own turn only.

At each decision, the options the search would play out (:func:`shangrao.sim.search.candidates`,
``--keep`` discards: the win, every kong, the best discards by 进张, the 宝 when flying it does not slow
the hand) and the discard ``ukeire`` makes when it does not win are played to the end of the hand by
``--policy`` at all four seats (:func:`shangrao.sim.search.play_options`, the search's own play-out), on
``--worlds`` worlds of each dealing, the same worlds for every option (common random numbers):

* ``uniform``: the search bot's own worlds (:func:`shangrao.sim.search.deal_world` from the seat's view,
  the stream seeded and drawn exactly as :func:`shangrao.sim.search.search` does);
* ``uniform (belief)``: :func:`shangrao.sim.belief.deal_world` (the same distribution, dealt from the
  state as the tilted dealer does: a check that the two uniform dealers agree);
* ``tilted``: :func:`shangrao.sim.belief.deal_world_tilted` with ``opponent_log_ratios`` of the shipped
  behaviour model, 200 tries an opponent (the sampler docs/bots.md recommends);
* ``truth``: :func:`shangrao.sim.belief.deal_wall`, the *real* opponents' hands with only the order of
  the live wall dealt again.  Given everything that happened the rest of the wall is in a uniformly
  random order, so the mean over these worlds is an unbiased estimate of what the option is worth with
  these play-out policies; the samplers differ from it only in the hidden hands they deal.

For a decline option ``d``, ``Δ = V(d) − V(win)`` (the seat's mean points from the decision to the end
of the hand, bonuses included, paired over the worlds).  Per dealing: the *bias* is the mean over
decisions of ``Δ_estimated − Δ_truth`` with a 95 % interval over decisions (normal approximation),
and the mean absolute error (play-out noise of both included: the column "noise" is the mean standard
error of the difference).  Two decline options:

* ``ukeire's decline``: the discard (or kong) ``ukeire`` picks with the win removed — a fixed option,
  so its bias is the worlds' alone;
* ``search's decline``: the best other option by the dealing's own means, as the search's win rule
  compares it (its truth: the truth's Δ of that same option) — the worlds' bias plus the winner's curse
  of taking a maximum.

Subsets: all wins offered, and the 宝吊 ones (the seat holds a 宝 and its hand before the draw is in the
宝吊 state: declining is 偷机, the decline the issue is about).  "rule declines" counts the decisions at
which the search's win rule (``z`` = 2 standard errors and a 4-point margin, its defaults) would decline
with that dealing, and in how many of those the truth's Δ of the declined-for option is above 0.

Deterministic for a seed (the CPU time goes to stderr, not to the table).  ``--records PATH`` writes
one JSON line per decision; ``--summarize PATH ...`` prints the table of such files (runs on other
hands pooled).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from shangrao.rules import DEFAULT_RULES
from shangrao.sim import belief as B
from shangrao.sim import core as C
from shangrao.sim import kernels as K
from shangrao.sim import search as S
from shangrao.sim.kernels import tables
from shangrao.sim.rules import encode_rules

#: the dealings, in the table's order; "truth" last
DEALINGS = ("uniform", "uniform (belief)", "tilted", "truth")
SAMPLERS = DEALINGS[:-1]
TILTED_TRIES = 200
RS = encode_rules(DEFAULT_RULES)
TB = tables()
POLICIES = {"greedy": C.BOT_GREEDY, "ukeire": C.BOT_UKEIRE, "random": C.BOT_RANDOM}


@dataclass
class Decision:
    """One win offered, measured: the options played out and each dealing's per-option means."""

    hand: int
    seat: int
    left: int
    baodiao: bool
    win_points: float  # the win's points (from the decision on)
    options: list[int]  # the legal codes played out (the win among them)
    ukeire: int  # ukeire's decline (a code of ``options``)
    #: per dealing: each option's mean points delta, and the paired standard error of its Δ against the win
    mean: dict[str, list[float]] = field(default_factory=dict)
    se: dict[str, list[float]] = field(default_factory=dict)
    #: per sampler: the option the search compares with the win, and whether its win rule declines
    pick: dict[str, int] = field(default_factory=dict)
    declines: dict[str, bool] = field(default_factory=dict)
    worlds: int = 0  # worlds of each dealing
    capped: int = 0  # tilted opponents whose tries ran out, over the worlds
    seed: str = ""  # the run's seed (a records file without it: its path)


def _mt(key: str) -> np.ndarray:
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key(key))
    return mt


def _is_baodiao_offer(st: np.ndarray, seat: int) -> bool:
    """The core's 偷机 condition (``_count_touji``): a 宝 held, the hand before the draw in the 宝吊 state."""
    drawn = int(st[C._O_LASTDRAW + seat])
    bao = int(st[C._O_BAO])
    co = C._O_COUNTS + seat * 34
    if drawn < 0 or not st[co + bao]:
        return False
    before = st[co : co + 34].astype(np.int8)
    before[drawn >> 2] -= 1
    return bool(K.is_baodiao_state(TB[0], TB[1], before, bao))


def measure_decision(
    st: np.ndarray,
    legal: np.ndarray,
    n: int,
    key: str,
    worlds: int,
    keep: int,
    policy: int,
    lr: np.ndarray,
    win_z: float = S.DEFAULT_WIN_Z,
    win_margin: float = S.DEFAULT_WIN_MARGIN,
) -> Decision:
    """Measure one decision: ``st`` the real state (act phase, a self-drawn win among ``legal[:n]``),
    ``key`` the decision's seed; ``lr`` the behaviour model's log-ratio table.  The benchmark's core."""
    seat = int(st[C._O_CUR])
    legal = legal[:n].astype(np.int32)
    iw = int(np.flatnonzero(legal == C.A_WIN)[0])
    v = np.zeros(S.V_SIZE, dtype=np.int64)
    S.view_of(st, seat, v)
    cand = np.zeros(n, dtype=np.int64)
    S.candidates(v, legal, n, TB, keep, cand)
    rest = legal[legal != C.A_WIN].copy()
    ukeire = int(C._greedy(st, TB, C.BOT_RULES, seat, rest, len(rest), True))
    cand[int(np.flatnonzero(legal == ukeire)[0])] = 1
    cand[iw] = 1
    played = np.flatnonzero(cand)
    so_far = float(st[C._O_SCORES + seat] - st[C._O_START + seat])  # this hand's transfers before the decision
    world = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    seeds = np.zeros(4, dtype=np.uint32)
    lr3 = np.zeros((3, B.N_SH), dtype=np.float64)
    B.opponent_log_ratios(st, seat, lr, lr3)
    d = Decision(
        hand=-1,
        seat=seat,
        left=int(st[C._O_TAIL] - st[C._O_HEAD] + 1),
        baodiao=_is_baodiao_offer(st, seat),
        win_points=math.nan,
        options=[int(legal[i]) for i in played],
        ukeire=ukeire,
        worlds=worlds,
    )
    for name in DEALINGS:
        mt = _mt(f"{key}:{name}")
        xs = np.zeros((worlds, n), dtype=np.float64)
        for w in range(worlds):
            if name == "uniform":
                if S.deal_world(v, legal, n, RS, TB, mt, world):
                    raise RuntimeError(f"{key}: the view is inconsistent")
            elif name == "uniform (belief)":
                B.deal_world(st, seat, mt, world)
            elif name == "tilted":
                d.capped += int(B.deal_world_tilted(st, seat, TB, lr3, mt, world, TILTED_TRIES))
            else:
                B.deal_wall(st, mt, world)
            for s in range(4):
                seeds[s] = C.mt_next(mt)
            S.play_options(world, seat, legal, n, cand, RS, TB, C.BOT_RULES, policy, seeds, xs[w])
        if name != "uniform":  # points from the decision on, as in the search's worlds (their start: the scores now)
            xs -= so_far
        diff = xs[:, played] - xs[:, [iw]]
        d.mean[name] = [float(x) for x in xs[:, played].mean(axis=0)]
        d.se[name] = [float(x) for x in diff.std(axis=0, ddof=1) / math.sqrt(worlds)]
        if name == "truth":
            d.win_points = float(xs[:, iw].mean())
            continue
        # the search's comparison: the best other option's mean (ties: the first in legal order)
        jw = int(np.flatnonzero(played == iw)[0])
        means = np.array(d.mean[name])
        others = [j for j in range(len(played)) if j != jw]
        best = max(others, key=lambda j: (means[j], -j))
        d.pick[name] = d.options[best]
        md = float(diff[:, best].mean())
        d.declines[name] = md > win_z * d.se[name][best] + win_margin
    return d


def decisions(
    hands: int, seed: str, worlds: int, keep: int, policy: int, bots: tuple[str, ...], first: int = 0
) -> Iterator[Decision]:
    """Play the hands ``first .. first + hands - 1`` of ``seed`` and measure every self-drawn win
    offered (the module docstring)."""
    lr = np.ascontiguousarray(B.load_params().log_ratio, dtype=np.float64)
    codes = np.array([C.CORE_BOTS[b] for b in bots], dtype=np.int32)
    st = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
    buf = np.zeros(48, dtype=np.int32)
    mts = np.zeros((4, 625), dtype=np.uint32)
    no_wall = np.full(136, -1, dtype=np.int32)
    no_dice = np.zeros(2, dtype=np.int32)
    for h in range(first, first + hands):
        C.new_hand(
            st, ev, RS, TB, C.seed_key(f"decline:{seed}:{h}"), h % 4, np.zeros(4, C.ST_DTYPE), 0, no_wall, no_dice
        )
        for s in range(4):
            C.mt_seed(mts[s], C.seed_key(f"decline-bot:{seed}:{h}:{s}"))
        k = 0
        while st[C._O_PHASE] != C.P_OVER:
            n = int(C.legal(st, RS, TB, buf))
            seat = int(st[C._O_CUR])
            offered = bool(st[C._O_PHASE] == C.P_ACT and (buf[:n] == C.A_WIN).any())
            if offered and n > 1:
                d = measure_decision(st, buf, n, f"decline:{seed}:{h}:{k}", worlds, keep, policy, lr)
                d.hand, d.seed = h, seed
                k += 1
                yield d
            a = int(buf[0]) if n == 1 else int(C._choose(st, RS, TB, codes, mts, seat, buf, n, C.BOT_RULES))
            C.push(st, ev, RS, TB, a, offered)


# ---------------------------------------------------------------------------------------------- the table
def _ci(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    h = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.nan
    return m, m - h, m + h


def _rows(ds: list[Decision], which: str) -> dict[str, dict[str, Any]]:
    """Per sampler: Δ estimated and true of the decline option ``which`` ("ukeire" or "search")."""
    out: dict[str, dict[str, Any]] = {}
    for name in SAMPLERS:
        est, tru, noise, dec, agree = [], [], [], 0, 0
        for d in ds:
            code = d.ukeire if which == "ukeire" else d.pick[name]
            j = d.options.index(code)
            jw = d.options.index(C.A_WIN)
            e = d.mean[name][j] - d.mean[name][jw]
            t = d.mean["truth"][j] - d.mean["truth"][jw]
            est.append(e)
            tru.append(t)
            noise.append(math.hypot(d.se[name][j], d.se["truth"][j]))
            if which == "search" and d.declines[name]:
                dec += 1
                agree += t > 0
        e_, t_ = np.array(est), np.array(tru)
        m, lo, hi = _ci(e_ - t_)
        out[name] = {
            "decisions": len(ds),
            "estimated": float(e_.mean()),
            "truth": float(t_.mean()),
            "bias": m,
            "ci": (lo, hi),
            "mae": float(np.abs(e_ - t_).mean()),
            "noise": float(np.mean(noise)),
            "declines": (dec, agree) if which == "search" else None,
        }
    return out


def table(ds: list[Decision]) -> str:
    """The Markdown table of the decisions ``ds`` (module docstring)."""
    lines = [
        "| wins offered | decline option | dealing | decisions | Δ estimated | Δ truth | **bias** (est − truth) "
        "| 95 % CI | mean abs. error | noise | rule declines (truth agrees) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    subsets = (("all", ds), ("宝吊", [d for d in ds if d.baodiao]))
    for sub, part in subsets:
        if not part:
            continue
        for which, label in (("ukeire", "ukeire's"), ("search", "search's")):
            for name, r in _rows(part, which).items():
                dec = f"{r['declines'][0]} ({r['declines'][1]})" if r["declines"] else ""
                lines.append(
                    f"| {sub} | {label} | {name} | {r['decisions']} | {r['estimated']:+.2f} | {r['truth']:+.2f} "
                    f"| **{r['bias']:+.2f}** | [{r['ci'][0]:+.2f}, {r['ci'][1]:+.2f}] | {r['mae']:.2f} "
                    f"| {r['noise']:.2f} | {dec} |"
                )
    truth_better = sum(1 for d in ds if max(d.mean["truth"]) > d.win_points)
    capped = sum(d.capped for d in ds)
    dealt = sum(3 * d.worlds for d in ds)
    lines.append("")
    lines.append(
        f"{len(ds)} wins offered in {len({(d.seed, d.hand) for d in ds})} hands, {sum(d.baodiao for d in ds)} of them 宝吊; "
        f"the truth has an option beating the win at {truth_better}; tilted opponents whose tries ran out: "
        f"{capped:,} of {dealt:,} dealt ({100 * capped / max(dealt, 1):.1f} %)."
    )
    return "\n".join(lines)


def _read(paths: Iterable[str]) -> list[Decision]:
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            out.extend(Decision(**{"seed": p, **json.loads(line)}) for line in f if line.strip())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--first", type=int, default=0, help="the first hand's index (to split a run)")
    ap.add_argument("--seed", default="3611")
    ap.add_argument("--worlds", type=int, default=S.DEFAULT_WORLDS)
    ap.add_argument("--keep", type=int, default=S.DEFAULT_KEEP)
    ap.add_argument("--policy", default="greedy", choices=sorted(POLICIES))
    ap.add_argument("--bots", default="ukeire,ukeire,ukeire,ukeire")
    ap.add_argument("--records", help="write one JSON line per decision here")
    ap.add_argument("--summarize", nargs="+", metavar="PATH", help="print the table of --records files")
    a = ap.parse_args(argv)
    if a.summarize:
        print(table(_read(a.summarize)))
        return 0
    bots = tuple(a.bots.split(","))
    ds: list[Decision] = []
    t0 = time.process_time()
    rec = open(a.records, "w", encoding="utf-8") if a.records else None  # noqa: SIM115
    try:
        for d in decisions(a.hands, a.seed, a.worlds, a.keep, POLICIES[a.policy], bots, a.first):
            ds.append(d)
            if rec:
                rec.write(json.dumps(asdict(d), ensure_ascii=False) + "\n")
                rec.flush()
            if len(ds) % 50 == 0:
                print(f"{len(ds)} decisions (hand {d.hand}), {time.process_time() - t0:.0f} CPU-s", file=sys.stderr)
    finally:
        if rec:
            rec.close()
    print(
        f"python benchmarks/bench_decline_bias.py --hands {a.hands} --first {a.first} --seed {a.seed} "
        f"--worlds {a.worlds} --keep {a.keep} --policy {a.policy} --bots {a.bots}\n"
    )
    print(table(ds))
    print(f"{len(ds)} decisions, {time.process_time() - t0:.0f} CPU-s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
