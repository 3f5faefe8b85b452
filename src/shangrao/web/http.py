"""The HTTP plumbing of the app: strict JSON bodies, HEAD as GET, the body limit, rate windows and
read budgets, and how a client's address is counted (:func:`client_group`)."""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, WebSocket
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import strictjson
from ..errors import quote
from .errors import address_group

__all__ = [
    "BodyLimit",
    "HeadAsGet",
    "RateWindow",
    "ReadBudget",
    "StrictJSONRequest",
    "StrictJSONRoute",
    "TokenBucket",
    "client_group",
    "cut",
    "short",
]


class StrictJSONRequest(Request):
    """A request whose JSON body refuses a key given twice in one object (FastAPI's ``json.loads``
    keeps the last silently): ``422`` naming the key.  Used by every HTTP route (:class:`StrictJSONRoute`)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = strictjson.loads(body)
            except strictjson.DuplicateKeyError as err:
                raise HTTPException(422, f"body: {err}") from None
            except json.JSONDecodeError as err:
                raise HTTPException(
                    422, f"body: bad JSON at line {err.lineno}, column {err.colno}: {strictjson.error_words(err)}"
                ) from None
            except UnicodeDecodeError:
                raise HTTPException(422, "body: not UTF-8 text") from None
            except RecursionError:
                raise HTTPException(422, "body: JSON nested too deeply") from None
            except ValueError:  # an integer of more than 4300 digits
                raise HTTPException(422, "body: a number in the JSON has more than 4300 digits") from None
        return self._json


class StrictJSONRoute(APIRoute):
    """The app's routes read their request as :class:`StrictJSONRequest` (FastAPI's documented way to
    change how a body is read)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            strict = StrictJSONRequest(request.scope, request.receive)
            if request.method in ("POST", "PUT", "PATCH"):
                kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind != "application/json" and await strict.body():
                    # a body in another type read as "not an object" by pydantic: say what to send instead
                    raise HTTPException(415, f"send the body as application/json (got {quote(kind or 'no type', 40)})")
            return await handler(strict)

        return strict_handler


class HeadAsGet:
    """ASGI middleware: ``HEAD`` is answered as ``GET`` without the body (the status and headers,
    Content-Length included, as GET's), for every page, API and static route — FastAPI's routes
    answer only the methods they name (405).  Except ``/join/{id}``: its GET takes a seat, which a
    HEAD (a link checker, a preview) must not, so a HEAD there is refused (405) as before."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD" or scope.get("path", "").startswith("/join/"):
            return await self.app(scope, receive, send)

        async def no_body(msg: Message) -> None:
            if msg["type"] == "http.response.body":
                msg = {"type": "http.response.body", "body": b"", "more_body": msg.get("more_body", False)}
            await send(msg)

        await self.app({**scope, "method": "GET"}, receive, no_body)


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes is answered 413 and not read on."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for k, v in scope.get("headers") or ():
            if k == b"content-length":
                try:
                    too_big = int(v) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    return await self._refuse(send)
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        # no (or a small) Content-Length: read the body here, at most `limit` bytes, then hand it on
        body, more = b"", True
        while more:
            msg = await receive()
            if msg["type"] != "http.request":
                return await self.app(scope, receive, send)  # the client went away
            body += msg.get("body", b"")
            more = msg.get("more_body", False)
            if len(body) > self.limit:
                return await self._refuse(send)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = b'{"detail":"request body too large: at most %d bytes"}' % self.limit
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class RateWindow:
    """At most ``n`` events per key in any ``window`` seconds (a sliding window; memory for the
    keys seen in the last window only)."""

    def __init__(self, n: int, window: float = 60.0) -> None:
        self.n, self.window = n, window
        self.hits: dict[str, collections.deque[float]] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self.hits) > 10_000:  # forget keys idle for a window
            for k in [k for k, d in self.hits.items() if not d or now - d[-1] >= self.window]:
                del self.hits[k]
        d = self.hits.setdefault(key, collections.deque())
        while d and now - d[0] >= self.window:
            d.popleft()
        if len(d) >= self.n:
            return False
        d.append(now)
        return True


class TokenBucket:
    """``rate`` messages per second with bursts of ``rate`` (per connection)."""

    def __init__(self, rate: float) -> None:
        self.rate = max(0.001, float(rate))
        self.capacity = max(1.0, self.rate)
        self.tokens = self.capacity
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class ReadBudget:
    """Token buckets per key (an address group): ``rate`` tokens a second, bursts of ``2 * rate``;
    memory for the keys seen in the last minute or so only."""

    def __init__(self, rate: float) -> None:
        self.rate = max(0.001, float(rate))
        self.capacity = max(1.0, 2 * self.rate)
        self.buckets: dict[str, list[float]] = {}

    def take(self, key: str, cost: float = 1.0, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self.buckets) > 10_000:  # forget the keys that are full again
            for k in [k for k, (tok, at) in self.buckets.items() if tok + (now - at) * self.rate >= self.capacity]:
                del self.buckets[k]
        b = self.buckets.get(key)
        if b is None:
            b = self.buckets[key] = [self.capacity, now]
        b[0] = min(self.capacity, b[0] + (now - b[1]) * self.rate)
        b[1] = now
        cost = min(cost, self.capacity)  # the largest read is always possible once the bucket is full
        if b[0] >= cost:
            b[0] -= cost
            return True
        return False


def client_group(request: Request | WebSocket) -> str:
    """The client's address as the limits count it (:func:`~shangrao.web.tables.address_group`: the
    TCP peer's /24 or /64; ``serve`` trusts no forwarded-for header)."""
    return address_group(request.client.host if request.client else "?")


def cut(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (with "…"): what someone sent is never echoed whole."""
    return text if len(text) <= limit else text[:limit] + "…"


def short(err: Exception) -> str:
    if isinstance(err, ValidationError):
        parts = []
        for e in err.errors()[:3]:
            loc = ".".join(cut(str(x)) for x in e.get("loc", ()))
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return "; ".join(parts)
    return " ".join(str(err).split())[:200]
