"""GET /metrics: the Prometheus text format, per app, and its counters move when a table plays."""

from __future__ import annotations

import random
import re
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from shangrao.web.metrics import ServerMetrics

from .conftest import connect_all, new_table, step

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"


def _read(client) -> dict[str, dict[tuple, float]]:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")  # the Prometheus text format
    out: dict[str, dict[tuple, float]] = {}
    for fam in text_string_to_metric_families(r.text):
        for s in fam.samples:
            out.setdefault(s.name, {})[tuple(sorted(s.labels.items()))] = s.value
    return out


def _total(m: dict, name: str) -> float:
    return sum(m.get(name, {}).values())


def test_metrics_answer_in_the_prometheus_text_format_and_move_when_a_table_plays(make_client, tmp_path):
    c = make_client()
    before = _read(c)
    assert _total(before, "shangrao_actions_total") == 0 and _total(before, "shangrao_live_tables") == 0
    tid, tokens = new_table(c, hands=2)  # live still if the first hand ends early
    seats = connect_all(c, tid, tokens)
    rng = random.Random(3)
    acted = 0
    while acted < 8 and step(
        seats, rng
    ):  # a random deal can end sooner (a 天糊, an early win): the hand's actions then
        acted += 1
    assert acted >= 1
    m = _read(c)
    people = m["shangrao_actions_total"][(("by", "person"),)]
    assert people >= acted
    assert m["shangrao_live_tables"][()] == 1 and m["shangrao_websockets"][()] == 4
    assert _total(m, "shangrao_action_update_seconds_count") >= people
    events = m["shangrao_db_write_seconds_count"][(("kind", "events"),)]
    assert events >= people and m["shangrao_db_write_failures_total"][(("kind", "events"),)] == 0
    assert m["shangrao_open_connections"][()] == 0  # no connection guard under the test client
    for s in seats:
        s.close()
    from fastapi.testclient import TestClient

    from shangrao.web import Settings
    from shangrao.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'other.sqlite3'}", Settings())) as other:
        assert _total(_read(other), "shangrao_actions_total") == 0  # every app has its own registry


def test_a_dropped_socket_and_a_failed_write_are_counted():
    from types import SimpleNamespace

    table = SimpleNamespace(seats=[SimpleNamespace(conns={1, 2}), SimpleNamespace(conns={3, 4})])
    m = ServerMetrics(SimpleNamespace(tables={7: table}))
    m.record_drop("overflow")
    m.record_drop("send timeout")
    m.record_drop("overflow")
    m.record_write("events", 0.5, failed=True)
    m.record_action(7, by_person=False)
    m.record_update(7)
    m.record_update(7)  # nothing applied since: not observed again
    got = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for fam in text_string_to_metric_families(m.text().decode())
        for s in fam.samples
    }
    assert got["shangrao_dropped_sockets_total", (("reason", "overflow"),)] == 2
    assert got["shangrao_dropped_sockets_total", (("reason", "send timeout"),)] == 1
    assert got["shangrao_db_write_failures_total", (("kind", "events"),)] == 1
    assert got["shangrao_actions_total", (("by", "bot"),)] == 1
    assert got["shangrao_action_update_seconds_count", ()] == 1
    assert got["shangrao_websockets", ()] == 4 and got["shangrao_live_tables", ()] == 1


def test_every_metric_is_documented_with_its_type_and_labels():
    text = DOCS.read_text(encoding="utf-8")
    m = ServerMetrics()
    for fam in m.registry.collect():
        name = fam.name + ("_total" if fam.type == "counter" else "")
        row = next((line for line in text.splitlines() if line.startswith(f"| `{name}`")), None)
        assert row is not None, f"docs/web.md: no row for {name}"
        assert f"| {fam.type} |" in row, row
        labels = {k for s in fam.samples for k in s.labels if k not in ("le",)}
        for label in labels:
            assert re.search(rf"`{label}`", row), (name, label)
