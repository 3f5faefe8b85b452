"""What one seat is sent: built only from that seat's observation, its legal actions
and the log redacted for that seat (:func:`shangrao.game.redact`).

Nothing here reads another seat's concealed tiles, the wall or the seed: the
``state`` message is a function of :meth:`Game.observation`, :meth:`Game.legal_actions`
for the seat, the redacted events and public table facts.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache

from ..analysis import shanten as shanten_of
from ..analysis import waits as waits_of
from ..game import ActionType, Game, redact
from ..melds import Meld
from ..tiles import format_tile

__all__ = ["seat_view", "seat_message", "LogCache", "action_info", "meld_info", "unseen_counts", "wait_kinds", "discard_wait_kinds", "WINDS",
           "LOG_TAIL"]

WINDS = "东南西北"
LOG_TAIL = 30  # redacted events sent with each state (the table's event log panel)


@lru_cache(maxsize=4096)
def meld_info(m: Meld) -> dict:
    """A meld for the browser (cached per meld: melds are immutable; do not change the dict)."""
    return {"kind": m.kind.value, "tiles": list(m.tiles), "claimed": m.claimed, "from": m.from_seat}


def action_info(a, can_win: bool) -> dict:
    d = {"action": str(a), "type": a.type.value, "tile": a.tile}
    if a.type is ActionType.CHOW:
        d["tiles"] = [a.tile, a.tile + 1, a.tile + 2]
    if can_win and a.type in (ActionType.PASS, ActionType.DISCARD):
        d["declines_win"] = True  # 偷机
    return d


def unseen_counts(obs) -> list[int]:
    """Per kind: copies the seat has not seen (:meth:`shangrao.game.Observation.unseen`)."""
    return obs.unseen()


@lru_cache(maxsize=8192)
def wait_kinds(hand_34: tuple[int, ...], bao: int, melds: tuple[Meld, ...]) -> tuple[int, ...]:
    """Kinds a hand one tile short waits on (cached: a seat's hand is asked about after every
    change of the table, and the same hands come back in every seat's view).

    hand_34: length-34 tuple of counts (3*(4-len(melds))+1 tiles).  A hand that is not ready
    (shanten > 0, one table lookup) skips the 34 trial draws.  () for a bad hand."""
    try:
        if shanten_of(hand_34, bao, list(melds)) > 0:
            return ()
        return tuple(waits_of(list(hand_34), bao, list(melds)))
    except ValueError:
        return ()


@lru_cache(maxsize=4096)
def discard_wait_kinds(hand_34: tuple[int, ...], bao: int, melds: tuple[Meld, ...],
                       discards: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For a hand with one tile to discard: (discarded kind, its waits) for each of ``discards``
    that leaves the hand ready.  Nothing is tried when the 14-tile hand is not within one tile of
    a win (shanten > 0): then no discard leaves it ready."""
    try:
        if shanten_of(hand_34, bao, list(melds)) > 0:
            return ()
    except ValueError:
        return ()
    out = []
    for k in discards:
        h = list(hand_34)
        h[k] -= 1
        w = wait_kinds(tuple(h), bao, melds)
        if w:
            out.append((k, w))
    return tuple(out)


def _waits(hand_34, bao, melds, unseen) -> list[dict]:
    return [{"kind": k, "unseen": unseen[k]} for k in wait_kinds(tuple(hand_34), bao, tuple(melds))]


def seat_view(game: Game, seat: int, *, hand_no: int, table: dict, deadline: float | None,
              settlement: dict | None = None, with_log: bool = True) -> dict:
    """The ``state`` message for ``seat`` (``with_log=False``: without its ``log``, which
    :class:`LogCache` renders as JSON text)."""
    obs = game.observation(seat)
    legal = game.legal_actions(seat) if not game.is_over else []
    can_win = any(a.type is ActionType.WIN for a in legal)
    me = obs.seat
    melds_me = obs.melds[me]
    unseen = unseen_counts(obs)
    waits = None
    discard_waits = None
    n_concealed = len(obs.hand)
    if n_concealed == 13 - 3 * len(melds_me):
        waits = _waits(obs.hand_34, obs.bao, melds_me, unseen)
    elif n_concealed == 14 - 3 * len(melds_me) and legal and obs.current_seat == me:
        kinds = tuple(sorted({a.tile for a in legal if a.type is ActionType.DISCARD and a.tile is not None}))
        discard_waits = {format_tile(k): [{"kind": x, "unseen": unseen[x]} for x in w]
                         for k, w in discard_wait_kinds(tuple(obs.hand_34), obs.bao, tuple(melds_me), kinds)}
    # the melds go out as meld_info below; no need to render them as text first
    view = dataclasses.replace(obs, melds=()).to_dict()
    view["melds"] = [[meld_info(m) for m in ms] for ms in obs.melds]
    view["winds"] = [WINDS[(s - obs.dealer) % 4] for s in range(4)]
    view["bao_count"] = sum(1 for k in obs.hand if k == obs.bao)
    out = {
        "type": "state",
        "you": me,
        "hand_no": hand_no,
        "seq": len(game.events),
        "table": table,
        "view": view,
        "legal": [action_info(a, can_win) for a in legal],
        "can_win": can_win,
        "deadline": deadline,
        "waits": waits,
        "discard_waits": discard_waits,
        "settlement": settlement,
    }
    if with_log:
        out["log"] = redact(game.events[-LOG_TAIL:], seat)  # event by event: the tail is the tail of the whole
    return out


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class LogCache:
    """The ``log`` of the state messages as JSON text: each event of the hand is redacted for a
    seat (:func:`shangrao.game.redact`) and encoded once, not once per message (the engine only
    appends events, it never changes one)."""

    def __init__(self) -> None:
        self.hand: object = None
        self.parts: dict[int, list[str]] = {}  # seat -> its encoded events of the hand, in order

    def tail(self, game: Game, seat: int) -> str:
        if self.hand != game.hand_no:
            self.hand = game.hand_no
            self.parts.clear()
        evs = game.events
        parts = self.parts.setdefault(seat, [])
        if len(parts) > len(evs):  # the game was put back (a failed write): forget the undone events
            del parts[len(evs):]
        start = max(len(parts), len(evs) - LOG_TAIL)
        if start > len(parts):  # events older than the tail are never shown: keep the positions only
            parts.extend([""] * (start - len(parts)))
        for ev in evs[len(parts):]:
            parts.append(_dumps(redact([ev], seat)[0]))
        return "[" + ",".join(parts[-LOG_TAIL:]) + "]"


def seat_message(game: Game, seat: int, *, hand_no: int, table_json: str, deadline: float | None,
                 settlement: dict | None, logs: LogCache) -> str:
    """The ``state`` message for ``seat`` as JSON text, equal to ``seat_view`` encoded; the table's
    facts (``table_json``, shared by the seats) and the log come in as ready JSON text."""
    d = seat_view(game, seat, hand_no=hand_no, table=None, deadline=deadline,  # type: ignore[arg-type]
                  settlement=settlement, with_log=False)
    head, _, rest = _dumps(d).partition(',"table":null')
    return f'{head},"table":{table_json}{rest[:-1]},"log":{logs.tail(game, seat)}}}'
