"""The 提示 button of the web table: the expert's top choices for one seat's decision.

:func:`hint_choices` is a function of the seat's own :class:`~shangrao.game.Observation` and its
legal actions only (what the seat's ``state`` message shows), so nothing of another seat's concealed
tiles, the wall or the seed can reach the answer.  The lines are :func:`shangrao.bots.advice.choice_text`
— the words of ``shangrao advise`` and of ``play``'s 提示.

Cost: one :func:`~shangrao.bots.expert.advise` call (an expert decision: ~7 ms median, ~20 ms p99 of
CPU, docs/performance.md).  Like the bots' choices it runs in the server's bot threads, never on the
event loop (issue 34), under the table's lock (so the answer is about the decision still on the
table); the answers are cached per (observation,
legal actions), so a seat pressing 提示 again — or a client sending ``hint`` in a loop — costs one
computation per decision, and each message counts against the connection's rate limit anyway.
"""

from __future__ import annotations

import asyncio
import dataclasses
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..bots.advice import choice_text, order_words
from ..bots.expert import ExpertBot, advise
from ..game import Action, IllegalActionError, Observation
from .errors import HintsOff
from .outgoing import HintMessage

if TYPE_CHECKING:
    from .connections import Connection
    from .tables import Table

__all__ = ["HINT_TOP", "hint_choices", "hint_note", "send_hint"]

#: how many choices the 提示 button shows
HINT_TOP = 3

_BOT = ExpertBot()  # its scoring memo is bounded (50,000 entries); its caches take threads


@lru_cache(maxsize=512)
def hint_choices(obs: Observation, legal: tuple[Action, ...]) -> tuple[dict[str, Any], ...]:
    """The expert's :data:`HINT_TOP` best choices among ``legal`` for ``obs``, best first: per choice
    ``action`` (engine string), ``ev`` (expected points), ``p_win`` (0..1), ``gain`` (points if it
    wins), ``aim`` (form or pattern id) and the line in Chinese (``zh``) and English (``en``).
    Cached (do not change the dicts).  Raises ValueError when ``legal`` is empty."""
    out = []
    for c in advise(obs, list(legal), top=HINT_TOP, bot=_BOT):
        d = c.to_dict()
        out.append(
            {
                "action": d["action"],
                "ev": d["ev"],
                "p_win": d["p_win"],
                "gain": d["gain"],
                "aim": d["aim"],
                "useful": d["useful"],
                "zh": choice_text(c, "zh"),
                "en": choice_text(c, "en"),
            }
        )
    return tuple(out)


def hint_note(choices: tuple[dict[str, Any], ...]) -> dict[str, Any] | None:
    """Why ``choices`` (of :func:`hint_choices`) are not in the order of their expected points, in
    Chinese (``zh``) and English (``en``) (:func:`shangrao.bots.advice.order_note`); None when they are."""
    evs = [c["ev"] for c in choices]
    by_speed = any(c["action"].startswith("discard ") and c.get("useful") is not None for c in choices)
    zh = order_words(evs, by_speed, "zh")
    return {"zh": zh, "en": order_words(evs, by_speed, "en")} if zh else None


async def send_hint(table: Table, seat: int, conn: Connection, hand: int, seq: int) -> None:
    """Queue on ``conn`` the expert's top choices for ``seat``'s decision at (``hand``, ``seq``) of
    ``table`` (:func:`hint_choices`, from the seat's own observation and the legal actions its state
    shows), computed in the bot threads.  Raises HintsOff, StaleActionError (not the seat's current
    position) or IllegalActionError (no decision of the seat there); nothing is sent then."""
    async with table.lock:
        if not table.hints:
            raise HintsOff("hints are switched off at this table (the host's choice)")
        g = table._at_position(seat, hand, seq)
        assert table.play is not None
        legal = table.play.options(seat)
        if len(legal) < 2:
            raise IllegalActionError("no decision of yours now: nothing to advise on")
        # the seat's own view; in a window it is named as deciding, as its state shows it
        obs = dataclasses.replace(g.observation(seat), current_seat=seat)
        choices = await asyncio.get_running_loop().run_in_executor(
            table.manager.bot_pool, hint_choices, obs, tuple(legal)
        )  # off the loop
        table.send([conn], HintMessage(hand=hand, seq=seq, choices=choices, note=hint_note(choices)))
