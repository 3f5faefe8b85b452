"""Memory is bounded by the live tables (issue 13): finished tables leave memory, a wrong link
loads nothing.

How the 1,000 finished tables are made cheaply: one real one-hand table is played to its end by
bots through the server; its stored hand is then copied into 1,050 new finished web games
directly with the :class:`~shangrao.records.Store` (each with a seat link of its own).  Every
copy is then opened through the server's WebSocket with its link, which loads the whole game
(replaying the hand) and shows its final state, and closed again.
"""

from __future__ import annotations

import gc
import secrets

from shangrao.records import Store
from shangrao.web.tables import KIND, Table, hash_token

from .waiting import wait_until


def _rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _finished_template(c, db_url) -> tuple[dict, object]:
    d = c.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3}).json()

    def finished():
        with Store(db_url) as st:
            rec = st.load_game(d["id"])
        return rec if rec.status == "finished" else None

    return d, wait_until(finished, 60, "the bots to finish the hand")


def _copies(db_url, rec, n: int) -> list[tuple[int, str]]:
    out = []
    h = rec.hands[0]
    with Store(db_url) as st:
        for _ in range(n):
            token = secrets.token_urlsafe(18)
            web = dict(rec.meta["web"])
            web["token_hashes"] = [hash_token(token), None, None, None]
            gid = st.create_game(KIND, rec.players, seed=rec.seed, rules=rec.rules, meta={"web": web})
            st.append_hand(gid, 0, h.dealer, h.events, h.result, scores_after=h.scores_after)
            st.finish_game(gid)
            out.append((gid, token))
    return out


def _open(c, gid: int, token: str) -> None:
    """Look at a finished table through its seat link (the test keeps none of the messages)."""
    with c.websocket_connect(f"/ws/{gid}/{token}") as ws:
        m = ws.receive_json()
        assert m["type"] == "state" and m["table"]["status"] == "finished" and m["settlement"] is not None


def _live_tables() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, Table))


def test_a_thousand_finished_tables_leave_memory(make_client, db_url):
    c = make_client(absent_timeout=0.0, next_hand_timeout=0.0)
    manager = c.app.state.manager
    _, rec = _finished_template(c, db_url)
    copies = _copies(db_url, rec, 1050)
    for gid, token in copies[:50]:  # warm up: caches, pools, the first allocations
        _open(c, gid, token)
    gc.collect()
    rss0 = _rss_mib()
    for gid, token in copies[50:]:
        _open(c, gid, token)
    wait_until(lambda: not manager.tables, 10, "the last disconnects to be processed")
    gc.collect()
    rss1 = _rss_mib()
    assert not manager.tables, f"{len(manager.tables)} finished tables still in memory"
    assert _live_tables() <= 2  # at most the last one or two, until the collector runs
    assert rss1 <= rss0 * 1.10, f"memory grew from {rss0:.0f} to {rss1:.0f} MiB over 1,000 finished tables"


def test_a_wrong_link_loads_nothing(make_client, db_url):
    c = make_client(absent_timeout=0.0, next_hand_timeout=0.0)
    manager = c.app.state.manager
    store = c.app.state.store
    _, rec = _finished_template(c, db_url)
    ((gid, token),) = _copies(db_url, rec, 1)
    loads = []
    real = store.load_game
    store.load_game = lambda *a, **k: (loads.append(a), real(*a, **k))[1]
    for _ in range(50):
        assert c.get(f"/t/{gid}/not-a-token").status_code == 403
        with c.websocket_connect(f"/ws/{gid}/not-a-token") as ws:
            m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "forbidden"
    assert c.post(f"/api/tables/{gid}/join").status_code == 409  # finished: no seat, nothing loaded
    assert not loads and gid not in manager.tables
    assert c.get(f"/t/{gid}/{token}").status_code == 200  # the page needs the link only
    assert not loads
    _open(c, gid, token)  # the right link loads the game, shows it, and lets it go again
    assert len(loads) == 1
    wait_until(lambda: gid not in manager.tables, 5, "the table to leave memory")


def test_an_idle_table_waiting_for_players_leaves_memory_and_comes_back(make_client, db_url):
    c = make_client(idle_timeout=0.05)
    manager = c.app.state.manager
    d = c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]}).json()
    wait_until(lambda: d["id"] not in manager.tables, 10, "the idle table to leave memory")
    listed = c.get("/api/tables?status=open").json()["tables"]
    assert [t["id"] for t in listed] == [d["id"]]  # still open in the lobby (from its stored row)
    j = c.post(f"/api/tables/{d['id']}/join")
    assert j.status_code == 200 and j.json()["seat"] == 1
    assert d["id"] in manager.tables
