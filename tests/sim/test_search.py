"""The ``search`` bot (issue 35): its view is what the seat's Observation shows, its worlds are
consistent with it, and it decides the same on the Python engine and natively in the core."""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.bots import get_bot
from shangrao.bots.search import SearchBot, SearchEvaluator, view_from_observation
from shangrao.game import Game
from shangrao.game.match import play_hand as engine_play_hand
from shangrao.rules import DEFAULT_RULES
from shangrao.sim import core as C
from shangrao.sim import search as S
from shangrao.sim.events import action_code, encode_events
from shangrao.sim.kernels import tables
from shangrao.sim.play import decisions_of
from shangrao.sim.rules import encode_rules

RS = encode_rules(DEFAULT_RULES)
TB = tables()
#: a small budget: the identity, not the strength, is tested here
SMALL = {"worlds": 2, "keep": 2}
#: hands of the identity run (the issue asks for >= 200)
IDENTITY_HANDS = 200


def _core_state(seed: str, decisions: list[int]) -> np.ndarray:
    st = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
    C.new_hand(
        st,
        ev,
        RS,
        TB,
        C.seed_key(seed),
        0,
        np.zeros(4, dtype=C.ST_DTYPE),
        0,
        np.full(136, -1, np.int32),
        np.zeros(2, np.int32),
    )
    scr = np.array(decisions, dtype=np.int32)
    C.play_to_end(
        st,
        ev,
        np.zeros(C.MAX_DECISIONS, np.int32),
        RS,
        TB,
        np.full(4, C.BOT_EXTERNAL, np.int32),
        np.zeros((4, 625), np.uint32),
        scr,
        len(scr),
        RS,
    )
    return st


def test_the_view_of_a_core_state_is_the_view_of_the_seats_observation():
    checked = 0
    phases = set()
    for h in range(12):
        g = Game(DEFAULT_RULES, seed=f"view:{h}")
        bots = [get_bot("greedy", f"view:{h}:{i}") for i in range(4)]
        while not g.is_over:
            seat = g.current_seat
            legal = g.legal_actions()
            if len(legal) > 1:
                st = _core_state(f"view:{h}", decisions_of(g.events))
                for s in range(4):  # every seat's view, the deciding one's and the others'
                    v = np.zeros(S.V_SIZE, np.int64)
                    S.view_of(st, s, v)
                    assert np.array_equal(v, view_from_observation(g.observation(s))), (h, g.phase, s)
                checked += 1
                phases.add(str(g.phase))
            g.push(legal[0] if len(legal) == 1 else bots[seat].choose(g.observation(seat), legal))
    assert checked > 300 and {"act", "claim"} <= phases


def test_a_world_holds_every_tile_once_and_keeps_what_the_seat_sees():
    g = Game(DEFAULT_RULES, seed="world:1")
    bots = [get_bot("greedy", i) for i in range(4)]
    n = 0
    while not g.is_over:
        seat = g.current_seat
        legal = g.legal_actions()
        if len(legal) > 1:
            v = view_from_observation(g.observation(seat))
            codes = np.array([action_code(a) for a in legal], np.int32)
            mt = np.zeros(625, np.uint32)
            C.mt_seed(mt, C.seed_key(n))
            w = np.zeros(C.STATE_SIZE, C.ST_DTYPE)
            assert S.deal_world(v, codes, len(codes), RS, TB, mt, w) == 0
            v2 = np.zeros(S.V_SIZE, np.int64)
            S.view_of(w, seat, v2)
            assert np.array_equal(v, v2)  # the world shows the seat what it saw
            ids = [*w[C._O_LIVE : C._O_LIVE + int(v[S.V_LEFT])], int(w[C._O_IND])]
            for s in range(4):
                for k in range(34):
                    ids += [4 * k + j for j in range(4) if (int(w[C._O_MASK + s * 34 + k]) >> j) & 1]
                for i in range(int(w[C._O_NMELD + s])):
                    mo = C._O_MELD + (s * 4 + i) * C.MELD_W
                    ids += [int(x) for x in w[mo + 4 : mo + 8] if x >= 0]
                ids += [int(x) for x in w[C._O_DISC + s * 40 : C._O_DISC + s * 40 + int(w[C._O_NDISC + s])]]
            if g.phase == "rob":
                ids += [int(x) for x in w[C._O_PK_IDS : C._O_PK_IDS + 4]]
            assert sorted(ids) == list(range(136))
            n += 1
        g.push(legal[0] if len(legal) == 1 else bots[seat].choose(g.observation(seat), legal))
    assert n > 20


def _core_search_hand(seed: str, bots: list[str], params: np.ndarray) -> list[int]:
    codes = np.array([S.BOT_SEARCH if b == "search" else C.BOT_GREEDY for b in bots], np.int32)
    mts = np.zeros((4, 625), np.uint32)
    for i in range(4):
        C.mt_seed(mts[i], C.seed_key(f"{seed}:{i}"))
    st = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
    dec = np.zeros(C.MAX_DECISIONS, np.int32)
    C.new_hand(
        st,
        ev,
        RS,
        TB,
        C.seed_key(seed),
        0,
        np.zeros(4, dtype=C.ST_DTYPE),
        0,
        np.full(136, -1, np.int32),
        np.zeros(2, np.int32),
    )
    nd = S.play_to_end(st, ev, dec, RS, TB, codes, mts, np.zeros(1, np.int32), 0, RS, params, S.weights_for(params))
    assert st[C._O_PHASE] == C.P_OVER and not st[C._O_ERROR]
    return [int(x) for x in dec[:nd]]


def _check_identity(hands: int, prefix: str = "ident") -> None:
    """``hands`` hands (even: four search seats, odd: two against greedy) decide the same on both engines."""
    params = S.default_params(SMALL["worlds"], SMALL["keep"])
    for h in range(hands):
        seed = f"{prefix}:{h}"
        names = ["search"] * 4 if h % 2 == 0 else ["search", "greedy", "search", "greedy"]
        bots = [
            SearchBot(f"{seed}:{i}", **SMALL) if b == "search" else get_bot("greedy", f"{seed}:{i}")
            for i, b in enumerate(names)
        ]
        g = Game(DEFAULT_RULES, seed=seed)
        engine_play_hand(g, bots, check=True)
        assert decisions_of(g.events) == _core_search_hand(seed, names, params), seed
        assert encode_events(g.events).shape[0] > 0


def test_search_decides_the_same_on_the_python_engine_and_natively_in_the_core():
    _check_identity(IDENTITY_HANDS)


def test_search_is_deterministic_for_a_seed_and_costs_nothing_on_a_single_option():
    g = Game(DEFAULT_RULES, seed="det:1")
    obs = g.observation(g.current_seat)
    legal = g.legal_actions()
    a, b = SearchBot("s", **SMALL), SearchBot("s", **SMALL)
    assert a.choose(obs, legal) == b.choose(obs, legal) and str(a.last) == str(b.last)  # NaN: pruned
    word = a.mt.copy()
    assert a.choose(obs, legal[:1]) == legal[0]
    assert np.array_equal(a.mt, word)  # no word drawn, no search


def test_the_search_evaluator_values_every_legal_option_with_a_standard_error():
    g = Game(DEFAULT_RULES, seed="eval:1")
    obs = g.observation(g.current_seat)
    legal = g.legal_actions()
    values = SearchEvaluator(seed=0, worlds=8).evaluate(obs, legal)
    assert set(values) == set(legal)
    for v, se in values.values():
        assert np.isfinite(v) and se is not None and np.isfinite(se) and se >= 0
    with pytest.raises(ValueError):
        SearchEvaluator().evaluate(obs, [])


def test_five_hundred_search_hands_play_only_legal_actions():
    # the Python engine checks every action (check=True); the bot searches at a tiny budget
    for h in range(500):
        g = Game(DEFAULT_RULES, seed=f"legal:{h}", dealer=h % 4)
        engine_play_hand(g, [SearchBot(f"legal:{h}:{i}", worlds=1, keep=2) for i in range(4)], check=True)
        assert g.is_over


def test_a_search_spec_sets_worlds_policy_win_rule_and_weighting_and_bad_ones_are_named():
    from shangrao.bots import UnknownBotError, check_bot_spec
    from shangrao.bots.search import parse_search_spec, search_params

    assert check_bot_spec(" Search:256:UKEIRE ") == "search:256:ukeire"
    assert parse_search_spec("search:64:z=1.5:margin=0:cand=128") == {
        "worlds": 64,
        "z": 1.5,
        "margin": 0.0,
        "cand": 128,
    }
    p = search_params("search:16:ukeire")
    assert (p[S.P_WORLDS], p[S.P_POLICY], p[S.P_WIN_Z], p[S.P_WIN_MARGIN], p[S.P_CANDS]) == (
        16,
        C.BOT_UKEIRE,
        200,
        400,
        0,
    )
    assert np.array_equal(search_params("search"), S.default_params())
    assert parse_search_spec("search:tilted:margin=2") == {"tilt": S.DEFAULT_TILT_TRIES, "margin": 2.0}
    assert search_params("search:tilt=50")[S.P_TILT] == 50 and search_params("search")[S.P_TILT] == 0
    bot = get_bot("search:16", 1)
    assert isinstance(bot, SearchBot) and bot.name == "search:16" and bot.params[S.P_WORLDS] == 16
    for bad, what in (
        ("search:abc", "'abc'"),
        ("search:0", "worlds"),
        ("search:z=x", "'z=x'"),
        ("search:foo=1", "unknown option 'foo=1'"),
        ("search:cand=-1", "cand"),
        ("search:tilt=-1", "tilt"),
        ("search:tilt=yes", "'tilt=yes'"),
    ):
        with pytest.raises(UnknownBotError, match=what):
            check_bot_spec(bad)


def test_the_core_plays_a_search_spec_and_refuses_two_different_ones():
    from shangrao.errors import InputError
    from shangrao.sim.play import play_hand as core_hand

    h = core_hand(
        seed="spec:1",
        bots=["search:2:keep=2", "greedy", "greedy", "greedy"],
        bot_seeds=[f"spec:1:{i}" for i in range(4)],
    )
    g = Game(DEFAULT_RULES, seed="spec:1")
    bots = [SearchBot("spec:1:0", worlds=2, keep=2)] + [get_bot("greedy", f"spec:1:{i}") for i in range(1, 4)]
    engine_play_hand(g, bots, check=True)
    assert list(h.decisions) == decisions_of(g.events)
    with pytest.raises(InputError, match="one search spec"):
        core_hand(seed="spec:1", bots=["search:2", "search:4", "greedy", "greedy"])


def _check_weighted_identity(hands: int, prefix: str = "wident") -> None:
    """``hands`` hands of four search seats on weighted worlds decide the same on both engines."""
    params = S.default_params(2, 2, candidates=8)
    assert S.weights_for(params).shape[0] > 1 and S.weights_for(S.default_params()) is S.NO_WEIGHTS
    for h in range(hands):
        seed = f"{prefix}:{h}"
        bots = [SearchBot(f"{seed}:{i}", worlds=2, keep=2, cand=8) for i in range(4)]
        g = Game(DEFAULT_RULES, seed=seed)
        engine_play_hand(g, bots, check=True)
        assert decisions_of(g.events) == _core_search_hand(seed, ["search"] * 4, params), seed


#: hands of the tilted identity run (a tilted world costs ~60 µs more than a uniform one)
TILTED_IDENTITY_HANDS = 24


def test_tilted_worlds_search_deterministically_and_the_same_on_both_engines():
    # the tilted sampler runs inside the compiled search, fed by the view: the Python engine's
    # Observation and the core's state give the same decisions (own-turn tilted, claim windows uniform)
    params = S.default_params(2, 2, tilt=S.DEFAULT_TILT_TRIES)
    assert params[S.P_TILT] == S.DEFAULT_TILT_TRIES and S.weights_for(params).shape[0] > 1
    tilted_differs = False
    for h in range(TILTED_IDENTITY_HANDS):
        seed = f"tident:{h}"
        names = ["search"] * 4 if h % 2 == 0 else ["search", "greedy", "search", "greedy"]
        bots = [
            SearchBot(f"{seed}:{i}", worlds=2, keep=2, tilt=S.DEFAULT_TILT_TRIES)
            if b == "search"
            else get_bot("greedy", f"{seed}:{i}")
            for i, b in enumerate(names)
        ]
        g = Game(DEFAULT_RULES, seed=seed)
        engine_play_hand(g, bots, check=True)
        tilted = _core_search_hand(seed, names, params)
        assert decisions_of(g.events) == tilted, seed
        tilted_differs |= tilted != _core_search_hand(seed, names, S.default_params(2, 2))
    assert tilted_differs  # the option changes the worlds


def test_a_tilted_search_values_its_options_on_tilted_worlds_of_its_own_turn():
    # same word, same decision and values; the values differ from the uniform worlds' (other worlds)
    for st, legal, n in _act_decisions("tilt", 4):
        v = np.zeros(S.V_SIZE, np.int64)
        S.view_of(st, int(st[C._O_CUR]), v)
        out = []
        for params in (S.default_params(16, 2, prune=False, tilt=200),) * 2 + (S.default_params(16, 2, prune=False),):
            vals, ses = np.zeros(48), np.zeros(48)
            a = S.search(v, legal, n, RS, TB, RS, 777, params, S.weights_for(params), vals, ses)
            assert np.isfinite(vals[:n]).all() and np.isfinite(ses[:n]).all()
            out.append((a, vals[:n].copy()))
        assert out[0][0] == out[1][0] and np.array_equal(out[0][1], out[1][1])
        assert not np.array_equal(out[0][1], out[2][1])


def _act_decisions(seed: str, count: int):
    """The first ``count`` own-turn states with several options of greedy hands (state, legal, n)."""
    st = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
    buf = np.zeros(48, np.int32)
    mts = np.zeros((4, 625), np.uint32)
    bots = np.full(4, C.BOT_GREEDY, np.int32)
    out = []
    for h in range(10):
        no_wall, no_dice = np.full(136, -1, np.int32), np.zeros(2, np.int32)
        C.new_hand(st, ev, RS, TB, C.seed_key(f"{seed}:{h}"), 0, np.zeros(4, C.ST_DTYPE), 0, no_wall, no_dice)
        while st[C._O_PHASE] != C.P_OVER:
            n = C.legal(st, RS, TB, buf)
            if st[C._O_PHASE] == C.P_ACT and n > 1 and st[C._O_NDISC + st[C._O_CUR]] >= 3:
                out.append((st.copy(), buf.copy(), n))
                if len(out) == count:
                    return out
            a = buf[0] if n == 1 else C._choose(st, RS, TB, bots, mts, st[C._O_CUR], buf, n, RS)
            C.push(st, ev, RS, TB, a, bool(st[C._O_PHASE] == C.P_ACT and (buf[:n] == C.A_WIN).any()))
    return out


@pytest.mark.parametrize("policy", [C.BOT_GREEDY, C.BOT_RANDOM])
def test_play_options_on_the_searchs_own_worlds_gives_the_searchs_values(policy):
    # the decline-a-win benchmark plays other samplers' worlds through play_options: on search's own
    # worlds (the same stream, drawn in the same order) it must give search's means exactly
    for st, legal, n in _act_decisions("opts", 6):
        seat = int(st[C._O_CUR])
        v = np.zeros(S.V_SIZE, np.int64)
        S.view_of(st, seat, v)
        params = S.default_params(6, 2, policy, prune=False)
        vals, ses = np.zeros(48), np.zeros(48)
        S.search(v, legal, n, RS, TB, RS, 12345, params, S.NO_WEIGHTS, vals, ses)
        mt = np.zeros(625, np.uint32)
        C.mt_seed(mt, np.array([12345], np.uint32))
        world = np.zeros(C.STATE_SIZE, C.ST_DTYPE)
        seeds = np.zeros(4, np.uint32)
        xs = np.zeros((6, n))
        for w in range(6):
            assert S.deal_world(v, legal, n, RS, TB, mt, world) == 0
            for s in range(4):
                seeds[s] = C.mt_next(mt)
            kept = world.copy()
            S.play_options(world, seat, legal, n, np.ones(n, np.int64), RS, TB, RS, policy, seeds, xs[w])
            assert (world == kept).all()
        np.testing.assert_allclose(xs.mean(axis=0), vals[:n], rtol=0, atol=1e-9)
        cand = np.zeros(n, np.int64)
        cand[0] = 1
        S.play_options(world, seat, legal, n, cand, RS, TB, RS, policy, seeds, xs[0])
        assert np.isfinite(xs[0, 0]) and np.isnan(xs[0, 1:]).all()


def test_weighted_worlds_search_deterministically_and_the_same_on_both_engines():
    _check_weighted_identity(6)
