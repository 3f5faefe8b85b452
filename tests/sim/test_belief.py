"""The search's world weights (issue 35, item 1): uniform worlds keep what the seat sees, the weight of
every such world is finite and deterministic, and a fitted model explains held-out truth better than
uniform dealing."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from shangrao.errors import InputError
from shangrao.rules import DEFAULT_RULES
from shangrao.sim import belief as B
from shangrao.sim import core as C
from shangrao.sim.kernels import tables
from shangrao.sim.play import _BOT_RULES
from shangrao.sim.rules import encode_rules

TB = tables()
RULES = encode_rules(DEFAULT_RULES)
BOTS = np.full(4, C.BOT_UKEIRE, dtype=np.int32)


@pytest.fixture(scope="module")
def states():
    snaps, seats, conts = B.self_play_states(12, "test-belief", ("ukeire", "greedy", "ukeire", "greedy"))
    assert len(seats) > 20
    return snaps, seats, conts


@pytest.fixture(scope="module")
def small_params():
    return B.fit(hands=150, seed="test-fit", worlds=2)


def _hidden(st, seat):
    """The multiset of tile ids ``seat`` cannot see (opponents' concealed tiles and the live wall)."""
    ids = Counter()
    for o in range(4):
        if o == seat:
            continue
        for k in range(34):
            m = st[C._O_MASK + o * 34 + k]
            ids.update(4 * k + j for j in range(4) if (m >> j) & 1)
    ids.update(st[C._O_LIVE + p] for p in range(st[C._O_HEAD], st[C._O_TAIL] + 1))
    return ids


def _codes(st, s):
    bao = st[C._O_BAO]
    out = [0] * 5
    for k in range(34):
        n = st[C._O_COUNTS + s * 34 + k]
        if k == bao:
            out[4] += n
        else:
            out[k // 9] += n * 5 ** (k % 9)
    return out


def _deal(kind, st, seat, mt, world):
    if kind == "uniform":
        return B.deal_world(st, seat, mt, world) == 1
    lr3 = np.zeros((3, B.N_SH))
    if kind == "tilted":
        B.opponent_log_ratios(st, seat, B.load_params().log_ratio, lr3)
    else:
        B.state_log_ratios(st, seat, TB, B.load_params().log_p_model(), mt, 32, lr3)
    assert np.isfinite(lr3).all()
    return B.deal_world_tilted(st, seat, TB, lr3, mt, world, 200) >= 0


@pytest.mark.parametrize("kind", ["uniform", "tilted", "pilot"])
def test_a_dealt_world_keeps_everything_the_seat_sees_and_is_self_consistent(states, kind):
    snaps, seats, _ = states
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key("deal"))
    world = np.zeros(C.STATE_SIZE, dtype=np.int64)
    changed = 0
    for st, seat in zip(snaps[:40], seats[:40]):
        seat = int(seat)
        assert _deal(kind, st, seat, mt, world)
        assert _hidden(world, seat) == _hidden(st, seat)
        seen = np.ones(C.STATE_SIZE, dtype=bool)
        for o in range(4):
            if o != seat:
                for base in (C._O_COUNTS, C._O_MASK):
                    seen[base + o * 34 : base + o * 34 + 34] = False
                seen[C._O_CODES + o * 5 : C._O_CODES + o * 5 + 5] = False
                seen[C._O_BAODRAWN + o] = seen[C._O_LASTDRAW + o] = False
                assert (
                    world[C._O_COUNTS + o * 34 : C._O_COUNTS + o * 34 + 34].sum()
                    == st[C._O_COUNTS + o * 34 : C._O_COUNTS + o * 34 + 34].sum()
                )
                for k in range(34):
                    assert bin(world[C._O_MASK + o * 34 + k]).count("1") == world[C._O_COUNTS + o * 34 + k]
                assert list(world[C._O_CODES + o * 5 : C._O_CODES + o * 5 + 5]) == _codes(world, o)
        seen[C._O_LIVE : C._O_LIVE + 135] = False
        assert (world[seen] == st[seen]).all()  # the seat's hand, melds, discards, 飞宝, scores, phase
        changed += int((world != st).any())
    assert changed >= 35


def test_a_dealt_world_plays_to_its_end_without_an_error(states):
    snaps, seats, _ = states
    rules, bots = RULES, BOTS
    mts = np.zeros((4, 625), dtype=np.uint32)
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key("play"))
    world = np.zeros(C.STATE_SIZE, dtype=np.int64)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=np.int64)
    dec = np.zeros(C.MAX_DECISIONS, dtype=np.int32)
    for st, seat in zip(snaps[:30], seats[:30]):
        B.deal_world(st, int(seat), mt, world)
        assert C.play_to_end(world, ev, dec, rules, TB, bots, mts, np.zeros(1, dtype=np.int32), 0, _BOT_RULES) >= 0
        assert world[C._O_PHASE] == C.P_OVER and world[C._O_ERROR] == 0
        assert world[C._O_SCORES : C._O_SCORES + 4].sum() == 0


def test_the_truths_worlds_keep_every_hand_and_deal_only_the_walls_order_again(states):
    snaps, _, _ = states
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key("wall"))
    world = np.zeros(C.STATE_SIZE, dtype=np.int64)
    moved = 0
    for st in snaps[:30]:
        B.deal_wall(st, mt, world)
        lo, hi = C._O_LIVE + st[C._O_HEAD], C._O_LIVE + st[C._O_TAIL] + 1
        assert sorted(world[lo:hi]) == sorted(st[lo:hi])
        rest = np.ones(C.STATE_SIZE, dtype=bool)
        rest[lo:hi] = False
        assert (world[rest] == st[rest]).all()  # every hand, meld, discard and the wall's ends as they were
        moved += int((world[lo:hi] != st[lo:hi]).any())
    assert moved >= 25
    again = np.zeros(C.STATE_SIZE, dtype=np.int64)
    for out in (world, again):  # deterministic for a stream
        C.mt_seed(mt, C.seed_key("wall:2"))
        B.deal_wall(snaps[0], mt, out)
    assert (world == again).all()


def test_no_world_is_dealt_in_a_claim_window(states):
    snaps, seats, _ = states
    st = snaps[0].copy()
    st[C._O_PHASE] = C.P_CLAIM
    out = np.full(C.STATE_SIZE, 7, dtype=np.int64)
    mt = np.zeros(625, dtype=np.uint32)
    assert B.deal_world(st, int(seats[0]), mt, out) == 0
    assert B.deal_world_tilted(st, int(seats[0]), TB, np.zeros((3, B.N_SH)), mt, out, 200) == -1
    assert (out == 7).all()


def test_tilted_worlds_are_deterministic_and_bring_the_opponents_nearer_to_winning_than_uniform_ones(states):
    snaps, seats, _ = states
    lr = B.load_params().log_ratio
    lr3 = np.zeros((3, B.N_SH))
    mean = {}
    for tilted in (False, True):
        runs = []
        for _ in range(2):
            mt = np.zeros(625, dtype=np.uint32)
            C.mt_seed(mt, C.seed_key("tilt"))
            w, sh, d = np.zeros(20), np.zeros((20, 3), dtype=np.int64), np.zeros((20, 3), dtype=np.int64)
            out = []
            for st, seat in zip(snaps[:30], seats[:30]):
                B.opponent_log_ratios(st, int(seat), lr, lr3)
                B.sample_worlds(
                    st,
                    int(seat),
                    TB,
                    lr,
                    lr3,
                    mt,
                    20,
                    tilted,
                    False,
                    RULES,
                    BOTS,
                    np.zeros((4, 625), dtype=np.uint32),
                    _BOT_RULES,
                    w,
                    sh,
                    d,
                )
                out.append(sh.copy())
            runs.append(np.array(out))
        assert np.array_equal(runs[0], runs[1])
        mean[tilted] = runs[0].mean()
    assert mean[True] < mean[False] - 0.3


@pytest.mark.parametrize("which", ["shipped", "small"])
def test_the_weight_is_finite_and_deterministic_for_every_world_consistent_with_the_view(states, small_params, which):
    params = B.load_params() if which == "shipped" else small_params
    snaps, seats, _ = states
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key("weights"))
    w = np.zeros(50)
    sh = np.zeros((50, 3), dtype=np.int64)
    d = np.zeros((50, 3), dtype=np.int64)
    for st, seat in zip(snaps, seats):
        seat = int(seat)
        a = B.log_weight(st, seat, params)
        assert np.isfinite(a) and a == B.log_weight(st.copy(), seat, params)
        assert (
            B.sample_worlds(
                st,
                seat,
                TB,
                params.log_ratio,
                np.zeros((3, B.N_SH)),
                mt,
                50,
                False,
                False,
                RULES,
                BOTS,
                np.zeros((4, 625), dtype=np.uint32),
                _BOT_RULES,
                w,
                sh,
                d,
            )
            == 50
        )
        assert np.isfinite(w).all()
    assert np.isfinite(params.log_ratio).all()


def test_a_model_fitted_on_a_small_sample_explains_held_out_truth_better_than_uniform_dealing(states, small_params):
    snaps, seats, _ = states  # other seeds than the fit's
    pm, pu = small_params.p_model(), small_params.p_uniform()
    c = np.zeros(34, dtype=np.int8)
    gain = []
    for st, seat in zip(snaps, seats):
        for j in range(1, 4):
            o = (int(seat) + j) % 4
            cell, s = B._cell(st, o), B._shanten_of(st, TB, o, c)
            gain.append(np.log(pm[cell, s]) - np.log(pu[cell, s]))
    assert np.mean(gain) > 0.2  # nats per opponent (about 0.5 measured)


def test_params_survive_a_round_trip_and_a_bad_file_is_named(tmp_path, small_params):
    p = tmp_path / "b.npz"
    small_params.save(p)
    back = B.load_params(p)
    assert np.array_equal(back.log_ratio, small_params.log_ratio) and back.meta == small_params.meta
    assert "python -m shangrao.sim.belief fit" in back.meta["command"]
    with pytest.raises(InputError, match="no such file"):
        B.load_params(tmp_path / "missing.npz")
    np.savez(
        tmp_path / "shape.npz",
        log_ratio=np.zeros((3, 3)),
        n_model=small_params.n_model,
        n_uniform=small_params.n_uniform,
        meta=np.array("{}"),
    )
    with pytest.raises(InputError, match=r"shape.npz: log_ratio has shape \(3, 3\)"):
        B.load_params(tmp_path / "shape.npz")
    bad = small_params.log_ratio.copy()
    bad[5, 2] = -np.inf
    np.savez(
        tmp_path / "inf.npz",
        log_ratio=bad,
        n_model=small_params.n_model,
        n_uniform=small_params.n_uniform,
        meta=np.array("{}"),
    )
    with pytest.raises(InputError, match=r"log_ratio\[5, 2\] is not finite"):
        B.load_params(tmp_path / "inf.npz")


def test_log_weight_names_a_bad_state_or_seat(states, small_params):
    snaps, _, _ = states
    with pytest.raises(InputError, match="st: give the core's int64 state"):
        B.log_weight(snaps[0].astype(np.int32), 0, small_params)
    with pytest.raises(InputError, match=r"seat: give 0\.\.3, got 4"):
        B.log_weight(snaps[0], 4, small_params)
