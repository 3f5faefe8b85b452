"""What a table request can fail with, and the seat links' tokens (one home for each refusal's words:
the app maps every class to its HTTP status once, :mod:`shangrao.web.routes`)."""

from __future__ import annotations

import hashlib
import hmac

from ..errors import InputError
from ..game import IllegalActionError

__all__ = [
    "MAX_CONNECTIONS_PER_SEAT",
    "SAVE_FAILED",
    "SERVER_PROBLEM",
    "BadLink",
    "HintsOff",
    "NotFinished",
    "ReadOnlyStore",
    "SaveError",
    "SeatBusy",
    "ServerFull",
    "StaleActionError",
    "TableError",
    "TableFinished",
    "TableNotFound",
    "TooManyNew",
    "TooManyWaiting",
    "Unloadable",
    "address_group",
    "hash_token",
    "read_only_message",
    "rematch_token",
]

#: what the player whose action could not be stored is told
SAVE_FAILED = "could not save; try again"
#: what the other seats are told while the table cannot be stored
SERVER_PROBLEM = "the server cannot save this table right now; play goes on by itself when it can"


class TableError(InputError):
    """A request about a table that cannot be served (unknown table, bad token, no free seat)."""


class TableNotFound(TableError):
    """No web table has this id."""


class TableFinished(TableError):
    """The table's match has ended: no seat can be taken."""


class StaleActionError(IllegalActionError):
    """An action answering a state that is no longer the table's (an earlier hand or position)."""


class SaveError(RuntimeError):
    """The database refused a write; nothing was changed.  The text is safe to show."""

    def __init__(self, message: str = SAVE_FAILED) -> None:
        super().__init__(message)


class BadLink(TableError):
    """A seat link (token) that is no seat's of this table (answered 403)."""

    def __init__(self, message: str = "this seat link is not valid for this table") -> None:
        super().__init__(message)


class NotFinished(TableError):
    """A rematch asked for at a table still being played."""


class TooManyNew(TableError):
    """A client address (group) created ``tables_per_minute`` tables in the last minute."""


class Unloadable(RuntimeError):
    """A stored table that cannot be loaded now (the database, or a stored log this engine refuses);
    answered 503 (not a request's fault)."""


class ServerFull(TableError):
    """The server has as many live tables as it may hold."""


class TooManyWaiting(TableError):
    """One client address (group) holds ``waiting_per_address`` tables waiting for players."""


def address_group(host: str) -> str:
    """The client address a limit counts: an IPv4 address's /24 network, an IPv6 address's /64
    (an IPv4-mapped one as IPv4), every loopback address (all of 127.0.0.0/8 and ::1: this
    machine, or a proxy on it) as one ``"loopback"``, anything else (a test client's name) as
    given.  A flood from many addresses of one network counts once."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class ReadOnlyStore(ServerFull):
    """The records database cannot be written (read-only storage): history and replays are served,
    no table can be created or played (issue 25).  Answered like a full server (503)."""


def read_only_message(why: str) -> str:
    """What the lobby and every refused create/join/seat say on a read-only server (``why``: the
    database's own words, without its URL)."""
    return (
        "只能回放记录，不能开桌 · this server's records database cannot be written "
        f"({why}): history and replays work, but no table can be created or played"
    )


#: open sockets one seat may have at once (tabs, a phone and a desktop …); one more is refused
#: (``busy``): every socket gets every state, so thousands on one seat link would cost the server
MAX_CONNECTIONS_PER_SEAT = 8


class SeatBusy(TableError):
    """The seat has :data:`MAX_CONNECTIONS_PER_SEAT` open sockets already."""


class HintsOff(TableError):
    """A hint asked for at a table whose host switched hints off."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_token(token: str, table_id: int) -> str:
    """Seat 0's token of the rematch of table ``table_id`` asked for with the seat token ``token``:
    derived from it (HMAC-SHA-256, 24 URL-safe characters like a random token), so the one who asked
    can ask again and get the same seat link (the first answer lost) while nothing but its hash is
    stored, and no other seat's token gives it."""
    import base64

    digest = hmac.new(token.encode(), f"shangrao rematch of {table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()
