"""Bad input at the edges of the web app, found after issue 13 (the kinds a bad-input tester met):
a table in two lobby lists, rule options out of range, long input echoed, names with control or
bidirectional characters, duplicate JSON keys, and stored hands edited into another shape."""

from __future__ import annotations

import copy
import json
import random
import secrets
import sqlite3

import pytest

from shangrao.records import Store
from shangrao.rules import RuleSet
from shangrao.selfplay import play_match_records
from shangrao.web.tables import KIND, hash_token

from .conftest import connect_all, new_table

LISTS = ("open", "live", "finished")


def _post(c, text: str, path: str = "/api/tables"):
    return c.post(path, content=text.encode(), headers={"content-type": "application/json"})


def _web_game(db_url: str, name: str = "stored", finished: bool = False) -> tuple[int, str]:
    """A web table written straight into the database (a record of an older version, or one edited
    by hand): seat 0 claimed with a link of its own, seats 1-3 bots."""
    token = secrets.token_urlsafe(18)
    kinds = ["human", "random", "random", "random"]
    web = {
        "name": name,
        "seats": kinds,
        "claimed": [True, False, False, False],
        "token_hashes": [hash_token(token), None, None, None],
        "hints": True,
    }
    with Store(db_url) as st:
        gid = st.create_game(KIND, kinds, seed=7, rules=RuleSet(hands_per_match=1), meta={"web": web})
        if finished:
            st.finish_game(gid)
    return gid, token


# ---------------------------------------------------------------- 1. one lobby list per table
def _where(c, tid: int) -> list[str]:
    """The lists of GET /api/tables (every way of asking) that hold table ``tid``."""
    found = []
    for st in LISTS:
        page = [t["id"] for t in c.get(f"/api/tables?status={st}&limit=100").json()["tables"]]
        by_id = [t["id"] for t in c.get(f"/api/tables?status={st}&ids={tid}").json()["tables"]]
        assert (tid in page) == (tid in by_id), (st, page, by_id)
        if tid in page:
            found.append(st)
    old = c.get("/api/tables?limit=100").json()
    old_ids = c.get(f"/api/tables?ids={tid}").json()  # the lobby's 回到我的座位: both unfinished lists
    for st in ("open", "live"):
        assert (tid in [t["id"] for t in old[st]]) == (st in found), (st, old)
        assert (tid in [t["id"] for t in old_ids[st]]) == (st in found), (st, old_ids)
    return found


def test_a_table_waiting_for_players_is_open_not_live(make_client, db_url):
    c = make_client()
    waiting = c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]}).json()
    full = c.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3}).json()
    done, _ = _web_game(db_url, finished=True)
    assert _where(c, waiting["id"]) == ["open"]
    assert _where(c, full["id"]) == ["live"]
    assert _where(c, done) == ["finished"]
    assert c.get("/api/tables?status=live&limit=100").json()["more"] is False
    etag = c.get("/api/tables?status=live").headers["etag"]
    assert c.post(f"/api/tables/{waiting['id']}/join").status_code == 200  # its last free seat
    assert _where(c, waiting["id"]) == ["live"]
    assert c.get("/api/tables?status=live", headers={"If-None-Match": etag}).status_code == 200  # the list changed


def test_a_waiting_table_out_of_memory_is_open_not_live(make_client, db_url):
    """The lists read tables that are not in memory from their stored row: the same rule."""
    gid, _ = _web_game(db_url)  # seats 1-3 bots, seat 0 claimed: nobody to wait for
    with Store(db_url) as st:
        web = st.load_game(gid).meta["web"]
        web["seats"][1], web["claimed"][1] = "human", False  # a free seat
        from shangrao.records.live import update_meta

        update_meta(st, gid, {"web": web})
    c = make_client()
    assert _where(c, gid) == ["open"]


# ---------------------------------------------------------------- 2. every rule option strictly typed, in range
@pytest.mark.parametrize(
    "rules, field",
    [
        ({"hands_per_match": 0}, "hands_per_match"),  # was accepted: silently replaced by `hands`
        ({"hands_per_match": 8}, "hands_per_match"),
        ({"hands_per_match": 10**30}, "hands_per_match"),
        ({"base_points": -1}, "base_points"),
        ({"heavenly_points": 10**30}, "heavenly_points"),
        ({"four_bao_bonus": 1_000_001}, "four_bao_bonus"),
        ({"robbing_kong_factor": 1.5}, "robbing_kong_factor"),
        ({"robbing_kong_factor": 6.0}, "robbing_kong_factor"),
        ({"pung_kong_bonus": "1"}, "pung_kong_bonus"),
        ({"pung_kong_bonus": True}, "pung_kong_bonus"),
        ({"pung_kong_bonus": None}, "pung_kong_bonus"),
        ({"earthly_win": 0}, "earthly_win"),
        ({"earthly_win": "false"}, "earthly_win"),
        ({"kong_after_pung": [True]}, "kong_after_pung"),
    ],
)
def test_every_rule_option_is_strictly_typed_and_range_checked(make_client, rules, field):
    c = make_client()
    r = c.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3, "rules": rules})
    assert r.status_code == 422, r.text
    assert field in r.text and len(r.text) < 1000
    assert c.get("/api/tables?status=live").json()["tables"] == []  # nothing was created


def test_the_cli_rule_options_share_the_check():
    """`--rule` (simulate, arena) goes through the same RuleSet check: the same refusals."""
    from shangrao.cli.common import CliError
    from shangrao.cli.simulate import parse_rule_options

    for item in ("hands_per_match=0", "base_points=-1", "base_points=99999999999999999999", "earthly_win=2"):
        with pytest.raises(CliError, match=item.split("=")[0]):
            parse_rule_options([item])
    with pytest.raises(CliError) as err:
        parse_rule_options(["x" * 5000 + "=1"])
    assert len(str(err.value)) < 1000


# ---------------------------------------------------------------- 3. bad input quoted short, never echoed whole
def test_a_refusal_quotes_a_long_key_or_value_cut_short(make_client):
    c = make_client()
    key = "k" * 5000
    for rules in (
        {key: 1},
        {key: "x"},
        {key + "a": 1, key + "b": 2, "z" * 3000: True},
        {str(i) * 50: 1 for i in range(10)},
    ):
        r = c.post("/api/tables", json={"hands": 1, "rules": rules})
        assert r.status_code == 422 and len(r.content) < 1000, (r.status_code, len(r.content))
        assert "k" * 100 not in r.text
    r = c.post("/api/tables", json={"hands": 1, key: 1})  # an unknown top-level field
    assert r.status_code == 422 and len(r.content) < 1000
    r = c.post("/api/tables", json={"hands": 1, "rules": {"base_points": int("9" * 4000)}})
    assert r.status_code == 422 and len(r.content) < 1000


def test_a_socket_refusal_quotes_a_long_key_cut_short(make_client):
    c = make_client()
    tid, tokens = new_table(c, seats=("random",) * 3)
    (me,) = connect_all(c, tid, tokens)
    me.send(json.dumps({"type": "ping", "q" * 3000: 1}))
    m = me.until(lambda m: m["type"] == "error")
    assert m["code"] == "malformed" and len(m["message"]) < 300 and "q" * 100 not in m["message"]
    me.send({"type": "ping"})
    assert me.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


# ---------------------------------------------------------------- 4. names: no control or bidi characters
BAD_NAMES = [
    "a\x00b",
    "\x00",
    "a\tb",
    "a\nb",
    "a\x1bb",
    "a\x7fb",
    "a\x85b",
    "a\u2028b",
    "a\u2029b",
    "evil\u202ename",
    "a\u202ab",
    "a\u202db",
    "a\u2066b",
    "a\u2067b",
    "a\u2068b",
    "a\u2069b",
    "a\u200fb",
    "a\u200eb",
    "a\u061cb",
]


@pytest.mark.parametrize(
    "name", BAD_NAMES, ids=[f"U+{ord(next(ch for ch in n if not ch.isalnum())):04X}" for n in BAD_NAMES]
)
def test_a_table_name_with_control_or_bidi_characters_is_refused(make_client, name):
    c = make_client()
    r = c.post("/api/tables", json={"hands": 1, "name": name})
    assert r.status_code == 422, r.text
    bad = next(ch for ch in name if not ch.isalnum())
    assert "name" in r.text and f"U+{ord(bad):04X}" in r.text
    assert c.get("/api/tables?status=open").json()["tables"] == []


@pytest.mark.parametrize("name", ["上饶 麻将", "Tom's table", "🀄 桌", "عربي", "  spaced  "])
def test_ordinary_names_are_kept(make_client, name):
    c = make_client()
    r = c.post("/api/tables", json={"hands": 1, "name": name, "seats": ["human", "random", "random"]})
    assert r.status_code == 200, r.text
    assert c.get("/api/tables?status=open").json()["tables"][0]["name"] == name.strip()


def test_a_stored_name_with_bidi_characters_is_shown_and_copied_without_them(make_client, db_url):
    """A name stored before names were checked (or edited in the database) is shown without the
    refused characters: in the lobby, the history, the table's state, and a rematch's new table."""
    gid, token = _web_game(db_url, name="evil\u202egnp.exe\x00", finished=True)
    c = make_client()
    assert c.get(f"/api/tables?status=finished&ids={gid}").json()["tables"][0]["name"] == "evilgnp.exe"
    assert c.get(f"/api/games/{gid}").json()["name"] == "evilgnp.exe"
    assert [g["name"] for g in c.get("/api/games").json() if g["id"] == gid] == ["evilgnp.exe"]
    with c.websocket_connect(f"/ws/{gid}/{token}") as ws:
        m = ws.receive_json()
    assert m["type"] == "state" and m["table"]["name"] == "evilgnp.exe"
    r = c.post(f"/api/tables/{gid}/rematch", json={"token": token})
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    assert c.get(f"/api/tables?ids={new}").json()["live"][0]["name"] == "evilgnp.exe"


# ---------------------------------------------------------------- 5. duplicate keys
@pytest.mark.parametrize(
    "body, key",
    [
        ('{"hands": 1, "hands": 2}', "hands"),
        ('{"hands": 1, "rules": {"earthly_win": true, "earthly_win": false}}', "earthly_win"),
        ('{"name": "a", "seats": ["random", "random", "random"], "name": "b"}', "name"),
    ],
)
def test_a_request_body_with_a_key_given_twice_is_refused(make_client, body, key):
    c = make_client()
    r = _post(c, body)
    assert r.status_code == 422, r.text
    assert "given twice" in r.text and repr(key) in r.text
    assert c.get("/api/tables?limit=100").json()["live"] == []


def test_a_rematch_body_with_a_key_given_twice_is_refused(make_client, db_url):
    gid, token = _web_game(db_url, finished=True)
    c = make_client()
    r = _post(c, json.dumps({"token": token})[:-1] + f', "token": "{token}"}}', f"/api/tables/{gid}/rematch")
    assert r.status_code == 422 and "given twice" in r.text, r.text


def test_a_socket_message_with_a_key_given_twice_is_refused_and_the_socket_stays(make_client):
    c = make_client()
    tid, tokens = new_table(c, seats=("random",) * 3)
    (me,) = connect_all(c, tid, tokens)
    st = me.state
    action = (st["legal"] or [{"action": "pass"}])[0]["action"]
    # the last "seq" is the current one: a reader keeping the last key would apply the action
    twice = f'{{"type": "action", "action": "{action}", "hand": {st["hand_no"]}, "seq": {st["seq"] + 5}, "seq": {st["seq"]}}}'
    for raw in ('{"type": "ping", "type": "ping"}', twice, '{"type": "hint", "hand": 0, "hand": 0, "seq": 1}'):
        me.send(raw)
        m = me.until(lambda m: m["type"] in ("error", "pong"))
        assert m["type"] == "error" and m["code"] == "malformed" and "given twice" in m["message"], m
    me.send({"type": "ping"})
    assert me.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    assert me.state["seq"] == st["seq"] and me.state["hand_no"] == st["hand_no"]  # nothing was applied


# ---------------------------------------------------------------- 6. stored hands edited into another shape
ODD = [10**30, -1, -(10**30), "x", "9" * 60, {}, {"kind": 3}, [], [[1]], None, True, 1.5, "NaN", "Infinity"]


def _mutate(events: list[dict], rng: random.Random) -> list:
    """One edit of the kind a person makes by hand: a field of another type or out of range, a missing
    key, an event that is not an object, a value inside a list changed.  ("NaN"/"Infinity" are written
    into the stored text as the bare words, which Python's json reads.)"""
    evs: list = copy.deepcopy(events)
    i = rng.randrange(len(evs))
    ev = evs[i]
    how = rng.random()
    if how < 0.15:
        i = 0 if rng.random() < 0.5 else i  # the deal often: it holds the rules, the wall, the scores
        ev = evs[i]
    key = rng.choice(sorted(ev))
    if how < 0.55:
        ev[key] = rng.choice(ODD)
    elif how < 0.75:
        del ev[key]
    elif how < 0.85:
        evs[i] = rng.choice(ODD)
    else:
        inner = ev[key]
        if isinstance(inner, list) and inner:
            inner[rng.randrange(len(inner))] = rng.choice(ODD)
        elif isinstance(inner, dict) and inner:
            inner[rng.choice(sorted(inner))] = rng.choice(ODD)
        else:
            ev[key] = rng.choice(ODD)
    return evs


def _text(events: list) -> str:
    lines = [json.dumps(e, ensure_ascii=False) for e in events]
    return "\n".join(x.replace('"NaN"', "NaN").replace('"Infinity"', "Infinity") for x in lines)


def test_a_hand_edited_into_another_shape_is_a_clear_error_never_a_500(make_client, db_url):
    """A few dozen seeded edits of one stored hand (finished and unfinished games, and a web table whose
    hand in progress is edited): the history answers each with its data or a clear JSON error saying
    the stored hand cannot be replayed (or shown), never a 500; a seat link of the edited table gets a
    clear error on its socket."""
    (rec,) = play_match_records(5, 0, ["random"] * 4, max_hands=1)
    events = [dict(e) for e in rec["events"]]
    assert any(e["type"] == "discard" for e in events)
    rng = random.Random(2024)
    cases = []
    with Store(db_url) as st:
        for n in range(40):
            gid = st.create_game("simulate", ["random"] * 4, seed=rec["match_seed"], rules=RuleSet(hands_per_match=2))
            st.append_hand(gid, 0, rec["dealer"], events, rec["summary"])
            if n % 2:
                st.finish_game(gid)
            cases.append((gid, _mutate(events, rng)))
    # the four edits the tester described, by name, besides the random ones
    named = [copy.deepcopy(events) for _ in range(4)]
    next(e for e in named[0] if e["type"] == "discard")["seat"] = 10**30
    next(e for e in named[1] if e["type"] == "draw")["kind"] = {"a": 1}
    del next(e for e in named[2] if e["type"] == "discard")["action"]
    named[3][0]["dealer"] = "0"
    with Store(db_url) as st:
        for evs in named:
            gid = st.create_game("simulate", ["random"] * 4, seed=1, rules=RuleSet(hands_per_match=2))
            st.append_hand(gid, 0, rec["dealer"], events, rec["summary"])
            cases.append((gid, evs))
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    for gid, evs in cases:
        con.execute("UPDATE hands SET events=? WHERE game_id=?", (_text(evs), gid))
    con.commit()
    con.close()

    c = make_client()
    refused = 0
    for gid, _evs in cases:
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/hands/0/frames"):
            r = c.get(path)
            assert r.status_code in (200, 422), (gid, path, r.status_code, r.text[:300])
            body = r.json()
            if r.status_code == 422:
                assert isinstance(body["detail"], str) and len(body["detail"]) < 500
                assert "cannot be replayed" in body["detail"] or "cannot be shown" in body["detail"], body
                refused += 1
        assert c.get("/api/games?limit=500").status_code in (200, 422)
    assert refused >= 30  # most edits break the hand; each one was said so
    for gid, _evs in cases[-4:]:  # the tester's four: each refused as not replayable
        r = c.get(f"/api/games/{gid}/hands/0/frames")
        assert r.status_code == 422 and "cannot be replayed" in r.json()["detail"], r.text

    # a web table whose hand in progress was edited: its link answers, its socket says it cannot be loaded
    for k in range(6):
        gid, token = _web_game(db_url)
        evs = _mutate(events, random.Random(k))
        with Store(db_url) as st:
            st.append_events(gid, 0, events[:30])
        con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
        rows = con.execute("SELECT id FROM events WHERE game_id=? ORDER BY seq", (gid,)).fetchall()
        for (row_id,), ev in zip(rows, evs[:30]):
            con.execute("UPDATE events SET event=? WHERE id=?", (_text([ev]), row_id))
        con.commit()
        con.close()
        assert c.get(f"/t/{gid}/{token}").status_code == 200
        assert c.get(f"/api/games/{gid}").status_code in (200, 422)
        with c.websocket_connect(f"/ws/{gid}/{token}") as ws:
            m = ws.receive_json()
        assert m["type"] in ("state", "error"), m
        if m["type"] == "error":  # a table found damaged says so (issue 34), once, naming what is wrong
            assert "cannot be loaded" in m["message"] or "is damaged" in m["message"], m


# ---------------------------------------------------------------- found by the web tester (second pass)


@pytest.mark.parametrize(
    "body, needle",
    [
        (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
        (b'{"name": "\xff"}', "not UTF-8"),
        (b'{"hands": 9' + b"9" * 5000 + b"}", "4300 digits"),
        (b'{"hands": ', "bad JSON"),
    ],
)
def test_a_body_that_is_not_json_says_why(make_client, body, needle):
    c = make_client()
    r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and needle in r.text, r.text


@pytest.mark.parametrize("name", ["\u200b\ufeff\u00ad", "   ", "\u2060"])
def test_a_table_name_that_shows_nothing_is_refused(make_client, name):
    c = make_client()
    r = c.post("/api/tables", json={"name": name, "seats": ["random", "random", "random"]})
    assert r.status_code == 422 and "show something" in r.text, r.text


def test_api_games_limit_is_checked_like_api_tables(make_client):
    c = make_client()
    for bad in ("-5", "0", "501", "9" * 30):
        assert c.get(f"/api/games?limit={bad}").status_code == 422
    assert c.get("/api/games?limit=500").status_code == 200


def test_one_seat_may_have_only_a_few_sockets(make_client):
    # 3,000 sockets on one seat link were all accepted (every state is sent to each): the ninth is refused
    from contextlib import ExitStack

    from shangrao.web.tables import MAX_CONNECTIONS_PER_SEAT

    c = make_client()
    r = c.post("/api/tables", json={"seats": ["human", "human", "human"]})
    assert r.status_code == 200, r.text
    tid, token = r.json()["id"], r.json()["token"]
    with ExitStack() as stack:
        for _ in range(MAX_CONNECTIONS_PER_SEAT):
            ws = stack.enter_context(c.websocket_connect(f"/ws/{tid}/{token}"))
            assert ws.receive_json()["type"] == "state"
        with c.websocket_connect(f"/ws/{tid}/{token}") as extra:
            m = extra.receive_json()
            assert m["type"] == "error" and m["code"] == "busy", m
    with c.websocket_connect(f"/ws/{tid}/{token}") as again:  # once they are closed, the seat connects again
        assert again.receive_json()["type"] == "state"


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "application/xml", ""])
def test_a_body_of_another_content_type_is_415_saying_what_to_send(make_client, ctype):
    # it was a 422 "Input should be a valid dictionary" for a body that is a valid object
    c = make_client()
    r = c.post("/api/tables", content=b'{"hands": 1}', headers={"content-type": ctype})
    assert r.status_code == 415 and "application/json" in r.text, (r.status_code, r.text)
    assert c.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3}).status_code == 200
