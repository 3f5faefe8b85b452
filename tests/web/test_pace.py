"""A table's pace (issue 38; docs/web.md "Pace / 机器人节奏"): chosen by its creator, it scales the
server's bot delay and claim pause; a fast table's bots move sooner (on the table protocol's own
clock, no wall time measured); it is stored with the table, kept by a rematch and a reload from the
database; the lobby's choice is remembered by the browser."""

from __future__ import annotations

import pytest

from shangrao.bots import get_bot
from shangrao.game import Match
from shangrao.game.table import Player, TableState, Timing
from shangrao.rules import DEFAULT_RULES
from shangrao.web.settings import paced

from .serving import HAS_CHROMIUM

#: the server's defaults, which the paces scale
DEFAULTS = dict(bot_delay=0.6, claim_pause=0.8)


def _clock_after(timing: Timing, moves: int) -> float:
    """The table clock (seconds from the deal) when ``moves`` events of a hand of four greedy bots
    have been played under ``timing`` — each step taken at the time the protocol says it is due."""
    game = Match(DEFAULT_RULES, seed=7).new_hand()
    seats = [Player(player="greedy", bot=get_bot("greedy", seed=f"7:{i}")) for i in range(4)]
    t = TableState(game, seats, timing, 0.0)
    now, done = 0.0, 0
    while done < moves and not game.is_over:
        due = t.next_wakeup(now)
        assert due is not None
        now = max(now, due)
        done += len(t.step(now))
    return now


def test_a_fast_tables_bots_move_sooner_and_a_slow_ones_later(make_client):
    c = make_client(**DEFAULTS)
    tables = c.app.state.manager.tables
    timing = {}
    for pace in ("slow", "normal", "fast"):
        r = c.post("/api/tables", json={"name": pace, "pace": pace})
        assert r.status_code == 200, r.text
        timing[pace] = tables[r.json()["id"]].timing
    assert (timing["normal"].bot_delay, timing["normal"].claim_pause) == (0.6, 0.8)
    assert (timing["fast"].bot_delay, timing["fast"].claim_pause) == paced(c.app.state.manager.settings, "fast")
    assert timing["fast"].claim_timeout == timing["normal"].claim_timeout  # a person's own time is not cut
    clocks = {p: _clock_after(t, 40) for p, t in timing.items()}
    assert clocks["fast"] < clocks["normal"] / 2 < clocks["slow"] / 4 * 1.01


def test_the_pace_is_stored_and_kept_by_a_reload_and_a_rematch(make_client):
    from shangrao.records.live import game_head

    from .test_rooms import FAST
    from .waiting import wait_until

    c = make_client(**FAST)  # nobody connects: the stand-in plays the one hand at once
    made = c.post("/api/tables", json={"name": "快桌", "pace": "fast", "hands": 1, "seats": ["greedy"] * 3}).json()
    store, manager = c.app.state.store, c.app.state.manager
    assert game_head(store, made["id"]).meta["web"]["pace"] == "fast"
    plain = c.post("/api/tables", json={"name": "普通", "seats": ["greedy", "human", "human"]}).json()["id"]
    assert "pace" not in game_head(store, plain).meta["web"]  # "normal" is written as before
    wait_until(lambda: game_head(store, made["id"]).status == "finished", 60, "the one-hand match to finish")
    old = manager.tables.pop(made["id"], None)  # the rematch reads the table from its row again
    if old is not None:
        old.evicted = True
    r = c.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
    assert r.status_code == 200, r.text
    assert manager.tables[r.json()["id"]].pace == "fast"  # read from the row, kept by 原班人马再来一场


def test_a_pace_that_is_not_offered_is_refused_in_words(make_client):
    c = make_client()
    r = c.post("/api/tables", json={"pace": "turbo"})
    assert r.status_code == 422 and "pace" in r.text


@pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_lobbys_pace_is_sent_and_survives_a_reload(tmp_path):
    pytest.importorskip("playwright.sync_api")
    from shangrao.records import Store

    from .serving import Watch, app_served, chromium

    db = f"sqlite:///{tmp_path / 'pace.sqlite3'}"
    with app_served(db, bot_delay=0.05, claim_pause=0.05) as url, chromium() as br:
        page = br.new_page(viewport={"width": 390, "height": 844})
        w = Watch(page, aborted_ok=True)
        page.goto(url + "/")
        assert page.locator("#pace").input_value() == "normal"
        page.select_option("#pace", "fast")
        page.reload()
        assert page.locator("#pace").input_value() == "fast"  # the browser's choice
        assert page.locator("#pace option:checked").inner_text() == "快"
        page.wait_for_selector("#seat3 option", state="attached")
        page.click("#create-btn")
        page.wait_for_url("**/t/*/*")
        table_id = int(page.url.split("/t/")[1].split("/")[0])
        page.wait_for_selector("#hand .tile")
        assert not w.problems, w.problems
        page.close()
    assert Store(db).game_head(table_id).meta["web"]["pace"] == "fast"
