"""Amounts of any size in the records (issue 34): no column of the database holds an amount — scores,
deltas and transfers are JSON (``games.scores``, ``hands.result``, ``hands.scores_after``, the event
log) or the compact hands' int64 scores — so points past 2**31, and past 2**63 for the Python engine's
unbounded ints, are stored and read back exactly, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from test_postgres import pg_server, pg_url  # noqa: F401 (the PostgreSQL fixtures)

from shangrao.records import Store
from shangrao.rules import DEFAULT_RULES, MAX_RULE_INT

#: deltas past 2**31 and past int64, summing to 0
BIG = [10**12, -(2**70), 2**70 - 3, -(10**12) + 3]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_amounts_past_int32_and_int64_are_stored_and_read_back_exactly(backend, tmp_path, request):
    url = str(tmp_path / "amounts.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    rules = DEFAULT_RULES.replace(base_points=MAX_RULE_INT, robbing_kong_factor=MAX_RULE_INT)
    store = Store(url)
    try:
        gid = store.create_game("simulate", ["random"] * 4, seed=1, rules=rules)
        store.append_event(gid, 0, {"type": "transfer", "payer": 1, "payee": 0, "points": 2**64 + 1, "reason": "win"})
        store.append_hand(gid, 0, dealer=0, events=None, result={"winners": [0], "deltas": BIG})
        store.append_hand(gid, 1, dealer=1, events=[], result={"winners": [], "deltas": BIG})
        store.finish_game(gid)
        g = store.load_game(gid)
    finally:
        store.close()
    twice = [2 * x for x in BIG]
    assert g.scores == twice and g.hands[1].scores_after == twice and g.hands[0].scores_after == BIG
    assert g.hands[0].result["deltas"] == BIG and g.hands[0].events[0]["points"] == 2**64 + 1
    assert g.rules == rules.to_dict()
