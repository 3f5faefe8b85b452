"""`shangrao simulate --workers N` and `--ray` give the same summary and the same stored records as one process."""

from __future__ import annotations

import json
import subprocess

from shangrao.records import Store


def _run(tmp_path, name: str, *extra: str) -> tuple[dict, list]:
    db = tmp_path / f"{name}.sqlite3"
    out = subprocess.run(
        [
            "shangrao",
            "simulate",
            "--hands",
            "20",
            "--seed",
            "11",
            "--bots",
            "greedy,random,greedy,random",
            "--db",
            str(db),
            "--json",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    summary.pop("timing")
    summary.pop("storage")
    store = Store(str(db))
    try:
        games = []
        for g in sorted(store.list_games(), key=lambda g: g.id):
            rec = store.load_game(g.id)
            games.append((rec.seed, [(h.index, h.events, h.result) for h in rec.hands]))
    finally:
        store.close()
    return summary, games


def test_simulate_workers_2_same_as_1(tmp_path):
    one = _run(tmp_path, "one")
    two = _run(tmp_path, "two", "--workers", "2")
    assert one == two
    assert one[0]["hands"] == 20 and len(one[1]) == 3  # 8 + 8 + 4 hands


def test_simulate_on_local_ray_same_as_one_process(tmp_path):
    one = _run(tmp_path, "one")
    ray = _run(tmp_path, "ray", "--ray", "local")
    assert one == ray
