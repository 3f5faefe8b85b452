"""``train_bc``'s peak memory against the dataset's size (issue 36, item 4): streamed vs in memory.

Each measurement runs in a fresh process and reports its peak resident set size
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``) after one epoch of ``train_bc`` (``mlp-features``,
version 2, 256 hidden, batch 512) on a dataset directory:

* ``stream`` — ``train_bc`` as shipped: shards streamed, ``--buffer-shards`` (default 4) in memory;
* ``memory`` — what ``train_bc`` did before issue 36, reproduced for the comparison: every row loaded
  (``Dataset.load``), the planes as float32 and the per-action features of every row kept in memory
  (computed by the core here, to measure the memory and not the Python features' time), then the epoch.

    python benchmarks/bench_train_memory.py data/ukeire-5k data/ukeire-20k
    python benchmarks/bench_train_memory.py data/ukeire-5k --modes stream
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import numpy as np
from shangrao.data import Dataset
mode, path, buffer = sys.argv[1], sys.argv[2], int(sys.argv[3])
t0 = time.perf_counter()
c0 = time.process_time()
rows = 0
if mode == "stream":
    from shangrao.train import train_bc
    _, hist = train_bc(path, hidden=(256,), epochs=1, buffer_shards=buffer)
    rows = hist[-1]["rows"]
else:
    from shangrao.bots.policy import N_ACTIONS, PLANE_SCALE, MLPPolicy
    from shangrao.sim.features import action_features
    from shangrao.train import _Adam, _init, _params, bc_step
    d = Dataset(path).load(["planes", "mask", "action", "policy", "hand_points"])
    keep = d["action"] >= 0
    planes, mask, action = d["planes"][keep], d["mask"][keep], d["action"][keep].astype(np.int64)
    planes[:, 19, 33] = 1
    x = planes.reshape(len(planes), -1).astype(np.float32) / PLANE_SCALE
    f = action_features(planes, mask, 2)
    rng = np.random.default_rng(0)
    pol = MLPPolicy(_init([680, 256, N_ACTIONS], rng), "mlp-features", {}, _init([7, 16, 1], rng), 2)
    opt = _Adam(_params(pol), 1e-3)
    perm = rng.permutation(len(x))
    for b in range(0, len(x), 512):
        s = perm[b : b + 512]
        bc_step(pol, opt, x[s], f[s], mask[s], action[s])
    rows = len(x)
ds = Dataset(path)
print(json.dumps({"mode": mode, "dataset": path, "hands": ds.meta["hands"], "rows": int(rows),
                  "shards": len(ds.shards), "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                  "wall_s": round(time.perf_counter() - t0, 1), "cpu_s": round(time.process_time() - c0, 1)}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--modes", default="stream,memory")
    ap.add_argument("--buffer-shards", type=int, default=4)
    args = ap.parse_args()
    print("| dataset | hands | rows | shards | mode | peak RSS (MB) | epoch wall s | CPU s |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for path in args.datasets:
        for mode in args.modes.split(","):
            out = (
                subprocess.run(
                    [sys.executable, "-c", CHILD, mode, path, str(args.buffer_shards)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            r = json.loads(out)
            print(
                f"| `{path}` | {r['hands']:,} | {r['rows']:,} | {r['shards']} | {mode} | {r['peak_rss_mb']:,.0f} | "
                f"{r['wall_s']} | {r['cpu_s']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
