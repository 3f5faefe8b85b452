"""Hand analysis with 宝 (wildcards): wins, readings, waits and shanten.

* :mod:`.hand` — the entry points (:func:`is_winning`, :func:`shanten`, :func:`waits`,
  :func:`analyze_34` …) over ``tiles_34`` count vectors;
* :mod:`.readings` — every way to read a winning hand (:class:`Reading`, :class:`Form`);
* :mod:`.shapes` — deficits of each form (standard, 七对, 十三浪, 九幺);
* :mod:`.tables` — the fast table-driven path; :mod:`.reference` — the brute-force
  reference that the tests compare the fast path with.

>>> from shangrao.tiles import parse_tiles, to_34
>>> is_winning(to_34(parse_tiles("123m456p789s111z22z")), bao=None)
True
"""

from __future__ import annotations

from .hand import (
    INFINITE_SHANTEN,
    Analysis,
    CopyLimitError,
    HandError,
    analyze_34,
    form_shanten,
    is_baodiao_state,
    is_winning,
    shanten,
    unseen_counts,
    waits,
    waits_after_discards,
    winning_forms,
)
from .readings import Form, Group, Reading, enumerate_readings

__all__ = [
    "INFINITE_SHANTEN",
    "Analysis",
    "CopyLimitError",
    "HandError",
    "Form",
    "Group",
    "Reading",
    "analyze_34",
    "enumerate_readings",
    "form_shanten",
    "is_baodiao_state",
    "is_winning",
    "shanten",
    "unseen_counts",
    "waits",
    "waits_after_discards",
    "winning_forms",
]
