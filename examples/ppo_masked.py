#!/usr/bin/env python3
"""Masked PPO from the behaviour-cloning policy, in one file (CleanRL style), on CPU.

The learner plays one seat of ``Shangrao-v1`` (Gymnasium) against three bots; the policy is the
``.npz`` MLP of :mod:`shangrao.bots.policy` (started from a BC checkpoint with ``--init``), so every
checkpoint this writes plays as ``policy:PATH`` in ``arena``, ``simulate``, ``play --bot`` and the web
without PyTorch.  Rewards: the hand's points (one hand per episode); the advantage is the episode
return minus the batch mean, divided by its standard deviation (no value head: the BC start is
already a good policy and the episodes are short).  Masked softmax: illegal actions get −inf.

Backends: ``--backend torch`` (PyTorch, ``pip install 'shangrao[train]'``) or ``numpy`` (the same
update written out in NumPy, :func:`shangrao.train.ppo_step`); ``auto`` takes torch if importable.

One command (budget: about 4 CPU-minutes for 20 updates of 16 episodes against 3 × ukeire):

    python examples/ppo_masked.py --init learned.npz --opponents ukeire --updates 20 --every 5 --out runs/ppo
    shangrao arena --bots policy:runs/ppo/ppo-0020.npz,greedy --deals 50 --workers 2

Learning curve of the checkpoints (points/hand against 3 × ukeire in the arena):

    python examples/learning_curve.py runs/ppo --deals 100 --png docs/rl-learning-curve.png
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import shangrao.env  # noqa: F401  (registers Shangrao-v1)
from shangrao.bots.features import action_features
from shangrao.bots.policy import PLANE_SCALE, MLPPolicy, load_policy
from shangrao.train import _Adam, _params, ppo_step


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--init", default=None, help="start from this .npz policy (the BC checkpoint); default: shipped learned"
    )
    ap.add_argument("--opponents", default="ukeire", help="the three other seats' bot spec")
    ap.add_argument("--updates", type=int, default=20)
    ap.add_argument("--episodes", type=int, default=16, help="episodes (hands) per update")
    ap.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--every", type=int, default=5, help="save a checkpoint every N updates")
    ap.add_argument("--out", default="runs/ppo", help="checkpoint directory")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", choices=["auto", "torch", "numpy"], default="auto")
    return ap.parse_args()


def inputs(planes: np.ndarray, mask: np.ndarray, policy: MLPPolicy):
    x = planes.reshape(len(planes), -1).astype(np.float32) / PLANE_SCALE
    f = action_features(planes, mask, policy.feature_version) if policy.arch == "mlp-features" else None
    return x, f


def masked_logp(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask.astype(bool), logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def rollout(env, policy: MLPPolicy, episodes: int, rng: np.random.Generator, seed: int):
    """``episodes`` hands with the current policy (sampling); returns the batch and the returns."""
    xs, fs, masks, acts, logps, ep_of, returns = [], [], [], [], [], [], []
    for e in range(episodes):
        obs, _ = env.reset(seed=seed + e)
        done = False
        total = 0.0
        while not done:
            planes, mask = obs["observation"][None], obs["action_mask"][None]
            x, f = inputs(planes, mask, policy)
            logp = masked_logp(policy.logits_from_features(x, f), mask)[0]
            p = np.exp(logp)
            a = int(rng.choice(len(p), p=p / p.sum()))
            xs.append(x[0])
            fs.append(None if f is None else f[0])
            masks.append(mask[0])
            acts.append(a)
            logps.append(logp[a])
            ep_of.append(e)
            obs, reward, term, trunc, _ = env.step(a)
            total += reward
            done = term or trunc
        returns.append(total)
    f_arr = None if fs[0] is None else np.stack(fs)
    return (
        np.stack(xs),
        f_arr,
        np.stack(masks),
        np.asarray(acts),
        np.asarray(logps),
        np.asarray(ep_of),
        np.asarray(returns, dtype=np.float64),
    )


def numpy_update(policy, opt, batch, adv, args, rng):
    x, f, mask, act, old_logp = batch
    stats = {}
    for _ in range(args.epochs):
        perm = rng.permutation(len(x))
        for b in range(0, len(x), args.minibatch):
            sel = perm[b : b + args.minibatch]
            stats = ppo_step(
                policy,
                opt,
                x[sel],
                None if f is None else f[sel],
                mask[sel],
                act[sel],
                adv[sel],
                old_logp[sel],
                clip=args.clip,
                entropy_coef=args.entropy,
            )
    return stats


class TorchLearner:
    """The same MLP in torch (weights copied from / back to the NumPy policy)."""

    def __init__(self, policy: MLPPolicy, lr: float) -> None:
        import torch

        self.torch = torch
        self.policy = policy
        self.params = [torch.nn.Parameter(torch.tensor(p)) for p in _params(policy)]
        self.opt = torch.optim.Adam(self.params, lr=lr)

    def logits(self, x, f):
        t = self.torch
        n_layers = len(self.policy.layers)
        h = t.as_tensor(x)
        for i in range(n_layers):
            W, b = self.params[2 * i], self.params[2 * i + 1]
            h = h @ W + b
            if i < n_layers - 1:
                h = t.relu(h)
        if f is not None and self.policy.feature_net:
            g = t.as_tensor(f)
            rest = self.params[2 * n_layers :]
            for j in range(0, len(rest), 2):
                g = g @ rest[j] + rest[j + 1]
                if j < len(rest) - 2:
                    g = t.relu(g)
            h = h + g[..., 0]
        return h

    def update(self, batch, adv, args, rng):
        t = self.torch
        x, f, mask, act, old_logp = batch
        stats = {}
        for _ in range(args.epochs):
            perm = rng.permutation(len(x))
            for b in range(0, len(x), args.minibatch):
                sel = perm[b : b + args.minibatch]
                logits = self.logits(x[sel], None if f is None else f[sel])
                logits = logits.masked_fill(~t.as_tensor(mask[sel].astype(bool)), -1e9)
                logp_all = t.log_softmax(logits, dim=1)
                a = t.as_tensor(act[sel])
                logp = logp_all.gather(1, a[:, None])[:, 0]
                ratio = t.exp(logp - t.as_tensor(old_logp[sel]))
                A = t.as_tensor(adv[sel])
                loss_pg = -t.min(ratio * A, t.clamp(ratio, 1 - args.clip, 1 + args.clip) * A).mean()
                p = t.softmax(logits, dim=1)
                ent = -(p * t.where(p > 0, logp_all, t.zeros_like(logp_all))).sum(1).mean()
                loss = loss_pg - args.entropy * ent
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                stats = {"loss": float(loss_pg), "entropy": float(ent)}
        with t.no_grad():  # back into the NumPy policy (what is saved and played)
            for dst, src in zip(_params(self.policy), self.params):
                dst[...] = src.detach().numpy()
        return stats


def main() -> None:
    args = parse()
    rng = np.random.default_rng(args.seed)
    if args.init is None:
        from shangrao.bots.learned import WEIGHTS

        args.init = str(WEIGHTS)
    base = load_policy(args.init)
    if not isinstance(base, MLPPolicy):
        raise SystemExit("--init must be a .npz policy (MLPPolicy)")
    policy = MLPPolicy(
        [(W.copy(), b.copy()) for W, b in base.layers],
        base.arch,
        dict(base.meta),
        [(U.copy(), d.copy()) for U, d in base.feature_net],
        base.feature_version,
    )
    backend = args.backend
    if backend == "auto":
        try:
            import torch  # noqa: F401

            backend = "torch"
        except ImportError:
            backend = "numpy"
    learner = TorchLearner(policy, args.lr) if backend == "torch" else None
    opt = _Adam(_params(policy), args.lr) if learner is None else None
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = gym.make("Shangrao-v1", opponents=args.opponents, hands=1).unwrapped
    policy.save(out / "ppo-0000.npz")
    t0 = time.perf_counter()
    for u in range(1, args.updates + 1):
        x, f, mask, act, old_logp, ep_of, returns = rollout(
            env, policy, args.episodes, rng, seed=args.seed * 1_000_003 + u * args.episodes
        )
        adv_ep = (returns - returns.mean()) / (returns.std() + 1e-8)
        adv = adv_ep[ep_of]
        batch = (x, f, mask, act, old_logp)
        stats = (
            learner.update(batch, adv, args, rng)
            if learner is not None
            else numpy_update(policy, opt, batch, adv, args, rng)
        )
        print(
            json.dumps(
                {
                    "update": u,
                    "backend": backend,
                    "steps": len(x),
                    "mean_return": round(float(returns.mean()), 3),
                    **{k: round(v, 4) for k, v in stats.items()},
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            ),
            flush=True,
        )
        if u % args.every == 0 or u == args.updates:
            policy.meta = {
                **base.meta,
                "ppo": {
                    "update": u,
                    "backend": backend,
                    "init": args.init,
                    "opponents": args.opponents,
                    "episodes_per_update": args.episodes,
                },
            }
            policy.save(out / f"ppo-{u:04d}.npz")


if __name__ == "__main__":
    main()
