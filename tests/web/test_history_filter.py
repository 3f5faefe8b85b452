"""The history's filtered list (issue 38; docs/web.md "History / 对局记录"): by kind, bot runs hidden
unless asked, a browser's own games first (or only), paging, room matches with their room and the
members' names — and a room match's spectators see the names too."""

from __future__ import annotations

from shangrao.records import Store

from .test_manners_web import Watcher
from .test_rooms import FAST, NAMES, browser, members, open_room

HUMAN = ["human", "expert", "expert", "expert"]


def _store(c) -> Store:
    return c.app.state.store


def _ids(rows: list[dict]) -> list[int]:
    return [g["id"] for g in rows]


def test_bot_runs_are_hidden_by_default_and_each_kind_is_listed_when_chosen(make_client):
    c = make_client()
    st = _store(c)
    sim = [st.create_game("simulate", ["greedy"] * 4, seed=i, rules={}) for i in range(3)]
    arena = st.create_game("arena", ["greedy", "expert"] * 2, seed=9, rules={})
    play = st.create_game("play", HUMAN, seed=5, rules={})
    web = c.post("/api/tables", json={"name": "我的桌"}).json()["id"]
    assert _ids(c.get("/api/games?kinds=").json()) == []
    assert _ids(c.get("/api/games?mine_only=false&limit=10").json()) == [web, play]  # the default kinds
    assert _ids(c.get("/api/games?kinds=simulate").json()) == sim[::-1]
    assert _ids(c.get("/api/games?kinds=arena,play").json()) == [play, arena]
    assert _ids(c.get("/api/games?kinds=web").json()) == [web]
    # without a filter: every game, as before (the CLI's and old clients' list)
    assert _ids(c.get("/api/games").json()) == [web, play, arena, *sim[::-1]]


def test_a_browsers_own_games_come_first_or_alone_and_pages_follow(make_client):
    c = make_client()
    st = _store(c)
    ids = [st.create_game("play", HUMAN, seed=i, rules={}) for i in range(7)]
    mine = f"{ids[1]},{ids[3]}"
    first = c.get(f"/api/games?kinds=play&mine={mine}&limit=3").json()
    assert _ids(first) == [ids[3], ids[1], ids[6]] and [g["mine"] for g in first] == [True, True, False]
    second = c.get(f"/api/games?kinds=play&mine={mine}&limit=3&offset=3").json()
    assert _ids(second) == [ids[5], ids[4], ids[2]]
    assert _ids(c.get(f"/api/games?kinds=play&mine={mine}&limit=3&offset=6").json()) == [ids[0]]
    assert _ids(c.get(f"/api/games?kinds=play&mine={mine}&mine_only=true").json()) == [ids[3], ids[1]]


def test_bad_kinds_or_ids_are_refused_in_words(make_client):
    c = make_client()
    r = c.get("/api/games?kinds=web,bots")
    assert r.status_code == 422 and "unknown kind of game 'bots'" in r.json()["detail"]
    r = c.get("/api/games?mine=1,x2")
    assert r.status_code == 422 and "'x2' is not a game id" in r.json()["detail"]
    r = c.get("/api/games?mine=" + ",".join(str(i) for i in range(1, 60)))
    assert r.status_code == 422 and "at most 50" in r.json()["detail"]


def test_a_room_match_is_listed_as_its_rooms_with_the_members_names_and_no_code(make_client):
    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})
    code = open_room(c)
    members(c, code, n=3)
    gid = c.post(f"/api/rooms/{code}/matches").json()["id"]
    plain = c.c.post("/api/tables", json={"name": "别的桌"}).json()["id"]
    rooms = c.get("/api/games?kinds=room").json()
    assert _ids(rooms) == [gid]
    g = rooms[0]
    assert g["room"]["name"] == "周三局" and g["room"]["match"] == 1
    assert g["names"] == [NAMES[0], NAMES[1], NAMES[2], None]
    text = c.get("/api/games?kinds=room,web").text
    assert code not in text
    assert _ids(c.get("/api/games?kinds=web").json()) == [plain]


def test_a_room_matchs_spectators_see_the_members_names_but_not_the_code(make_client):
    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})
    code = open_room(c)
    members(c, code, n=2)
    gid = c.post(f"/api/rooms/{code}/matches").json()["id"]
    w = Watcher(c.c, gid)
    m = w.until(lambda m: m["type"] == "watch")
    assert [p["name"] for p in m["table"]["players"]] == [NAMES[0], NAMES[1], None, None]
    assert m["table"]["room"] is None and code not in str(m)
    w.close()
