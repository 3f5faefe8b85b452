"""shangrao.ppo: PPO on the batched environment — a resumed run equals an uninterrupted one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shangrao.bots import get_bot
from shangrao.ppo import ActorCritic, PPOConfig, PPOConfigError, train_ppo

SMALL = PPOConfig(num_envs=4, steps=6, hidden=(16,), epochs=2, minibatch=8, updates=4, checkpoint_every=1, seed=5)


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files if k not in ("history",)}


def test_a_run_stopped_and_resumed_ends_with_the_weights_of_an_uninterrupted_run(tmp_path: Path) -> None:
    whole = train_ppo(SMALL, tmp_path / "whole", log=None)
    first = train_ppo(SMALL, tmp_path / "cut", stop_after=2, log=None)
    assert len(first) == 2 and not (tmp_path / "cut" / "ppo-0003.npz").exists()
    resumed = train_ppo(SMALL, tmp_path / "cut", log=None)
    assert [h["update"] for h in resumed] == [1, 2, 3, 4]
    a, b = _arrays(tmp_path / "whole" / "state.npz"), _arrays(tmp_path / "cut" / "state.npz")
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    strip = [{k: v for k, v in h.items() if not k.endswith("cpu_s")} for h in whole]
    assert strip == [{k: v for k, v in h.items() if not k.endswith("cpu_s")} for h in resumed]


def test_a_checkpoint_plays_as_a_policy_bot(tmp_path: Path) -> None:
    train_ppo(SMALL, tmp_path, stop_after=1, log=None)
    bot = get_bot(f"policy:{tmp_path / 'ppo-0001.npz'}", seed=1)
    assert bot is not None


def test_a_state_file_of_other_settings_is_refused_not_overwritten(tmp_path: Path) -> None:
    train_ppo(SMALL, tmp_path, stop_after=1, log=None)
    other = PPOConfig(**{**SMALL.__dict__, "lr": 1e-3})
    with pytest.raises(PPOConfigError, match="other settings"):
        train_ppo(other, tmp_path, log=None)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("num_envs", 0, "num_envs"),
        ("steps", True, "steps"),
        ("hidden", (), "hidden"),
        ("seats", ("ukeire",) * 4, "learner"),
        ("lam", 1.5, "lam"),
        ("kl_coef", 0.1, "anchor"),
    ],
)
def test_bad_settings_are_refused_by_name(field: str, value: object, says: str) -> None:
    with pytest.raises(PPOConfigError, match=says):
        PPOConfig(**{**SMALL.__dict__, field: value}).check()


def test_the_backward_pass_matches_finite_differences() -> None:
    rng = np.random.default_rng(0)
    net = ActorCritic.fresh((8,), rng)
    x = rng.random((3, 680)).astype(np.float32)
    gl = rng.standard_normal((3, 110)).astype(np.float32)
    gv = rng.standard_normal(3).astype(np.float32)

    def loss() -> float:
        logits, values, _ = net.forward(x)
        return float((logits * gl).sum() + (values * gv).sum())

    _, _, acts = net.forward(x)
    grads = net.backward(acts, gl, gv)
    for p, g in zip(net.params(), grads, strict=True):
        flat = p.reshape(-1)
        for j in rng.choice(flat.size, size=min(3, flat.size), replace=False):
            old = float(flat[j])
            flat[j] = old + 1e-2
            up = loss()
            flat[j] = old - 1e-2
            down = loss()
            flat[j] = old
            assert (up - down) / 2e-2 == pytest.approx(float(g.reshape(-1)[j]), rel=2e-2, abs=2e-2)
