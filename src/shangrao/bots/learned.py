"""The ``learned`` bot: a small network shipped with the package, played with NumPy only.

The weights are ``shangrao/bots/data/learned.npz`` (the ``.npz`` policy format of
:mod:`.policy`, architecture ``mlp-features``: the 20×34 planes through one hidden ReLU layer,
plus a small net over the per-action features of :mod:`.features`, version 2).  It was trained by
behaviour cloning (:func:`shangrao.train.train_bc`) on 5,000 hands of ``expert`` self-play by
``examples/train_learned.py``; ``meta`` in the file records the data and the training run, and
docs/rl.md the command, the budget and the arena results (+0.27 a hand over three ``ukeire``).
It always plays the legal action of the highest logit (deterministic; the seed is unused).
"""

from __future__ import annotations

from pathlib import Path

from .policy import PolicyBot, load_policy

__all__ = ["WEIGHTS", "LearnedBot"]

#: the shipped checkpoint
WEIGHTS = Path(__file__).with_name("data") / "learned.npz"


class LearnedBot(PolicyBot):
    """``get_bot("learned")``: :class:`~.policy.PolicyBot` over the shipped weights (:data:`WEIGHTS`)."""

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(load_policy(WEIGHTS), name="learned", seed=seed)
