"""Decision-level datasets for learning: written by ``shangrao dataset``, read by :class:`Dataset`.

A dataset is a directory of shards ``shard-00000.npz`` … (NumPy ``.npz``, compressed) and a
``meta.json``.  One row per decision a bot took with more than one legal action (a decision
with one legal action is played by the engine without asking the bot, and is not written).

Schema (version 1; every array of a shard has the same first dimension ``N``)
=============================================================================

===============  ==============  =====================================================================
Column           dtype, shape    Content
===============  ==============  =====================================================================
``planes``       int8 (N,20,34)  the acting seat's observation planes (:mod:`shangrao.env`, v1 table;
                                 ``hands_left`` = hands of the match left, this one included)
``mask``         int8 (N,110)    the legal flat actions (:mod:`shangrao.env` action table)
``action``       int16 (N,)      the flat action the bot took
``seat``         int8 (N,)       the acting seat (0..3, absolute)
``hand_points``  int64 (N,)      the seat's points in that hand (``HandResult.deltas[seat]``; int32
                                 in datasets written before issue 34, read as they are)
``match_points`` int64 (N,)      the seat's points in the whole match (final score minus start)
``hand_id``      int64 (N,)      ``match * hands_per_match + hand_no``: unique in the dataset
``deal_id``      int64 (N,)      a 63-bit hash of the hand's seed (the same wall gives the same id)
``match_id``     int64 (N,)      the match number in the run (0, 1, …)
``policy``       int16 (N,)      index into ``meta.json["policies"]`` (the bot spec that acted)
===============  ==============  =====================================================================

``meta.json``: ``{"format": "shangrao-dataset", "version": 1, "policies": [...], "bots": [4 specs],
"seed": S, "hands": H, "decisions": N, "rules": RuleSet dict, "source": "selfplay" | "records" | "dagger",
"shards": [{"file": "shard-00000.npz", "rows": n}, ...]}``.

Reading::

    from shangrao.data import Dataset
    ds = Dataset("data/ukeire")
    for batch in ds.batches(batch_size=512, seed=0):      # shuffled, streamed shard by shard
        batch["planes"], batch["mask"], batch["action"]   # numpy arrays, first dim <= 512
    arrays = ds.load()                                    # everything in memory (small datasets)

Training streams (:func:`shangrao.data.stream.training_batches`, what ``train_bc`` reads): several
datasets, shard by shard, shuffled within a buffer of shards, the per-action features computed by the
compiled core per batch; memory bounded by the buffer, not the dataset.

Writing: :func:`write_selfplay` (fresh self-play, any bots and rules, ``workers`` processes or Ray;
with core bots only — ``random``, ``greedy``, ``ukeire``, ``search`` — and a core labeller, the hands are
played and encoded in the compiled core, :mod:`shangrao.sim.record`: the same rows as the Python
engine's) and :func:`write_from_games` (stored games of the records).  The command line is ``shangrao dataset``
(docs/cli.md).  Generation speed: docs/performance.md.
"""

from __future__ import annotations

from .dataset import COLUMNS, SCHEMA_VERSION, Dataset, DatasetError
from .write import write_from_games, write_selfplay

__all__ = ["COLUMNS", "SCHEMA_VERSION", "Dataset", "DatasetError", "write_from_games", "write_selfplay"]
