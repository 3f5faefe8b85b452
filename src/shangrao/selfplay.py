"""Self-play at scale: bots play many hands in parallel processes or on a Ray cluster.

The unit of work is a match (``rules.hands_per_match`` hands, dealer rotation and
scores carried over).  Match ``m`` of a run with seed ``S`` has the seed
:func:`match_seed(S, m) <match_seed>` and its seat ``i`` plays
``get_bot(bots[i], seed=f"{match_seed}:{i}")``, exactly as ``shangrao simulate``
plays them one after the other.  Every match depends only on ``(S, m, bots,
rules)``, so the records are the same — byte for byte, in the same order — for
``workers=1``, ``workers=N`` and a Ray cluster of any size.

API
===

``simulate_hands(n_hands, seed, bots=("greedy",)*4, rules=DEFAULT_RULES, workers=1,
ray_address=None) -> list[dict]``
    Plays ``n_hands`` hands as ``ceil(n_hands / rules.hands_per_match)`` matches (the
    last one stops early) and returns one record per hand, ordered by (match, hand).

``iter_hands(...)``
    The same arguments; yields the records in the same order as soon as each match
    is done (for a progress bar, or to store hands while the rest are playing).

Arguments:

* ``seed``: an int (the run seed).  ``bots``: four bot specs (``random``, ``greedy``, ``policy:PATH``,
  ``ext:COMMAND``, a plugin's name: :func:`shangrao.bots.check_bot_spec`; strings, not objects, so that
  workers can build them).  ``rules``: a
  :class:`~shangrao.rules.RuleSet`.
* ``workers``: processes on this machine.  1 plays in the calling process; N > 1 uses a
  :class:`concurrent.futures.ProcessPoolExecutor` of N processes (``0`` or ``None``: one per
  CPU); ``mp_context`` chooses the start method (default: the platform's).
* ``ray_address``: distribute the matches as Ray remote tasks instead (``workers`` is then
  ignored).  ``"auto"`` joins a running cluster (``ray start --head`` on this machine, or
  ``RAY_ADDRESS``), ``"host:port"`` / ``"ray://host:10001"`` a given one, ``"local"`` starts a
  private local Ray.  When Ray is already initialised in this process (``ray.init(...)``
  called by the application) that connection is used and kept; otherwise the function
  connects and disconnects at the end (the cluster keeps running).  Ray is an optional
  extra: ``pip install '.[ray]'``; every node needs ``shangrao`` installed (or pass a
  ``runtime_env`` through ``ray.init`` yourself).

Record of a hand (a plain JSON-able dict, as stored by :mod:`shangrao.records`):

``{"match": m, "match_seed": int, "hand_no": k, "hand_seed": str, "dealer": int, "bots": [4 names],
"result": HandResult.to_dict(), "summary": hand_summary(result, events), "events": [event dicts],
"match_over": bool}``

``match_over`` is True on the last hand of a match that was played to its end; the match's
final scores are ``result["scores"]`` of its last record.

Example::

    from shangrao.selfplay import simulate_hands
    recs = simulate_hands(1000, seed=1, bots=["greedy", "greedy", "random", "random"], workers=2)
    assert recs == simulate_hands(1000, seed=1, bots=["greedy", "greedy", "random", "random"])

    recs = simulate_hands(100_000, seed=1, bots=["greedy"] * 4, ray_address="auto")
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .bots import check_bot_spec, close_bot, get_bot
from .errors import InputError
from .game import Match
from .rules import DEFAULT_RULES, RuleSet

__all__ = ["RayUnavailableError", "iter_hands", "match_seed", "play_match_records", "run_jobs", "simulate_hands"]


class RayAddressError(InputError):
    """``ray_address`` is not an address Ray can connect to (``host:port``, ``auto`` or ``local``)."""


class RayUnavailableError(ImportError):
    """``ray_address`` was given but Ray is not installed (``pip install '.[ray]'``)."""


def match_seed(run_seed: int, m: int) -> int:
    """The seed of match ``m`` of a run (a 63-bit int; the same derivation as ``shangrao simulate``)."""
    return random.Random(f"shangrao-simulate:{run_seed}:{m}").randrange(2**63)


def play_match_records(run_seed: int, m: int, bots: Sequence[str], rules: RuleSet = DEFAULT_RULES,
                       max_hands: int | None = None) -> list[dict]:
    """Play match ``m`` of run ``run_seed`` (at most ``max_hands`` hands) and return its hand records."""
    mseed = match_seed(run_seed, m)
    names = list(bots)
    seat_bots = [get_bot(name, seed=f"{mseed}:{i}") for i, name in enumerate(names)]
    match = Match(rules, seed=mseed, bots=seat_bots)
    limit = rules.hands_per_match if max_hands is None else min(max_hands, rules.hands_per_match)
    try:
        out = _play_records(match, m, mseed, names, limit)
    finally:
        for b in seat_bots:
            close_bot(b)
    if out and match.is_over:
        out[-1]["match_over"] = True
    return out


def _play_records(match: Match, m: int, mseed: int, names: list[str], limit: int) -> list[dict]:
    from .records.summary import hand_summary

    out: list[dict] = []
    for rec in match:
        out.append({
            "match": m,
            "match_seed": mseed,
            "hand_no": rec.hand_no,
            "hand_seed": rec.seed,
            "dealer": rec.dealer,
            "bots": names,
            "result": rec.result.to_dict(),
            "summary": hand_summary(rec.result, rec.events),
            "events": rec.events,
            "match_over": False,
        })
        if len(out) >= limit:
            break
    return out


def _check(n_hands: int, bots: Sequence[str], rules: RuleSet) -> list[str]:
    if not isinstance(n_hands, int) or n_hands < 0:
        raise InputError(f"n_hands must be an int >= 0, got {n_hands!r}")
    names = [bots] * 4 if isinstance(bots, str) else list(bots)
    if len(names) != 4:
        raise InputError(f"bots: give 4 bot names, got {len(names)}")
    for name in names:
        if not isinstance(name, str):
            raise InputError(f"bots: give bot names (workers build the bots), got {name!r}")
    names = [check_bot_spec(n) for n in names]  # UnknownBotError (ValueError) for a bad name or spec
    if not isinstance(rules, RuleSet):
        raise InputError(f"rules must be a RuleSet, got {type(rules).__name__}")
    return names


def _jobs(n_hands: int, rules: RuleSet) -> list[tuple[int, int]]:
    per = rules.hands_per_match
    n_matches = math.ceil(n_hands / per)
    return [(m, min(per, n_hands - m * per)) for m in range(n_matches)]


def _play_job(args: tuple) -> list[dict]:
    seed, m, bots, rules, limit = args
    return play_match_records(seed, m, bots, rules, limit)


def run_jobs(fn, jobs: Sequence, workers: int | None = 1, ray_address: str | None = None,
             mp_context=None) -> Iterator:
    """``fn(job)`` for every job, results yielded in job order: in this process (``workers=1``),
    in ``workers`` processes (``0``/None: one per CPU), or as Ray tasks (``ray_address``).

    ``fn`` must be a picklable module-level function.  The way of running does not change
    the results (each job depends only on its arguments).  Used by :func:`iter_hands` and
    :mod:`shangrao.arena`.
    """
    jobs = list(jobs)
    if not jobs:
        return
    if ray_address is not None:
        yield from _iter_ray(fn, jobs, ray_address)
        return
    if workers is None or workers == 0:
        workers = os.cpu_count() or 1
    if workers < 0:
        raise InputError(f"workers must be >= 0, got {workers}")
    workers = min(workers, len(jobs))
    if workers == 1:
        for job in jobs:
            yield fn(job)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp_context) as pool:
        yield from pool.map(fn, jobs)


def iter_hands(n_hands: int, seed: int, bots: Sequence[str] = ("greedy",) * 4, rules: RuleSet = DEFAULT_RULES,
               workers: int | None = 1, ray_address: str | None = None, mp_context=None) -> Iterator[dict]:
    """Yield the hand records of :func:`simulate_hands`, in order, as matches finish."""
    names = _check(n_hands, bots, rules)
    jobs = [(seed, m, names, rules, limit) for m, limit in _jobs(n_hands, rules)]
    for recs in run_jobs(_play_job, jobs, workers, ray_address, mp_context):
        yield from recs


def _iter_ray(fn, jobs: list, address: str) -> Iterator:
    try:
        import ray
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise RayUnavailableError(
            f"ray_address={address!r} needs Ray: pip install '.[ray]' ({err})") from None
    connected_here = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address == "local":
            ray.init(**kwargs)
        else:
            try:
                ray.init(address=address, **kwargs)
            except ValueError as err:  # "Invalid address format: …"
                raise RayAddressError(f"ray_address={address!r}: {err}") from None
        connected_here = True
    try:
        task = ray.remote(num_cpus=1)(fn)
        refs = [task.remote(job) for job in jobs]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if connected_here:
            ray.shutdown()


def simulate_hands(n_hands: int, seed: int, bots: Sequence[str] = ("greedy",) * 4,
                   rules: RuleSet = DEFAULT_RULES, workers: int | None = 1, ray_address: str | None = None,
                   mp_context=None) -> list[dict]:
    """Play ``n_hands`` hands (see the module docstring) and return their records in order."""
    return list(iter_hands(n_hands, seed, bots, rules, workers, ray_address, mp_context))
