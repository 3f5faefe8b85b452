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

Both take ``engine``: ``"python"`` (the default: the engine and the bots of :mod:`shangrao.bots`),
``"fast"`` (the compiled core, :mod:`shangrao.sim`: only for the bots it plays itself, ``random``,
``greedy``, ``ukeire``) or None (fast where every seat's bot is a core bot, python otherwise; what
``shangrao simulate`` does).  The records
are the same either way (``tests/sim/test_simulate_engine.py``).  With ``events=False`` a record's
``"events"`` and ``"result"`` are None (the fast engine then skips replaying each hand in the
Python engine to write its log; ``"summary"`` is there either way).  With ``compact=True`` (the fast
engine only) a record also carries ``"decisions"``, the hand's compact record
(:mod:`shangrao.records.compact`, bytes): what ``shangrao simulate`` stores.

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from .bots import check_bot_spec, close_bot, get_bot
from .errors import InputError
from .game import Match
from .rules import DEFAULT_RULES, RuleSet

__all__ = [
    "COLD_FAST_HANDS",
    "ENGINES",
    "RayUnavailableError",
    "iter_hands",
    "match_seed",
    "play_match_records",
    "resolve_engine",
    "run_jobs",
    "simulate_hands",
]

#: the ways to play hands: the Python engine, or the compiled core (shangrao.sim)
ENGINES = ("python", "fast")
#: matches per job of the fast engine (one compiled call plays them all)
FAST_CHUNK = 64


class RayAddressError(InputError):
    """``ray_address`` is not an address Ray can connect to (``host:port``, ``auto`` or ``local``)."""


class RayUnavailableError(ImportError):
    """``ray_address`` was given but Ray is not installed (``pip install '.[ray]'``)."""


def match_seed(run_seed: int, m: int) -> int:
    """The seed of match ``m`` of a run (a 63-bit int; the same derivation as ``shangrao simulate``)."""
    return random.Random(f"shangrao-simulate:{run_seed}:{m}").randrange(2**63)


def play_match_records(
    run_seed: int, m: int, bots: Sequence[str], rules: RuleSet = DEFAULT_RULES, max_hands: int | None = None
) -> list[dict[str, Any]]:
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


def _play_records(match: Match, m: int, mseed: int, names: list[str], limit: int) -> list[dict[str, Any]]:
    from .records.summary import hand_summary

    out: list[dict[str, Any]] = []
    for rec in match:
        out.append(
            {
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
            }
        )
        if len(out) >= limit:
            break
    return out


#: with the game loop not compiled yet on this machine, the default engine is fast only from this
#: many hands: compiling it once (about a minute of CPU, :data:`shangrao.sim.play.FIRST_COMPILE_CPU_S`)
#: pays off only on a long run
COLD_FAST_HANDS = 20_000


def resolve_engine(engine: str | None, bots: Sequence[str], hands: int | None = None) -> str:
    """The engine to play ``bots`` with: ``engine`` checked (``"fast"`` needs core bots only), or
    for None ``"fast"`` where every bot is a core bot and either the compiled core is in numba's
    cache already (:func:`shangrao.sim.play.core_compiled`) or the run is long (``hands`` at least
    :data:`COLD_FAST_HANDS`, or not known), else ``"python"``.  Either engine gives the same results.
    Raises ``InputError``."""
    from .sim.play import core_compiled, is_core_bot

    core = all(is_core_bot(b) for b in bots)
    if engine is None:
        if not core:
            return "python"
        return "fast" if hands is None or hands >= COLD_FAST_HANDS or core_compiled() else "python"
    if engine not in ENGINES:
        raise InputError(f"engine: one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "fast" and not core:
        other = next(b for b in bots if not is_core_bot(b))
        raise InputError(
            f"engine fast: the compiled core plays random, greedy, ukeire and search, not {other!r}; use engine python"
        )
    return engine


def play_core_records(
    run_seed: int,
    matches: Sequence[int],
    limits: Sequence[int],
    bots: Sequence[str],
    rules: RuleSet = DEFAULT_RULES,
    events: bool = True,
    compact: bool = False,
) -> list[dict[str, Any]]:
    """The hand records of matches ``matches`` (at most ``limits[i]`` hands each) played by the
    compiled core — the same records :func:`play_match_records` gives, ``events`` and ``result``
    from the Python engine replaying the core's decisions (None with ``events=False``).  With
    ``compact=True`` (and ``events=False``) each record also has ``"decisions"``: the hand's
    ``hands.decisions`` value (:func:`shangrao.records.compact.pack_hand`, bytes), made without a
    replay."""
    from .records.summary import hand_summary as engine_summary
    from .sim.play import hand_summary, iter_match_hands

    if compact and events:
        raise InputError("compact records are made without the events: give events=False with compact=True")
    if compact:
        from .records.compact import pack_hand, rules_key

        rkey = rules_key(rules)
    names = list(bots)
    seeds = [match_seed(run_seed, m) for m in matches]
    out: list[dict[str, Any]] = []
    for h in iter_match_hands(seeds, list(limits), names, rules):
        rec: dict[str, Any] = {
            "match": matches[h.match],
            "match_seed": h.match_seed,
            "hand_no": h.hand_no,
            "hand_seed": h.hand_seed,
            "dealer": h.dealer,
            "bots": names,
            "result": None,
            "summary": None,
            "events": None,
            "match_over": h.last and h.hand_no == rules.hands_per_match - 1,
        }
        if events:
            from .game import Game
            from .sim.events import code_action

            game = Game(rules, seed=h.hand_seed, dealer=h.dealer, scores=h.scores, hand_no=h.hand_no)
            for code in h.decisions:
                game.push(code_action(code))
            assert game.result is not None
            rec["result"] = game.result.to_dict()
            rec["summary"] = engine_summary(game.result, game.events)
            rec["events"] = game.events
        else:
            rec["summary"] = hand_summary(h, rules)
            if compact:
                rec["decisions"] = pack_hand(rkey, h.match_seed, h.hand_no, h.dealer, h.scores, h.decisions)
        out.append(rec)
    return out


#: a job of :func:`run_jobs` and what it gives
_J = TypeVar("_J")
_R = TypeVar("_R")


def _play_core_job(args: tuple[Any, ...]) -> list[dict[str, Any]]:
    seed, matches, limits, bots, rules, events, compact = args
    return play_core_records(seed, matches, limits, bots, rules, events, compact)


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


def _play_job(args: tuple[Any, ...]) -> list[dict[str, Any]]:
    seed, m, bots, rules, limit = args
    return play_match_records(seed, m, bots, rules, limit)


def run_jobs(
    fn: Callable[[_J], _R],
    jobs: Iterable[_J],
    workers: int | None = 1,
    ray_address: str | None = None,
    mp_context: BaseContext | None = None,
) -> Iterator[_R]:
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


def iter_hands(
    n_hands: int,
    seed: int,
    bots: Sequence[str] = ("greedy",) * 4,
    rules: RuleSet = DEFAULT_RULES,
    workers: int | None = 1,
    ray_address: str | None = None,
    mp_context: BaseContext | None = None,
    engine: str | None = "python",
    events: bool = True,
    compact: bool = False,
) -> Iterator[dict[str, Any]]:
    """Yield the hand records of :func:`simulate_hands`, in order, as matches finish.

    compact: records for compact storage (:mod:`shangrao.records.compact`): ``"events"`` and
    ``"result"`` None, ``"decisions"`` the packed decisions; the fast engine only (``InputError``
    otherwise)."""
    names = _check(n_hands, bots, rules)
    fast = resolve_engine(engine, names, n_hands) == "fast"
    if compact and not fast:
        raise InputError("compact records come from the fast engine (the Python engine stores full events)")
    if fast:
        todo = _jobs(n_hands, rules)
        core_jobs = [
            (
                seed,
                [m for m, _ in todo[i : i + FAST_CHUNK]],
                [lim for _, lim in todo[i : i + FAST_CHUNK]],
                names,
                rules,
                events and not compact,
                compact,
            )
            for i in range(0, len(todo), FAST_CHUNK)
        ]
        for recs in run_jobs(_play_core_job, core_jobs, workers, ray_address, mp_context):
            yield from recs
        return
    jobs = [(seed, m, names, rules, limit) for m, limit in _jobs(n_hands, rules)]
    for recs in run_jobs(_play_job, jobs, workers, ray_address, mp_context):
        if not events:
            for r in recs:
                r["events"] = r["result"] = None
        yield from recs


def _iter_ray(fn: Callable[[_J], _R], jobs: list[_J], address: str) -> Iterator[_R]:
    try:
        import ray
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise RayUnavailableError(f"ray_address={address!r} needs Ray: pip install '.[ray]' ({err})") from None
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


def simulate_hands(
    n_hands: int,
    seed: int,
    bots: Sequence[str] = ("greedy",) * 4,
    rules: RuleSet = DEFAULT_RULES,
    workers: int | None = 1,
    ray_address: str | None = None,
    mp_context: BaseContext | None = None,
    engine: str | None = "python",
    events: bool = True,
) -> list[dict[str, Any]]:
    """Play ``n_hands`` hands (see the module docstring) and return their records in order."""
    return list(iter_hands(n_hands, seed, bots, rules, workers, ray_address, mp_context, engine, events))
