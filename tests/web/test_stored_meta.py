"""A stored web table's ``meta.web`` is one typed object (issue 21): :class:`shangrao.web.stored.WebMeta`,
read by ``web_meta`` and written by ``WebMeta.to_meta`` only, tolerant of the records of older versions
(the migration fixture ``tests/records/fixtures/v1.sqlite3``, and the metas the previous code wrote)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from shangrao.records import Store
from shangrao.web.clock import ClockRecord, ServerClock
from shangrao.web.errors import BadLink, hash_token
from shangrao.web.stored import DamagedRecord, WebMeta, read_web_meta, stored_name, web_meta

FIXTURE = Path(__file__).resolve().parents[1] / "records" / "fixtures" / "v1.sqlite3"
WEB_GAME = 5  # the fixture's web table: four people seated, hints on, no rematch, a clock

DIGEST = "ab" * 32
#: ``meta`` as the previous code wrote it (Table._meta of b8e652b: a dict built by hand)
PREVIOUS = {
    "web": {
        "name": "上饶麻将",
        "seats": ["human", "greedy", "human", "random"],
        "claimed": [True, False, False, False],
        "token_hashes": [DIGEST, None, None, None],
        "rematch": 12,
        "hints": False,
        "clock": {"boot": "8d5c6c3e-1111-2222-3333-444455556666", "wall": "2026-12-02T01:33:46+00:00", "mono": 3682.9},
    }
}


@pytest.fixture
def v1_db(tmp_path) -> Path:
    path = tmp_path / "v1.sqlite3"
    shutil.copy(FIXTURE, path)
    return path


@pytest.fixture
def db_url(v1_db) -> str:  # the web tests' server (make_client) on the copy of the fixture
    return f"sqlite:///{v1_db}"


def _stored_web(path: Path, game_id: int) -> dict:
    with sqlite3.connect(path) as db:
        return json.loads(db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()[0])["web"]


def test_the_meta_web_of_the_v1_fixture_is_read_by_the_typed_model(v1_db):
    stored = _stored_web(v1_db, WEB_GAME)
    with Store(f"sqlite:///{v1_db}") as st:  # upgraded on opening
        head = st.game_head(WEB_GAME)
    web = web_meta(head.meta, WEB_GAME)
    assert isinstance(web, WebMeta) and isinstance(web.clock, ClockRecord)
    assert (web.name, web.seats, web.claimed, web.rematch, web.hints) == ("test", ["human"] * 4, [True] * 4, None, True)
    assert web.token_hashes == stored["token_hashes"]
    assert web.seated() == (True, False)
    assert web.to_meta() == {"web": stored}  # written back as it was read


def test_a_meta_written_by_the_previous_code_is_read_and_written_back_unchanged():
    web = web_meta(PREVIOUS, 1)
    assert (web.rematch, web.hints, web.clock.mono if web.clock else None) == (12, False, 3682.9)
    assert web.to_meta() == PREVIOUS
    assert web_meta(json.loads(json.dumps(web.to_meta())), 1) == web


def test_a_meta_of_an_older_version_reads_the_defaults():
    """Before ``name``, ``hints``, ``rematch`` and ``clock`` existed: "", True, None, None."""
    old = {"web": {k: PREVIOUS["web"][k] for k in ("seats", "claimed", "token_hashes")}}
    web = web_meta(old, 1)
    assert (web.name, web.hints, web.rematch, web.clock) == ("", True, None, None)
    assert web.seated() == (True, True)


def test_an_unreadable_clock_counts_as_none_and_unknown_keys_are_let_be():
    meta = {"web": {**PREVIOUS["web"], "clock": {"boot": 3, "wall": []}, "added_later": [1, 2]}}
    web = web_meta(meta, 1)
    assert web.clock is None and "added_later" not in web.to_meta()["web"]
    assert ServerClock().to_mono(None, web.clock) is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seats", ["human", "human", "human"]),
        ("seats", ["random", "human", "human", "human"]),
        ("claimed", [1, 0, 0, 0]),
        ("token_hashes", ["not a digest", None, None, None]),
        ("name", 5),
        ("rematch", True),
        ("rematch", 0),
        ("rematch", "/evil"),
        ("hints", "nope"),
    ],
)
def test_a_damaged_field_is_named_and_its_value_is_not(field, value):
    meta = {"web": {**PREVIOUS["web"], field: value}}
    with pytest.raises(DamagedRecord, match=rf"table 3 is damaged \(meta\.web\.{field} ") as err:
        web_meta(meta, 3)
    assert not isinstance(value, str) or value not in str(err.value)
    assert read_web_meta(meta) is None


def test_the_seat_of_a_link_is_found_by_its_digest_only():
    web = web_meta({"web": {**PREVIOUS["web"], "token_hashes": [hash_token("t0"), None, hash_token("t2"), None]}}, 1)
    assert web.seat_of("t2") == 2
    with pytest.raises(BadLink):
        web.seat_of("t1")


def test_the_history_name_is_read_whatever_the_rest_holds():
    assert stored_name({"web": {"name": "桌", "claimed": "all"}}) == "桌"
    assert stored_name({"web": {"name": 5}}) == stored_name([1]) == stored_name(None) == ""


def test_a_server_on_the_v1_fixture_resumes_its_web_table_and_stores_the_same_meta(v1_db, make_client):
    before = _stored_web(v1_db, WEB_GAME)
    c = make_client()
    listed = {t["id"]: t for t in c.get("/api/tables").json()["live"]}
    assert listed[WEB_GAME]["name"] == "test" and [p["claimed"] for p in listed[WEB_GAME]["players"]] == [True] * 4
    after = _stored_web(v1_db, WEB_GAME)  # resumed at start-up: written again by this server
    assert {k: v for k, v in after.items() if k != "clock"} == {k: v for k, v in before.items() if k != "clock"}
    assert after["clock"]["wall"] != before["clock"]["wall"]  # this server's clock now
    assert web_meta({"web": after}, WEB_GAME).clock is not None
