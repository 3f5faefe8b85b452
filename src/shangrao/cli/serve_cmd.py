"""``shangrao serve``: the web app (lobby, tables over WebSockets, history, replay)."""

from __future__ import annotations

import errno
import gc
import inspect
import math
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import CliError

if TYPE_CHECKING:  # the web server is imported only when it serves
    import socket

    from fastapi import FastAPI

    from ..web.settings import Settings

__all__ = ["register", "serve"]


def _settings_options() -> list[inspect.Parameter]:
    """One ``serve`` option per field of :class:`shangrao.web.Settings`: ``--name`` and ``SHANGRAO_NAME``,
    its type, default, bounds and description (so the options, the variables and the model never differ)."""
    import annotated_types as at

    from ..web.settings import Settings, env_var, option_name

    out = []
    for name, f in Settings.model_fields.items():
        kw: dict[str, Any] = {}
        for m in f.metadata:
            if isinstance(m, at.Ge):
                kw["min"] = m.ge
            elif isinstance(m, at.Gt):  # click has no open bound here: the model refuses the bound itself
                kw["min"] = m.gt
            elif isinstance(m, at.Le):
                kw["max"] = m.le
        # a short metavar (the bounds are in the model and checked): the help fits 80 columns
        metavar = "SECONDS" if f.annotation is float else "N" if f.annotation is int else "BOT"
        opt = typer.Option(
            option_name(name), envvar=env_var(name), show_envvar=False, metavar=metavar, help=f.description, **kw
        )
        out.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=Annotated[f.annotation, opt]
            )
        )
    return out


def _env(name: str) -> str:
    return "SHANGRAO_" + name.upper()


#: the options of ``serve`` that are not server settings (where to listen, the database, the WebSocket layer)
_OWN = [
    (
        "host",
        Annotated[str, typer.Option("--host", envvar=_env("host"), show_envvar=False, help="Address to listen on.")],
        "127.0.0.1",
    ),
    (
        "port",
        Annotated[
            int,
            typer.Option("--port", envvar=_env("port"), show_envvar=False, min=1, max=65535, help="Port to listen on."),
        ],
        8000,
    ),
    (
        "db",
        Annotated[
            str | None,
            typer.Option(
                "--db",
                envvar="SHANGRAO_DB",
                show_envvar=False,
                help="Records database: a path (SQLite) or a URL such as "
                "postgresql+psycopg://user@host/db (default: the CLI's "
                "database).",
            ),
        ],
        None,
    ),
]
_OWN_LATE = [
    (
        "ping_interval",
        Annotated[
            float,
            typer.Option(
                "--ping-interval",
                envvar=_env("ping_interval"),
                show_envvar=False,
                min=0.1,
                help="Seconds between WebSocket pings.",
            ),
        ],
        20.0,
    ),
    (
        "ping_timeout",
        Annotated[
            float,
            typer.Option(
                "--ping-timeout",
                envvar=_env("ping_timeout"),
                show_envvar=False,
                min=0.1,
                help="Seconds for a pong before the client is disconnected.",
            ),
        ],
        20.0,
    ),
    (
        "ws_deflate",
        Annotated[
            bool,
            typer.Option(
                "--ws-deflate",
                envvar=_env("ws_deflate"),
                show_envvar=False,
                help="Compress WebSocket messages (permessage-deflate): about 6x "
                "fewer bytes, the largest CPU cost per message.",
            ),
        ],
        False,
    ),
    (
        "no_browser",
        Annotated[
            bool, typer.Option("--no-browser", help="Do not open a browser (one is opened only where a display is).")
        ],
        False,
    ),
]


def _own(spec: list[tuple[str, Any, Any]]) -> list[inspect.Parameter]:
    return [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a) for n, a, d in spec]


def _settings_from(values: dict[str, Any]) -> Settings:
    """The Settings of the options; a value the model refuses is one line naming the option and variable."""
    from pydantic import ValidationError

    from ..web.settings import Settings, env_var, option_name

    try:
        return Settings(**values)
    except ValidationError as err:
        e = err.errors()[0]
        name = str(e["loc"][0]) if e.get("loc") else "standin_bot"
        msg = e["msg"].removeprefix("Value error, ").removeprefix(f"{name}: ")
        raise CliError(f"{option_name(name)} (or {env_var(name)}): {msg}, got {e.get('input')!r}") from None


def serve(**options: Any) -> None:
    """Serve the browser game.

    Open http://HOST:PORT/ to create a table and invite friends by link.

    Every option but --no-browser can also be set by its environment variable (an option given wins).

    The variable is SHANGRAO_ and the option's name in capitals: SHANGRAO_CLAIM_TIMEOUT=5 for --claim-timeout 5.

    Exits 3 if the server cannot start (the port is in use, or another server plays this database's tables).

    On read-only storage it serves history and replays and says why no table can be played.
    """
    from ..web.settings import Settings

    host, port, db = options.pop("host"), options.pop("port"), options.pop("db")
    ping_interval, ping_timeout = options.pop("ping_interval"), options.pop("ping_timeout")
    ws_deflate, no_browser = options.pop("ws_deflate"), options.pop("no_browser")
    if not host.strip():
        raise CliError("--host: give an address to listen on (127.0.0.1 for this machine only; 0.0.0.0 for all)")
    for flag, value in {"--ping-interval": ping_interval, "--ping-timeout": ping_timeout}.items():
        if not math.isfinite(value) or value > 86_400:
            raise CliError(f"{flag}: a number of seconds up to 86400, got {value}")
    settings = _settings_from({k: options[k] for k in Settings.model_fields})
    header_timeout = settings.header_timeout
    try:
        import uvicorn  # noqa: F401  (checked here: the error names what to install)

        from ..web.app import create_app
        from ..web.guard import ConnectionGuard, capacity, guarded_protocols, raise_file_limit
    except ImportError as err:
        raise CliError(f"shangrao serve needs fastapi and uvicorn: pip install . ({err})") from None
    from ..bots import UnknownBotError, web_bot_labels

    try:  # the offered bots, checked before anything listens (else the lobby's /api/rules fails later)
        web_bot_labels()
    except UnknownBotError as err:
        raise CliError(str(err)) from None
    app = create_app(db, settings)
    _check_owner(app)  # like a busy port: another server plays this database's tables
    file_limit = raise_file_limit()  # the soft limit up to the hard one: as many connections as allowed
    guard = ConnectionGuard(
        per_address=settings.max_connections_per_address,
        total=capacity(file_limit, settings.max_connections),
        header_timeout=header_timeout,
    )
    app.state.manager.metrics.watch_guard(guard)  # /metrics counts the open connections
    sock = _bind(host, port)  # before the address is printed: a busy port is reported, not announced
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    typer.echo(f"上饶麻将: open {url}  (records: {app.state.store._safe_url()}; Ctrl-C stops)")
    limit = "unknown" if file_limit is None else str(file_limit)
    typer.echo(
        f"connections: up to {guard.total} at once (file limit {limit}), {guard.per_address} per client "
        f"address group (/24, /64, loopback); a request's headers within {header_timeout:g} s"
    )
    if not no_browser and _has_display():
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    # proxy_headers=False: the client address (tables per minute) is the TCP peer, as docs/web.md says;
    # uvicorn's default would trust X-Forwarded-For from 127.0.0.1, so a local client could name any address
    _serve(
        app,
        sock,
        host=host,
        port=port,
        log_level="warning",
        ws_ping_interval=ping_interval,
        ws_ping_timeout=ping_timeout,
        ws_max_size=1 << 16,
        ws_per_message_deflate=ws_deflate,
        proxy_headers=False,
        **guarded_protocols(guard),
    )


def _check_owner(app: FastAPI) -> None:
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


def _serve(app: FastAPI, sock: socket.socket, **config: Any) -> None:
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


def _bind(host: str, port: int) -> socket.socket:
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


serve.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    _own(_OWN) + _settings_options() + _own(_OWN_LATE), return_annotation=None
)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
