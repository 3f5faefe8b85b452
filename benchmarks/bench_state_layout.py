"""The compiled core's state layout: a flat int64 array with offsets from the schema, against a numba record.

Issue 39 asked which layout the core's hand state should have: the flat ``int64[STATE_SIZE]`` array
whose offsets :mod:`shangrao.sim.schema` generates (what the core uses), or a NumPy structured
array (one record with named fields) that numba reads as ``rec.counts[seat, k]``.  ``jitclass`` is
not measured: numba cannot cache a jitclass on disk (``cache=True`` is refused), so each process
would compile the core again (minutes; docs/performance.md).

The workload imitates the core's hot state operations on whole hands: for each of ``--hands`` hands,
zero the state, deal 53 tiles (counts, bit masks, the live wall), then 70 draw/discard turns (the
wall pointer, a tile into a hand and the lowest held id out, a discard row, scores moved), reading
and writing only through the layout.  Both sides compute the same checksum; the figure is the best
of ``--rounds`` interleaved rounds (``time.perf_counter``), plus the cost of one state copy (what a
search pays per node).

    python benchmarks/bench_state_layout.py [--hands 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from shangrao.sim.schema import FIELDS, OFS, STATE_SIZE

REC = np.dtype([(f.name, np.int64, f.shape) if f.shape else (f.name, np.int64) for f in FIELDS])


@njit(cache=True)
def flat_hands(st: np.ndarray, n: int) -> int:
    """The workload on the flat array (offsets from the schema's ``OFS``)."""
    check = 0
    for h in range(n):
        st[:] = 0
        for i in range(135):
            st[OFS.live + i] = (i * 37 + h) % 136
        for i in range(53):
            tid = st[OFS.live + i]
            seat = i % 4
            k = tid >> 2
            st[OFS.counts + seat * 34 + k] += 1
            st[OFS.mask + seat * 34 + k] |= 1 << (tid & 3)
        st[OFS.head] = 53
        for t in range(70):
            seat = t % 4
            tid = st[OFS.live + st[OFS.head]]
            st[OFS.head] += 1
            k = tid >> 2
            st[OFS.counts + seat * 34 + k] += 1
            st[OFS.mask + seat * 34 + k] |= 1 << (tid & 3)
            j = 0
            while st[OFS.counts + seat * 34 + j] == 0:
                j += 1
            m = st[OFS.mask + seat * 34 + j]
            b = 0
            while not (m >> b) & 1:
                b += 1
            st[OFS.mask + seat * 34 + j] = m & ~(1 << b)
            st[OFS.counts + seat * 34 + j] -= 1
            nd = st[OFS.n_discards + seat]
            if nd < 40:
                st[OFS.discards + seat * 40 + nd] = 4 * j + b
                st[OFS.n_discards + seat] = nd + 1
            st[OFS.scores + seat] -= 1
            st[OFS.scores + (seat + 1) % 4] += 1
        check += st[OFS.scores] + st[OFS.n_discards + 3] + st[OFS.head]
    return check


@njit(cache=True)
def record_hands(recs: np.ndarray, raw: np.ndarray, n: int) -> int:
    """The same workload on a structured record (``recs[0]``, fields by name; ``raw``: its memory as
    int64, zeroed per hand as the flat side zeroes its state)."""
    check = 0
    r = recs[0]
    for h in range(n):
        raw[:] = 0
        for i in range(135):
            r.live[i] = (i * 37 + h) % 136
        for i in range(53):
            tid = r.live[i]
            seat = i % 4
            k = tid >> 2
            r.counts[seat, k] += 1
            r.mask[seat, k] |= 1 << (tid & 3)
        r.head = 53
        for t in range(70):
            seat = t % 4
            tid = r.live[r.head]
            r.head += 1
            k = tid >> 2
            r.counts[seat, k] += 1
            r.mask[seat, k] |= 1 << (tid & 3)
            j = 0
            while r.counts[seat, j] == 0:
                j += 1
            m = r.mask[seat, j]
            b = 0
            while not (m >> b) & 1:
                b += 1
            r.mask[seat, j] = m & ~(1 << b)
            r.counts[seat, j] -= 1
            nd = r.n_discards[seat]
            if nd < 40:
                r.discards[seat, nd] = 4 * j + b
                r.n_discards[seat] = nd + 1
            r.scores[seat] -= 1
            r.scores[(seat + 1) % 4] += 1
        check += r.scores[0] + r.n_discards[3] + r.head
    return check


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    recs = np.zeros(1, dtype=REC)
    raw = recs.view(np.int64)
    assert REC.itemsize == STATE_SIZE * 8
    a, b = flat_hands(st, 10), record_hands(recs, raw, 10)  # compiled (or loaded) first
    assert a == b, (a, b)
    best = {"flat": 1e9, "record": 1e9}
    for _ in range(args.rounds):
        t = time.perf_counter()
        a = flat_hands(st, args.hands)
        best["flat"] = min(best["flat"], time.perf_counter() - t)
        t = time.perf_counter()
        b = record_hands(recs, raw, args.hands)
        best["record"] = min(best["record"], time.perf_counter() - t)
        assert a == b
    reps = 100_000
    t = time.perf_counter()
    for _ in range(reps):
        st.copy()
    copy_flat = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    for _ in range(reps):
        recs.copy()
    copy_rec = (time.perf_counter() - t) / reps
    print("| layout | hands/s (workload) | copy of one state |\n|---|---|---|")
    print(f"| flat int64[{STATE_SIZE}], offsets from the schema | {args.hands / best['flat']:,.0f} | "
          f"{copy_flat * 1e9:,.0f} ns |")
    print(f"| structured record ({REC.itemsize} bytes) | {args.hands / best['record']:,.0f} | "
          f"{copy_rec * 1e9:,.0f} ns |")
    print(f"\nbest of {args.rounds} interleaved rounds of {args.hands:,} hands; command: python "
          + " ".join(["benchmarks/bench_state_layout.py", *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
