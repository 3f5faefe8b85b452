"""The action table and observation planes (:mod:`shangrao.encoding`, re-exported here under its old name)."""

from __future__ import annotations

from ..encoding import *  # noqa: F403
from ..encoding import __all__, __getattr__  # noqa: F401  (the names before v1, with a DeprecationWarning)
