"""The server's settings: one pydantic-settings model, from which ``shangrao serve``'s options and the
``SHANGRAO_*`` environment variables are made (docs/web.md lists them; a test checks the list).

>>> Settings(claim_timeout=5).claim_timeout
5.0
>>> Settings(claim_timeout=-1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
...

Each field ``name`` is the option ``--name-with-dashes`` of ``shangrao serve`` and the environment
variable ``SHANGRAO_NAME`` (an option given wins over the variable; the variable over the default).
``Settings()`` made by a program reads the same variables; arguments win over them.  Bad values raise
:class:`pydantic.ValidationError` (a ``ValueError``) naming the field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from ..bots import BOTS

__all__ = ["Settings", "ENV_PREFIX", "PACES", "Pace", "env_var", "option_name", "paced"]

ENV_PREFIX = "SHANGRAO_"
DAY = 86_400.0  # the most seconds a countdown may be: inf would reach the browser as a deadline JSON cannot hold


#: a table's pace (issue 38), chosen by its creator: the factor on the server's ``bot_delay`` and
#: ``claim_pause`` (every other countdown stays as it is).  "fast" brings a player's turns at a table of
#: three bots about 1.5 s apart instead of 4-5 s.
PACES: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.35}
Pace = Literal["slow", "normal", "fast"]


def paced(settings: Settings, pace: str) -> tuple[float, float]:
    """(bot_delay, claim_pause) of a table of ``pace`` (:data:`PACES`) on a server of ``settings``.

    >>> paced(Settings(bot_delay=0.6, claim_pause=0.8), "fast")
    (0.21, 0.28)
    """
    f = PACES[pace]
    return round(settings.bot_delay * f, 6), round(settings.claim_pause * f, 6)


#: the bounds every number of seconds has besides its lower one
SECONDS: dict[str, Any] = {"le": DAY, "allow_inf_nan": False}


class Settings(BaseSettings):
    """Timing and limits of a server (seconds, counts).  Tests use small values.

    Timing — bot_delay, claim_timeout, turn_timeout, absent_timeout, next_hand_timeout, standin_bot,
    bot_deadline, bot_threads (bots decide in worker threads, each decision within its deadline),
    retry_delay, claim_pause (fair windows: every discard is an open window for at least this long).
    Limits (docs/web.md) — tables_per_minute, max_live_tables, messages_per_second, max_body, max_name,
    send_queue, send_timeout, idle_timeout.  Floods and reads (issue 25) — waiting_per_address and
    tables_per_minute count per address group (an IPv4 /24, an IPv6 /64); reads_per_second, read_threads.
    db_threads.  review_workers (issue 37).  Rooms (issue 24) — rooms_per_minute, room_guesses (code guessing), per
    address group.  Connections (:mod:`shangrao.web.guard`, applied by ``shangrao serve``) —
    header_timeout, max_connections_per_address, max_connections.  Each field's description says
    what it is; bounds are checked (``ValidationError``).
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="forbid", validate_default=False, populate_by_name=True
    )

    bot_delay: float = Field(0.6, **SECONDS, description="Seconds a bot waits before it acts.", ge=0)
    claim_timeout: float = Field(15.0, **SECONDS, description="Seconds to claim a discard (then 过).", gt=0)
    turn_timeout: float = Field(60.0, **SECONDS, description="Seconds for a turn (then a bot plays it).", gt=0)
    absent_timeout: float = Field(
        30.0, **SECONDS, description="Seconds before a bot plays for a player who left.", ge=0
    )
    next_hand_timeout: float = Field(
        30.0,
        **SECONDS,
        description="Seconds after a settlement before the next hand starts when not everyone pressed 继续.",
        ge=0,
    )
    standin_bot: str = Field(
        "greedy",
        description="The bot that plays for an absent player: " + ", ".join(BOTS) + ".",
        json_schema_extra={"choices": list(BOTS)},
    )
    claim_pause: float = Field(
        0.8,
        **SECONDS,
        description="Seconds every discard shows all seats an open claim window, claimable or not.",
        ge=0,
    )
    dissolve_timeout: float = Field(
        60.0, **SECONDS, description="Seconds the players have to answer a 解散 vote.", gt=0
    )
    phrase_interval: float = Field(
        3.0, **SECONDS, description="Seconds between two quick phrases (快捷语) of a seat.", ge=0
    )
    bot_deadline: float = Field(
        5.0,
        **SECONDS,
        description="Seconds a bot (an outside bot too) has for one decision; "
        "then the stand-in (greedy) plays that decision.",
        gt=0,
    )
    bot_threads: int = Field(
        4, ge=1, le=64, description="Worker threads in which the bots decide (never the server's event loop)."
    )
    retry_delay: float = Field(
        1.0, **SECONDS, description="Seconds before a table retries after a failed database write.", gt=0
    )
    tables_per_minute: int = Field(10, ge=1, description="Tables one client address (network) may create per minute.")
    max_live_tables: int = Field(500, ge=1, description="Tables the server holds in memory at once.")
    messages_per_second: float = Field(
        20.0, **SECONDS, description="Messages one connection may send per second.", gt=0
    )
    max_body: int = Field(16 * 1024, ge=256, description="Bytes of an HTTP request body.")
    max_name: int = Field(40, ge=1, le=200, description="Characters of a table name.")
    send_queue: int = Field(64, ge=1, description="Messages waiting for a client before it is dropped as too slow.")
    send_timeout: float = Field(
        10.0, **SECONDS, description="Seconds a write to a client may block before it is dropped.", gt=0
    )
    idle_timeout: float = Field(
        600.0, **SECONDS, description="Seconds a table waiting for players stays in memory unwatched.", gt=0
    )
    # issue 25: floods and reads
    waiting_per_address: int = Field(
        5, ge=1, description="Tables waiting for players one client address (network) may hold."
    )
    reads_per_second: float = Field(
        10.0,
        **SECONDS,
        description="History reads one client address (network) may make per second "
        "(a page of games costs one per 100 games).",
        gt=0,
    )
    read_threads: int = Field(
        1, ge=1, le=64, description="Worker threads of history reads (apart from the tables' database threads)."
    )
    db_threads: int = Field(
        0, ge=0, le=64, description="Database worker threads of the tables (0: 1 for SQLite, 4 else)."
    )
    # game reviews (issue 37)
    review_workers: int = Field(
        1,
        ge=0,
        le=16,
        description="Processes that review games (复盘) in the background; "
        "a web match is reviewed when it ends (0: reviews only "
        "when asked for, in a thread of the server).",
    )
    # rooms (issue 24)
    rooms_per_minute: int = Field(5, ge=1, description="Rooms one client address (network) may open per minute.")
    room_guesses: int = Field(
        5,
        ge=1,
        description="Unknown room codes one client address (network) may "
        "try per minute (then every code is refused for a "
        "minute).",
    )
    # connection limits (issue 22)
    header_timeout: float = Field(
        10.0,
        **SECONDS,
        description="Seconds a connection may take to send a request (its headers and "
        "body; a WebSocket handshake too).",
        gt=0,
    )
    max_connections_per_address: int = Field(
        128,
        ge=1,
        description="Connections one client address group (an "
        "IPv4 /24, an IPv6 /64, all of loopback) may "
        "hold open at once (behind a proxy: the proxy's).",
        # the 29-character --max-connections-per-address is cut at 80 columns
        json_schema_extra={"option": "--address-connections"},
        validation_alias=AliasChoices("max_connections_per_address", ENV_PREFIX + "ADDRESS_CONNECTIONS"),
    )
    max_connections: int = Field(
        0, ge=0, description="Connections in all (0: the file limit less a reserve for the database and the players)."
    )

    def model_post_init(self, _context: Any) -> None:
        if self.standin_bot not in BOTS:
            raise ValueError(f"standin_bot: one of {', '.join(BOTS)}, got {self.standin_bot!r}")


def option_name(field: str) -> str:
    """The ``serve`` option of a field: ``claim_timeout`` -> ``--claim-timeout`` (a field may name a shorter
    one: ``max_connections_per_address`` -> ``--address-connections``)."""
    extra = Settings.model_fields[field].json_schema_extra
    if isinstance(extra, dict) and isinstance(extra.get("option"), str):
        return str(extra["option"])
    return "--" + field.replace("_", "-")


def env_var(field: str) -> str:
    """The environment variable of a field: ``SHANGRAO_`` and its option's name in capitals with ``_`` for
    ``-`` (``claim_timeout`` -> ``SHANGRAO_CLAIM_TIMEOUT``, ``max_connections_per_address`` ->
    ``SHANGRAO_ADDRESS_CONNECTIONS``)."""
    return ENV_PREFIX + option_name(field)[2:].replace("-", "_").upper()
