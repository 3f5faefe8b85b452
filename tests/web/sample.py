"""A table's facts for tests that build state messages without a server (``TableInfo`` is typed:
every field is needed)."""

from __future__ import annotations

from shangrao.web.outgoing import PlayerInfo, TableInfo

TABLE = TableInfo(id=1, name="上饶麻将", status="playing", hands_total=4, hands_played=0, scores=[0, 0, 0, 0],
                  rules={}, free_seats=[], history=[], rematch=None, hints=True,
                  players=[PlayerInfo(kind="human", claimed=True, connected=True, standin=False, ready=False)] * 4)
