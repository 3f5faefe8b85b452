"""shangrao.selfplay: parallel and Ray self-play give the same records as one process."""

import json

import pytest

from shangrao.bots import get_bot
from shangrao.game import Match
from shangrao.rules import DEFAULT_RULES
from shangrao.selfplay import iter_hands, match_seed, simulate_hands

BOTS = ["greedy", "random", "greedy", "random"]
N = 20  # 2 full matches of 8 and one of 4 hands


def _canon(records):
    return json.dumps(records, sort_keys=True, ensure_ascii=False)


@pytest.fixture(scope="module")
def reference():
    return simulate_hands(N, seed=7, bots=BOTS)


def test_records_follow_match_seeds_and_hand_order(reference):
    assert len(reference) == N
    assert [(r["match"], r["hand_no"]) for r in reference] == [(m, k) for m in range(3) for k in range(8)][:N]
    assert [r["match_over"] for r in reference].count(True) == 2  # the third match stops after 4 hands
    # match m is exactly the match shangrao simulate plays: seed match_seed(7, m), bots seeded "<seed>:<seat>"
    mseed = match_seed(7, 1)
    match = Match(DEFAULT_RULES, seed=mseed, bots=[get_bot(b, seed=f"{mseed}:{i}") for i, b in enumerate(BOTS)])
    hands = list(match)
    assert [h.events for h in hands] == [r["events"] for r in reference[8:16]]
    assert [h.result.to_dict() for h in hands] == [r["result"] for r in reference[8:16]]
    assert reference[15]["result"]["scores"] == list(match.scores)
    for r in reference:
        assert sum(r["result"]["deltas"]) == 0 and r["summary"]["deltas"] == r["result"]["deltas"]
    json.dumps(reference)  # JSON-able


def test_two_workers_give_the_same_records(reference):
    assert _canon(simulate_hands(N, seed=7, bots=BOTS, workers=2)) == _canon(reference)
    assert _canon(list(iter_hands(N, seed=7, bots=BOTS, workers=0))) == _canon(reference)


def test_bad_arguments():
    with pytest.raises(ValueError):
        simulate_hands(4, seed=1, bots=["greedy"] * 3)
    with pytest.raises(ValueError):
        simulate_hands(4, seed=1, bots=["nobody"] * 4)
    with pytest.raises(ValueError):
        simulate_hands(-1, seed=1)
    assert simulate_hands(0, seed=1) == []
    assert len(simulate_hands(3, seed=1, bots="random")) == 3


@pytest.fixture
def ray():
    """The optional ``ray`` extra: the Ray tests are skipped (not failed) where it is not installed."""
    return pytest.importorskip("ray")


def test_ray_local_cluster_started_here_gives_the_same_records(reference, ray):
    """ray_address='local': selfplay starts a private Ray, runs the matches as tasks, and shuts it down."""
    assert not ray.is_initialized()
    assert _canon(simulate_hands(N, seed=7, bots=BOTS, ray_address="local")) == _canon(reference)
    assert not ray.is_initialized()


def test_ray_cluster_started_by_the_test_gives_the_same_records(reference, ray):
    """A local 2-CPU Ray started by the test; selfplay joins it ('auto') and leaves it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert _canon(simulate_hands(N, seed=7, bots=BOTS, ray_address="auto")) == _canon(reference)
        assert ray.is_initialized()
        assert ray.cluster_resources().get("CPU") == 2
    finally:
        ray.shutdown()
