"""What the routers of one app share: the table manager, the store, the settings and the per-address
limits (created once by :func:`shangrao.web.app.create_app`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import HTTPException, Request

from ..records import Store
from .errors import TooManyNew
from .http import RateWindow, ReadBudget, client_group
from .manager import TableManager
from .settings import Settings

__all__ = ["AppState"]


@dataclass
class AppState:
    """The app's shared parts.  creations: new tables per address group and minute; reads: the
    history read budget per address group."""

    manager: TableManager
    store: Store
    settings: Settings = field(init=False)
    creations: RateWindow = field(init=False)
    reads: ReadBudget = field(init=False)
    #: the rooms (:class:`shangrao.web.rooms.RoomService`, set by its router): a room's table's rematch
    rooms: Any = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.settings = self.manager.settings
        self.creations = RateWindow(self.settings.tables_per_minute, 60.0)
        self.reads = ReadBudget(self.settings.reads_per_second)

    def read_budget(self, request: Request, cost: float = 1.0) -> None:
        """A history read of ``cost`` from the client's address group, or 429 (issue 25: eight
        concurrent large reads slowed a live table's replies from 3 ms to 766 ms)."""
        if not self.reads.take(client_group(request), cost):
            raise HTTPException(
                429,
                f"too many history reads from one address (or network): at most "
                f"{self.settings.reads_per_second:g} a second (a list of games costs one per "
                "100 games); try again in a second",
                headers={"Retry-After": "1"},
            )

    def new_table_allowed(self, addr: str) -> None:
        """Count a new table of ``addr``; raises TooManyNew past ``tables_per_minute``."""
        if not self.creations.allow(addr):
            raise TooManyNew(
                f"too many new tables: at most {self.settings.tables_per_minute} "
                "per minute from one address (or network); try again in a minute"
            )
