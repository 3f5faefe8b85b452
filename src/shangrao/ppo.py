"""PPO on the batched environment (:class:`~shangrao.sim.vector.VectorEnv`), in NumPy, resumable.

``train_ppo(config, out_dir)`` trains an actor-critic MLP — a shared ReLU trunk on the 20 × 34
observation planes, 110 masked logits and one value — by PPO's clipped surrogate with generalised
advantage estimation (GAE), an entropy bonus on a linear schedule and, optionally, a KL penalty
towards a fixed anchor policy (the behaviour-cloning start: mahjax's recipe, so RL does not wander
off the imitation it starts from).  No PyTorch: forward and backward passes are written out in
NumPy (float32), so the trainer runs wherever the package does.

Rollouts: each update ``u`` resets the environment with the seed ``f"{seed}:{u}"`` and plays
``steps`` learner decisions in each of ``num_envs`` games (the learner's seats are ``"learner"``,
the others the core's bots); a hand cut off at the end of a rollout is bootstrapped with the value
of its last observation.  Action sampling and mini-batch order draw from
``numpy.random.default_rng([seed, u])``.  So an update depends only on the parameters and the
optimizer's moments at its start, and **a run killed at any point and resumed from its last
checkpoint continues exactly as the uninterrupted run** (``tests/test_ppo.py``).

Checkpoints: every ``checkpoint_every`` updates, ``out_dir/ppo-UUUU.npz`` — the policy in the
``.npz`` format of :mod:`shangrao.bots.policy` (``policy:out_dir/ppo-UUUU.npz`` plays it in
``arena``, ``simulate``, ``play`` and the web) — and ``out_dir/state.npz`` (trunk, heads, Adam
moments, update count, the config), written to a temporary file and renamed, so a kill mid-write
leaves the previous state.  ``train_ppo`` resumes from ``state.npz`` when it is there and its config
matches (else it raises :class:`PPOConfigError`).

Threads: NumPy's BLAS threads make these small matrices 4–14× slower on a 2-core machine; they
can only be capped before NumPy loads: ``OMP_NUM_THREADS=1`` (``examples/ppo_vector.py`` sets it
first thing; :func:`train_ppo` logs a note when it is not set).

The command: ``python examples/ppo_vector.py`` (docs/rl.md, "PPO on the batched environment").
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .bots.policy import N_ACTIONS, PLANE_SCALE, MLPPolicy
from .errors import InputError

__all__ = ["ActorCritic", "PPOConfig", "PPOConfigError", "train_ppo", "update_stats"]

F32 = npt.NDArray[np.float32]
N_INPUT = 680  # 20 planes x 34 kinds


class PPOConfigError(InputError):
    """A bad PPO setting, or a checkpoint in ``out_dir`` written with another config."""


@dataclass(frozen=True)
class PPOConfig:
    """The settings of a run (all stored in its checkpoint; a resume must use the same ones).

    seats: 4 names, ``"learner"`` or a core bot (``random``, ``greedy``, ``ukeire``).  num_envs: games
    stepped together.  steps: learner decisions per game per update.  hidden: trunk widths.
    lr: Adam's step.  gamma, lam: discount and GAE λ (one hand is one episode; 1.0 and 0.95 suit it).
    clip: PPO's ratio clip.  epochs, minibatch: passes over a rollout and rows per step.
    ent_start → ent_end: the entropy bonus, linear over ``updates``.  vf_coef: the value loss's weight.
    kl_coef: the KL(π ‖ anchor) penalty's weight (0: none); anchor: a ``.npz`` policy (arch ``mlp``)
    whose trunk also starts the learner's (None: a fresh one, seeded).  reward_scale: points × this.
    updates: how many updates the run has in all.  checkpoint_every: updates between checkpoints.
    """

    seats: tuple[str, str, str, str] = ("learner", "ukeire", "ukeire", "ukeire")
    num_envs: int = 64
    steps: int = 32
    hidden: tuple[int, ...] = (256,)
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatch: int = 512
    ent_start: float = 0.01
    ent_end: float = 0.001
    vf_coef: float = 0.5
    kl_coef: float = 0.0
    anchor: str | None = None
    reward_scale: float = 0.1
    updates: int = 100
    checkpoint_every: int = 10
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """Raise :class:`PPOConfigError` naming the first bad setting."""
        ints = {
            "num_envs": self.num_envs,
            "steps": self.steps,
            "epochs": self.epochs,
            "minibatch": self.minibatch,
            "updates": self.updates,
            "checkpoint_every": self.checkpoint_every,
        }
        for name, v in ints.items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise PPOConfigError(f"{name}: a positive int, got {v!r}")
        if not self.hidden or any(isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in self.hidden):
            raise PPOConfigError(f"hidden: positive ints, got {self.hidden!r}")
        if len(self.seats) != 4 or "learner" not in self.seats:
            raise PPOConfigError(f"seats: 4 names with at least one 'learner', got {self.seats!r}")
        for name in ("lr", "clip", "vf_coef", "reward_scale"):
            if not float(getattr(self, name)) > 0:
                raise PPOConfigError(f"{name}: a positive number, got {getattr(self, name)!r}")
        for name in ("gamma", "lam"):
            if not 0.0 <= float(getattr(self, name)) <= 1.0:
                raise PPOConfigError(f"{name}: a number in 0..1, got {getattr(self, name)!r}")
        for name in ("ent_start", "ent_end", "kl_coef"):
            if not float(getattr(self, name)) >= 0:
                raise PPOConfigError(f"{name}: a number ≥ 0, got {getattr(self, name)!r}")
        if self.kl_coef > 0 and not self.anchor:
            raise PPOConfigError("kl_coef > 0 needs an anchor policy (anchor=PATH)")

    def key(self) -> str:
        """The settings that decide the run's result, as JSON (``updates`` left out: a run may be extended)."""
        d = asdict(self)
        d.pop("updates")
        d["seats"] = list(self.seats)
        d["hidden"] = list(self.hidden)
        return json.dumps(d, sort_keys=True)


# ----------------------------------------------------------------------------------- the network
class ActorCritic:
    """A ReLU trunk ``[680 → hidden…]`` with a policy head (110 logits) and a value head (1).

    ``trunk``: list of (W ``[in, out]``, b ``[out]``) float32; ``pi``: (W ``[h, 110]``, b);
    ``v``: (W ``[h, 1]``, b ``[1]``).  :meth:`policy` gives the :class:`MLPPolicy` that plays it.
    """

    def __init__(self, trunk: list[tuple[F32, F32]], pi: tuple[F32, F32], v: tuple[F32, F32]) -> None:
        self.trunk = trunk
        self.pi = pi
        self.v = v

    @classmethod
    def fresh(cls, hidden: Sequence[int], rng: np.random.Generator) -> ActorCritic:
        sizes = [N_INPUT, *hidden]
        trunk = [(_he(rng, a, b), np.zeros(b, np.float32)) for a, b in itertools.pairwise(sizes)]
        pi = ((_he(rng, sizes[-1], N_ACTIONS) * 0.01).astype(np.float32), np.zeros(N_ACTIONS, np.float32))
        v = ((_he(rng, sizes[-1], 1) * 0.1).astype(np.float32), np.zeros(1, np.float32))
        return cls(trunk, pi, v)

    @classmethod
    def from_policy(cls, policy: MLPPolicy, rng: np.random.Generator) -> ActorCritic:
        """The trunk and policy head of an ``mlp`` policy, a fresh value head."""
        if policy.arch != "mlp":
            raise PPOConfigError(f"the anchor policy must be of arch 'mlp' (planes only), got {policy.arch!r}")
        trunk = [(W.copy(), b.copy()) for W, b in policy.layers[:-1]]
        W, b = policy.layers[-1]
        h = W.shape[0]
        return cls(trunk, (W.copy(), b.copy()), ((_he(rng, h, 1) * 0.1).astype(np.float32), np.zeros(1, np.float32)))

    def params(self) -> list[F32]:
        out: list[F32] = []
        for W, b in self.trunk:
            out += [W, b]
        return [*out, *self.pi, *self.v]

    def forward(self, x: F32) -> tuple[F32, F32, list[F32]]:
        """(logits ``[B, 110]``, values ``[B]``, the trunk's activations) of inputs ``x`` ``[B, 680]``."""
        acts = [x]
        h = x
        for W, b in self.trunk:
            h = np.maximum(h @ W + b, np.float32(0))
            acts.append(h)
        logits = h @ self.pi[0] + self.pi[1]
        values = (h @ self.v[0] + self.v[1])[:, 0]
        return logits, values, acts

    def backward(self, acts: list[F32], dlogits: F32, dvalues: F32) -> list[F32]:
        """Gradients in the order of :meth:`params` from those of the logits and the values."""
        h = acts[-1]
        grads_head = [h.T @ dlogits, dlogits.sum(0), h.T @ dvalues[:, None], dvalues.sum(0, keepdims=True)]
        dh = dlogits @ self.pi[0].T + dvalues[:, None] @ self.v[0].T
        grads_trunk: list[F32] = []
        for i in range(len(self.trunk) - 1, -1, -1):
            dh = dh * (acts[i + 1] > 0)
            W, _ = self.trunk[i]
            grads_trunk = [acts[i].T @ dh, dh.sum(0), *grads_trunk]
            if i:
                dh = dh @ W.T
        return [g.astype(np.float32) for g in (*grads_trunk, *grads_head)]

    def policy(self, meta: dict[str, Any] | None = None) -> MLPPolicy:
        return MLPPolicy([*self.trunk, self.pi], arch="mlp", meta=meta or {})


def _he(rng: np.random.Generator, a: int, b: int) -> F32:
    out: F32 = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
    return out


class _Adam:
    def __init__(self, params: list[F32], lr: float) -> None:
        self.lr = lr
        self.t = 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, params: list[F32], grads: list[F32]) -> None:
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + eps)).astype(np.float32)


def _log_softmax(logits: F32, mask: npt.NDArray[np.bool_]) -> F32:
    z = np.where(mask, logits, np.float32(-1e9))
    z = z - z.max(axis=1, keepdims=True)
    out: F32 = (z - np.log(np.exp(z).sum(axis=1, keepdims=True))).astype(np.float32)
    return out


# ----------------------------------------------------------------------------------- rollouts
@dataclass
class Rollout:
    """One update's learner decisions, flattened: ``x`` ``[T, 680]``, ``mask`` ``[T, 110]``, ``action``,
    ``logp`` (of the action when taken), ``value``, ``adv`` (GAE), ``ret`` (adv + value) ``[T]``;
    ``hands`` whole hands finished, ``points`` the learner seats' points in them (sum)."""

    x: F32
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]
    logp: F32
    value: F32
    adv: F32
    ret: F32
    hands: int
    points: float


def _rollout(env: Any, net: ActorCritic, cfg: PPOConfig, u: int, rng: np.random.Generator) -> Rollout:
    n, steps = cfg.num_envs, cfg.steps
    batch = env.reset(seed=f"{cfg.seed}:{u}")
    xs = np.zeros((steps, n, N_INPUT), np.float32)
    masks = np.zeros((steps, n, N_ACTIONS), np.bool_)
    acts = np.zeros((steps, n), np.int64)
    logps = np.zeros((steps, n), np.float32)
    vals = np.zeros((steps, n), np.float32)
    seats = np.zeros((steps, n), np.int32)
    rew = np.zeros((steps, n), np.float32)  # credited to the transition (per seat: its last one)
    done = np.zeros((steps, n), np.bool_)
    last = np.full((n, 4), -1, np.int64)  # each seat's last transition index in the current hand
    learners = [s for s, name in enumerate(cfg.seats) if name == "learner"]
    hands, points = 0, 0.0
    for t in range(steps):
        x = batch.observation.reshape(n, -1).astype(np.float32) / np.float32(PLANE_SCALE)
        mask = batch.legal_action_mask
        logits, values, _ = net.forward(x)
        lp = _log_softmax(logits, mask)
        p = np.exp(lp)
        p /= p.sum(1, keepdims=True)
        u01 = rng.random(n)
        a = (p.cumsum(1) < u01[:, None]).sum(1).clip(0, N_ACTIONS - 1)
        a = np.where(mask[np.arange(n), a], a, mask.argmax(1))
        xs[t], masks[t], acts[t], vals[t] = x, mask, a, values
        logps[t] = lp[np.arange(n), a]
        cur = batch.current_player.astype(np.int64)
        seats[t] = cur
        last[np.arange(n), cur] = t
        batch = env.step(a)
        for i in np.flatnonzero(batch.terminated).tolist():
            hands += 1
            for s in learners:
                j = last[i, s]
                if j >= 0:
                    rew[j, i] += batch.rewards[i, s] * np.float32(cfg.reward_scale)
                    done[j, i] = True
                    points += float(batch.rewards[i, s])
            last[i] = -1
    # bootstrap each seat's unfinished hand with the value of the game's next observation of that seat:
    # approximated by the value of the last observation (the seat's own value at the cut)
    x_end = batch.observation.reshape(n, -1).astype(np.float32) / np.float32(PLANE_SCALE)
    _, v_end, _ = net.forward(x_end)
    adv = np.zeros((steps, n), np.float32)
    for i in range(n):
        for s in learners:
            idx = np.flatnonzero(seats[:, i] == s)
            gae = 0.0
            nxt_v = (
                float(v_end[i])
                if (idx.size and not done[idx[-1], i] and int(batch.current_player[i]) == s)
                else float(vals[idx[-1], i])
                if idx.size
                else 0.0
            )
            for k in range(idx.size - 1, -1, -1):
                j = idx[k]
                if done[j, i]:
                    nv, gae = 0.0, 0.0
                elif k == idx.size - 1:
                    nv = nxt_v
                else:
                    nv = float(vals[idx[k + 1], i])
                delta = float(rew[j, i]) + cfg.gamma * nv - float(vals[j, i])
                gae = delta + cfg.gamma * cfg.lam * gae
                adv[j, i] = gae
    ret = adv + vals
    flat = steps * n
    return Rollout(
        xs.reshape(flat, -1),
        masks.reshape(flat, -1),
        acts.reshape(flat),
        logps.reshape(flat),
        vals.reshape(flat),
        adv.reshape(flat),
        ret.reshape(flat),
        hands,
        points,
    )


def update_stats(
    net: ActorCritic,
    opt: _Adam,
    ro: Rollout,
    cfg: PPOConfig,
    u: int,
    rng: np.random.Generator,
    anchor: MLPPolicy | None = None,
) -> dict[str, float]:
    """PPO's epochs over one rollout (in place on ``net``/``opt``); the mean losses and the entropy."""
    frac = u / max(1, cfg.updates - 1)
    ent_coef = cfg.ent_start + (cfg.ent_end - cfg.ent_start) * min(1.0, frac)
    T = ro.x.shape[0]
    adv_all = (ro.adv - ro.adv.mean()) / (ro.adv.std() + 1e-8)
    anchor_lp = None
    if anchor is not None and cfg.kl_coef > 0:
        anchor_lp = _log_softmax(anchor.logits_from_features(ro.x), ro.mask)
    sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "kl_anchor": 0.0, "clip_frac": 0.0}
    nb = 0
    params = net.params()
    for _ in range(cfg.epochs):
        order = rng.permutation(T)
        for s in range(0, T, cfg.minibatch):
            idx = order[s : s + cfg.minibatch]
            B = idx.size
            logits, values, acts = net.forward(ro.x[idx])
            mask = ro.mask[idx]
            lp = _log_softmax(logits, mask)
            p = np.exp(lp) * mask
            a = ro.action[idx]
            lpa = lp[np.arange(B), a]
            ratio = np.exp(lpa - ro.logp[idx])
            A = adv_all[idx]
            unclipped = ratio * A
            clipped = np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * A
            active = unclipped <= clipped  # the min is the unclipped term: its gradient flows
            pl = -np.minimum(unclipped, clipped).mean()
            dlpa = np.where(active, -ratio * A, 0.0).astype(np.float32) / B
            dlogits = -p * dlpa[:, None]
            dlogits[np.arange(B), a] += dlpa
            plogp = np.where(mask, p * lp, 0.0)
            H = -plogp.sum(1)
            # entropy bonus: loss -= ent_coef * H; dH/dz = -p (log p + H)
            dlogits += (ent_coef / B) * np.where(mask, p * (lp + H[:, None]), 0.0)
            kl = 0.0
            if anchor_lp is not None:
                alp = anchor_lp[idx]
                klv = np.where(mask, p * (lp - alp), 0.0).sum(1)
                kl = float(klv.mean())
                dlogits += (cfg.kl_coef / B) * np.where(mask, p * ((lp - alp) - klv[:, None]), 0.0)
            dv = (cfg.vf_coef * (values - ro.ret[idx]) / B).astype(np.float32)
            grads = net.backward(acts, dlogits.astype(np.float32), dv)
            opt.step(params, grads)
            sums["policy_loss"] += float(pl)
            sums["value_loss"] += float(0.5 * ((values - ro.ret[idx]) ** 2).mean())
            sums["entropy"] += float(H.mean())
            sums["kl_anchor"] += kl
            sums["clip_frac"] += float((~active).mean())
            nb += 1
    return {k: v / max(1, nb) for k, v in sums.items()}


# ----------------------------------------------------------------------------------- checkpoints
def _save_state(
    path: Path, net: ActorCritic, opt: _Adam, u: int, cfg: PPOConfig, history: list[dict[str, Any]]
) -> None:
    arrays: dict[str, Any] = {
        "format": np.array("shangrao-ppo-state"),
        "version": np.array(1),
        "config": np.array(cfg.key()),
        "update": np.array(u),
        "adam_t": np.array(opt.t),
        "history": np.array(json.dumps(history)),
    }
    for i, p in enumerate(net.params()):
        arrays[f"p{i}"] = p
    for i, (m, v) in enumerate(zip(opt.m, opt.v, strict=True)):
        arrays[f"m{i}"] = m
        arrays[f"v{i}"] = v
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _load_state(path: Path, net: ActorCritic, opt: _Adam, cfg: PPOConfig) -> tuple[int, list[dict[str, Any]]]:
    with np.load(path, allow_pickle=False) as z:
        if str(z["format"]) != "shangrao-ppo-state":
            raise PPOConfigError(f"{path}: not a PPO state file")
        if str(z["config"]) != cfg.key():
            raise PPOConfigError(
                f"{path}: written by a run with other settings; use another out_dir (stored: {z['config']!s})"
            )
        params = net.params()
        for i, p in enumerate(params):
            p[...] = z[f"p{i}"]
        for i in range(len(params)):
            opt.m[i][...] = z[f"m{i}"]
            opt.v[i][...] = z[f"v{i}"]
        opt.t = int(z["adam_t"])
        return int(z["update"]), list(json.loads(str(z["history"])))


def _threads_note() -> str | None:
    """A warning when NumPy's BLAS may run many threads (they must be capped before NumPy loads)."""
    if os.environ.get("OMP_NUM_THREADS") or os.environ.get("OPENBLAS_NUM_THREADS"):
        return None
    return (
        "note: OMP_NUM_THREADS is not set: NumPy's BLAS threads make these small matrices 4-14x slower "
        "on a small machine; run with OMP_NUM_THREADS=1 (examples/ppo_vector.py sets it)"
    )


def train_ppo(
    cfg: PPOConfig, out_dir: str | Path, stop_after: int | None = None, log: Callable[[str], None] | None = print
) -> list[dict[str, Any]]:
    """Run (or resume) PPO until ``cfg.updates`` updates are done; returns the per-update history.

    out_dir: where checkpoints go (made if missing).  stop_after: stop after this many updates in
    *this* call (a test's "kill"; None: run to the end).  log: called with one line per update.
    Each history entry: update, hands, learner points a hand, losses, entropy, seconds.
    Raises :class:`PPOConfigError` for a bad config or a state file of another run.
    """
    cfg.check()
    note = _threads_note()
    if note and log:
        log(note)
    from .sim.vector import VectorEnv  # the compiled core: imported only to train

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    init_rng = np.random.default_rng([cfg.seed, 1 << 20])
    anchor = MLPPolicy.load(cfg.anchor) if cfg.anchor else None
    net = ActorCritic.from_policy(anchor, init_rng) if anchor is not None else ActorCritic.fresh(cfg.hidden, init_rng)
    opt = _Adam(net.params(), cfg.lr)
    state = out / "state.npz"
    u0, history = 0, list[dict[str, Any]]()
    if state.exists():
        u0, history = _load_state(state, net, opt, cfg)
        if log:
            log(f"resumed from {state} at update {u0}")
    env = VectorEnv(num_envs=cfg.num_envs, seats=cfg.seats, reward="points")
    last = cfg.updates if stop_after is None else min(cfg.updates, u0 + stop_after)
    for u in range(u0, last):
        t0 = time.process_time()
        rng = np.random.default_rng([cfg.seed, u])
        ro = _rollout(env, net, cfg, u, rng)
        t1 = time.process_time()
        stats = update_stats(net, opt, ro, cfg, u, rng, anchor)
        t2 = time.process_time()
        entry = {
            "update": u + 1,
            "hands": ro.hands,
            "decisions": int(ro.x.shape[0]),
            "points_per_hand": round(ro.points / max(1, ro.hands), 4),
            **{k: round(v, 5) for k, v in stats.items()},
            "rollout_cpu_s": round(t1 - t0, 3),
            "update_cpu_s": round(t2 - t1, 3),
        }
        history.append(entry)
        if log:
            log(json.dumps(entry))
        if (u + 1) % cfg.checkpoint_every == 0 or u + 1 == cfg.updates:
            net.policy({"trainer": "shangrao.ppo", "update": u + 1, "config": json.loads(cfg.key())}).save(
                out / f"ppo-{u + 1:04d}.npz"
            )
            _save_state(state, net, opt, u + 1, cfg, history)
    return history
