"""How well the search's sampled worlds match the truth: weighted (``shangrao.sim.belief``) against uniform dealing.

    python benchmarks/bench_belief.py [--hands 300] [--seed heldout-1] [--worlds 64] [--z-worlds 512]
                                      [--pilot 128] [--bots ukeire,ukeire,ukeire,ukeire]
                                      [--params PATH] [--json] [--speed]

Held-out states: every 3rd own-turn decision of ``--hands`` core self-play hands of ``--bots``, shuffled
from seeds (``belief:{seed}:{i}``) never used to fit the shipped params.  For each state and each of the
deciding seat's three opponents the truth is known (its hand, and the rest of the real hand).

Prints
  (a) log-likelihood against uniform dealing, in nats (mean ± standard error over states):
      * the real hidden hands (all three opponents and the wall together):
        ``log p_w(truth) − log p_u(truth) = w(truth) − log mean_u exp(w)``, exact but for the
        normaliser, estimated on ``--z-worlds`` uniform worlds of the state (tilted: ``tilted_log_gain``);
      * the real opponents' shanten under the ``--worlds`` sampled worlds of the state (each value's
        share of the worlds, weighted or not, with 0.5 pseudo-worlds per value), per opponent;
      * the same from the fitted tables directly (``log P_model(s | f)`` against ``log P_uniform(s | f)``).
  (b) calibration of "this opponent wins within k of its own turns" (k = 3, 6, 12): each state's
      ``--worlds`` uniform worlds are played to their end by the core bots ``--bots``; the prediction is
      the share of worlds in which the opponent wins within k of its draws — plain (uniform dealing) or
      self-normalised weighted (weighted dealing) — against what happened in the real hand.  Per
      probability bin: states × opponents, mean prediction, realised frequency; and the Brier score.
  Three dealings: ``uniform``; ``weighted`` (the same uniform worlds, self-normalised weights
  ``exp(world_log_weight)``); ``tilted`` (``deal_world_tilted`` with the table's rows,
  ``opponent_log_ratios``: worlds drawn from the weighted distribution by rejection, equal weights);
  ``pilot`` (``deal_world_tilted`` with ``state_log_ratios``: the model against this state's own
  uniform distribution, from ``--pilot`` deals).  The weights' effective sample size
  (``(Σw)² / Σw²`` over the worlds, as a share of them).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time

import numpy as np

from shangrao.rules import DEFAULT_RULES
from shangrao.sim import belief as B
from shangrao.sim import core as C
from shangrao.sim.kernels import tables
from shangrao.sim.play import _BOT_RULES
from shangrao.sim.rules import encode_rules

KS = (3, 6, 12)
BINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0001)


def mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0


def calibration(pred: np.ndarray, truth: np.ndarray) -> list[dict]:
    rows = []
    for lo, hi in itertools.pairwise(BINS):
        sel = (pred >= lo) & (pred < hi)
        if sel.any():
            rows.append({"bin": f"{lo:.2f}–{min(hi, 1.0):.2f}", "n": int(sel.sum()),
                         "predicted": round(float(pred[sel].mean()), 3), "realised": round(float(truth[sel].mean()), 3)})
    return rows


def speed(a: argparse.Namespace) -> int:
    """CPU time of a uniform deal and its weight, of a tilted deal, and of ``state_log_ratios`` (one
    core; a Python call a world, as a caller outside the core would pay)."""
    tb = tables()
    params = B.load_params(a.params)
    lr, lm = params.log_ratio, params.log_p_model()
    snaps, seats, _ = B.self_play_states(40, f"speed:{a.seed}")
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key("speed"))
    world = np.zeros(C.STATE_SIZE, dtype=np.int64)
    lr3 = np.zeros((3, B.N_SH))
    n = 200

    def uniform(st: np.ndarray, s: int) -> None:
        for _ in range(n):
            B.deal_world(st, s, mt, world)
            B.world_log_weight(world, s, tb, lr)

    def tilted(st: np.ndarray, s: int) -> None:
        B.opponent_log_ratios(st, s, lr, lr3)
        for _ in range(n):
            B.deal_world_tilted(st, s, tb, lr3, mt, world, 200)

    def pilot(st: np.ndarray, s: int) -> None:
        B.state_log_ratios(st, s, tb, lm, mt, a.pilot, lr3)

    print(f"{len(seats)} states of 40 self-play hands")
    for name, f, per in (("uniform deal + world_log_weight", uniform, n), ("tilted deal", tilted, n),
                         (f"state_log_ratios (pilot {a.pilot}), a decision", pilot, 1)):
        f(snaps[0], int(seats[0]))  # compiled / loaded
        c0 = time.process_time()
        for st, s in zip(snaps, seats):
            f(st, int(s))
        print(f"  {name}: {(time.process_time() - c0) / len(seats) / per * 1e6:.1f} µs CPU")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", default="heldout-1")
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--z-worlds", type=int, default=512)
    ap.add_argument("--pilot", type=int, default=128)
    ap.add_argument("--bots", default="ukeire,ukeire,ukeire,ukeire")
    ap.add_argument("--params", default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--speed", action="store_true", help="only time the dealings (CPU per world) and stop")
    a = ap.parse_args()
    if a.speed:
        return speed(a)
    bots = tuple(a.bots.split(","))
    params = B.load_params(a.params)
    t0 = time.perf_counter()
    snaps, seats, conts = B.self_play_states(a.hands, a.seed, bots)
    tb = tables()
    rules = encode_rules(DEFAULT_RULES)
    codes = B._bot_codes(bots)
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key(f"bench-belief:{a.seed}"))
    mts = np.zeros((4, 625), dtype=np.uint32)
    for s in range(4):
        C.mt_seed(mts[s], C.seed_key(f"bench-belief-bot:{a.seed}:{s}"))
    M, Z = a.worlds, a.z_worlds
    METHODS = ("uniform", "weighted", "tilted", "pilot")
    DEALT = ("uniform", "tilted", "pilot")
    w = np.zeros(M)
    sh = {m: np.zeros((M, 3), dtype=np.int64) for m in DEALT}
    d = {m: np.full((M, 3), -1, dtype=np.int64) for m in DEALT}
    lr3 = {m: np.zeros((3, B.N_SH)) for m in DEALT}
    log_model = params.log_p_model()
    wt = np.zeros(M)
    wz = np.zeros(Z)
    shz = np.zeros((Z, 3), dtype=np.int64)
    dz = np.zeros((Z, 3), dtype=np.int64)
    p_mod, p_uni = params.p_model(), params.p_uniform()
    gain_world: dict[str, list] = {"weighted": [], "tilted": [], "pilot": []}
    ll = {m: [] for m in METHODS}
    tab_u, tab_w, ess = [], [], []
    pred = {m: {k: [] for k in KS} for m in METHODS}
    truth = {k: [] for k in KS}
    sh_true_all = []
    sh_mean = {m: [] for m in METHODS}
    c8 = np.zeros(34, dtype=np.int8)
    for i in range(len(seats)):
        st, seat = snaps[i], int(seats[i])
        w_true = B.world_log_weight(st, seat, tb, params.log_ratio)
        B.opponent_log_ratios(st, seat, params.log_ratio, lr3["tilted"])
        B.state_log_ratios(st, seat, tb, log_model, mt, a.pilot, lr3["pilot"])
        B.sample_worlds(st, seat, tb, params.log_ratio, lr3["uniform"], mt, Z, False, False, rules, codes, mts,
                        _BOT_RULES, wz, shz, dz)
        gain_world["weighted"].append(w_true - (np.logaddexp.reduce(wz) - np.log(Z)))
        for m in ("tilted", "pilot"):
            gain_world[m].append(B.tilted_log_gain(st, seat, tb, lr3[m], mt, Z))
        for m in DEALT:
            B.sample_worlds(st, seat, tb, params.log_ratio, lr3[m], mt, M, m != "uniform", True, rules, codes, mts,
                            _BOT_RULES, w if m == "uniform" else wt, sh[m], d[m])
        nw = np.exp(w - w.max())
        nw /= nw.sum()
        ess.append(1.0 / (nw ** 2).sum() / M)
        share = {"uniform": np.full(M, 1.0 / M), "weighted": nw, "tilted": np.full(M, 1.0 / M),
                 "pilot": np.full(M, 1.0 / M)}
        src = {"uniform": "uniform", "weighted": "uniform", "tilted": "tilted", "pilot": "pilot"}
        rows, nev0 = conts[i]
        for j in range(3):
            o = (seat + 1 + j) % 4
            s_true = B._shanten_of(st, tb, o, c8)
            cell = B._cell(st, o)
            tab_u.append(np.log(p_uni[cell, s_true]))
            tab_w.append(np.log(p_mod[cell, s_true]))
            sh_true_all.append(s_true)
            r = B._draws_to_win(rows, nev0, len(rows), o)
            for k in KS:
                truth[k].append(1.0 if 0 <= r <= k else 0.0)
            for m in METHODS:
                x = sh[src[m]][:, j]
                hit = x == s_true
                ll[m].append(np.log((M * share[m][hit].sum() + 0.5) / (M + 0.5 * B.N_SH)))
                sh_mean[m].append((share[m] * x).sum())
                for k in KS:
                    won = (d[src[m]][:, j] >= 0) & (d[src[m]][:, j] <= k)
                    pred[m][k].append(share[m][won].sum())
    secs = time.perf_counter() - t0
    out: dict = {"command": " ".join(["python", *sys.argv]), "states": len(seats), "opponents": len(tab_u),
                 "params": params.meta, "seconds": round(secs, 1)}
    out["loglik_world_gain_nats"] = {}
    for m in ("weighted", "tilted", "pilot"):
        g = mean_se(np.array(gain_world[m]))
        out["loglik_world_gain_nats"][m] = {"mean": round(g[0], 3), "se": round(g[1], 3)}
    out["loglik_shanten_worlds"] = {}
    for m in METHODS:
        mu, se = mean_se(np.array(ll[m]))
        dd = mean_se(np.array(ll[m]) - np.array(ll["uniform"]))
        out["loglik_shanten_worlds"][m] = {"mean": round(mu, 3), "se": round(se, 3), "gain": round(dd[0], 3),
                                           "gain_se": round(dd[1], 3)}
    dd = mean_se(np.array(tab_w) - np.array(tab_u))
    out["loglik_shanten_table"] = {"uniform": round(float(np.mean(tab_u)), 3), "model": round(float(np.mean(tab_w)), 3),
                                   "gain": round(dd[0], 3), "gain_se": round(dd[1], 3)}
    out["mean_shanten"] = {"truth": round(float(np.mean(sh_true_all)), 3),
                           **{m: round(float(np.mean(sh_mean[m])), 3) for m in METHODS}}
    out["ess_share_weighted"] = round(float(np.mean(ess)), 3)
    out["calibration"] = {}
    for k in KS:
        t = np.array(truth[k])
        ck: dict = {"realised": round(float(t.mean()), 3)}
        for m in METHODS:
            pm = np.array(pred[m][k])
            ck[m] = {"mean_pred": round(float(pm.mean()), 3), "brier": round(float(((pm - t) ** 2).mean()), 4),
                     "bins": calibration(pm, t)}
        out["calibration"][k] = ck
    if a.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    print(f"# {out['command']}\n{out['states']} held-out states, {out['opponents']} opponents, {M} worlds each "
          f"({Z} for the normalisers), {secs:.0f} s; params: {params.meta.get('command')}")
    print("\n(a) log-likelihood of the truth (nats, mean ± se)")
    for m in ("weighted", "tilted", "pilot"):
        r = out["loglik_world_gain_nats"][m]
        print(f"  whole hidden world (3 hands + wall), {m} − uniform dealing, per state: {r['mean']:+.3f} ± {r['se']:.3f}")
    r = out["loglik_shanten_table"]
    print(f"  an opponent's shanten, from the tables: uniform {r['uniform']:.3f}, model {r['model']:.3f}, "
          f"gain {r['gain']:+.3f} ± {r['gain_se']:.3f}")
    for m in METHODS:
        r = out["loglik_shanten_worlds"][m]
        print(f"  an opponent's shanten, share of {M} {m} worlds: {r['mean']:.3f} "
              f"(gain over uniform {r['gain']:+.3f} ± {r['gain_se']:.3f})")
    ms = out["mean_shanten"]
    print(f"  mean shanten of the opponents: truth {ms['truth']:.2f}, "
          + ", ".join(f"{m} {ms[m]:.2f}" for m in METHODS)
          + f"; weighted worlds' effective sample size {out['ess_share_weighted']:.0%} of the worlds")
    print("\n(b) calibration: 'this opponent wins within k of its own turns', worlds played out by the core bots")
    for k in KS:
        r = out["calibration"][k]
        print(f"\n  k = {k}: realised {r['realised']:.3f}; "
              + "; ".join(f"{m}: mean prediction {r[m]['mean_pred']:.3f}, Brier {r[m]['brier']:.4f}" for m in METHODS))
        print(f"  {'bin':>11} | " + " | ".join(f"{m + ': n':>12} {'pred':>6} {'real':>6}" for m in METHODS))
        by = {m: {x["bin"]: x for x in r[m]["bins"]} for m in METHODS}
        for lo, hi in itertools.pairwise(BINS):
            key = f"{lo:.2f}–{min(hi, 1.0):.2f}"
            cells = []
            for m in METHODS:
                u = by[m].get(key)
                cells.append(f"{u['n']:>12} {u['predicted']:>6.3f} {u['realised']:>6.3f}" if u else f"{'':>12} {'':>6} {'':>6}")
            print(f"  {key:>11} | " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
