"""``shangrao serve``: the web app (lobby, tables over WebSockets, history, replay)."""

from __future__ import annotations

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
    claim_timeout: Annotated[float, typer.Option("--claim-timeout", min=0.1, help="Seconds to claim a discard (then 过).")] = 15.0,
    turn_timeout: Annotated[float, typer.Option("--turn-timeout", min=0.1, help="Seconds for a turn (then a bot plays it).")] = 60.0,
    absent_timeout: Annotated[float, typer.Option("--absent-timeout", min=0, help="Seconds before a bot plays for a player who left.")] = 30.0,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open a browser (one is opened only where a display is).")] = False,
) -> None:
    """Serve the browser game.

    Open http://HOST:PORT/ to create a table and invite friends by link.

    Exits 3 if the server cannot start (e.g. the port is in use).
    """
    try:
        import uvicorn

        from ..web import Settings
        from ..web.app import create_app
    except ImportError as err:
        raise CliError(f"shangrao serve needs fastapi and uvicorn: pip install . ({err})") from None
    app = create_app(db, Settings(bot_delay=bot_delay, claim_timeout=claim_timeout, turn_timeout=turn_timeout,
                                  absent_timeout=absent_timeout))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    typer.echo(f"上饶麻将: open {url}  (records: {app.state.store._safe_url()}; Ctrl-C stops)")
    if not no_browser and _has_display():
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _has_display() -> bool:
    """A browser can be shown: a desktop session (macOS, Windows) or an X/Wayland display."""
    import os
    import sys

    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
