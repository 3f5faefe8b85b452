"""Actions name the position they answer (issue 13): ``hand`` and ``seq`` are required, anything
older is refused as stale in every later hand; a restart resumes a countdown where it was."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from shangrao.records import Store
from shangrao.records.schema import EventRow

from .conftest import connect_all, decider, key, new_table, step, sync


def _ready_all(seats) -> None:
    for s in seats:
        s.send({"type": "ready"})
    for s in seats:
        s.until(lambda m: m["type"] == "state" and m["view"] is not None and m["view"]["phase"] != "over")
    sync(seats)


def test_an_action_of_an_earlier_hand_is_refused_in_every_later_hand(make_client, db_url):
    c = make_client()
    tid, tokens = new_table(c, hands=3)
    seats = connect_all(c, tid, tokens)
    rng = random.Random(12)
    while step(seats, rng):
        pass
    refused = 0
    for hand in (1, 2):
        _ready_all(seats)
        n = 0
        while True:
            sync(seats)
            view = seats[0].state["view"]
            if view["phase"] == "over":
                break
            me = decider(seats)
            if me is None:  # a window's pause: nobody may act yet
                assert step(seats, rng)
                continue
            st = me.state
            target = key(st)  # (hand, the seat's own seq)
            assert target[0] == hand
            if n % 5 == 0:  # every fifth position: the same action and seq, from each earlier hand
                for old_hand in range(hand):
                    for a in st["legal"][:2]:  # legal right now: applied if the hand were not checked
                        me.send({"type": "action", "action": a["action"], "hand": old_hand, "seq": st["seq"]})
                        err = me.until(lambda m: m["type"] != "state")
                        assert err["type"] == "error" and err["code"] == "stale", err
                        assert "moved on" in err["message"]
                        refused += 1
                me.send({"type": "ping"})
                me.until(lambda m: m["type"] == "pong")
                assert key(me.state) == target  # nothing changed
            n += 1
            assert step(seats, rng)
    assert refused > 20
    with Store(db_url) as st:
        rec = st.load_game(tid)
    assert rec.status == "finished" and rec.hands_played == 3


def test_an_action_for_a_later_position_of_the_same_hand_is_refused(make_client):
    c = make_client()
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    sync(seats)
    me = seats[seats[0].state["view"]["current_seat"]]  # the dealer's first turn: no window
    target = key(me.state)
    a = me.state["legal"][0]["action"]
    for seq in (target[1] - 1, target[1] + 1, target[1] + 40):
        me.send({"type": "action", "action": a, "hand": target[0], "seq": seq})
        assert me.until(lambda m: m["type"] != "state")["code"] == "stale"
    assert step(seats, random.Random(1))


@pytest.mark.parametrize("where", ["turn", "window"])
def test_a_restart_resumes_the_countdown_where_it_was(make_client, db_url, where):
    """A turn's countdown, and a claim window's one countdown (issue 12), go on after a restart
    from the stored time of the hand's last event."""
    c1 = make_client(turn_timeout=100, claim_timeout=100)
    tid, tokens = new_table(c1, hands=2)
    seats = connect_all(c1, tid, tokens)
    rng = random.Random(3)
    for n in range(200):
        assert step(seats, rng), f"the hand ended before a person's {where}"
        me = decider(seats)
        if me is not None and n >= 5 and (me.state["view"]["phase"] in ("claim", "rob")) == (where == "window"):
            break
    cur = me.seat
    assert seats[cur].state["deadline"] > 90  # a person's countdown, just started
    before = key(seats[cur].state)
    for s in seats:
        s.close()
    c1.__exit__(None, None, None)
    # the decision began 60 s before the restart: move the stored times of its events back
    with Store(db_url) as st, st.engine.begin() as conn:
        rows = conn.execute(select(EventRow.id, EventRow.created).where(EventRow.game_id == tid)).all()
        for rid, created in rows:
            conn.execute(update(EventRow).where(EventRow.id == rid).values(created=created - timedelta(seconds=60)))
    c2 = make_client(turn_timeout=100, claim_timeout=100)
    seats2 = connect_all(c2, tid, tokens)
    st2 = seats2[cur].state
    assert key(st2) == before
    assert 30 < st2["deadline"] <= 41, st2["deadline"]  # not 100 again
