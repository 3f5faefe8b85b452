"""``--engine python|fast``: simulate, selfplay and the records give the same results either way (issue 23).

The fast engine plays the hands in the compiled core; a stored hand's log comes from the Python
engine replaying the core's decisions (checked against the core's rows), and without a store the
summary is built from the core's rows alone (:func:`shangrao.sim.play.hand_summary`), equal to the
engine's :func:`shangrao.records.summary.hand_summary` key for key.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from shangrao.errors import InputError
from shangrao.records import Store
from shangrao.rules import DEFAULT_RULES
from shangrao.selfplay import resolve_engine, simulate_hands


@pytest.mark.parametrize(
    ("bots", "n"), [(["random"] * 4, 80), (["greedy"] * 4, 40), (["ukeire", "greedy", "random", "greedy"], 16)]
)
def test_fast_engine_records_equal_the_python_engine_records(bots, n):
    python = simulate_hands(n, 11, bots, engine="python")
    fast = simulate_hands(n, 11, bots, engine="fast")
    assert fast == python  # events, results, summaries, seeds, match ends: all of it


def test_fast_summaries_without_replay_equal_the_engine_summaries():
    rules = DEFAULT_RULES.replace(base_points=2, robbing_kong_factor=4)
    python = simulate_hands(400, 3, ["random"] * 4, rules=rules, engine="python")
    fast = simulate_hands(400, 3, ["random"] * 4, rules=rules, engine="fast", events=False)
    assert [r["summary"] for r in fast] == [r["summary"] for r in python]
    assert all(r["events"] is None and r["result"] is None for r in fast)
    assert any(r["summary"]["wins"] and r["summary"]["wins"][0]["doublings"] for r in fast)


def test_the_engine_is_fast_by_default_only_for_core_bots():
    assert resolve_engine(None, ["greedy"] * 4) == "fast"
    assert resolve_engine(None, ["greedy", "expert", "greedy", "greedy"]) == "python"
    with pytest.raises(InputError, match=r"engine fast: .*'expert'"):
        resolve_engine("fast", ["greedy", "expert", "greedy", "greedy"])
    with pytest.raises(InputError, match="engine: one of python, fast"):
        resolve_engine("rust", ["greedy"] * 4)


def _simulate(tmp_path, name: str, *extra: str) -> tuple[dict, list]:
    db = tmp_path / f"{name}.sqlite3"
    out = subprocess.run(
        [
            "shangrao",
            "simulate",
            "--hands",
            "12",
            "--seed",
            "5",
            "--bots",
            "greedy,random,ukeire,random",
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
    engine = summary.pop("timing")["engine"]
    summary.pop("storage")
    store = Store(str(db))
    try:
        games = [
            (
                (rec.seed, rec.players, rec.rules, rec.status, rec.hands_played, rec.scores, rec.meta),
                [(h.index, h.dealer, h.events, h.result, h.scores_after) for h in rec.hands],
            )
            for rec in (store.load_game(g.id) for g in sorted(store.list_games(), key=lambda g: g.id))
        ]
        compact = [h.compact for g in store.list_games() for h in store.load_game(g.id).hands]
    finally:
        store.close()
    return {"engine": engine, **summary}, games, compact


def test_simulate_stores_the_same_hands_with_either_engine(tmp_path):
    fast = _simulate(tmp_path, "fast")
    python = _simulate(tmp_path, "python", "--engine", "python")
    assert fast[0].pop("engine") == "fast" and python[0].pop("engine") == "python"
    assert fast[:2] == python[:2]  # the summary printed, and every stored game, hand, result and event
    assert len(fast[1]) == 2  # 8 + 4 hands


def test_a_compact_stored_game_loads_to_the_events_of_the_python_engine_game(tmp_path):
    """The fast engine stores its hands compact (decisions, no events: shangrao.records.compact), the
    Python engine with their events; read back, the games are the same, event for event."""
    fast = _simulate(tmp_path, "fast")
    python = _simulate(tmp_path, "python", "--engine", "python")
    assert fast[2] == [True] * 12 and python[2] == [False] * 12
    for (head_f, hands_f), (head_p, hands_p) in zip(fast[1], python[1]):
        assert head_f == head_p
        for hf, hp in zip(hands_f, hands_p, strict=True):
            assert hf[2] == hp[2], hf[0]  # the events: exactly those of the full record
            assert hf == hp


def test_simulate_without_a_store_prints_the_same_summary(cli):
    outs = []
    for engine in ("python", "fast"):
        r = cli(
            "simulate", "--hands", "40", "--seed", "9", "--bots", "random", "--engine", engine, "--no-store", "--json"
        )
        assert r.exit_code == 0, r.output
        s = json.loads(r.stdout)
        s.pop("timing")
        assert s["storage"] == {"db": None, "game_ids": []}
        outs.append(s)
    assert outs[0] == outs[1]


def test_simulate_engine_fast_with_a_bot_the_core_lacks_is_one_clear_error(run, one_line_error):
    one_line_error(run("simulate", "--hands", "2", "--bots", "expert", "--engine", "fast"), "--engine", "expert")
    one_line_error(run("simulate", "--hands", "2", "--engine", "quick"), "--engine", "quick")


def test_arena_numbers_are_the_same_with_either_engine():
    from shangrao.arena import lineup_from_bots, run_arena

    lineup = lineup_from_bots("ukeire", "greedy")
    python = run_arena(lineup, 3, 7, engine="python")
    fast = run_arena(lineup, 3, 7, engine="fast")
    assert python.pop("timing")["engine"] == "python" and fast.pop("timing")["engine"] == "fast"
    assert fast == python


def test_arena_cli_engine_fast_with_a_bot_the_core_lacks_is_one_clear_error(run, one_line_error):
    one_line_error(
        run("arena", "--bots", "expert,greedy", "--deals", "1", "--engine", "fast", "--no-store"), "--engine", "expert"
    )


def test_dataset_rows_are_the_same_with_either_engine(tmp_path):
    import numpy as np

    from shangrao.data import Dataset, write_selfplay

    metas = {}
    for engine in ("python", "fast"):
        metas[engine] = write_selfplay(
            tmp_path / engine, 12, 4, ["ukeire", "greedy", "random", "greedy"], engine=engine
        )
    a = Dataset(tmp_path / "python").load()
    b = Dataset(tmp_path / "fast").load()
    assert set(a) == set(b) and len(a["action"]) > 100
    for col in a:
        assert np.array_equal(a[col], b[col]), col
    for m in metas.values():
        for k in ("seconds", "decisions_per_second", "hands_per_second"):
            m.pop(k)
    assert metas["python"] == metas["fast"]


def test_simulate_prints_the_same_summary_with_either_engine_at_the_largest_amounts(cli):
    """Issue 34: with every point option at its maximum a 抢杠 pays 10**12 points; the fast engine's
    int64 amounts print what the Python engine prints (they wrapped past 2**31 before)."""
    from shangrao.rules import MAX_RULE_INT

    rules = [
        f"--rule={k}={MAX_RULE_INT}"
        for k in (
            "base_points",
            "robbing_kong_factor",
            "heavenly_points",
            "earthly_points",
            "pung_kong_bonus",
            "concealed_kong_bonus",
            "four_bao_bonus",
            "caught_bao_bonus",
        )
    ]
    outs = []
    for engine in ("python", "fast"):
        r = cli(
            "simulate",
            "--hands",
            "160",
            "--seed",
            "4",
            "--bots",
            "random",
            "--engine",
            engine,
            "--no-store",
            "--json",
            *rules,
        )
        assert r.exit_code == 0, r.output
        s = json.loads(r.stdout)
        s.pop("timing")
        outs.append(s)
    assert outs[0] == outs[1]
    assert max(abs(x) for x in _ints(outs[1])) >= MAX_RULE_INT**2  # seed 4 holds a 抢杠 of 2·10**12 points


def _ints(value) -> list[int]:
    """Every int in a JSON value."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _ints(v)]
    if isinstance(value, list):
        return [x for v in value for x in _ints(v)]
    return []
