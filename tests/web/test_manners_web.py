"""Table manners at a web table (issue 24) through the TestClient: 托管 with its badge for everyone and
the take-back, the 解散 vote ending the match as recorded in the history, the quick phrases' bubble
and rate limit, spectators who are never sent a concealed tile, and the 宝吊头 discard field."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

from shangrao.game import EventType, Game, replay
from shangrao.records import Store
from shangrao.web.views import seat_view

from .conftest import OPEN, SeatClient, connect_all, new_table, step, sync
from .waiting import elapse, wait_until


class Watcher:
    """A spectator's socket with every message it received."""

    def __init__(self, client, table_id: int):
        OPEN.append(self)
        self.ctx = client.websocket_connect(f"/ws/watch/{table_id}")
        self.ws = self.ctx.__enter__()
        self.messages: list[dict] = []
        self.closed = False

    def recv(self) -> dict:
        m = self.ws.receive_json()
        self.messages.append(m)
        return m

    def until(self, pred) -> dict:
        while True:
            m = self.recv()
            if pred(m):
                return m

    def sync(self) -> None:
        self.ws.send_json({"type": "ping"})
        self.until(lambda m: m["type"] == "pong")

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.ctx.__exit__(None, None, None)


def _table_of(client, tid):
    return client.app.state.manager.tables[tid]


def _players(seat) -> list[dict]:
    return seat.state["table"]["players"]


# ------------------------------------------------------------------ 托管
def test_tuoguan_badge_is_shown_to_everyone_and_the_standin_plays_until_taken_back(make_client):
    c = make_client()
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    me = next(s for s in seats if s.state["legal"])  # the dealer, to discard
    me.send({"type": "manage", "on": True})
    wait_until(lambda: (sync(seats), all(_players(s)[me.seat]["managed"] for s in seats))[1], what="the 托管 badge")
    # the stand-in played the seat's turn: the person never acted
    wait_until(
        lambda: (sync(seats), not me.state["legal"] or me.state["view"]["current_seat"] != me.seat)[1],
        what="the stand-in's move",
    )
    assert any(e["type"] == "discard" and e["seat"] == me.seat for e in me.state["log"])
    me.send({"type": "manage", "on": False})
    wait_until(lambda: (sync(seats), not any(_players(s)[me.seat]["managed"] for s in seats))[1], what="托管 off")
    t = _table_of(c, tid)
    assert not t.manners.is_managed(me.seat)
    # from now on the seat's decisions wait for the person (turn_timeout 600 s): play on until one comes
    rng = random.Random(3)
    for _ in range(200):
        sync(seats)
        if me.state["legal"] or me.state["view"]["phase"] == "over":
            break
        others = [s for s in seats if s is not me and s.state["legal"]]
        if not others:
            continue
        s = others[0]
        a = rng.choice(s.state["legal"])
        s.send({"type": "action", "action": a["action"], "seq": s.state["seq"], "hand": s.state["hand_no"]})
    if me.state["legal"]:
        n = len(me.state["log"])
        sync(seats)
        assert len(me.state["log"]) == n and me.state["legal"]  # nobody played it for them


def test_tuoguan_survives_a_restart(make_client, db_url):
    c1 = make_client()
    tid, tokens = new_table(c1)
    seats = connect_all(c1, tid, tokens)
    seats[2].send({"type": "manage", "on": True})
    wait_until(lambda: (sync(seats), _players(seats[0])[2]["managed"])[1], what="托管 stored")
    for s in seats:
        s.close()
    c1.__exit__(None, None, None)
    c2 = make_client()
    seats2 = connect_all(c2, tid, tokens)
    assert _players(seats2[0])[2]["managed"] and _table_of(c2, tid).manners.is_managed(2)


def test_tuoguan_of_a_bot_seat_or_before_the_match_is_refused_in_words(make_client):
    c = make_client()
    d = c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]}).json()
    s = SeatClient(c, d["id"], d["token"], 0)  # one free seat: the table waits for a player
    s.until(lambda m: m["type"] == "state")
    s.send({"type": "manage", "on": True})
    err = s.until(lambda m: m["type"] == "error")
    assert err["code"] == "illegal" and "not started" in err["message"]


# ------------------------------------------------------------------ 解散
def test_dissolve_vote_passes_by_majority_and_the_history_says_dissolved(make_client, db_url):
    c = make_client()
    tid, tokens = new_table(c, seats=("human", "human", "random"), hands=4)
    seats = connect_all(c, tid, tokens)
    rng = random.Random(2)
    for _ in range(5):
        step(seats, rng)
    seats[0].send({"type": "dissolve"})
    vote = wait_until(lambda: (sync(seats), seats[1].state["table"]["manners"]["vote"])[1], what="the vote shown")
    assert vote["proposer"] == 0 and vote["voters"] == [0, 1, 2] and vote["answers"] == {"0": True}
    assert 0 < vote["left"] <= 60
    seats[1].send({"type": "vote", "agree": True})  # 2 of 3: passed
    wait_until(lambda: (sync(seats), seats[2].state["table"]["status"] == "finished")[1], what="the match ended")
    tb = seats[2].state["table"]
    assert tb["end_reason"] == "dissolved" and tb["manners"]["result"] == "passed"
    seats[2].send({"type": "action", "action": "pass", "seq": seats[2].state["seq"], "hand": seats[2].state["hand_no"]})
    assert "ended" in seats[2].until(lambda m: m["type"] == "error")["message"]
    with Store(db_url) as st:
        rec = st.load_game(tid)
    assert rec.status == "finished" and rec.meta["end_reason"] == "dissolved"
    assert rec.pending.get(len(rec.hands))  # the hand in progress stays stored as its events
    row = next(g for g in c.get("/api/games").json() if g["id"] == tid)
    assert row["end_reason"] == "dissolved" and row["status"] == "finished"
    from shangrao.cli import app as cli_app

    out = CliRunner().invoke(cli_app, ["games", "--db", db_url])
    assert out.exit_code == 0, out.output
    assert any(line.lstrip().startswith(str(tid)) and "解散" in line for line in out.output.splitlines())


def test_dissolve_vote_refused_by_the_others_fails_and_play_goes_on(make_client):
    c = make_client()
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    seats[1].send({"type": "dissolve"})
    wait_until(lambda: (sync(seats), seats[0].state["table"]["manners"]["vote"])[1], what="the vote")
    seats[0].send({"type": "vote", "agree": False})
    seats[2].send({"type": "vote", "agree": True})
    seats[3].send({"type": "vote", "agree": False})  # 2 of 4: a tie is no majority
    wait_until(lambda: (sync(seats), seats[0].state["table"]["manners"]["result"] == "failed")[1], what="failed")
    assert seats[0].state["table"]["status"] == "playing" and seats[0].state["table"]["end_reason"] is None
    seats[0].send({"type": "vote", "agree": True})
    assert "no vote" in seats[0].until(lambda m: m["type"] == "error")["message"]


def test_dissolve_vote_countdown_runs_out_and_fails(make_client):
    c = make_client(dissolve_timeout=0.3)
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    seats[0].send({"type": "dissolve"})
    wait_until(lambda: (sync(seats), seats[0].state["table"]["manners"]["vote"])[1], what="the vote")
    elapse(0.3)  # the server's countdown must run out
    wait_until(lambda: (sync(seats), seats[3].state["table"]["manners"]["result"] == "failed")[1], what="timeout")
    assert seats[3].state["table"]["manners"]["vote"] is None


def test_dissolve_vote_restart_mid_vote_keeps_the_vote_and_its_countdown(make_client, db_url):
    c1 = make_client()
    tid, tokens = new_table(c1)
    seats = connect_all(c1, tid, tokens)
    seats[0].send({"type": "dissolve"})
    seats[1].send({"type": "vote", "agree": True})
    wait_until(
        lambda: (
            sync(seats),
            seats[0].state["table"]["manners"]["vote"]
            and len(seats[0].state["table"]["manners"]["vote"]["answers"]) == 2,
        )[1],
        what="2 answers",
    )
    for s in seats:
        s.close()
    c1.__exit__(None, None, None)  # the server stops mid-vote
    c2 = make_client()
    seats2 = connect_all(c2, tid, tokens)
    vote = seats2[2].state["table"]["manners"]["vote"]
    assert vote["answers"] == {"0": True, "1": True} and 0 < vote["left"] <= 60
    seats2[2].send({"type": "vote", "agree": True})  # 3 of 4
    wait_until(lambda: (sync(seats2), seats2[3].state["table"]["end_reason"] == "dissolved")[1], what="dissolved")
    with Store(db_url) as st:
        assert st.load_game(tid).meta["end_reason"] == "dissolved"


def test_dissolve_by_a_single_person_ends_the_match_at_once(make_client):
    c = make_client()
    d = c.post("/api/tables", json={"hands": 2, "seats": ["random", "random", "random"]}).json()
    s = connect_all(c, d["id"], [d["token"]])[0]
    s.send({"type": "dissolve"})
    wait_until(lambda: (sync([s]), s.state["table"]["end_reason"] == "dissolved")[1], what="dissolved")


# ------------------------------------------------------------------ 快捷语
def test_quick_phrase_is_shown_to_the_table_and_its_spectators_and_rate_limited(make_client):
    c = make_client(phrase_interval=600)
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    w = Watcher(c, tid)
    w.sync()
    seats[1].send({"type": "phrase", "phrase": "hurry"})
    for s in seats:
        m = s.until(lambda m: m["type"] == "phrase")
        assert m == {"type": "phrase", "seat": 1, "phrase": "hurry", "text": "快点吧"}
    assert w.until(lambda m: m["type"] == "phrase")["text"] == "快点吧"
    seats[1].send({"type": "phrase", "phrase": "sorry"})
    err = seats[1].until(lambda m: m["type"] == "error")
    assert err["code"] == "rate_limited" and "one quick phrase every 600 s" in err["message"]
    seats[2].send({"type": "phrase", "phrase": "nonsense"})
    assert "no quick phrase" in seats[2].until(lambda m: m["type"] == "error")["message"]


# ------------------------------------------------------------------ spectators
def _hidden_ids(events: list[dict]) -> set[int]:
    """Tile ids that were never shown at the table during the hand: dealt or drawn, never discarded,
    melded, caught or laid down by a win."""
    held: set[int] = set()
    shown: set[int] = set()
    for ev in events:
        t = ev.get("type")
        if t == EventType.DEAL:
            for h in ev["hands"]:
                held.update(h)
        elif t == EventType.DRAW:
            held.add(ev["tile"])
        elif t in (EventType.DISCARD, EventType.CATCH_BAO):
            shown.add(ev["tile"])
        elif t in (EventType.CHOW, EventType.PUNG, EventType.KONG, EventType.KONG_STANDS):
            shown.update(ev.get("tiles") or [])
        elif t == EventType.WIN:
            shown.update(ev.get("hand") or [])
    return held - shown


def _walk(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + (k,), k, v
            yield from _walk(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, path + (i,))


def test_spectator_messages_hold_no_concealed_tile_of_any_seat_over_a_whole_match(make_client, db_url):
    c = make_client()
    tid, tokens = new_table(c, hands=2)
    seats = connect_all(c, tid, tokens)
    w = Watcher(c, tid)
    rng = random.Random(24)
    for _ in range(2):
        while step(seats, rng):
            pass
        w.sync()
        for s in seats:
            s.send({"type": "ready"})
        sync(seats)
    w.sync()
    with Store(db_url) as st:
        rec = st.load_game(tid)
    hands = [h.events for h in rec.hands]
    assert len(hands) == 2
    checked = 0
    for m in w.messages:
        if m["type"] != "watch" or m["view"] is None:
            continue
        hand = hands[m["hand_no"]]
        secret = _hidden_ids(hand)
        # the true concealed hands at the end, as kinds: the reveal lays them down, nothing before it
        final = replay(hand)
        over = m["view"]["phase"] == "over"
        assert set(m["view"]) == {
            "phase",
            "current_seat",
            "hand_sizes",
            "melds",
            "discards",
            "bao",
            "indicator",
            "tiles_left",
            "dealer",
            "scores",
            "flown",
            "last_discard",
            "kong",
            "kong_chain",
            "first_discard",
            "winds",
        }
        if m["view"]["phase"] in ("claim", "rob"):
            assert m["view"]["current_seat"] is None  # who may claim is not shown
        assert (m["reveal"] is None) == (not over) and (m["settlement"] is None) == (not over)
        for path, k, _v in _walk({k: v for k, v in m.items() if k != "reveal"}):
            assert k not in ("wall", "seed", "hands", "hands_down"), f"spectator got {path}"
        # the log names physical tiles (ids 0..135): none of a tile concealed in any seat's hand
        for path, k, v in _walk(m["log"]):
            if k in ("tile", "tiles", "hand") and v is not None:
                ids = set(v if isinstance(v, list) else [v])
                assert not ids & secret, f"spectator message holds a concealed tile at log {path}"
        for ev in m["log"]:
            assert ev["type"] not in ("pass", "call")
            if ev["type"] == "draw":
                assert ev["tile"] is None and ev["kind"] is None
            if ev["type"] == "deal":
                assert "hand" not in ev and "hands" not in ev
        if over and m["reveal"] is not None:
            assert m["reveal"]["hands_down"] == [final.hand_kinds(s) for s in range(4)]  # what the rules lay down
        checked += 1
    assert checked > 40
    text = json.dumps([m for m in w.messages if m.get("reveal") is None])
    assert '"wall"' not in text and '"seed"' not in text


def test_spectator_page_and_socket_answer_a_bad_table_in_words(make_client):
    c = make_client()
    r = c.get("/watch/999")
    assert r.status_code == 404 and "没有这张桌" in r.text
    with c.websocket_connect("/ws/watch/999") as ws:
        m = ws.receive_json()
    assert m["code"] == "forbidden" and "no table 999" in m["message"]
    tid, _tokens = new_table(c)
    assert c.get(f"/watch/{tid}").status_code == 200
    w = Watcher(c, tid)
    w.ws.send_json({"type": "action", "action": "pass", "hand": 0, "seq": 0})
    assert "only watches" in w.until(lambda m: m["type"] == "error")["message"]


# ------------------------------------------------------------------ 宝吊头 discards
def test_a_discard_into_baodiao_is_named_in_the_state_not_listed_as_33_waits():
    from shangrao.game import script_wall
    from shangrao.rules import DEFAULT_RULES

    # 宝 is 2s (indicator 1s); seat 0 holds four melds and a 宝, draws 5z: discarding 5z leaves 宝吊头
    hands = {
        0: "1m2m3m4m5m6m7m8m9m1p2p3p2s",
        1: "1m1m9m9m1p1p9p9p2s2s4z4z3z",
        2: "2m2m8m8m5p5p6p6p3s3s7m3z5s",
        3: "3m7m8m4p4p8s8s1z1z2z4z5z7z",
    }
    g = Game(DEFAULT_RULES, dealer=0, **script_wall(hands, draws="5z", indicator="1s", dice=(1, 1), dealer=0))
    v = seat_view(g, 0, hand_no=0, table={}, deadline=None)
    assert v["baodiao_discards"] == ["5z"]
    assert len(v["discard_waits"]["5z"]) > 20  # what the table listed before: every kind left
    from shangrao.labels import labels_table

    assert labels_table()["manners"]["baodiao_any"]["zh"] == "任意牌（宝吊）"
    assert labels_table()["manners"]["baodiao_any"]["en"] == "any tile (宝吊)"
    # a hand with no discard into the 宝吊 state: an empty list beside its discard waits
    g2 = Game(
        DEFAULT_RULES,
        dealer=0,
        **script_wall(
            {**hands, 0: "5m2p3p4p7p8p9p1s2s3s7s8s9s", 1: "4m6m1m9m2p5p9p3s5s9s1z2z3z"},
            draws="9s",
            indicator="7z",
            dice=(1, 1),
            dealer=0,
        ),
    )
    v2 = seat_view(g2, 0, hand_no=0, table={}, deadline=None)
    assert v2["discard_waits"] is not None and v2["baodiao_discards"] == []
