"""Play Shangrao Mahjong in the browser: ``shangrao serve`` (FastAPI + WebSockets).

* :func:`create_app` (``shangrao.web.app``): the app over a records database.
* :class:`Settings`: timeouts and bot pace.  :class:`TableManager` / :class:`Table`: live tables.

Part of the default install (``pip install .``).  See docs/web.md.
"""

from __future__ import annotations

from .manager import TableManager
from .settings import Settings
from .tables import Table, TableError

__all__ = ["Settings", "Table", "TableError", "TableManager", "create_app"]


def create_app(*args, **kwargs):
    from .app import create_app as _create

    return _create(*args, **kwargs)
