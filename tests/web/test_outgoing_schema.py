"""The server -> client messages have a published JSON Schema (issue 21): ``docs/web-messages.schema.json``
is what ``python -m shangrao.web.outgoing`` writes, and the messages of whole hands — every seat's
``state`` after every change, held windows included — are read by their models (``extra`` keys fail)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from shangrao.game import Game
from shangrao.web.outgoing import JS_PATH, SCHEMA_PATH, StateMessage, jsdoc_text, schema_text, validate
from shangrao.web.views import LogCache, seat_texts

ROOT = Path(__file__).resolve().parents[2]

TABLE = {"id": 1, "name": "上饶麻将", "status": "playing", "hands_total": 4, "hands_played": 0,
         "scores": [0, 0, 0, 0], "rules": {}, "free_seats": [], "history": [], "rematch": None, "hints": True,
         "players": [{"kind": "human", "claimed": True, "connected": True, "standin": False, "ready": False}] * 4}


def test_the_published_schema_is_up_to_date():
    assert (ROOT / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text(), (
        "run: python -m shangrao.web.outgoing")
    assert (ROOT / JS_PATH).read_text(encoding="utf-8") == jsdoc_text(), "run: python -m shangrao.web.outgoing"
    table_js = (ROOT / "src/shangrao/web/static/table.js").read_text(encoding="utf-8")
    assert table_js.startswith("// @ts-check") and 'import("./messages.js").OutgoingMessage' in table_js
    assert {x["$ref"].rsplit("/", 1)[1] for x in json.loads(schema_text())["oneOf"]} == {
        "StateMessage", "HintMessage", "ErrorMessage", "NoticeMessage", "PongMessage", "WatchMessage", "PhraseMessage"}


def test_every_state_of_whole_hands_is_read_by_its_model():
    table_json = json.dumps(TABLE, ensure_ascii=False)
    checked = 0
    for h in range(4):
        rng = random.Random(h)
        g = Game(seed=f"outgoing:{h}")
        g.hold_windows = True
        logs = LogCache()
        while True:
            for seat in range(4):
                text, _ = seat_texts(g, seat, hand_no=0, table_json=table_json, deadline=3.5, settlement=None,
                                     logs=logs)
                msg = validate(text)
                assert isinstance(msg, StateMessage) and msg.you == seat
                checked += 1
            if g.is_over:
                break
            if g.held:
                g.release()
                continue
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 1000


def test_the_other_messages_are_read_by_their_models():
    for text in ('{"type":"pong"}', '{"type":"notice","code":"server_problem","message":"x"}',
                 '{"type":"error","code":"rate_limited","message":"x","hand":0,"seq":3,"action":"pass","count":2}',
                 '{"type":"hint","hand":0,"seq":3,"choices":[],"note":null}'):
        assert validate(text).type == json.loads(text)["type"]
