"""``shangrao serve``: the web app (lobby, tables over WebSockets, history, replay)."""

from __future__ import annotations

import errno
import gc
import math
from typing import Annotated

import typer

from .common import CliError

__all__ = ["register", "serve"]


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option("--db", help="Records database: a path (SQLite) or a URL "
                                              "such as postgresql+psycopg://user@host/db (default: the CLI's database).")] = None,
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0, help="Seconds a bot waits before it acts.")] = 0.6,
    claim_timeout: Annotated[float, typer.Option("--claim-timeout", min=0.1,
        help="Seconds to claim a discard (then 过).")] = 15.0,
    turn_timeout: Annotated[float, typer.Option("--turn-timeout", min=0.1,
        help="Seconds for a turn (then a bot plays it).")] = 60.0,
    absent_timeout: Annotated[float, typer.Option("--absent-timeout", min=0,
        help="Seconds before a bot plays for a player who left.")] = 30.0,
    claim_pause: Annotated[float, typer.Option("--claim-pause", min=0,
        help="Seconds every discard shows all seats an open claim window, claimable or not.")] = 0.8,
    tables_per_minute: Annotated[int, typer.Option("--tables-per-minute", min=1,
        help="Tables one client address may create per minute.")] = 10,
    max_live_tables: Annotated[int, typer.Option("--max-live-tables", min=1,
        help="Tables the server holds in memory at once.")] = 500,
    messages_per_second: Annotated[float, typer.Option("--messages-per-second", min=0.1,
        help="Messages one connection may send per second.")] = 20.0,
    max_body: Annotated[int, typer.Option("--max-body", min=256, help="Bytes of an HTTP request body.")] = 16384,
    max_name: Annotated[int, typer.Option("--max-name", min=1, max=200, help="Characters of a table name.")] = 40,
    send_queue: Annotated[int, typer.Option("--send-queue", min=1,
        help="Messages waiting for a client before it is dropped as too slow.")] = 64,
    send_timeout: Annotated[float, typer.Option("--send-timeout", min=0.1,
        help="Seconds a write to a client may block before it is dropped.")] = 10.0,
    idle_timeout: Annotated[float, typer.Option("--idle-timeout", min=1,
        help="Seconds a table waiting for players stays in memory unwatched.")] = 600.0,
    ping_interval: Annotated[float, typer.Option("--ping-interval", min=0.1,
        help="Seconds between WebSocket pings.")] = 20.0,
    ping_timeout: Annotated[float, typer.Option("--ping-timeout", min=0.1,
        help="Seconds for a pong before the client is disconnected.")] = 20.0,
    ws_deflate: Annotated[bool, typer.Option("--ws-deflate",
        help="Compress WebSocket messages (permessage-deflate): about 6x fewer bytes, the largest CPU cost per message.")] = False,
    waiting_per_address: Annotated[int, typer.Option("--waiting-per-address", min=1,
        help="Tables waiting for players one client address (network) may hold.")] = 5,
    reads_per_second: Annotated[float, typer.Option("--reads-per-second", min=0.1,
        help="History reads one client address (network) may make per second (a page of games "
             "costs one per 100 games).")] = 10.0,
    no_browser: Annotated[bool, typer.Option("--no-browser",
        help="Do not open a browser (one is opened only where a display is).")] = False,
    header_timeout: Annotated[float, typer.Option("--header-timeout", min=0.1,
        help="Seconds a connection may take to send a request (its headers and body; a WebSocket handshake too).")] = 10.0,
    max_connections_per_address: Annotated[int, typer.Option("--address-connections", min=1,
        help="Connections one client address may hold open at once (behind a proxy: the proxy's).")] = 64,
    max_connections: Annotated[int, typer.Option("--max-connections", min=0,
        help="Connections in all (0: the file limit less a reserve for the database and the players).")] = 0,
) -> None:
    """Serve the browser game.

    Open http://HOST:PORT/ to create a table and invite friends by link.

    Exits 3 if the server cannot start (the port is in use, or another server plays this database's tables).

    On read-only storage it serves history and replays and says why no table can be played.
    """
    if not host.strip():
        raise CliError("--host: give an address to listen on (127.0.0.1 for this machine only; 0.0.0.0 for all)")
    seconds = {"--bot-delay": bot_delay, "--claim-timeout": claim_timeout, "--turn-timeout": turn_timeout,
               "--absent-timeout": absent_timeout, "--claim-pause": claim_pause,
               "--messages-per-second": messages_per_second, "--send-timeout": send_timeout,
               "--idle-timeout": idle_timeout, "--ping-interval": ping_interval, "--ping-timeout": ping_timeout,
               "--header-timeout": header_timeout, "--reads-per-second": reads_per_second}
    for flag, value in seconds.items():  # inf would reach the browser as a deadline JSON cannot hold
        if not math.isfinite(value) or value > 86_400:
            raise CliError(f"{flag}: a number of seconds up to 86400, got {value}")
    try:
        import uvicorn  # noqa: F401  (checked here: the error names what to install)

        from ..web import Settings
        from ..web.app import create_app
        from ..web.guard import ConnectionGuard, capacity, guarded_protocols, raise_file_limit
    except ImportError as err:
        raise CliError(f"shangrao serve needs fastapi and uvicorn: pip install . ({err})") from None
    app = create_app(db, Settings(bot_delay=bot_delay, claim_timeout=claim_timeout, turn_timeout=turn_timeout,
                                  absent_timeout=absent_timeout, claim_pause=claim_pause,
                                  tables_per_minute=tables_per_minute,
                                  max_live_tables=max_live_tables, messages_per_second=messages_per_second,
                                  max_body=max_body, max_name=max_name, send_queue=send_queue,
                                  send_timeout=send_timeout, idle_timeout=idle_timeout,
                                  waiting_per_address=waiting_per_address, reads_per_second=reads_per_second,
                                  header_timeout=header_timeout,
                                  max_connections_per_address=max_connections_per_address,
                                  max_connections=max_connections))
    _check_owner(app)  # like a busy port: another server plays this database's tables
    file_limit = raise_file_limit()  # the soft limit up to the hard one: as many connections as allowed
    guard = ConnectionGuard(per_address=max_connections_per_address, total=capacity(file_limit, max_connections),
                            header_timeout=header_timeout)
    sock = _bind(host, port)  # before the address is printed: a busy port is reported, not announced
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    typer.echo(f"上饶麻将: open {url}  (records: {app.state.store._safe_url()}; Ctrl-C stops)")
    limit = "unknown" if file_limit is None else str(file_limit)
    typer.echo(f"connections: up to {guard.total} at once (file limit {limit}), {guard.per_address} per client "
               f"address; a request's headers within {header_timeout:g} s")
    if not no_browser and _has_display():
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    # proxy_headers=False: the client address (tables per minute) is the TCP peer, as docs/web.md says;
    # uvicorn's default would trust X-Forwarded-For from 127.0.0.1, so a local client could name any address
    _serve(app, sock, host=host, port=port, log_level="warning", ws_ping_interval=ping_interval,
           ws_ping_timeout=ping_timeout, ws_max_size=1 << 16, ws_per_message_deflate=ws_deflate,
           proxy_headers=False, **guarded_protocols(guard))


def _check_owner(app) -> None:
    """Exit 3 with one line when another ``shangrao serve`` owns the database's live tables (issue 25;
    :mod:`shangrao.records.owner`).  The server takes the ownership itself when it starts."""
    from ..records import RecordError
    from ..records.owner import StoreBusy, check_free

    if app.state.manager.read_only is not None:
        return
    try:
        check_free(app.state.store)
    except StoreBusy as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(3) from None
    except RecordError:
        pass  # no lock can be made (read-only storage): the server starts read-only and says why


def _serve(app, sock, **config) -> None:
    """Run uvicorn on the bound socket ``sock`` (``config``: :class:`uvicorn.Config` keywords)."""
    import uvicorn

    # the server allocates many short-lived dicts per message: what is loaded by now is never scanned
    # by the garbage collector again, and the youngest generation is collected every 20,000
    # allocations instead of 700 (7% of the CPU and pauses of up to 0.1 s under load before;
    # docs/performance.md)
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    uvicorn.Server(uvicorn.Config(app, **config)).run(sockets=[sock])


def _bind(host: str, port: int):  # -> socket.socket
    """A listening socket on ``host:port``; exit 3 with one line when it cannot be had (in use, no such
    address, not permitted)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        typer.echo(f"error: --host {host!r}: no such address ({err.strerror})", err=True)
        raise typer.Exit(3) from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(2048)
    except OSError as err:
        sock.close()
        why = "address already in use" if err.errno == errno.EADDRINUSE else (err.strerror or str(err))
        typer.echo(f"error: cannot listen on {host}:{port}: {why}", err=True)
        raise typer.Exit(3) from None
    sock.set_inheritable(True)
    return sock


def _has_display() -> bool:
    """A browser can be shown: a desktop session (macOS, Windows) or an X/Wayland display."""
    import os
    import sys

    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
