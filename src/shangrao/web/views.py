"""What one seat is sent: built only from that seat's observation, its legal actions
and the log redacted for that seat (:func:`shangrao.game.redact`).

Nothing here reads another seat's concealed tiles, the wall or the seed: the
``state`` message is a function of :meth:`Game.observation`, :meth:`Game.legal_actions`
for the seat, the redacted events and public table facts.
"""

from __future__ import annotations

from ..analysis import waits as waits_of
from ..analysis import waits_after_discards
from ..game import ActionType, Game, redact
from ..melds import Meld
from ..tiles import format_tile

__all__ = ["seat_view", "action_info", "meld_info", "unseen_counts", "WINDS", "LOG_TAIL"]

WINDS = "东南西北"
LOG_TAIL = 30  # redacted events sent with each state (the table's event log panel)


def meld_info(m: Meld) -> dict:
    return {"kind": m.type.value, "tiles": list(m.tiles), "claimed": m.claimed, "from": m.from_seat}


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


def _waits(hand_34, bao, melds, unseen) -> list[dict]:
    try:
        w = waits_of(list(hand_34), bao, list(melds))
    except ValueError:
        return []
    return [{"kind": k, "unseen": unseen[k]} for k in w]


def seat_view(game: Game, seat: int, *, hand_no: int, table: dict, deadline: float | None,
              settlement: dict | None = None) -> dict:
    """The ``state`` message for ``seat``."""
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
        kinds = [a.kind for a in legal if a.type is ActionType.DISCARD]
        after = waits_after_discards(obs.hand_34, obs.bao, melds_me, discards=kinds)
        discard_waits = {format_tile(k): [{"kind": x, "unseen": unseen[x]} for x in w] for k, w in after.items()}
    view = obs.to_dict()
    view["melds"] = [[meld_info(m) for m in ms] for ms in obs.melds]
    view["winds"] = [WINDS[(s - obs.dealer) % 4] for s in range(4)]
    view["bao_count"] = sum(1 for k in obs.hand if k == obs.bao)
    log = redact(game.events, seat)
    return {
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
        "log": log[-LOG_TAIL:],
        "settlement": settlement,
    }
