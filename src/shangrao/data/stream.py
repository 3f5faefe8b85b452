"""Training batches streamed from datasets: shard by shard, shuffled within a buffer, memory bounded.

:func:`training_batches` is what :func:`shangrao.train.train_bc` reads: one pass (an epoch) over the
rows of one or more :class:`~shangrao.data.Dataset`\\ s, the shards of all of them in a random order,
``buffer_shards`` shards at a time loaded, filtered (``action >= 0``, the acting ``policies``, at least
``min_hand_points``) and shuffled together, then cut into batches.  At most ``buffer_shards`` shards
(and one batch's leftover) are in memory at once, whatever the dataset's size; the per-action
features of a batch (``feature_version``) are computed by the compiled core
(:func:`shangrao.sim.features.action_features`, equal to :func:`shangrao.bots.features.action_features`)
when the batch is cut, never stored.

>>> import numpy as np
>>> from shangrao.data.stream import training_batches
>>> list(training_batches([], 4, np.random.default_rng(0)))
[]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .dataset import Dataset, DatasetError

__all__ = ["count_rows", "training_batches"]

_COLUMNS = ["planes", "mask", "action", "policy", "hand_points"]
#: the ``hands_left`` scalar of the planes (row 19, column 33: :data:`shangrao.encoding.SCALAR`)
_HANDS_LEFT = (19, 33)


def _keep(ds: Dataset, part: dict[str, np.ndarray], policies: Sequence[str] | None, min_hand_points: int | None) -> Any:
    keep = part["action"] >= 0
    if policies is not None:
        names = np.asarray(ds.policies + [""], dtype=object)
        keep &= np.isin(names[part["policy"]], list(policies))
    if min_hand_points is not None:
        keep &= part["hand_points"] >= min_hand_points
    return keep


def count_rows(
    datasets: Sequence[Dataset], policies: Sequence[str] | None = None, min_hand_points: int | None = None
) -> int:
    """The rows :func:`training_batches` yields in one pass (the shards read one at a time)."""
    if policies is None and min_hand_points is None:
        return sum(
            int((ds.shard(i, ["action"])["action"] >= 0).sum()) for ds in datasets for i in range(len(ds.shards))
        )
    n = 0
    for ds in datasets:
        for i in range(len(ds.shards)):
            n += int(_keep(ds, ds.shard(i, _COLUMNS), policies, min_hand_points).sum())
    return n


def training_batches(
    datasets: Sequence[Dataset],
    batch_size: int,
    rng: np.random.Generator,
    buffer_shards: int = 4,
    policies: Sequence[str] | None = None,
    min_hand_points: int | None = None,
    bots_view: bool = True,
    feature_version: int | None = None,
) -> Iterator[dict[str, np.ndarray]]:
    """One shuffled pass over the rows of ``datasets`` in batches of ``batch_size`` (the last may be
    shorter): ``planes`` int8 ``[B, 20, 34]`` (``hands_left`` set to 1 with ``bots_view``, as
    :class:`~shangrao.bots.policy.PolicyBot` encodes a decision), ``mask`` bool ``[B, 110]``, ``action``
    int64 ``[B]`` and, with ``feature_version``, ``features`` float32 ``[B, 110, F]``.  Rows kept: a
    recorded action, an acting policy among ``policies`` (None: all), ``hand_points >= min_hand_points``
    (None: all).  ``rng`` draws the shard order and the shuffles.  Raises :class:`DatasetError` for a
    bad ``batch_size`` or ``buffer_shards``."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise DatasetError(f"batch_size must be a positive int, got {batch_size!r}")
    if isinstance(buffer_shards, bool) or not isinstance(buffer_shards, int) or buffer_shards < 1:
        raise DatasetError(f"buffer_shards must be a positive int, got {buffer_shards!r}")
    shards = [(d, i) for d, ds in enumerate(datasets) for i in range(len(ds.shards))]
    order = rng.permutation(len(shards)) if shards else np.zeros(0, dtype=np.int64)
    carry: dict[str, np.ndarray] | None = None
    for start in range(0, len(order), buffer_shards):
        parts = []
        for j in order[start : start + buffer_shards]:
            d, i = shards[int(j)]
            part = datasets[d].shard(i, _COLUMNS)
            keep = _keep(datasets[d], part, policies, min_hand_points)
            parts.append({"planes": part["planes"][keep], "mask": part["mask"][keep], "action": part["action"][keep]})
            del part
        if carry is not None:
            parts.insert(0, carry)
            carry = None
        buf = {c: np.concatenate([p[c] for p in parts]) for c in ("planes", "mask", "action")}
        del parts
        n = len(buf["action"])
        idx = rng.permutation(n)
        full = n - n % batch_size
        last = start + buffer_shards >= len(order)
        for b in range(0, full if not last else n, batch_size):
            yield _batch(buf, idx[b : b + batch_size], bots_view, feature_version)
        if not last and full < n:
            carry = {c: v[idx[full:]] for c, v in buf.items()}
        del buf


def _batch(
    buf: dict[str, np.ndarray], sel: np.ndarray, bots_view: bool, feature_version: int | None
) -> dict[str, np.ndarray]:
    planes = buf["planes"][sel]
    if bots_view:
        planes[:, _HANDS_LEFT[0], _HANDS_LEFT[1]] = 1
    out = {"planes": planes, "mask": buf["mask"][sel].astype(bool), "action": buf["action"][sel].astype(np.int64)}
    if feature_version is not None:
        from ..sim.features import action_features

        out["features"] = action_features(planes, out["mask"], feature_version)
    return out
