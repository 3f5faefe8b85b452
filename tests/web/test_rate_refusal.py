"""An action over the messages-per-second limit is refused aloud (issue 25): the sender gets an
error naming the action and the state it answered, never silence (an instant scripted client had
an action dropped and its table waited the whole turn countdown)."""

from __future__ import annotations

import time

from .conftest import SeatClient
from .waiting import elapse


def test_an_action_over_the_rate_limit_gets_a_refusal_the_client_sees(make_client):
    c = make_client(messages_per_second=2)
    r = c.post("/api/tables", json={"hands": 1, "seats": ["random", "random", "random"]})
    tid, token = r.json()["id"], r.json()["token"]
    s = SeatClient(c, tid, token, 0)
    st = s.until(
        lambda m: (
            m["type"] == "state"
            and m["view"] is not None
            and bool(m["legal"])
            and m["view"]["phase"] not in ("claim", "rob")
        )
    )
    action = st["legal"][-1]["action"]
    send = {"type": "action", "action": action, "seq": st["seq"], "hand": st["hand_no"]}
    s.send({"type": "ping"})
    s.send({"type": "ping"})  # the budget of 2 is spent
    s.send(send)
    got = s.until(lambda m: m["type"] == "error")
    assert got["code"] == "rate_limited" and "this action was not played" in got["message"]
    assert (got["action"], got["hand"], got["seq"]) == (action, st["hand_no"], st["seq"])
    elapse(0.6)  # the budget refills (2 a second): the same action, sent again, is played
    s.send(send)
    moved = s.until(lambda m: m["type"] in ("state", "error") and (m["type"] == "error" or m["seq"] != st["seq"]))
    assert moved["type"] == "state", moved


def test_a_burst_of_actions_is_refused_in_counted_messages_and_the_socket_stays_usable(make_client):
    # 200 actions at once used to queue 180 refusals, fill the send queue (64) and drop the sender
    # with no word; now each is told while the queue has room, the rest counted once a second
    c = make_client(messages_per_second=2, send_queue=16)
    r = c.post("/api/tables", json={"hands": 1, "seats": ["random", "random", "random"]})
    tid, token = r.json()["id"], r.json()["token"]
    s = SeatClient(c, tid, token, 0)
    st = s.until(
        lambda m: (
            m["type"] == "state"
            and m["view"] is not None
            and bool(m["legal"])
            and m["view"]["phase"] not in ("claim", "rob")
        )
    )
    action = {"type": "action", "action": "pass", "seq": st["seq"] - 1, "hand": st["hand_no"]}  # stale if played
    burst = 200
    for _ in range(burst):
        s.send(action)
    told = 0
    deadline = time.monotonic() + 10
    while told < burst - 2 and time.monotonic() < deadline:  # 2 are within the budget (stale, refused as such)
        m = s.recv()
        if m["type"] == "error" and m["code"] == "rate_limited":
            told += m.get("count", 1)
    assert told == burst - 2, told  # every refused action is told, none silently
    s.send({"type": "ping"})  # and the socket still answers
    assert s.until(lambda m: m["type"] in ("pong", "state", "error"))
