"""An outside bot (ext:, the Node.js sample) and the shipped learned bot sit at a web table and play a hand."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from .conftest import connect_all, new_table, step

NODE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "first_legal_bot.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (.ci/run installs nodejs)")
def test_the_node_sample_bot_plays_a_hand_at_a_web_table(make_client, monkeypatch):
    spec = f"ext:node {NODE_BOT}"
    monkeypatch.setenv("SHANGRAO_WEB_BOTS", f"nodebot={spec}")
    client = make_client()
    lobby = client.get("/api/rules")
    assert "nodebot" in lobby.json()["bots"] and "learned" in lobby.json()["bots"]  # the lobby offers both
    assert "first_legal_bot" not in lobby.text and "node " not in lobby.text  # never the command line
    tid, tokens = new_table(client, seats=("nodebot", "learned", "greedy"))
    seats = connect_all(client, tid, tokens)
    rng = random.Random(1)
    for _ in range(2000):
        if not step(seats, rng):
            break
    assert seats[0].state["view"]["phase"] == "over"


def test_a_spec_the_server_did_not_offer_is_refused(make_client, monkeypatch):
    monkeypatch.delenv("SHANGRAO_WEB_BOTS", raising=False)
    client = make_client()
    r = client.post("/api/tables", json={"hands": 1, "seats": ["ext:node evil.js", "greedy", "greedy"], "name": "t"})
    assert r.status_code in (400, 422), r.text


def test_the_rules_name_offered_bots_by_label_never_by_command_or_path(make_client, monkeypatch, tmp_path):
    import sys

    monkeypatch.setenv(
        "SHANGRAO_WEB_BOTS", f"ext:{sys.executable} {tmp_path}/secret_bot.py;mine=ext:{sys.executable} -c 0"
    )
    client = make_client()
    r = client.get("/api/rules")
    assert r.json()["bots"][-2:] == ["bot1", "mine"]
    assert "secret_bot" not in r.text and sys.executable not in r.text and "ext:" not in r.text
    spec_seat = client.post(
        "/api/tables", json={"hands": 1, "seats": [f"ext:{sys.executable} -c 0", "greedy", "greedy"], "name": "t"}
    )
    assert spec_seat.status_code == 422  # a browser cannot name the command, only the label
    assert (
        client.post("/api/tables", json={"hands": 1, "seats": ["mine", "greedy", "greedy"], "name": "t"}).status_code
        == 200
    )
