"""DAgger data at the core's speed: a policy plays every seat of the batched environment, a core bot labels.

:func:`write_dagger` drives :class:`~shangrao.sim.vector.VectorEnv` (``num_envs`` tables, every seat a
learner) with the policy ``learner`` (a ``policy:PATH`` checkpoint or a callable ``(planes, mask) ->
logits or actions``, batched as the environment's policy seats are), and at every decision of two or
more legal actions records the deciding seat's planes and mask with the choice of the core bot
``label`` (``random``, ``greedy``, ``ukeire``, ``search[:OPT]...``) in the same position
(:func:`shangrao.sim.record.label_kernel`: one compiled call a batch).  The rows have the schema of
:mod:`shangrao.data` (``policy`` names the labeller); an episode is one hand (the environment's: its
dealer drawn, scores 0, ``hands_left`` 1), so ``match_points`` is ``hand_points`` and ``match_id`` is
``hand_id``.  No Python per decision: the planes, masks, features and labels come from the core.

>>> import numpy as np, tempfile
>>> from shangrao.data.dagger import write_dagger
>>> first = lambda planes, mask: np.asarray(mask.argmax(axis=1), dtype=np.int64)
>>> meta = write_dagger(tempfile.mkdtemp() + "/d", 8, 1, first, "ukeire", num_envs=4)
>>> meta["hands"], meta["policies"]
(8, ['ukeire'])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import DEFAULT_RULES, RuleSet
from .dataset import DatasetError
from .write import DEFAULT_SHARD_ROWS, _empty, _prepare_out, _ShardWriter, deal_id

__all__ = ["write_dagger"]


def write_dagger(
    out: str | Path,
    hands: int,
    seed: int,
    learner: str | Callable[[np.ndarray, np.ndarray], Any],
    label: str,
    num_envs: int = 64,
    rules: RuleSet = DEFAULT_RULES,
    shard_rows: int = DEFAULT_SHARD_ROWS,
    overwrite: bool = False,
    on_hands: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write ``hands`` hands of ``learner`` self-play labelled by the core bot ``label`` to ``out``
    (module docstring).  The tables are seeded as ``VectorEnv.reset(seed)``, the labeller of table ``i``
    seat ``s`` as ``f"{seed}:label:{i}:{s}"``; the rows of the first ``hands`` hands to end are written
    (in the order their decisions were taken).  Returns the ``meta.json`` dict plus ``seconds`` and
    ``decisions_per_second``.  Raises :class:`DatasetError` for a bad count, labeller or directory."""
    from ..bots.policy import MLPPolicy, PolicyLoadError, load_policy
    from ..sim import core as C
    from ..sim import search as SR
    from ..sim.record import LABELLERS, label_kernel
    from ..sim.vector import _opponent_actions

    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise DatasetError(f"hands must be a positive int, got {hands!r}")
    name = str(label).strip().lower()
    base = "search" if name.startswith("search:") else name
    if base not in LABELLERS:
        raise DatasetError(f"label: {label!r} is not a core bot (random, greedy, ukeire, search)")
    params = SR.default_params()
    if base == "search":
        from ..bots.search import search_params

        params = search_params(name)
    code = LABELLERS[base]
    if isinstance(learner, str):
        spec = learner.strip()
        path_text = spec[len("policy:") :] if spec.startswith("policy:") else spec
        try:
            policy: Any = load_policy(path_text)
        except PolicyLoadError as err:
            raise DatasetError(f"learner: {err}") from None
        learner_name = f"policy:{path_text}"
    else:
        policy = learner
        learner_name = f"policy:{getattr(learner, 'name', type(learner).__name__)}"
    from ..sim.vector import VectorEnv

    path = _prepare_out(out, overwrite)
    n = int(num_envs)
    env = VectorEnv(n, ("learner",) * 4, rules)
    mts = np.zeros((n, 4, 625), dtype=np.uint32)
    for i in range(n):
        for s in range(4):
            C.mt_seed(mts[i, s], C.seed_key(f"{seed}:label:{i}:{s}"))
    lr = SR.weights_for(params)
    st = env._g.st
    setup = env._setup
    labels = np.zeros(n, dtype=np.int64)
    writer = _ShardWriter(path, shard_rows)
    serial = np.zeros(n, dtype=np.int64)  # the hand of each table now played (0, 1, …)
    pending: list[dict[str, np.ndarray]] = []  # rows whose hand has not ended yet
    done: dict[int, tuple[int, np.ndarray, int]] = {}  # key -> (order ended, points [4], deal id)
    ended = 0
    t0 = time.perf_counter()
    kernel: Any = label_kernel
    b = env.reset(seed)
    big = 1 << 32

    def flush(final: bool) -> None:
        """Write the pending rows whose hand ended among the first ``hands``; drop those beyond; keep
        the rest (all dropped when ``final``)."""
        nonlocal pending
        if not pending:
            return
        rows = {c: np.concatenate([p[c] for p in pending]) for c in pending[0]}
        order = np.array([done[k][0] if k in done else -1 for k in rows["key"].tolist()], dtype=np.int64)
        write = (order >= 0) & (order < hands)
        if write.any():
            info = [done[k] for k in rows["key"][write].tolist()]
            cols = _empty(int(write.sum()))
            for c in ("planes", "mask", "action", "seat"):
                cols[c][:] = rows[c][write]
            pts = np.array([x[1] for x in info], dtype=np.int64).reshape(-1, 4)
            cols["hand_points"][:] = pts[np.arange(len(info)), cols["seat"]]
            cols["match_points"][:] = cols["hand_points"]
            cols["hand_id"][:] = [x[0] for x in info]
            cols["match_id"][:] = cols["hand_id"]
            cols["deal_id"][:] = [x[2] for x in info]
            writer.add(cols)
        keep = (order < 0) & (not final)
        pending = [{c: v[keep] for c, v in rows.items()}] if keep.any() else []

    steps = 0
    while ended < hands:
        kernel(st, setup.rules, setup.tb, C.BOT_RULES, code, mts, params, lr, labels)
        pending.append(
            {
                "planes": b.observation,
                "mask": b.legal_action_mask.astype(np.int8),
                "action": labels.astype(np.int16),
                "seat": b.current_player.astype(np.int8),
                "key": np.arange(n, dtype=np.int64) * big + serial,
            }
        )
        seeds = b.hand_seed.copy()
        try:
            acts = _opponent_actions(policy, b.observation, b.legal_action_mask, learner_name)
        except Exception as err:
            if isinstance(policy, MLPPolicy):
                raise
            raise DatasetError(f"learner: {err}") from None
        b = env.step(acts)
        for i in np.flatnonzero(b.terminated).tolist():
            done[i * big + int(serial[i])] = (ended, np.asarray(b.rewards[i], dtype=np.int64), deal_id(int(seeds[i])))
            serial[i] += 1
            ended += 1
            if on_hands is not None and ended <= hands:
                on_hands(1)
        steps += 1
        if steps % 64 == 0:
            flush(False)
    flush(True)
    writer.finish()
    seconds = time.perf_counter() - t0
    meta = writer.write_meta(
        "dagger",
        {
            "policies": [name],
            "bots": [learner_name] * 4,
            "label": name,
            "seed": seed,
            "hands": hands,
            "rules": rules.to_dict(),
        },
    )
    return meta | {
        "seconds": round(seconds, 3),
        "decisions_per_second": round(writer.rows / seconds, 1) if seconds else None,
    }
