"""Countdowns survive wall-clock steps and a restart (issue 25): a restarted server times the
decision in progress from when it really began — by the monotonic record of the server that stored
it (``meta.web.clock``) — not from the wall-clock time of some stored event."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from shangrao.web import clock
from shangrao.web.clock import ServerClock

from .conftest import SeatClient, key
from .waiting import elapse

TURN = 4.0


def _my_turn(m: dict) -> bool:
    return (
        m["type"] == "state"
        and m["view"] is not None
        and bool(m["legal"])
        and m["view"]["phase"] not in ("claim", "rob")
        and m["deadline"] is not None
    )


@pytest.mark.parametrize(
    ("before", "after"),
    [(3600, 0), (0, 3600), (0, -3600)],
    ids=["stepped-back-before-the-restart", "stepped-forward", "stepped-back-at-the-restart"],
)
def test_a_countdown_resumes_from_its_decision_after_a_wall_clock_step_and_a_restart(
    make_client, monkeypatch, before, after
):
    real = clock._wall_now
    monkeypatch.setattr(clock, "_wall_now", lambda: real() + timedelta(seconds=before))
    c1 = make_client(turn_timeout=TURN)
    d = c1.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3}).json()
    s = SeatClient(c1, d["id"], d["token"], 0)
    st = s.until(_my_turn)
    began = time.monotonic()  # the decision began before this
    elapse(1.5)  # the person thinks; then the server stops
    s.close()
    c1.__exit__(None, None, None)

    monkeypatch.setattr(clock, "_wall_now", lambda: real() + timedelta(seconds=after))  # the clock stepped
    c2 = make_client(turn_timeout=TURN)
    s2 = SeatClient(c2, d["id"], d["token"], 0)
    st2 = s2.until(lambda m: m["type"] == "state" and m["view"] is not None)
    left = TURN - (time.monotonic() - began)  # at most this much is left
    assert key(st2) == key(st) and st2["legal"] == st["legal"]  # the turn was not played meanwhile
    assert st2["deadline"] is not None
    # neither a fresh countdown (a step back) nor one run out (a step forward): what was left
    assert st2["deadline"] <= left + 0.15 and st2["deadline"] >= left - 1.0, (st2["deadline"], left)


def test_a_stored_time_from_another_boot_or_the_future_is_read_by_the_wall_clock():
    clock = ServerClock()
    now = datetime.now(UTC)
    other_boot = {"boot": "another", "wall": now.isoformat(), "mono": 1.0}
    got = clock.to_mono(now - timedelta(seconds=10), other_boot)
    assert got is not None and abs((time.monotonic() - got) - 10) < 0.5
    future = clock.to_mono(now + timedelta(hours=1), None)
    assert future is not None and abs(future - time.monotonic()) < 0.5  # a time ahead counts as now
    assert clock.to_mono(None) is None
    if clock.boot is not None:  # this boot's record maps a stored time back onto the monotonic clock
        mine = clock.record()
        assert abs(clock.to_mono(clock.stamp() - timedelta(seconds=3), mine) - (time.monotonic() - 3)) < 0.05
        damaged = {**msgspec.to_builtins(mine), "wall": "yesterday"}
        assert clock.to_mono(now, damaged) is not None  # a damaged record falls back to the wall clock
