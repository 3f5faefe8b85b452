"""The compiled, batched self-play core (issue 23): numba kernels identical to the Python engine.

* :mod:`.kernels` — hand analysis (win check, shanten, 进张, 宝吊) and scoring on numpy arrays;
* :mod:`.rules` — a :class:`~shangrao.rules.RuleSet` as the int array the kernels read.

(The measurements behind the choice of technology follow once taken.)
"""

from __future__ import annotations
