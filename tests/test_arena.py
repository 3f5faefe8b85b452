"""shangrao.arena: duplicate evaluation — rotations, determinism, the interval over deals."""

from __future__ import annotations

import math

import pytest

from shangrao.arena import (
    ArenaStats,
    deal_seed,
    iter_deals,
    lineup_from_bots,
    run_arena,
    t_interval,
)
from shangrao.bots import UnknownBotError

LINEUP = lineup_from_bots("ukeire", "greedy")


def _strip(res: dict) -> dict:
    return {k: v for k, v in res.items() if k not in ("timing", "storage")}


def test_each_deal_is_played_once_per_rotation_with_the_same_wall():
    (recs,) = list(iter_deals(1, seed=4, lineup=LINEUP))
    assert [r["rotation"] for r in recs] == [0, 1, 2, 3]
    assert [r["bots"].index("ukeire") for r in recs] == [0, 1, 2, 3]  # the test bot visits every seat
    walls = {tuple(r["events"][0]["wall"]) for r in recs}
    dice = {tuple(r["events"][0]["dice"]) for r in recs}
    assert len(walls) == 1 and len(dice) == 1
    assert all(r["seed"] == deal_seed(4, 0) for r in recs)


def test_same_seed_same_numbers():
    assert _strip(run_arena(LINEUP, deals=3, seed=7)) == _strip(run_arena(LINEUP, deals=3, seed=7))
    assert _strip(run_arena(LINEUP, deals=3, seed=7)) != _strip(run_arena(LINEUP, deals=3, seed=8))


def test_workers_2_same_as_1():
    one = run_arena(["expert", "greedy", "greedy", "greedy"], deals=2, seed=3)
    two = run_arena(["expert", "greedy", "greedy", "greedy"], deals=2, seed=3, workers=2)
    assert _strip(one) == _strip(two)
    assert one["timing"]["workers"] == 1 and two["timing"]["workers"] == 2


def test_interval_is_over_deals():
    per_deal: dict[str, list[float]] = {"ukeire": [], "greedy": []}

    def on_deal(recs):
        for name, seats in (("ukeire", 1), ("greedy", 3)):
            pts = sum(r["result"]["deltas"][i] for r in recs for i, n in enumerate(r["bots"]) if n == name)
            per_deal[name].append(pts / (4 * seats))

    res = run_arena(LINEUP, deals=6, seed=2, on_deal=on_deal)
    assert res["deals"] == 6 and res["hands"] == 24
    for b in res["bots"]:
        mean, lo, hi, _ = t_interval(per_deal[b["bot"]])
        assert len(per_deal[b["bot"]]) == 6  # one sample per deal, not one per hand
        assert b["points_per_hand"] == pytest.approx(mean, abs=1e-4)
        assert b["ci95"] == [pytest.approx(lo, abs=1e-4), pytest.approx(hi, abs=1e-4)]
        assert b["hands"] == 24 * b["seats_per_deal"]
    # zero sum: the test bot's points are the opponents' losses
    assert sum(b["points"] for b in res["bots"]) == 0


def test_t_interval_values():
    mean, lo, hi, sd = t_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    assert mean == 3.0 and sd == pytest.approx(math.sqrt(2.5))
    half = 2.776 * sd / math.sqrt(5)  # t(0.975, 4) = 2.776
    assert lo == pytest.approx(3.0 - half, abs=0.01) and hi == pytest.approx(3.0 + half, abs=0.01)
    assert t_interval([2.0])[1] == -math.inf


def test_stats_count_bao_kongs_and_declines():
    stats = ArenaStats(LINEUP, 1)
    for recs in iter_deals(4, seed=1, lineup=LINEUP):
        stats.add_deal(recs)
    out = stats.to_dict()
    for b in out["bots"]:
        assert set(b) >= {
            "win_rate",
            "mean_win_points",
            "patterns",
            "doublings",
            "declined_wins",
            "feibao",
            "caught_bao",
            "kongs",
            "robbed",
            "robs",
        }
        assert b["wins"] == sum(b["patterns"].values())


def test_bad_lineup_and_deals():
    with pytest.raises(UnknownBotError):
        run_arena(["expert", "nope", "greedy", "greedy"], deals=1, seed=1)
    with pytest.raises(ValueError, match="4 bot names"):
        run_arena(["expert", "greedy"], deals=1, seed=1)
    with pytest.raises(ValueError, match="deals"):
        run_arena(LINEUP, deals=-1, seed=1)
