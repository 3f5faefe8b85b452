"""Rooms for a group over the API (issue 24; docs/web.md "Rooms / 房间"): a 6-digit code from
``secrets``, members who keep their names and seats across matches, the 战绩 equal to the sum of the
stored hands (and its CSV), a room that survives a restart, and every refusal in words."""

from __future__ import annotations

import csv
import io
import re

import pytest

from .conftest import TestClient
from .waiting import wait_until

#: nobody connects in these tests: the stand-in plays every seat at once, hands follow each other
FAST = dict(absent_timeout=0.0, next_hand_timeout=0.0, bot_delay=0.0, claim_pause=0.0, rooms_per_minute=10_000)
NAMES = ["老王", "小李", "阿三", "丁丁"]


class Browser:
    """One browser's cookies over the app's one client (a second ``TestClient`` not entered would run
    each request on an event loop of its own, which ends with the request — and a table it started)."""

    def __init__(self, c: TestClient) -> None:
        self.c, self.jar, self.app = c, {}, c.app

    def request(self, method: str, url: str, **kw):
        self.c.cookies.clear()
        for k, v in self.jar.items():
            self.c.cookies.set(k, v)
        try:
            r = self.c.request(method, url, **kw)
            self.jar.update(dict(self.c.cookies))
        finally:
            self.c.cookies.clear()
        return r

    def get(self, url: str, **kw):
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw):
        return self.request("POST", url, **kw)


def open_room(c, player: str = NAMES[0], hands: int = 1, name: str = "周三局") -> str:
    r = c.post("/api/rooms", json={"player": player, "name": name, "hands": hands})
    assert r.status_code == 200, r.text
    return r.json()["code"]


def members(c: Browser, code: str, n: int = 4) -> list[Browser]:
    """``c`` and ``n - 1`` more browsers (each its own cookies) as the room's members."""
    out = [c]
    for name in NAMES[1:n]:
        other = Browser(c.c)
        r = other.post(f"/api/rooms/{code}/join", json={"player": name})
        assert r.status_code == 200, r.text
        out.append(other)
    return out


def finish_match(c: TestClient, code: str) -> dict:
    return wait_until(
        lambda: (cur := c.get(f"/api/rooms/{code}").json()["current"]) and cur["status"] == "finished" and cur,
        60,
        "the room's match to finish",
    )


def stored_sum(c: TestClient, game_ids: list[int]) -> list[int]:
    total = [0, 0, 0, 0]
    for gid in game_ids:
        for h in c.get(f"/api/games/{gid}").json()["hands"]:
            total = [a + b for a, b in zip(total, h["result"]["deltas"])]
    return total


def browser(make_client, **settings) -> Browser:
    return Browser(make_client(**settings))


def test_a_room_code_is_six_digits_drawn_with_secrets_and_unique_among_live_rooms(make_client, monkeypatch):
    from shangrao.web import rooms

    c = browser(make_client, **FAST)
    codes = {open_room(c) for _ in range(5)}
    assert len(codes) == 5 and all(re.fullmatch(r"\d{6}", x) for x in codes)
    taken = int(sorted(codes)[0])
    drawn = iter([taken, taken, 7])
    monkeypatch.setattr(rooms.secrets, "randbelow", lambda n: next(drawn))
    assert open_room(c) == "000007"  # a live room's code is drawn again, not shared


def test_members_join_by_code_keep_their_names_and_seats_and_a_fifth_is_refused_in_words(make_client):
    c = browser(make_client, **FAST)
    code = open_room(c)
    browsers = members(c, code)
    for seat, b in enumerate(browsers):
        info = b.get(f"/api/rooms/{code}").json()
        assert info["me"] == seat
        assert info["members"] == [{"seat": i, "name": n} for i, n in enumerate(NAMES)]
    again = browsers[2].post(f"/api/rooms/{code}/join", json={"player": "别名"})
    assert again.json()["seat"] == 2  # a member joining again keeps their seat (and name)
    fifth = Browser(c.c).post(f"/api/rooms/{code}/join", json={"player": "多余"})
    assert fifth.status_code == 409 and fifth.json()["code"] == "room_full"
    assert "full" in fifth.json()["detail"]
    page = Browser(c.c).get(f"/room/{code}")
    assert page.status_code == 200 and 'id="room"' in page.text  # the page itself says "full" (room.js)


def test_a_name_is_checked_as_a_table_name(make_client):
    c = browser(make_client, **{**FAST, "max_name": 8})
    for bad in ("", "   ", "名" * 9, "a\u202eb", "a\nb"):
        r = c.post("/api/rooms", json={"player": bad})
        assert r.status_code == 422, (bad, r.text)
    code = open_room(c, player="名" * 8)
    r = Browser(c.c).post(f"/api/rooms/{code}/join", json={"player": "x\u0000"})
    assert r.status_code == 422


def test_two_matches_keep_the_seats_and_the_standings_equal_the_sum_of_the_stored_hands(make_client):
    c = browser(make_client, **FAST)
    code = open_room(c, hands=2)
    browsers = members(c, code, n=3)  # seat 3: nobody, a bot
    r = browsers[1].post(f"/api/rooms/{code}/matches")
    assert r.status_code == 200, r.text
    first = r.json()["id"]
    m1 = finish_match(c, code)
    assert m1["id"] == first and m1["hands_played"] == 2
    # each member's seat link is their room seat; the stranger's join link finds no free seat
    tokens = []
    for b in browsers:
        loc = b.get(f"/room/{code}/play", follow_redirects=False).headers["location"]
        tid, token = re.fullmatch(r"/t/(\d+)/(.+)", loc).groups()
        assert int(tid) == first and b.get(loc).status_code == 200
        tokens.append(token)
    assert len(set(tokens)) == 3
    links = []
    for seat, (b, token) in enumerate(zip(browsers, tokens)):  # 原班人马再来一场 at the finished table
        rematch = b.post(f"/api/tables/{first}/rematch", json={"token": token})
        assert rematch.status_code == 200, rematch.text
        assert rematch.json()["seat"] == seat and rematch.json()["room"] == code
        links.append(rematch.json())
    # the first who asked started the room's next match; the others got their own seats at it
    second = links[0]["id"]
    assert second != first and {x["id"] for x in links} == {second}
    assert len({x["token"] for x in links}) == 3
    assert c.get(f"/join/{second}", follow_redirects=False).status_code == 409  # no free seat for strangers
    game = c.get(f"/api/games/{second}").json()
    assert game["players"][:3] == ["human"] * 3 and game["players"][3] != "human"
    finish_match(c, code)
    info = c.get(f"/api/rooms/{code}").json()
    table = info["standings"]
    assert [m["game"] for m in table["matches"]] == [first, second]
    assert table["totals"] == stored_sum(c, [first, second]) and table["hands"] == 4
    assert sum(table["totals"]) == 0
    got = c.get(f"/room/{code}/standings.csv")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    assert got.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "场次 match",
        "对局 game",
        "局 hand",
        "时间 time (UTC)",
        "0号 老王",
        "1号 小李",
        "2号 阿三",
        "3号",
    ]
    assert len(rows) == 1 + 4 + 1 and [int(x) for x in rows[-1][4:]] == table["totals"]


def test_a_second_match_while_one_is_played_and_a_stranger_starting_one_are_refused(make_client):
    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})  # the seated people keep the match going
    code = open_room(c)
    assert c.post(f"/api/rooms/{code}/matches").status_code == 200
    r = c.post(f"/api/rooms/{code}/matches")
    assert r.status_code == 409 and r.json()["code"] == "match_running"
    s = Browser(c.c).post(f"/api/rooms/{code}/matches")
    assert s.status_code == 403 and s.json()["code"] == "not_member"


def test_a_room_survives_a_server_restart(make_client, db_url):
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    from .conftest import SLOW_PEOPLE

    c = browser(make_client, **FAST)
    code = open_room(c)
    browsers = members(c, code, n=2)
    cookies = [dict(b.jar) for b in browsers]
    browsers[0].post(f"/api/rooms/{code}/matches")
    before = finish_match(c, code)
    table = c.get(f"/api/rooms/{code}").json()["standings"]
    c.c.__exit__(None, None, None)
    with TestClient(create_app(db_url, Settings(**{**SLOW_PEOPLE, **FAST}))) as again:
        for seat, jar in enumerate(cookies):
            again.cookies.clear()
            for k, v in jar.items():
                again.cookies.set(k, v)
            info = again.get(f"/api/rooms/{code}").json()
            assert info["me"] == seat and [m["name"] for m in info["members"]] == NAMES[:2]
            assert info["current"]["id"] == before["id"] and info["standings"] == table
        r = again.post(f"/api/rooms/{code}/matches")
        assert r.status_code == 200 and r.json()["seat"] == 1


@pytest.mark.parametrize(
    "path",
    ["/room/12345", "/room/abcdef", "/room/000000", "/room/1234567", "/room/000000/play", "/room/000000/standings.csv"],
)
def test_a_bad_room_code_answers_a_page_in_chinese(make_client, path):
    c = browser(make_client, **FAST)
    r = c.get(path)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert 'lang="zh"' in r.text and "没有这个房间" in r.text and 'data-error="no-room"' in r.text


def test_guessing_codes_is_refused_for_a_minute_even_the_right_one(make_client):
    c = browser(make_client, **{**FAST, "room_guesses": 3})
    code = open_room(c)
    guesser = Browser(c.c)
    for wrong in ("000001", "000002", "abcdef"):
        assert guesser.get(f"/api/rooms/{wrong}").json()["code"] == "no_room"
    r = guesser.get(f"/api/rooms/{code}")
    assert r.status_code == 429 and r.json()["code"] == "guessing" and r.headers["retry-after"] == "60"
    page = guesser.get(f"/room/{code}")
    assert page.status_code == 429 and "房间号输错太多次了" in page.text
    assert guesser.post(f"/api/rooms/{code}/join", json={"player": "x"}).json()["code"] == "guessing"


def test_opening_rooms_is_limited_per_address_in_words(make_client):
    c = browser(make_client, **{**FAST, "rooms_per_minute": 2})
    open_room(c)
    open_room(c)
    r = c.post("/api/rooms", json={"player": "老王"})
    assert r.status_code == 429 and r.json()["code"] == "too_many_rooms" and "per minute" in r.json()["detail"]


def test_the_rooms_words_are_the_servers_labels(make_client):
    c = browser(make_client, **FAST)
    room = c.get("/api/labels").json()["room"]
    for code in ("no_room", "room_full", "guessing", "too_many_rooms", "match_running", "not_member", "bad_name"):
        assert room[code]["zh"] and room[code]["en"], code
    assert room["standings"]["zh"] == "战绩" and room["again"]["zh"] == "再来一局"


def test_a_rooms_table_shows_the_members_names_and_its_room(make_client):
    from .conftest import SeatClient

    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})
    code = open_room(c)
    members(c, code, n=2)
    start = c.post(f"/api/rooms/{code}/matches").json()
    seat = SeatClient(c.c, start["id"], start["token"], 0)
    state = seat.until(lambda m: m["type"] == "state")
    assert state["table"]["room"] == code
    assert [p["name"] for p in state["table"]["players"]] == [NAMES[0], NAMES[1], None, None]
    seat.close()
    plain = c.c.post("/api/tables", json={"name": "别的桌"}).json()
    other = SeatClient(c.c, plain["id"], plain["token"], 0)
    got = other.until(lambda m: m["type"] == "state")["table"]
    assert got["room"] is None and [p["name"] for p in got["players"]] == [None] * 4
    other.close()


@pytest.mark.parametrize(
    "field,value", [("room", "12345"), ("room", 123456), ("names", ["a", "b"]), ("names", [1, None, None, None])]
)
def test_a_rooms_table_with_a_damaged_room_or_names_is_a_damaged_record(make_client, field, value):
    from shangrao.records.live import game_head, update_meta

    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})
    code = open_room(c)
    start = c.post(f"/api/rooms/{code}/matches").json()
    store = c.app.state.store
    web = dict(game_head(store, start["id"]).meta["web"])
    assert web["room"] == code and web["names"] == [NAMES[0], None, None, None]
    from shangrao.web.stored import web_meta

    assert web_meta({"web": web}, start["id"]).to_meta() == {"web": web}  # read and written back as it was
    c.app.state.manager.tables.pop(start["id"]).evicted = True  # read from its row again
    update_meta(store, start["id"], {"web": {**web, field: value}})
    page = c.get(start["url"])
    assert page.status_code == 422 and 'data-error="damaged"' in page.text and "记录无效" in page.text


def test_a_match_started_on_the_room_page_is_where_the_last_tables_rematch_leads(make_client):
    c = browser(make_client, **FAST)
    code = open_room(c)
    browsers = members(c, code, n=2)
    first = c.post(f"/api/rooms/{code}/matches").json()["id"]
    finish_match(c, code)
    token = re.fullmatch(
        r"/t/\d+/(.+)", browsers[1].get(f"/room/{code}/play", follow_redirects=False).headers["location"]
    ).group(1)
    second = c.post(f"/api/rooms/{code}/matches").json()["id"]  # 再来一局 on the room page
    t = c.app.state.manager.tables.get(first)
    assert t is None or t.rematch == second  # the finished table shows the new match
    r = browsers[1].post(f"/api/tables/{first}/rematch", json={"token": token})  # 原班人马再来一场 there
    assert r.status_code == 200 and r.json()["id"] == second and r.json()["seat"] == 1
    assert len(c.get(f"/api/rooms/{code}").json()["standings"]["matches"]) == 2  # no third match


def test_the_lobby_lists_a_rooms_table_without_its_code_or_the_members_names(make_client):
    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})
    code = open_room(c)
    members(c, code, n=2)
    gid = c.post(f"/api/rooms/{code}/matches").json()["id"]
    stranger = Browser(c.c)
    for path in ("/api/tables", "/api/tables?status=live", f"/api/tables?ids={gid}"):
        text = stranger.get(path).text
        assert str(gid) in text and code not in text and NAMES[0] not in text and NAMES[1] not in text, path


def test_a_room_on_postgresql_plays_two_matches_and_survives_a_restart():
    """The same on PostgreSQL (``SHANGRAO_TEST_PG_URL``), in a schema of its own."""
    import os
    import uuid

    url = os.environ.get("SHANGRAO_TEST_PG_URL")
    if not url:
        pytest.skip("SHANGRAO_TEST_PG_URL is not set")
    pytest.importorskip("psycopg")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from shangrao.records.owner import StoreBusy
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    from .conftest import SLOW_PEOPLE

    schema = f"shangrao_rooms_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    db = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    settings = Settings(**{**SLOW_PEOPLE, **FAST})
    try:
        try:
            first = TestClient(create_app(db, settings)).__enter__()
        except StoreBusy:
            pytest.skip("another test run's server holds this PostgreSQL database now")
        try:
            c = Browser(first)
            code = open_room(c)
            browsers = members(c, code, n=4)
            games = []
            for b in browsers[:2]:
                games.append(b.post(f"/api/rooms/{code}/matches").json()["id"])
                finish_match(c, code)
            table = c.get(f"/api/rooms/{code}").json()["standings"]
            assert table["totals"] == stored_sum(c, games) and [m["game"] for m in table["matches"]] == games
        finally:
            first.__exit__(None, None, None)
        with TestClient(create_app(db, settings)) as again:
            b = Browser(again)
            b.jar = dict(browsers[3].jar)
            info = b.get(f"/api/rooms/{code}").json()
            assert info["me"] == 3 and info["standings"] == table
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()
