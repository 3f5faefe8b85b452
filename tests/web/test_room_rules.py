"""A room's rules, 提示 and empty seats' bot (issue 38; docs/web.md "Rooms / 房间"): chosen at creation,
changed by its creator between matches only, played by every match and shown with each in 战绩."""

from __future__ import annotations

from .test_rooms import FAST, Browser, browser, finish_match, members

HOUSE = {"kong_after_pung": True, "robbing_kong_factor": 3}


def test_a_room_plays_its_rules_hints_and_bot_and_its_standings_show_them(make_client):
    c = browser(make_client, **FAST)
    r = c.post(
        "/api/rooms",
        json={"player": "老王", "name": "周三局", "hands": 1, "rules": HOUSE, "hints": False, "bot": "greedy"},
    )
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    info = c.get(f"/api/rooms/{code}").json()
    assert info["setup"] == {"rules": HOUSE, "hints": False, "bot": "greedy"}
    members(c, code, n=2)  # seats 2, 3: the room's bot
    gid = c.post(f"/api/rooms/{code}/matches").json()["id"]
    game = c.get(f"/api/games/{gid}").json()
    assert game["players"] == ["human", "human", "greedy", "greedy"]
    assert game["rules"]["kong_after_pung"] is True and game["rules"]["robbing_kong_factor"] == 3
    assert game["rules"]["hands_per_match"] == 1
    finish_match(c, code)
    m = c.get(f"/api/rooms/{code}").json()["standings"]["matches"][0]
    assert m["setup"] == {"rules": HOUSE, "hints": False, "bots": [None, None, "greedy", "greedy"]}


def test_only_the_creator_changes_the_rules_and_only_between_matches(make_client):
    c = browser(make_client, **{**FAST, "absent_timeout": 600.0})
    code = c.post("/api/rooms", json={"player": "老王", "hands": 1}).json()["code"]
    other = members(c, code, n=2)[1]
    assert c.get(f"/api/rooms/{code}").json()["setup"] == {"rules": {}, "hints": True, "bot": None}
    r = other.post(f"/api/rooms/{code}/setup", json={"hints": False})
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    assert Browser(c.c).post(f"/api/rooms/{code}/setup", json={"hints": False}).status_code == 403
    r = c.post(f"/api/rooms/{code}/setup", json={"rules": {"kong_after_pung": True}, "bot": "random"})
    assert r.status_code == 200 and r.json()["setup"] == {
        "rules": {"kong_after_pung": True},
        "hints": True,
        "bot": "random",
    }
    r = c.post(f"/api/rooms/{code}/setup", json={"bot": None})  # back to the strongest; the rest stays
    assert r.json()["setup"] == {"rules": {"kong_after_pung": True}, "hints": True, "bot": None}
    assert c.post(f"/api/rooms/{code}/matches").status_code == 200
    r = c.post(f"/api/rooms/{code}/setup", json={"hints": False})
    assert r.status_code == 409 and r.json()["code"] == "match_running"


def test_bad_room_rules_and_bots_are_refused_in_words(make_client):
    c = browser(make_client, **FAST)
    for body, code in (
        ({"rules": {"no_such_rule": True}}, "bad_rules"),
        ({"rules": {"base_points": -1}}, "bad_rules"),
        ({"bot": "human"}, "bad_bot"),
    ):
        r = c.post("/api/rooms", json={"player": "老王", **body})
        assert r.status_code == 422 and r.json()["code"] == code and r.json()["detail"], r.text
    for body in (
        {"rules": {"kong_after_pung": "yes"}},
        {"bot": "nobody"},
        {"hints": 1},
        {"rules": {"hands_per_match": 4}},
    ):
        r = c.post("/api/rooms", json={"player": "老王", **body})
        assert r.status_code == 422, (body, r.text)
    words = c.get("/api/labels").json()["room"]
    assert words["bad_rules"]["zh"] and words["not_creator"]["zh"] and words["bad_bot"]["zh"]
