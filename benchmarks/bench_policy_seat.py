"""A frozen policy's seats in the batched environment: decisions per second with its per-action
features computed in the core (``policy:PATH`` seats, :mod:`shangrao.sim.features`) against the same
policy with its features computed in Python (the path before issue 36), and a learner seat handed its
features with each batch (``VectorEnv(features=...)``).

    OMP_NUM_THREADS=1 python benchmarks/bench_policy_seat.py [--envs 256] [--steps 40] [--policy PATH]

The default policy is the shipped ``learned`` checkpoint (``mlp-features``, feature version 1).  One
process, one core (set ``OMP_NUM_THREADS=1`` before NumPy loads); wall-clock seconds after a warm-up.
docs/performance.md records a run.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from shangrao.bots.features import action_features
from shangrao.bots.learned import WEIGHTS
from shangrao.bots.policy import load_policy
from shangrao.sim.features import action_features as core_features
from shangrao.sim.vector import VectorEnv


def _run(env: VectorEnv, steps: int, seed: int) -> tuple[float, float, int, int]:
    """(wall s, CPU s, policy decisions, learner steps) of ``steps`` steps of random legal learner actions."""
    rng = np.random.default_rng(seed)
    b = env.reset(seed=seed)
    d0 = env.opponent_decisions
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(steps):
        b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
    return time.perf_counter() - t0, time.process_time() - c0, env.opponent_decisions - d0, steps * env.num_envs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--python-steps", type=int, default=4, help="steps of the slow Python-features run")
    ap.add_argument("--policy", default=str(WEIGHTS))
    a = ap.parse_args()
    policy = load_policy(a.policy)

    def python_features(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(policy(planes, mask))  # MLPPolicy.__call__: features in Python, one decision at a time

    spec = f"policy:{a.policy}"
    _run(VectorEnv(8, ("learner", spec, spec, spec)), 2, 0)  # warm-up (compiles on a first use)
    _run(VectorEnv(8, ("learner", python_features, python_features, python_features)), 1, 0)
    print(f"policy {a.policy}, batch {a.envs}, 1 learner seat (random legal actions) + 3 policy seats")
    for label, seat, steps in (
        ("features in the core (policy:PATH)", spec, a.steps),
        ("features in Python (before)", python_features, a.python_steps),
    ):
        secs, cpu, opp, learner = _run(VectorEnv(a.envs, ("learner", seat, seat, seat)), steps, 1)
        print(
            f"  {label:38s} {opp / secs:10,.0f} policy decisions/s wall, {opp / cpu:10,.0f} per CPU-s "
            f"({1e3 * cpu / opp:.3f} CPU-ms each; {opp:,} decisions; {learner / cpu:,.0f} learner steps per CPU-s)"
        )
    env = VectorEnv(a.envs, ("learner", "ukeire", "ukeire", "ukeire"), features=2)
    b = env.reset(seed=2)
    rng = np.random.default_rng(2)
    c0 = time.process_time()
    n = 0
    while time.process_time() - c0 < 3:
        b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
        n += 1
    cpu = time.process_time() - c0
    print(
        f"  learner seat, features=2 handed out with each batch (3 x ukeire): {n * a.envs / cpu:,.0f} learner steps per CPU-s"
    )
    p, m = b.observation, b.legal_action_mask
    c0 = time.process_time()
    for _ in range(5):
        core_features(p, m, 2)
    tc = (time.process_time() - c0) / 5
    c0 = time.process_time()
    action_features(p[:64], m[:64].astype(np.int8), 2)
    tp = (time.process_time() - c0) * len(p) / 64
    c0 = time.process_time()
    action_features(p[:64], m[:64].astype(np.int8), 1)
    tp1 = (time.process_time() - c0) * len(p) / 64
    print(
        f"  per-action features of one batch of {len(p)}: core v2 {1e6 * tc / len(p):.1f} CPU-us/decision, "
        f"Python v2 {1e3 * tp / len(p):.2f}, v1 {1e3 * tp1 / len(p):.2f} CPU-ms/decision"
    )


if __name__ == "__main__":
    main()
