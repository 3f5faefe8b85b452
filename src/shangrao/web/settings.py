"""The settings of a server (``Settings``: timing, limits, connections), as ``shangrao serve`` takes
them; :mod:`shangrao.web` re-exports it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass
class Settings:
    """Timing and limits of a server (seconds, counts).  Tests use small values.

    Timing — bot_delay: pause before a bot acts (so people can follow).  claim_timeout: countdown
    of a claim/rob window for a person (then 过).  turn_timeout: countdown of a person's own turn
    (then the stand-in bot plays).  absent_timeout: a seat without a connection this long is played
    by the stand-in bot until its player returns.  next_hand_timeout: pause after a settlement
    before the next hand when not everyone pressed 继续.  standin_bot: the bot for absent players.
    retry_delay: pause before the runner retries after a failed database write.
    claim_pause: every discard (and robbable kong) is shown to all seats as an open window for at
    least this long, whether or not anyone can claim; bots decide inside it (fair windows).

    Limits (docs/web.md) — tables_per_minute: tables one client address may create per minute.
    max_live_tables: tables in memory (playing, waiting or being looked at).  messages_per_second:
    messages one connection may send per second (a burst of as many is allowed).  max_body: bytes of
    an HTTP request body.  max_name: characters of a table (or player) name.  send_queue: messages
    waiting for one connection before it is dropped as too slow; send_timeout: seconds one write to
    a socket may block before the same.  idle_timeout: seconds a table waiting for players stays in
    memory without any connection.

    Floods and reads (issue 25) — waiting_per_address: tables waiting for players one client address
    (group) may hold in memory; tables_per_minute and this count per address group (an IPv4 /24, an
    IPv6 /64: :func:`address_group`), so many addresses of one network count as one.  A table with a
    person seated is never refused for ``max_live_tables`` when its seat link loads it, and a restart
    resumes every such table being played whatever the cap.  reads_per_second: the budget of history
    reads (``/api/games``, a stored game, a replay's frames) of one address group per second, a burst
    of twice as much; a list of games costs one plus one per 100 games asked for.  read_threads:
    worker threads of those reads (and of building their answers), apart from the tables' own
    database threads: a flood of large reads queues for them, never in front of a table's write,
    and takes at most that many threads' share of the CPU.

    db_threads: database worker threads (0: 1 for SQLite, 4 else).

    Connections (:mod:`shangrao.web.guard`, applied by ``shangrao serve``) — header_timeout: seconds a
    connection may take to send a request (its headers, and the body they announce; a WebSocket
    handshake too); then it is closed.
    max_connections_per_address: connections one client address may hold open at once; one more is
    answered 503 and closed at once.  max_connections: connections in all (0: the file limit less a
    reserve, :func:`shangrao.web.guard.capacity`).
    """

    bot_delay: float = 0.6
    claim_timeout: float = 15.0
    turn_timeout: float = 60.0
    absent_timeout: float = 30.0
    next_hand_timeout: float = 30.0
    standin_bot: str = "greedy"
    claim_pause: float = 0.8
    retry_delay: float = 1.0
    tables_per_minute: int = 10
    max_live_tables: int = 500
    messages_per_second: float = 20.0
    max_body: int = 16 * 1024
    max_name: int = 40
    send_queue: int = 64
    send_timeout: float = 10.0
    idle_timeout: float = 600.0
    # issue 25: floods and reads
    waiting_per_address: int = 5
    reads_per_second: float = 10.0
    read_threads: int = 1
    db_threads: int = 0
    # connection limits (issue 22)
    header_timeout: float = 10.0
    max_connections_per_address: int = 64
    max_connections: int = 0
