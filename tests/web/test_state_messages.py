"""The state message is built once per change (issue 13) and says the same as before: the
cached waits equal the analysis, the JSON text equals ``seat_view`` encoded."""

from __future__ import annotations

import json
import random

from shangrao.analysis import waits
from shangrao.game import ActionType, Game
from shangrao.tiles import format_tile
from shangrao.web.views import LogCache, seat_message, seat_view


def _plain_waits(hand_34, bao, melds) -> list[int]:
    try:
        return list(waits(list(hand_34), bao, list(melds)))
    except ValueError:
        return []


def test_cached_waits_and_the_text_message_match_the_plain_computation():
    checked = 0
    for h in range(4):
        rng = random.Random(h)
        g = Game(seed=f"views:{h}", hand_no=h % 3)
        logs = LogCache()
        table = {"id": 7, "name": "桌", "players": [{"kind": "human"}] * 4}
        while True:
            for seat in range(4):
                v = seat_view(g, seat, hand_no=g.hand_no, table=table, deadline=2.5)
                text = seat_message(g, seat, hand_no=g.hand_no, table_json=json.dumps(table, ensure_ascii=False),
                                    deadline=2.5, settlement=None, logs=logs)
                assert json.loads(text) == v
                obs = g.observation(seat)
                melds = obs.melds[seat]
                if v["waits"] is not None:
                    assert [w["kind"] for w in v["waits"]] == _plain_waits(obs.hand_34, obs.bao, melds)
                if v["discard_waits"] is not None:
                    want = {}
                    for a in g.legal_actions(seat):
                        if a.type is ActionType.DISCARD:
                            hh = list(obs.hand_34)
                            hh[a.tile] -= 1
                            w = _plain_waits(hh, obs.bao, melds)
                            if w:
                                want[format_tile(a.tile)] = w
                    assert {k: [x["kind"] for x in ws] for k, ws in v["discard_waits"].items()} == want
                checked += 1
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 300
