"""Helpers for the web tests: a fast server and a driver for four seat connections."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import contextlib

from shangrao.web import Settings
from shangrao.web.app import create_app

#: people never time out in these tests unless a test says so; bots act at once
SLOW_PEOPLE = dict(
    bot_delay=0.0,
    claim_timeout=600,
    turn_timeout=600,
    absent_timeout=600,
    next_hand_timeout=600,
    standin_bot="random",
    claim_pause=0.0,
    retry_delay=0.05,
    # the limits are tested in test_limits.py; elsewhere tests play fast
    messages_per_second=10_000,
    tables_per_minute=10_000,
    reads_per_second=10_000,
    # no review process per test: a finished match is reviewed only where a test asks
    review_workers=0,
)


def key(m: dict) -> tuple[int, int]:
    return (m["hand_no"], m["seq"])


OPEN: list = []


class SeatClient:
    """One seat's WebSocket with every message it received."""

    def __init__(self, client: TestClient, table_id: int, token: str, seat: int):
        OPEN.append(self)
        self.closed = False
        self.seat = seat
        self.token = token
        self.table_id = table_id
        self.ctx = client.websocket_connect(f"/ws/{table_id}/{token}")
        self.ws = self.ctx.__enter__()
        self.messages: list[dict] = []
        self.state: dict | None = None

    def recv(self) -> dict:
        m = self.ws.receive_json()
        self.messages.append(m)
        if m["type"] == "state":
            self.state = m
        return m

    def until(self, pred) -> dict:
        while True:
            m = self.recv()
            if pred(m):
                return m

    def until_key(self, target: tuple[int, int]) -> dict:
        return self.until(lambda m: m["type"] == "state" and m["view"] is not None and key(m) >= target)

    def send(self, obj) -> None:
        if isinstance(obj, str):
            self.ws.send_text(obj)
        else:
            self.ws.send_json(obj)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.ctx.__exit__(None, None, None)


def new_table(client: TestClient, seats=("human", "human", "human"), hands: int = 1) -> tuple[int, list[str]]:
    r = client.post("/api/tables", json={"hands": hands, "seats": list(seats), "name": "test"})
    assert r.status_code == 200, r.text
    d = r.json()
    tokens = [d["token"]]
    for _ in range(sum(1 for s in seats if s == "human")):
        j = client.post(f"/api/tables/{d['id']}/join")
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return d["id"], tokens


def connect_all(client: TestClient, table_id: int, tokens: list[str]) -> list[SeatClient]:
    seats = [SeatClient(client, table_id, t, i) for i, t in enumerate(tokens)]
    sync(seats)
    return seats


def sync(seats: list[SeatClient]) -> None:
    """Read every seat up to the newest state (the hand must have started): a ping per seat is
    answered after every state change in progress was sent.  (States carry no global counter:
    a seat's ``seq`` counts only what that seat saw.)"""
    for s in seats:
        if s.state is None or s.state["view"] is None:
            s.until(lambda m: m["type"] == "state" and m["view"] is not None)
    for s in seats:
        s.send({"type": "ping"})
        s.until(lambda m: m["type"] == "pong")


def decider(seats: list[SeatClient], rng: random.Random | None = None) -> SeatClient | None:
    """A seat that has legal actions now (in a claim/rob window several may: all are asked at
    once); None when nobody has."""
    ds = [s for s in seats if s.state and s.state["legal"]]
    if not ds:
        return None
    return rng.choice(ds) if rng is not None else ds[0]


def step(seats: list[SeatClient], rng: random.Random) -> bool:
    """The seat to decide picks a random legal action; every seat reads the new state.
    Returns False when the hand is over."""
    from .waiting import wait_until

    def ready():  # the hand is over, or a seat decides (a window's pause, claim_pause: every seat waits)
        sync(seats)
        if seats[0].state["view"]["phase"] == "over":
            return "over"
        return decider(seats, rng)

    me = wait_until(ready, 10, "a seat with legal actions (the hand is not over)")
    if me == "over":
        return False
    legal = me.state["legal"]
    before = key(me.state)
    a = rng.choice(legal)
    me.send({"type": "action", "action": a["action"], "seq": me.state["seq"], "hand": me.state["hand_no"]})
    got = me.until(
        lambda m: (
            m["type"] == "error"
            or (m["type"] == "state" and m["view"] is not None and (key(m) != before or not m["legal"]))
        )
    )
    assert got["type"] == "state", got
    sync(seats)
    return True


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def make_client(db_url):
    opened = []

    def make(**settings):
        app = create_app(db_url, Settings(**{**SLOW_PEOPLE, **settings}))
        c = TestClient(app)
        c.__enter__()
        opened.append(c)
        return c

    yield make
    while OPEN:
        with contextlib.suppress(Exception):
            OPEN.pop().close()
    for c in opened:
        with contextlib.suppress(Exception):
            c.__exit__(None, None, None)
