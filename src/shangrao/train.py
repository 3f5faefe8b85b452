"""Behaviour cloning in NumPy: fit an :class:`~shangrao.bots.policy.MLPPolicy` to a decision dataset.

``train_bc(dataset, hidden=(256,), arch="mlp-features", epochs=8, ...) -> (MLPPolicy, history)``:
masked softmax cross-entropy on the actions taken (rows of ``policies`` only, if given), Adam,
mini-batches streamed shard by shard and shuffled within a buffer of shards
(:func:`shangrao.data.stream.training_batches`: memory bounded, not growing with the dataset).  No
PyTorch needed; with the ``mlp-features`` architecture the per-action features
(:mod:`shangrao.bots.features`) of each batch are computed by the compiled core when it is cut.

``examples/train_bc.py`` is the one-command baseline (docs/rl.md); the shipped ``learned`` bot
was trained with it.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .bots.policy import N_ACTIONS, PLANE_SCALE, MLPPolicy

__all__ = ["bc_step", "masked_log_softmax", "ppo_step", "train_bc"]


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    out: np.ndarray = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


class _Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def _init(sizes: Sequence[int], rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        ((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32), np.zeros(b, dtype=np.float32))
        for a, b in itertools.pairwise(sizes)
    ]


def _forward(
    policy: MLPPolicy, x: np.ndarray, f: np.ndarray | None
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    acts = [x]
    h = x
    for W, b in policy.layers[:-1]:
        h = np.maximum(h @ W + b, 0.0)
        acts.append(h)
    W, b = policy.layers[-1]
    logits = h @ W + b
    fh: list[np.ndarray] = []
    if f is not None and policy.feature_net:
        g = f
        fh.append(g)
        for U, d in policy.feature_net[:-1]:
            g = np.maximum(g @ U + d, 0.0)
            fh.append(g)
        U, d = policy.feature_net[-1]
        logits = logits + (g @ U + d)[..., 0]
    return logits, acts, fh


def _backward(policy: MLPPolicy, acts: list[np.ndarray], fh: list[np.ndarray], dz: np.ndarray) -> list[np.ndarray]:
    """Gradients of every parameter (the order of :func:`_params`) from the gradient of the logits."""
    grads: list[np.ndarray] = []
    g_layers: list[tuple[np.ndarray, np.ndarray]] = []
    dh = dz
    for i in range(len(policy.layers) - 1, -1, -1):
        W, _ = policy.layers[i]
        g_layers.append((acts[i].T @ dh, dh.sum(axis=0)))
        if i:
            dh = (dh @ W.T) * (acts[i] > 0)
    g_layers.reverse()
    for gW, gb in g_layers:
        grads += [gW, gb]
    if fh:
        dg = dz[..., None]  # (n, 110, 1)
        g_feat: list[tuple[np.ndarray, np.ndarray]] = []
        for i in range(len(policy.feature_net) - 1, -1, -1):
            U, _ = policy.feature_net[i]
            g_feat.append((np.einsum("nak,nah->kh", fh[i], dg), dg.sum(axis=(0, 1))))
            if i:
                dg = (dg @ U.T) * (fh[i] > 0)
        g_feat.reverse()
        for gU, gd in g_feat:
            grads += [gU, gd]
    return grads


def bc_step(
    policy: MLPPolicy,
    opt: _Adam | None,
    x: np.ndarray,
    f: np.ndarray | None,
    mask: np.ndarray,
    action: np.ndarray,
    lr: float = 1e-3,
) -> tuple[float, float]:
    """One gradient step of masked cross-entropy; returns (loss, accuracy) before the step."""
    mask = mask.astype(bool)
    logits, acts, fh = _forward(policy, x, f)
    logp = masked_log_softmax(logits, mask)
    n = len(x)
    rows = np.arange(n)
    loss = float(-logp[rows, action].mean())
    acc = float((logp.argmax(axis=1) == action).mean())
    dz = np.exp(logp) * mask
    dz[rows, action] -= 1.0
    dz /= n
    if opt is not None:
        opt.step(_backward(policy, acts, fh, dz))
    return loss, acc


def ppo_step(
    policy: MLPPolicy,
    opt: _Adam,
    x: np.ndarray,
    f: np.ndarray | None,
    mask: np.ndarray,
    action: np.ndarray,
    advantage: np.ndarray,
    old_logp: np.ndarray,
    clip: float = 0.2,
    entropy_coef: float = 0.01,
) -> dict[str, float]:
    """One step of PPO's clipped surrogate (no value head: the advantages come from the caller).

    loss = -mean(min(r A, clip(r, 1-c, 1+c) A)) - entropy_coef * entropy, r = exp(logp - old_logp).
    """
    mask = mask.astype(bool)
    logits, acts, fh = _forward(policy, x, f)
    logp_all = masked_log_softmax(logits, mask)
    p = np.exp(logp_all) * mask
    n = len(x)
    rows = np.arange(n)
    logp = logp_all[rows, action]
    ratio = np.exp(logp - old_logp)
    unclipped = ratio * advantage
    clipped = np.clip(ratio, 1 - clip, 1 + clip) * advantage
    use = unclipped <= clipped  # min() picks the unclipped term: its gradient flows
    dlogp = np.where(use, -ratio * advantage, 0.0) / n  # d loss / d logp(a)
    onehot = np.zeros_like(p)
    onehot[rows, action] = 1.0
    dz = dlogp[:, None] * (onehot - p)
    # entropy bonus: H = -sum p log p; dH/dz_j = -p_j (log p_j + H)
    plogp = np.where(mask, p * logp_all, 0.0)
    ent = -plogp.sum(axis=1)
    dH = -p * (np.where(mask, logp_all, 0.0) + ent[:, None])
    dz -= entropy_coef * dH / n
    opt.step(_backward(policy, acts, fh, dz))
    return {
        "loss": float(-np.minimum(unclipped, clipped).mean()),
        "entropy": float(ent.mean()),
        "clip_fraction": float((np.abs(ratio - 1) > clip).mean()),
    }


def _params(policy: MLPPolicy) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for W, b in policy.layers:
        out += [W, b]
    for U, d in policy.feature_net:
        out += [U, d]
    return out


def train_bc(
    dataset: Any,
    hidden: Sequence[int] = (256,),
    arch: str = "mlp-features",
    epochs: int = 8,
    batch_size: int = 512,
    lr: float = 1e-3,
    seed: int = 0,
    policies: Sequence[str] | None = None,
    feature_hidden: int = 16,
    feature_version: int = 2,
    min_hand_points: int | None = None,
    bots_view: bool = True,
    on_epoch: Callable[[int, dict[str, Any]], None] | None = None,
    checkpoint: Callable[[int, MLPPolicy], None] | None = None,
    buffer_shards: int = 4,
) -> tuple[MLPPolicy, list[dict[str, Any]]]:
    """Fit a policy to ``dataset`` (a :class:`shangrao.data.Dataset` or its directory, or a list of them).

    policies: keep only rows whose acting policy is one of these specs.  min_hand_points: keep only
    rows of hands the acting seat ended with at least these points (outcome filtering).
    checkpoint(epoch, policy): called after every epoch (to save checkpoints every N epochs).
    bots_view: train on the planes as :class:`~shangrao.bots.policy.PolicyBot` builds them, whose
    ``hands_left`` is always 1 (a bot's observation does not say how many hands the match has left);
    False keeps the dataset's values (for a policy played in a multi-hand env).
    feature_version: ``mlp-features`` only, the per-action features' version (:mod:`shangrao.bots.features`:
    2, the latest, has the win on offer and what declining it keeps; 1 is the shipped ``learned`` bot's).
    buffer_shards: the rows are streamed (:func:`shangrao.data.stream.training_batches`): the shards of
    every dataset in a random order, this many at a time in memory and shuffled together, so memory
    stays bounded whatever the datasets' size; the ``mlp-features`` features are computed per batch
    by the compiled core.
    Returns the policy and one ``{"epoch", "loss", "accuracy", "seconds", "rows"}`` per epoch.
    """
    from .data import Dataset
    from .data.stream import training_batches

    sets = list(dataset) if isinstance(dataset, (list, tuple)) else [dataset]
    dss = [d if isinstance(d, Dataset) else Dataset(d) for d in sets]
    rng = np.random.default_rng(seed)
    feature_net: list[tuple[np.ndarray, np.ndarray]] = []
    fv: int | None = None
    if arch == "mlp-features":
        from .bots.features import n_features

        fv = feature_version
        feature_net = _init([n_features(feature_version), feature_hidden, 1], rng)
    policy = MLPPolicy(_init([20 * 34, *hidden, N_ACTIONS], rng), arch, {}, feature_net, feature_version)
    opt = _Adam(_params(policy), lr)
    history = []
    n = 0
    for ep in range(epochs):
        t0 = time.perf_counter()
        tot_loss = tot_acc = 0.0
        n = 0
        for batch in training_batches(dss, batch_size, rng, buffer_shards, policies, min_hand_points, bots_view, fv):
            planes = batch["planes"]
            x = planes.reshape(len(planes), -1).astype(np.float32) / PLANE_SCALE
            loss, acc = bc_step(policy, opt, x, batch.get("features"), batch["mask"], batch["action"])
            k = len(planes)
            tot_loss += loss * k
            tot_acc += acc * k
            n += k
        rec = {
            "epoch": ep + 1,
            "loss": round(tot_loss / max(n, 1), 4),
            "accuracy": round(tot_acc / max(n, 1), 4),
            "seconds": round(time.perf_counter() - t0, 2),
            "rows": n,
        }
        history.append(rec)
        if on_epoch is not None:
            on_epoch(ep + 1, rec)
        if checkpoint is not None:
            checkpoint(ep + 1, policy)
    all_policies = sorted({p for ds in dss for p in ds.policies})
    policy.meta = {
        "trained": "behaviour cloning (shangrao.train.train_bc)",
        "dataset": [str(ds.path) for ds in dss],
        "policies": list(policies) if policies else all_policies,
        "rows": n,
        "epochs": epochs,
        "hidden": list(hidden),
        "lr": lr,
        "batch_size": batch_size,
        "seed": seed,
        "history": history,
    }
    return policy, history
