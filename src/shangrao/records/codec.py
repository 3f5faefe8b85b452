"""The records' errors and the JSON text of stored values: the lowest module of
:mod:`shangrao.records`, so :mod:`~shangrao.records.store`, :mod:`~shangrao.records.compact` and
:mod:`~shangrao.records.migrations` all import it and none of them another (issue 39: no import cycle).
"""

from __future__ import annotations

import json
from dataclasses import asdict, is_dataclass
from typing import Any

from ..errors import InputError

__all__ = ["DamagedRecordError", "GameNotFound", "RecordError", "event_to_dict"]


class RecordError(InputError):
    """A records operation failed: bad argument, duplicate hand, unreadable database."""


class GameNotFound(RecordError, LookupError):
    """No stored game has this id."""


class DamagedRecordError(RecordError):
    """A stored row that was edited or damaged outside this library (a bad dealer, a result that is
    not JSON, a hand with neither events nor decisions …): the message names the record.  Lasting,
    unlike a database that cannot be read now."""


def event_to_dict(ev: Any) -> dict[str, Any]:
    """An event as a JSON object: a dict, an object with ``to_dict()``, a dataclass, or JSON text."""
    if isinstance(ev, dict):
        out = ev
    elif hasattr(ev, "to_dict"):
        out = ev.to_dict()
    elif is_dataclass(ev) and not isinstance(ev, type):
        out = asdict(ev)
    elif isinstance(ev, str):
        try:
            out = json.loads(ev)
        except json.JSONDecodeError as err:
            raise RecordError(f"event is not JSON: {err}") from None
    else:
        raise RecordError(f"cannot store an event of type {type(ev).__name__}")
    if not isinstance(out, dict):
        raise RecordError(f"an event must be a JSON object, got {type(out).__name__}")
    return out


def _dumps(obj: Any) -> str:
    # allow_nan=False: NaN/Infinity are not JSON; SQLite would store them, but PostgreSQL's json
    # type refuses them with a driver error, so they are refused up front on every backend
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as err:
        raise RecordError(f"not JSON-serialisable: {err}") from None
