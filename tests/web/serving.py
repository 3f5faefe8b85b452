"""A real server for the web tests that need one (browsers, raw sockets, nginx): the app on uvicorn in
a thread of the test process, and Debian's chromium driven by Playwright.  One copy of the start-up
and shut-down that every such test module used to repeat."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .waiting import wait_until

CHROMIUM = "/usr/bin/chromium"
#: chromium's flags for the tests: headless, no sandbox (CI runs as root), nothing fetched from outside
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HAS_CHROMIUM = Path(CHROMIUM).exists()


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(app: Any, port: int | None = None, **config: Any) -> Iterator[tuple[int, Any]]:
    """Run ``app`` on uvicorn at 127.0.0.1 (``port``, or a free one) in a daemon thread until the block
    ends; yields ``(port, server)``.  ``config``: more ``uvicorn.Config`` arguments (protocols,
    ``ws_ping_interval`` …)."""
    import uvicorn

    port = free_port() if port is None else port
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **config))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    try:
        wait_until(lambda: srv.started, 20, "the server to start")
        yield port, srv
    finally:
        srv.should_exit = True
        th.join(10)


@contextmanager
def app_served(db_url: str, **settings: Any) -> Iterator[str]:
    """``create_app(db_url, Settings(**settings))`` served as by :func:`served`; yields its base URL.
    No review process (``review_workers=0``) unless the test asks for one."""
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    settings.setdefault("review_workers", 0)

    with served(create_app(db_url, Settings(**settings))) as (port, _srv):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, through Playwright; yields the Playwright ``Browser``."""
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class Watch:
    """Console errors, page errors, failed requests and error answers (status >= 400) of a page, in
    ``problems``.  ``aborted_ok``: a request cut short by a navigation (``net::ERR_ABORTED``, a table
    page's images when the member leaves the seat at once) is not a problem."""

    def __init__(self, page: Any, aborted_ok: bool = False) -> None:
        self.problems: list[str] = []

        def failed(r: Any) -> None:
            if "/ws/" not in r.url and not (aborted_ok and r.failure == "net::ERR_ABORTED"):
                self.problems.append(f"failed {r.url} {r.failure}")

        page.on("pageerror", lambda e: self.problems.append(f"pageerror {e}"))
        page.on("console", lambda m: self.problems.append(f"console {m.text}") if m.type == "error" else None)
        page.on("requestfailed", failed)
        page.on("response", lambda r: self.problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)


def to_my_discard(page: Any, timeout_s: float = 30.0) -> None:
    """Wait until the player may discard (``#hand .tile.playable``), passing every claim offered first:
    a random deal may offer seat 0 a chow or pung before its first discard, and a claim waits
    ``claim_timeout`` for the player with no tile playable.  Raises ``AssertionError`` after ``timeout_s``."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.locator("#hand .tile.playable").count():
            return
        passes = page.locator('#actions [data-action="pass"]')
        if passes.count():
            with contextlib.suppress(Exception):  # re-rendered under the click: look again
                passes.first.click(timeout=1000)
        page.wait_for_timeout(50)
    raise AssertionError(f"no turn to discard within {timeout_s} s")
