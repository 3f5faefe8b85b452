"""The 提示 button's server side (issue 9, part 3): a ``hint`` message answers the expert's top three
choices for the asking seat's current decision, computed from that seat's observation only; a table
whose host switched hints off refuses it; a stale or non-deciding request gets an error and the
connection stays usable."""

from __future__ import annotations

import dataclasses
import random

from shangrao.bots.advice import choice_text, order_note
from shangrao.bots.expert import advise
from shangrao.game import Game, parse_action, script_wall
from shangrao.web.hints import hint_choices

from .conftest import SeatClient, connect_all, key, new_table, step, sync


def _ask(seat: SeatClient, hand: int | None = None, seq: int | None = None) -> dict:
    st = seat.state
    seat.send(
        {"type": "hint", "hand": st["hand_no"] if hand is None else hand, "seq": st["seq"] if seq is None else seq}
    )
    return seat.until(lambda m: m["type"] in ("hint", "error"))


def _table(c, tid: int):
    return c.app.state.manager.tables[tid]


def test_a_hint_is_the_experts_top_three_for_the_deciding_seats_own_observation(make_client, monkeypatch):
    c = make_client()
    tid, tokens = new_table(c, hands=1)
    seats = connect_all(c, tid, tokens)
    assert all(s.state["table"]["hints"] is True for s in seats)  # on by default
    rng = random.Random(3)
    looked = set()
    real_observation = Game.observation
    asked: list[int] = []

    def observation(self, seat):  # every observation taken while a hint is computed
        asked.append(seat)
        return real_observation(self, seat)

    checked = windows = 0
    while True:
        sync(seats)
        if seats[0].state["view"]["phase"] == "over":
            break
        for me in [s for s in seats if len(s.state["legal"]) > 1]:
            st = me.state
            if (me.seat, key(st)) in looked:
                continue
            looked.add((me.seat, key(st)))
            g = _table(c, tid).game
            legal = [parse_action(a["action"]) for a in st["legal"]]
            want = advise(dataclasses.replace(g.observation(me.seat), current_seat=me.seat), legal, top=3)
            asked.clear()
            monkeypatch.setattr(Game, "observation", observation)
            got = _ask(me)
            monkeypatch.setattr(Game, "observation", real_observation)
            assert got["type"] == "hint", got
            assert (got["hand"], got["seq"]) == key(st)
            assert [x["action"] for x in got["choices"]] == [str(w.action) for w in want]
            assert [x["zh"] for x in got["choices"]] == [choice_text(w) for w in want]
            assert [x["en"] for x in got["choices"]] == [choice_text(w, "en") for w in want]
            assert [x["ev"] for x in got["choices"]] == [w.to_dict()["ev"] for w in want]
            assert {x["action"] for x in got["choices"]} <= {a["action"] for a in st["legal"]}
            assert set(asked) <= {me.seat}  # no other seat's view (its concealed tiles) was read
            assert set(got) == {"type", "hand", "seq", "choices", "note"}
            note = order_note(want)  # why the order is not that of the points, when it is not
            assert got["note"] == ({"zh": note, "en": order_note(want, "en")} if note else None)
            windows += st["view"]["phase"] in ("claim", "rob")
            checked += 1
        if not step(seats, rng):
            break
    assert checked >= 15 and windows >= 1, (checked, windows)


def test_the_answer_depends_on_nothing_but_the_seats_observation():
    """Two deals that differ only in the other seats' concealed tiles give the dealer the same hint."""
    mine = "112233m4455p66s7z"
    a = Game(dealer=0, **script_wall({0: mine, 1: "123456789s1234z", 2: "999m999p888s5556z"}, draws="1z"))
    b = Game(dealer=0, **script_wall({0: mine, 1: "999m999p888s5556z", 2: "123456789s1234z"}, draws="1z"))
    assert a.hand_kinds(1) != b.hand_kinds(1)
    oa, ob = a.observation(0), b.observation(0)
    assert oa == ob
    legal = tuple(a.legal_actions())
    assert legal == tuple(b.legal_actions())
    hint = hint_choices(oa, legal)
    assert hint == hint_choices(ob, legal)
    assert len(hint) == 3 and all(parse_action(x["action"]) in legal for x in hint)
    assert hint[0]["aim"] in ("qidui", "qing_qidui")  # six pairs: 七对 is the plan


def test_asking_again_answers_the_same_without_computing_again(make_client):
    c = make_client()
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    me = seats[seats[0].state["view"]["current_seat"]]
    first = _ask(me)
    misses = hint_choices.cache_info().misses
    for _ in range(5):
        assert _ask(me) == first
    assert hint_choices.cache_info().misses == misses


def test_a_stale_or_non_deciding_request_is_refused_and_the_connection_stays_usable(make_client):
    c = make_client()
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    me = seats[seats[0].state["view"]["current_seat"]]  # the dealer's first turn
    other = seats[(me.seat + 1) % 4]
    hand, seq = key(me.state)
    for h, q in ((hand, seq - 1), (hand, seq + 1), (hand + 1, seq)):
        err = _ask(me, h, q)
        assert err["type"] == "error" and err["code"] == "stale" and "moved on" in err["message"], err
    err = _ask(other)  # its own current position, but nothing to decide
    assert err["type"] == "error" and err["code"] == "illegal" and "no decision" in err["message"], err
    assert _ask(me)["type"] == "hint"  # still usable
    # after the decision is taken, the old position is stale
    me.send({"type": "action", "action": me.state["legal"][-1]["action"], "hand": hand, "seq": seq})
    sync(seats)
    err = _ask(me, hand, seq)
    assert err["type"] == "error" and err["code"] == "stale", err
    for bad in (
        {"type": "hint"},
        {"type": "hint", "hand": "0", "seq": 1},
        {"type": "hint", "hand": 0, "seq": 1, "x": 1},
    ):
        me.send(bad)
        assert me.until(lambda m: m["type"] == "error")["code"] == "malformed"
    me.send({"type": "ping"})
    assert me.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_hints_off_is_refused_with_a_clear_error_and_kept_over_a_restart(make_client):
    c = make_client()
    r = c.post("/api/tables", json={"hands": 1, "seats": ["greedy"] * 3, "hints": False})
    assert r.status_code == 200, r.text
    tid, token = r.json()["id"], r.json()["token"]
    me = SeatClient(c, tid, token, 0)
    st = me.until(lambda m: m["type"] == "state" and m["view"] is not None and len(m["legal"]) > 1)
    assert st["table"]["hints"] is False
    err = _ask(me)
    assert err == {
        "type": "error",
        "code": "hints_off",
        "message": "hints are switched off at this table (the host's choice)",
    }
    me.send({"type": "ping"})
    assert me.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"  # still usable
    listed = {t["id"]: t for t in c.get("/api/tables?status=live").json()["tables"]}
    assert listed[tid]["hints"] is False
    me.close()
    c.__exit__(None, None, None)  # the server stops; a new one reads the table from the database

    c2 = make_client()
    me2 = SeatClient(c2, tid, token, 0)
    st2 = me2.until(lambda m: m["type"] == "state" and m["view"] is not None and len(m["legal"]) > 1)
    assert st2["table"]["hints"] is False
    assert _ask(me2)["code"] == "hints_off"
    on = c2.post("/api/tables", json={"hands": 1})
    assert on.status_code == 200
    assert _table(c2, on.json()["id"]).hints is True


def test_the_hints_option_is_strictly_typed(make_client):
    c = make_client()
    for bad in ("false", 0, 1, None, "off"):
        r = c.post("/api/tables", json={"hands": 1, "hints": bad})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["detail"][0]["loc"][-1] == "hints"


def test_a_rematch_keeps_hints_off(make_client):
    c = make_client()
    r = c.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3, "hints": False})
    tid2, token2 = r.json()["id"], r.json()["token"]
    me = SeatClient(c, tid2, token2, 0)
    rng = random.Random(1)
    while True:  # play the one hand to its end
        st = me.until(
            lambda m: m["type"] == "state" and m["view"] is not None and (m["legal"] or m["view"]["phase"] == "over")
        )
        if st["view"]["phase"] == "over":
            break
        a = rng.choice(st["legal"])["action"]
        me.send({"type": "action", "action": a, "hand": st["hand_no"], "seq": st["seq"]})
    if st["table"]["status"] != "finished":
        me.until(lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
    new = c.post(f"/api/tables/{tid2}/rematch", json={"token": token2})
    assert new.status_code == 200, new.text
    assert _table(c, new.json()["id"]).hints is False
