"""The compiled, batched self-play core (issue 23): numba kernels identical to the Python engine.

* :mod:`.kernels` — hand analysis (win check, shanten, 进张, 宝吊) and scoring on numpy arrays;
* :mod:`.rules` — a :class:`~shangrao.rules.RuleSet` as the int array the kernels read;
* :mod:`.convert` — a :class:`~shangrao.scoring.WinSituation` as the scoring kernel's record, and
  the engine's breakdown text from its output;
* :mod:`.batch` — checked batch entry points (``is_winning_many``, ``shanten_many``): many hands in
  one call, a bad row refused with one :class:`~.batch.BatchError` naming it;
* :mod:`.core` — the game loop: whole hands of the full rules over flat numpy state, the ``random``,
  ``greedy`` and ``ukeire`` bots inside it, CPython's MT19937 reproduced (same seeds ⇒ same walls,
  dice and random choices as :class:`~shangrao.game.Game` and the Python bots), many matches in one
  compiled call (:func:`~.core.play_matches`);
* :mod:`.events` — the core's event rows against the engine's log (``encode_events``), and a core
  hand's typed events by an engine replay (``to_events``);
* :mod:`.play` — the Python entry points: :func:`~.play.play_hand` (one hand; a script of decisions;
  ``external`` seats that stop the core), :func:`~.play.iter_match_hands`, :func:`~.play.hand_summary`;
* :mod:`.vector` — the batched environment (:class:`~.vector.VectorEnv`): N tables stepped together,
  learner seats handing over observation planes and action masks as arrays, one Python call a batch.

The Python engine stays the reference: same deal and the same decisions ⇒ the same events, results
and deltas (``tests/sim/test_identity.py``; ``shangrao simulate/arena --engine python|fast`` give the
same summaries and records, ``tests/sim/test_simulate_engine.py``; the batched environment's planes,
masks and rewards are the engine's at every decision, ``tests/sim/test_vector.py``).

Speed (``benchmarks/bench_sim.py``, recorded with the machine and command in docs/performance.md,
"The compiled game loop" and "The batched environment"): whole hands on one core against the Python
engine with the ``random``, ``greedy`` and ``ukeire`` bots, and the batched environment's steps per
second against pgx's ``sparrow_mahjong`` and the PettingZoo environment.  The first call compiles
the package (a minute or two of CPU); it is cached on disk with the kernels, :mod:`._cache`.

Technology: numba
=================

Chosen by measuring one kernel, the win check of a complete 14-tile hand, on 20,000 hands in one
process (``benchmarks/bench_sim.py --section "win checks"``; the shared 2-core development machine,
2026-12-02, numba 0.68.1, mahjong 2.1.0, best of 5 interleaved rounds; the first numba version, then
the kernel as it is now):

===============================================  ==============  ======================
candidate                                        win checks/s    × ``mahjong.is_agari``
===============================================  ==============  ======================
numba ``@njit``, batched ``is_win_batch``, now  8.2 M           53×
numba ``@njit``, batched, first version          2.9–5.1 M       26–30×
numba ``@njit``, one Python call a hand          0.75 M          6.9×
Python tables, ``HandKey(h, bao).is_win``        0.23–0.41 M     2.1–2.5×
Python tables, keys kept (the engine's path)     0.51 M          4.7×
``mahjong``'s ``Agari().is_agari`` (pure Python) 0.11–0.17 M     1×
===============================================  ==============  ======================

(Ranges: runs under different load from the other engineers on the machine.)  numba installs
from pip wheels on Linux, macOS and Windows with no C compiler, which a compiled extension would
need at install (or one wheel per platform, with the Python engine as fallback); it runs the same
source as the tests read.  The gain comes only when a whole batch, or the whole game loop, stays
in compiled code: one Python call a hand already costs most of it.  On the ``ukeire`` bot's
discard decisions of 3,000 real states the kernels are 43–86× the Python bot
(``--section "bot arithmetic"``).

Warm-up (``benchmarks/bench_sim.py --section warm-up``): every kernel is ``@njit(cache=True)``.  The
first run on a machine compiles them (about 11 s in all, 7 s of it :func:`~.kernels.score_win`, on an
idle core; 30 s under load) and numba writes the machine code to its cache (``__pycache__`` beside
this package, or the user's cache directory when that is read-only; ``NUMBA_CACHE_DIR`` moves it).
An edit to any source of this package recompiles all of it once (:mod:`._cache`: numba alone would
keep a caller's machine code after a kernel it calls changed in another file).  Every later process
loads it: about 1 s from import to the first answers (0.5 s importing numba,
0.3 s filling the tables, milliseconds for the first calls).  The tables are not stored: they are
filled in each process by a compiled function (:func:`~.kernels.build_tables`), 0.3 s, 43 MB.
"""

from __future__ import annotations

from ._cache import install as _install_cache

# before any kernel is compiled or loaded: a change to any source of this package recompiles all of it
_install_cache()
