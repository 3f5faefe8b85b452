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
what it reaches (the game loop: about a minute of CPU, docs/performance.md "Compile time"); it is
cached on disk with the kernels, :mod:`._cache`.

Technology: numba, chosen by measuring the win check against the candidates: the table and the
reasons are in docs/performance.md, "Choosing the technology: numba".

Warm-up (``benchmarks/bench_compile.py``, per entry point; its figures are in docs/performance.md,
"Compile time"): every kernel is ``@njit(cache=True)`` and compiled on its first call, only what that
call reaches.  The first run on a machine compiles it and numba writes the machine code to its cache
(``__pycache__`` beside this package, or the user's cache directory when that is read-only;
``NUMBA_CACHE_DIR`` moves it).  An edit to any source of this package recompiles all of it once
(:mod:`._cache`: numba alone would keep a caller's machine code after a kernel it calls changed in
another file).  Every later process loads it.  The tables are not stored: they are filled in each
process by a compiled function (:func:`~.kernels.build_tables`).
"""

from __future__ import annotations

from ._cache import install as _install_cache
from ._cache import memo_inlining as _memo_inlining
from ._cache import unliteral_calls as _unliteral_calls

# before any kernel is compiled or loaded: a change to any source of this package recompiles all of it
_install_cache()
# one compile of a kernel per argument types, not per constant passed to it (most of the first compile)
_unliteral_calls()
# an inlined function's IR built once per process, not once per call site
_memo_inlining()
