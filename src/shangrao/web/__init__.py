"""Play Shangrao Mahjong in the browser: ``shangrao serve`` (FastAPI + WebSockets).

* :func:`create_app` (``shangrao.web.app``): the app over a records database.
* :class:`Settings` (``shangrao.web.settings``): timeouts, limits and bot pace.
  :class:`TableManager` / :class:`Table`: live tables.

Part of the default install (``pip install .``).  See docs/web.md.  The names are imported when
first used, so that ``shangrao.web.settings`` (read by the CLI to make ``serve``'s options) does not
load FastAPI and the tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .manager import TableManager
    from .settings import Settings
    from .tables import Table, TableError

__all__ = ["Settings", "Table", "TableError", "TableManager", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "Settings":
        from .settings import Settings

        return Settings
    if name == "TableManager":
        from .manager import TableManager

        return TableManager
    if name in ("Table", "TableError"):
        from . import tables

        return getattr(tables, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def create_app(*args: Any, **kwargs: Any) -> FastAPI:
    from .app import create_app as _create

    return _create(*args, **kwargs)
