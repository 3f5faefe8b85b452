"""Reading decision datasets (schema in :mod:`shangrao.data`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["COLUMNS", "SCHEMA_VERSION", "Dataset", "DatasetError"]

SCHEMA_VERSION = 1
#: column -> (dtype, shape after N)
COLUMNS: dict[str, tuple[str, tuple[int, ...]]] = {
    "planes": ("int8", (20, 34)),
    "mask": ("int8", (110,)),
    "action": ("int16", ()),
    "seat": ("int8", ()),
    "hand_points": ("int64", ()),
    "match_points": ("int64", ()),
    "hand_id": ("int64", ()),
    "deal_id": ("int64", ()),
    "match_id": ("int64", ()),
    "policy": ("int16", ()),
}


class DatasetError(InputError):
    """A dataset directory that is missing, not a dataset, or of another schema version."""


class Dataset:
    """A dataset directory written by ``shangrao dataset`` (:mod:`shangrao.data`).

    Dataset(path): reads ``meta.json``; raises :class:`DatasetError` naming the path when it is not
    a dataset of schema version 1.  ``len(ds)`` is the number of decisions; ``ds.meta`` the metadata.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        meta_path = self.path / "meta.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DatasetError(f"{self.path}: not a dataset (no meta.json)") from None
        except (OSError, ValueError) as err:
            raise DatasetError(f"{meta_path}: unreadable ({err})") from None
        if not isinstance(meta, dict) or meta.get("format") != "shangrao-dataset":
            raise DatasetError(f"{meta_path}: not a shangrao dataset")
        if meta.get("version") != SCHEMA_VERSION:
            raise DatasetError(
                f"{meta_path}: schema version {meta.get('version')!r}, this reader knows {SCHEMA_VERSION}"
            )
        self.meta: dict[str, Any] = meta
        self.shards: list[Path] = [self.path / s["file"] for s in meta["shards"]]

    def __len__(self) -> int:
        return int(self.meta["decisions"])

    @property
    def policies(self) -> list[str]:
        return list(self.meta["policies"])

    def shard(self, i: int, columns: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """The arrays of shard ``i`` (all columns, or ``columns``)."""
        cols = list(COLUMNS) if columns is None else list(columns)
        for c in cols:
            if c not in COLUMNS:
                raise DatasetError(f"unknown column {c!r}; columns: {', '.join(COLUMNS)}")
        with np.load(self.shards[i]) as z:
            return {c: z[c] for c in cols}

    def load(self, columns: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """Every shard concatenated (for datasets that fit in memory)."""
        parts = [self.shard(i, columns) for i in range(len(self.shards))]
        cols = list(COLUMNS) if columns is None else list(columns)
        if not parts:
            return {c: np.zeros((0, *COLUMNS[c][1]), dtype=COLUMNS[c][0]) for c in cols}
        return {c: np.concatenate([p[c] for p in parts]) for c in cols}

    def batches(
        self,
        batch_size: int = 256,
        seed: int | None = 0,
        columns: Sequence[str] | None = None,
        shuffle: bool = True,
        buffer_shards: int = 4,
        drop_last: bool = False,
    ) -> Iterator[dict[str, np.ndarray]]:
        """Stream batches (dicts of arrays, first dimension ``batch_size``, the last one may be shorter).

        Shuffled: the shard order is permuted and rows are shuffled within a buffer of
        ``buffer_shards`` shards at a time (so memory stays bounded by the buffer); one pass over the
        data per call (an epoch).  ``shuffle=False`` reads in stored order.
        """
        if not isinstance(batch_size, int) or batch_size < 1:
            raise DatasetError(f"batch_size must be a positive int, got {batch_size!r}")
        rng = np.random.default_rng(seed)
        order = rng.permutation(len(self.shards)) if shuffle else np.arange(len(self.shards))
        step = max(1, int(buffer_shards))
        carry: dict[str, np.ndarray] | None = None
        for start in range(0, len(order), step):
            parts = [self.shard(int(i), columns) for i in order[start : start + step]]
            buf = {c: np.concatenate([p[c] for p in parts]) for c in parts[0]}
            if carry is not None:
                buf = {c: np.concatenate([carry[c], buf[c]]) for c in buf}
                carry = None
            n = len(next(iter(buf.values())))
            idx = rng.permutation(n) if shuffle else np.arange(n)
            full = n - n % batch_size
            for b in range(0, full, batch_size):
                sel = idx[b : b + batch_size]
                yield {c: v[sel] for c, v in buf.items()}
            if full < n:
                carry = {c: v[idx[full:]] for c, v in buf.items()}
        if carry is not None and not drop_last and len(next(iter(carry.values()))):
            yield carry
