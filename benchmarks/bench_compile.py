"""Compile time of the compiled core (``shangrao.sim``) per entry point: first (empty cache) and cached.

Run from the repository::

    python benchmarks/bench_compile.py                    # every entry point
    python benchmarks/bench_compile.py --entry "win check" --entry "game loop"
    python benchmarks/bench_compile.py --markdown /tmp/compile.md

Each entry point runs in a child process twice against one fresh ``NUMBA_CACHE_DIR`` (a temporary
directory): the first child finds the cache empty and compiles everything the entry point reaches
(and nothing else: numba compiles a function on its first call), the second loads the machine code
numba wrote.  Each child reports its own CPU time (``time.process_time``, user + system, the child's
threads included) for the import (``shangrao.sim`` and what the entry point's module imports), the
tables (:func:`shangrao.sim.kernels.tables`, filled in every process) and the first call; the
parent adds the child's whole CPU time from ``resource.getrusage(RUSAGE_CHILDREN)`` (interpreter
start included).  CPU time, not wall clock: the shared machine's load inflates the wall clock, not
the CPU seconds a compile takes (within a few %).

Entry points (``--entry``, repeatable):

* ``win check`` — :func:`shangrao.sim.batch.is_winning_many` (``shangrao.is_winning_many``);
* ``shanten`` — :func:`shangrao.sim.batch.shanten_many`;
* ``scoring`` — :func:`shangrao.sim.convert.score_situation` (the scoring kernel ``score_win``);
* ``one hand`` — :func:`shangrao.sim.play.play_hand` (``arena --engine fast``'s path);
* ``game loop`` — :func:`shangrao.sim.play.iter_match_hands` (``play_matches``: what
  ``simulate --engine fast`` runs), one match of 1 hand, 4× ``random``;
* ``vector env`` — :class:`shangrao.sim.vector.VectorEnv` ``reset`` and one ``step``;
* ``warm-up`` — :func:`shangrao.sim.play.warm_up` (all of the above: what ``.ci/run`` pays once).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

_PRELUDE = """
import time, sys
t0 = time.process_time()
import numpy as np
{imports}
from shangrao.sim import kernels as K
t1 = time.process_time()
K.tables()
t2 = time.process_time()
{call}
t3 = time.process_time()
print(f"{{t1 - t0:.3f}} {{t2 - t1:.3f}} {{t3 - t2:.3f}}")
"""

ENTRIES: dict[str, tuple[str, str]] = {
    "win check": (
        "from shangrao.sim.batch import is_winning_many",
        "h = np.zeros((1, 34), dtype=np.int64); h[0, :4] = 3; h[0, 27] = 2\nassert is_winning_many(h)[0]",
    ),
    "shanten": (
        "from shangrao.sim.batch import shanten_many",
        "h = np.zeros((1, 34), dtype=np.int64); h[0, :4] = 3; h[0, 27] = 2\nassert shanten_many(h)[0] == -1",
    ),
    "scoring": (
        "from shangrao.sim.convert import score_situation\nfrom shangrao.scoring import WinSituation",
        'sit = WinSituation.from_dict({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"})\n'
        "assert score_situation(sit)[K.O_HAND_VALUE] == 2",
    ),
    "one hand": (
        "from shangrao.sim.play import play_hand",
        'play_hand(0, ("random",) * 4)',
    ),
    "game loop": (
        "from shangrao.sim.play import iter_match_hands",
        'assert len(list(iter_match_hands([0], [1], ["random"] * 4))) == 1',
    ),
    "vector env": (
        "from shangrao.sim.vector import VectorEnv",
        'env = VectorEnv(2, ("learner", "random", "random", "random"))\n'
        "env.step(env.reset(0).legal_action_mask.argmax(axis=1))",
    ),
    "warm-up": (
        "from shangrao.sim.play import warm_up",
        "warm_up()",
    ),
}


def _child(code: str, cache: str) -> tuple[list[float], float, float]:
    """Run ``code`` in a child with ``NUMBA_CACHE_DIR=cache``: (its three figures, its whole CPU s, wall s)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if done.returncode:
        raise SystemExit(f"child failed:\n{done.stderr[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return [float(x) for x in done.stdout.split()[-3:]], cpu, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entry", action="append", choices=sorted(ENTRIES), help="only these entry points")
    ap.add_argument("--markdown", help="also write the table to this file")
    args = ap.parse_args()
    import numba

    header = (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}, numba {numba.__version__}; load average before "
              f"{os.getloadavg()[0]:.1f}")
    lines = [header, "",
             "| entry point | first: call (CPU s) | first: process (CPU s) | first: wall (s) "
             "| cached: import | cached: tables | cached: call | cached: process (CPU s) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    print(header, flush=True)
    for name in args.entry or list(ENTRIES):
        imports, call = ENTRIES[name]
        code = _PRELUDE.format(imports=imports, call=call)
        with tempfile.TemporaryDirectory(prefix="shangrao-compile-") as cache:
            (_fi, _ft, fc), fcpu, fwall = _child(code, cache)
            (ci, ct, cc), ccpu, _ = _child(code, cache)
        line = (f"| {name} | {fc:.1f} | {fcpu:.1f} | {fwall:.1f} | {ci:.2f} | {ct:.2f} | {cc:.3f} | {ccpu:.2f} |")
        lines.append(line)
        print(line, flush=True)
    lines.append(f"\nload average after {os.getloadavg()[0]:.1f}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
