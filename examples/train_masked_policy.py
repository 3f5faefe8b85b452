"""Train a masked policy on Shangrao-v1 with plain PyTorch REINFORCE (a smoke test of the RL path).

The learner plays one seat (drawn per hand) against three ``random`` bots; one
episode is one hand and its reward is the learner's points of the hand's
settlement.  The policy is a small MLP over the 20x34 observation planes whose
logits of illegal actions are masked out (set to -inf), so it only ever picks
legal actions.  Before and after training it is evaluated on the same fixed
set of hands; the average points per hand should rise from about 0 (the
untrained policy is close to uniform over legal actions, i.e. a random bot).

Run (CPU, a few minutes)::

    pip install '.[rl]' torch
    python examples/train_masked_policy.py --minutes 4

This is not a strong agent, only evidence that observations, masks, actions and
rewards fit together: against random bots even simple habits pay.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from torch import nn

import shangrao.env  # noqa: F401  (registers Shangrao-v1)
from shangrao.env import N_ACTIONS, OBS_HIGH, OBS_SHAPE

SCALE = torch.tensor(np.maximum(OBS_HIGH, 1), dtype=torch.float32).flatten()


class Policy(nn.Module):
    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        n_in = OBS_SHAPE[0] * OBS_SHAPE[1]
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, N_ACTIONS)
        )

    def forward(self, planes: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        logits = self.net(planes.flatten(1).float() / SCALE)
        return logits.masked_fill(~mask, float("-inf"))


def _tensors(obs):
    planes = torch.from_numpy(obs["observation"]).unsqueeze(0)
    mask = torch.from_numpy(obs["action_mask"].astype(bool)).unsqueeze(0)
    return planes, mask


def play_hand(env, policy, seed: int | None, greedy: bool = False, record: bool = False):
    """One hand; returns (points, [(planes, mask, action)] if record)."""
    obs, _ = env.reset(seed=seed)
    steps = []
    total = 0.0
    while True:
        planes, mask = _tensors(obs)
        if mask.sum() == 1:  # a forced action teaches nothing
            action = int(mask[0].nonzero()[0, 0])
        else:
            with torch.no_grad():
                logits = policy(planes, mask)
            if greedy:
                action = int(logits.argmax())
            else:
                action = int(torch.distributions.Categorical(logits=logits).sample())
            if record:
                steps.append((planes, mask, action))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        if terminated or truncated:
            return total, steps


def evaluate(env, policy, hands: int, seed0: int = 10_000_000, greedy: bool = False) -> float:
    return float(np.mean([play_hand(env, policy, seed0 + i, greedy)[0] for i in range(hands)]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=4.0, help="training time budget")
    ap.add_argument("--eval-hands", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=32, help="hands per policy update")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponents", default="random", help="bot name for the three other seats")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = gymnasium.make("Shangrao-v1", opponents=args.opponents)
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr)

    t0 = time.perf_counter()
    before = evaluate(env, policy, args.eval_hands)
    print(
        f"before training: {before:+.3f} points/hand over {args.eval_hands} evaluation hands "
        f"vs 3 {args.opponents} bots ({time.perf_counter() - t0:.0f}s)",
        flush=True,
    )

    baseline = 0.0
    hands = 0
    updates = 0
    recent: list[float] = []
    env.reset(seed=args.seed)  # seeds the training stream; later resets continue it
    t_start = time.perf_counter()
    deadline = t_start + 60 * args.minutes
    next_report = t_start + 30
    while time.perf_counter() < deadline:
        batch = [play_hand(env, policy, None, record=True) for _ in range(args.batch)]
        planes = torch.cat([p for _, steps in batch for p, _, _ in steps])
        masks = torch.cat([m for _, steps in batch for _, m, _ in steps])
        actions = torch.tensor([a for _, steps in batch for _, _, a in steps])
        returns = torch.tensor([ret for ret, steps in batch for _ in steps], dtype=torch.float32)
        logp = torch.log_softmax(policy(planes, masks), dim=1).gather(1, actions.unsqueeze(1)).squeeze(1)
        adv = (returns - baseline) / 10.0
        loss = -(logp * adv).sum() / len(batch)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        opt.step()
        pts = [ret for ret, _ in batch]
        baseline = 0.95 * baseline + 0.05 * float(np.mean(pts))
        recent += pts
        hands += len(batch)
        updates += 1
        if time.perf_counter() >= next_report:
            print(
                f"  {time.perf_counter() - t_start:5.0f}s  {hands:6d} hands  {updates:4d} updates  "
                f"training points/hand (last {len(recent)}): {np.mean(recent):+.3f}",
                flush=True,
            )
            recent = []
            next_report += 30

    t1 = time.perf_counter()
    after = evaluate(env, policy, args.eval_hands)
    after_greedy = evaluate(env, policy, args.eval_hands, greedy=True)
    print(
        f"after training on {hands} hands ({t1 - t_start:.0f}s): {after:+.3f} points/hand (sampled), "
        f"{after_greedy:+.3f} (argmax) over the same {args.eval_hands} evaluation hands",
        flush=True,
    )
    print(f"rise: {after - before:+.3f} points/hand (sampled)")


if __name__ == "__main__":
    main()
