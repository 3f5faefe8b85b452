"""The server's metrics in the Prometheus text format (``GET /metrics``; docs/web.md lists them).

Each :class:`~shangrao.web.manager.TableManager` has its own :class:`ServerMetrics` over its own
``CollectorRegistry`` (tests make many apps in one process).  The tables call the ``record_*``
methods at the points they measure; the gauges are read when ``/metrics`` is asked for.

=====================================  =========  ======================================================
name                                   type       what
=====================================  =========  ======================================================
``shangrao_actions_total``             counter    actions applied and stored, label ``by``: ``person``
                                                  (a seat's own action) or ``bot`` (a bot, a stand-in,
                                                  a countdown's 过); its rate is actions/s
``shangrao_action_update_seconds``     histogram  from an action applied to the state messages queued for
                                                  every seat (the database write included)
``shangrao_db_write_seconds``          histogram  one database write of the tables (a group commit of
                                                  actions, a hand, a seat claim …), label ``kind``:
                                                  ``events`` or ``other``
``shangrao_db_write_failures_total``   counter    database writes that failed, label ``kind``
``shangrao_live_tables``               gauge      tables in memory (playing, waiting, being looked at)
``shangrao_websockets``                gauge      open WebSocket connections of the tables' seats
``shangrao_open_connections``          gauge      open connections (HTTP and WebSocket) counted by the
                                                  connection guard of ``shangrao serve``; 0 without it
``shangrao_dropped_sockets_total``     counter    WebSockets dropped as too slow, label ``reason``:
                                                  ``overflow`` (send queue full) or ``send timeout``
``shangrao_wal_losses_total``          counter    times the SQLite database's WAL file was found deleted
                                                  or replaced under the server's connections (they are
                                                  reopened; ``/api/server`` says what happened)
=====================================  =========  ======================================================
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

if TYPE_CHECKING:
    from .guard import ConnectionGuard

__all__ = ["ServerMetrics", "metrics_router"]

#: seconds: an action's way to the sockets is milliseconds; a slow disk makes it seconds
_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class ServerMetrics:
    """The metrics of one server (see the module doc).  manager: the TableManager whose tables are
    counted (anything with ``tables``, a dict of tables with ``seats`` holding ``conns``)."""

    def __init__(self, manager: Any = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.actions = Counter("shangrao_actions", "Actions applied and stored at the tables.", ["by"], registry=r)
        self.update_latency = Histogram(
            "shangrao_action_update_seconds",
            "Seconds from an action applied to its state messages queued for every seat.",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.db_write = Histogram(
            "shangrao_db_write_seconds",
            "Seconds of one database write of the tables.",
            ["kind"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.db_failures = Counter(
            "shangrao_db_write_failures", "Database writes of the tables that failed.", ["kind"], registry=r
        )
        self.dropped = Counter("shangrao_dropped_sockets", "WebSockets dropped as too slow.", ["reason"], registry=r)
        for by in ("person", "bot"):
            self.actions.labels(by)
        for kind in ("events", "other"):
            self.db_write.labels(kind)
            self.db_failures.labels(kind)
        for reason in ("overflow", "send timeout"):
            self.dropped.labels(reason)
        self._manager = manager
        self._applied: dict[int, float] = {}  # table id -> when its first action not yet broadcast was applied
        self._guard: ConnectionGuard | None = None
        Gauge("shangrao_live_tables", "Tables in memory.", registry=r).set_function(self._live_tables)
        Gauge("shangrao_websockets", "Open WebSocket connections of the tables' seats.", registry=r).set_function(
            self._websockets
        )
        self.wal_losses = Counter(
            "shangrao_wal_losses",
            "Times the SQLite WAL file was found deleted or replaced under the server's connections.",
            registry=r,
        )
        Gauge(
            "shangrao_open_connections",
            "Open connections counted by the connection guard of shangrao serve.",
            registry=r,
        ).set_function(self._open_connections)

    # -- what the tables call --------------------------------------------------------
    def record_action(self, table_id: int, by_person: bool) -> None:
        """An action of table ``table_id`` was applied and stored (its messages are not queued yet)."""
        self.actions.labels("person" if by_person else "bot").inc()
        self._applied.setdefault(table_id, time.perf_counter())

    def record_update(self, table_id: int) -> None:
        """Table ``table_id`` queued its state messages: the actions applied since are shown."""
        since = self._applied.pop(table_id, None)
        if since is not None:
            self.update_latency.observe(time.perf_counter() - since)

    def record_write(self, kind: str, seconds: float, failed: bool = False) -> None:
        """A database write of ``kind`` (``events``, ``other``) took ``seconds``, and failed or not."""
        self.db_write.labels(kind).observe(seconds)
        if failed:
            self.db_failures.labels(kind).inc()

    def record_drop(self, reason: str) -> None:
        """A WebSocket was dropped as too slow (``overflow``, ``send timeout``)."""
        self.dropped.labels(reason).inc()

    def watch_guard(self, guard: ConnectionGuard) -> None:
        """Count the open connections of ``guard`` (``shangrao serve``'s connection guard)."""
        self._guard = guard

    # -- gauges ----------------------------------------------------------------------
    def _live_tables(self) -> float:
        return len(getattr(self._manager, "tables", ()))

    def _websockets(self) -> float:
        tables = list(getattr(self._manager, "tables", {}).values())
        return sum(len(s.conns) for t in tables for s in t.seats)

    def _open_connections(self) -> float:
        return self._guard.count if self._guard is not None else 0

    def text(self) -> bytes:
        """The metrics in the Prometheus text format."""
        return generate_latest(self.registry)


metrics_router = APIRouter()


@metrics_router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:  # on the event loop: the tables are read where they change
    """The server's metrics in the Prometheus text format."""
    return Response(request.app.state.manager.metrics.text(), media_type=CONTENT_TYPE_LATEST)
