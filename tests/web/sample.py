"""A table's facts for tests that build state messages without a server (``TableInfo`` is typed:
every field is needed), and a hand of a greedy match to show."""

from __future__ import annotations

from shangrao.bots import get_bot
from shangrao.game import Game
from shangrao.game.match import Match
from shangrao.rules import DEFAULT_RULES
from shangrao.web.outgoing import PlayerInfo, TableInfo

TABLE = TableInfo(
    id=1,
    name="上饶麻将",
    status="playing",
    hands_total=4,
    hands_played=0,
    scores=[0, 0, 0, 0],
    rules={},
    free_seats=[],
    history=[],
    rematch=None,
    hints=True,
    players=[PlayerInfo(kind="human", claimed=True, connected=True, standin=False, ready=False)] * 4,
)


def greedy_hand(seed: int, hand: int) -> Game:
    """The finished Game of hand ``hand`` (0-based) of a match of four ``greedy`` bots on ``seed``."""
    m = Match(DEFAULT_RULES, seed=seed)
    bots = [get_bot("greedy", seed=f"{seed}:{i}") for i in range(4)]
    for _ in range(hand + 1):
        g = m.new_hand()
        while not g.is_over:
            s = g.current_seat
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else bots[s].choose(g.observation(s), legal))
        m.finish_hand(g)
    return g
