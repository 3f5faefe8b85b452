"""The state message is built once per change (issue 13) and says the same as before: the
cached waits equal the analysis, the message built with the table's caches equals the one built
without them (``seat_view``: a fresh cache)."""

from __future__ import annotations

import json
import random

from shangrao.analysis import waits
from shangrao.game import ActionType, Game, redact, replay
from shangrao.tiles import format_tile
from shangrao.web.outgoing import StateMessage
from shangrao.web.views import (
    LOG_TAIL,
    LogCache,
    seat_message,
    seat_texts,
    seat_view,
    view_seq,
)

from .sample import TABLE


def _plain_waits(hand_34, bao, melds, unseen) -> list[int]:
    """Waits with a copy left out of the seat's sight (issue 10), computed plainly."""
    try:
        return list(waits(list(hand_34), bao, list(melds), unseen=unseen))
    except ValueError:
        return []


def test_cached_waits_and_the_cached_message_match_the_plain_computation():
    checked = 0
    for h in range(4):
        rng = random.Random(h)
        g = Game(seed=f"views:{h}", hand_no=h % 3)
        logs = LogCache()
        while True:
            for seat in range(4):
                v = seat_view(g, seat, hand_no=g.hand_no, table=TABLE, deadline=2.5)
                text = seat_message(g, seat, hand_no=g.hand_no, table=TABLE, deadline=2.5, settlement=None, logs=logs)
                assert json.loads(text) == v
                obs = g.observation(seat)
                melds = obs.melds[seat]
                if v["waits"] is not None:
                    assert [w["kind"] for w in v["waits"]] == _plain_waits(obs.hand_34, obs.bao, melds, obs.unseen())
                if v["discard_waits"] is not None:
                    want = {}
                    for a in g.legal_actions(seat):
                        if a.type is ActionType.DISCARD:
                            hh = list(obs.hand_34)
                            hh[a.tile] -= 1
                            w = _plain_waits(hh, obs.bao, melds, obs.unseen())
                            if w:
                                want[format_tile(a.tile)] = w
                    assert {k: [x["kind"] for x in ws] for k, ws in v["discard_waits"].items()} == want
                checked += 1
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 300


def _plain_log(game, seat) -> tuple[int, list[dict]]:
    log = redact(game.events, seat)
    return len(log), log[-LOG_TAIL:]


def test_the_log_cache_follows_redact_which_drops_other_seats_window_decisions():
    """``redact`` drops other seats' ``pass``/``call`` (issue 12), so a seat's log is a filter of the
    events: the cached ``seq`` and tail equal the plain redaction at every moment, also when the
    game stops in a held window (:attr:`Game.hold_windows`) and goes on, or is put back after a
    failed write (a replayed game: new event objects, fewer of them)."""
    dropped = switched = put_back = 0
    for h in range(6):
        rng = random.Random(100 + h)
        g = Game(seed=f"logcache:{h}")
        g.hold_windows = True
        logs = LogCache()
        while not g.is_over:
            for seat in range(4):
                n, tail = _plain_log(g, seat)
                assert logs.seq(g, seat) == n == view_seq(g, seat)
                assert json.loads(logs.tail(g, seat)) == tail
                dropped += len(g.events) - n
            if g.held:  # the table showed the held window; the game goes on
                switched += 1
                g.release()
                continue
            action = rng.choice(g.legal_actions())
            before = len(g.events)
            g.apply(action)
            if rng.random() < 0.05 and not g.is_over:  # a failed write: the game put back
                put_back += 1
                for seat in range(4):
                    logs.seq(g, seat)
                g = replay(g.events[:before], hold_windows=True)
                for seat in range(4):
                    n, tail = _plain_log(g, seat)
                    assert logs.seq(g, seat) == n and json.loads(logs.tail(g, seat)) == tail
    assert dropped > 0 and switched > 20 and put_back > 2


def test_the_text_without_its_countdown_is_what_tells_a_change():
    """``state_texts`` cuts the text before ``deadline``: it must stay the message's last field."""
    assert StateMessage.__struct_fields__[-1] == "deadline"
    g = Game(seed="same")
    logs = LogCache()
    a, same_a = seat_texts(g, 0, hand_no=0, table=TABLE, deadline=12.5, settlement=None, logs=logs)
    b, same_b = seat_texts(g, 0, hand_no=0, table=TABLE, deadline=3.0, settlement=None, logs=logs)
    c, same_c = seat_texts(g, 0, hand_no=0, table=TABLE, deadline=None, settlement=None, logs=logs)
    assert a != b and same_a == same_b == same_c
    assert json.loads(a)["deadline"] == 12.5 and json.loads(c)["deadline"] is None
    assert json.loads(same_a + b"}") == {k: v for k, v in json.loads(a).items() if k != "deadline"}
