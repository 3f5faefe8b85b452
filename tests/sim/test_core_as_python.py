"""The compiled core run as plain Python, for coverage: with ``NUMBA_DISABLE_JIT=1`` numba's kernels
are the Python functions they are compiled from, so coverage sees their lines (compiled, they run
outside the interpreter and count as never run).  ``.ci/run`` runs this module so, under coverage,
and combines it with the suite's (``[tool.coverage.*]`` in pyproject.toml); docs/dev/CONTEXT.md,
"Coverage", has the measured totals.

It replays the identity tests' own checks (``test_identity``, ``test_kernels``, ``test_vector``,
``test_search``, ``test_belief``: the same helpers and assertions, unchanged) on a few hands each —
the plain-Python core is several hundred times slower than compiled — and checks what has no
Python-engine twin (the search's values on single decisions, the behaviour model's worlds, weights
and fit) against the same function run in a process with the JIT on (:func:`_compiled`): plain
Python and compiled give the same numbers.  Its tables (``kernels.tables()``, 43 MB) are taken from
a compiled process (numba's cache): filled as plain Python under coverage they cost minutes; the
filler itself runs as Python on the honour table and must give the compiled one.  With the JIT on
(the normal suite) the module is skipped: the identity tests themselves play thousands of hands
there.  ``SHANGRAO_PY_CORE_HANDS`` sets the hands per bot (default 3).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numba
import numpy as np
import pytest
import test_features as feature_tests
import test_identity as identity  # tests/sim is on the path (pytest's rootdir-relative import)
import test_vector as vector_tests
import test_vector_opponents as opponent_tests

from shangrao.errors import InputError
from shangrao.rules import DEFAULT_RULES
from shangrao.sim import belief as B
from shangrao.sim import core as C
from shangrao.sim import kernels as K
from shangrao.sim import search as S
from shangrao.sim.rules import encode_rules
from shangrao.sim.vector import VectorEnv

pytestmark = pytest.mark.skipif(
    not numba.config.DISABLE_JIT, reason="the core as plain Python, for coverage: run with NUMBA_DISABLE_JIT=1"
)

HANDS = int(os.environ.get("SHANGRAO_PY_CORE_HANDS", "3"))

_SAVE_TABLES = (
    "import sys, numpy as np; from shangrao.sim import kernels as K; s, h = K.build_tables(); "
    "np.savez(sys.argv[1], suit=s, honor=h)"
)


def _compiled_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(suit, honor)`` as a process with the JIT on fills them (its compiled filler, cached by numba)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "COVERAGE_PROCESS_START")}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "tables.npz"
        subprocess.run([sys.executable, "-c", _SAVE_TABLES, str(path)], env=env, check=True, timeout=1800)
        with np.load(path) as z:
            return z["suit"], z["honor"]


if numba.config.DISABLE_JIT:
    _SUIT, _HONOR = _compiled_tables()
    K.build_tables = lambda: (_SUIT.copy(), _HONOR.copy())  # read by K.tables(), once per process


def test_the_table_filler_as_python_fills_the_honour_table_as_compiled():
    honor = np.zeros_like(_HONOR)
    K._fill(honor, 7, False, K._SL_MASKS)
    assert np.array_equal(honor, _HONOR)


@pytest.mark.parametrize("bot", ["random", "greedy", "ukeire"])
def test_whole_hands_of_the_core_as_python_are_the_engines(bot):
    seen = identity._check_random_hands(HANDS, DEFAULT_RULES, f"py-{bot}", bot)
    assert seen["wins"] + seen["drawn"] == HANDS


@pytest.mark.parametrize("name", list(identity.HOUSE_RULES))
def test_each_house_rule_in_the_core_as_python_is_the_engines(name):
    identity._check_random_hands(1, DEFAULT_RULES.replace(**identity.HOUSE_RULES[name]), f"py-rule-{name}")


@pytest.mark.parametrize(
    ("clause", "module", "name", "args"), identity.SCENARIOS, ids=[s[0] for s in identity.SCENARIOS]
)
def test_special_clauses_in_the_core_as_python_are_the_engines(monkeypatch, clause, module, name, args):
    identity.test_special_clause_on_a_scripted_wall_is_identical_in_the_core(monkeypatch, clause, module, name, args)


def test_the_largest_amounts_in_the_core_as_python_are_the_engines():
    identity._check_random_hands(HANDS, identity.MAX_AMOUNT_RULES, "amounts-random", "random", identity._big_scores)
    identity.test_scores_beyond_the_cores_range_are_refused_by_name()
    identity.test_an_amount_beyond_int64_in_a_log_is_refused_by_event()
    identity.test_an_illegal_scripted_decision_names_its_index()
    identity.test_a_core_hand_replays_in_the_engine_with_the_same_log()


def test_scoring_in_the_core_as_python_is_the_engines():
    import test_kernels as kernel_tests  # here, not above: it reads the tables on import (these, compiled)

    inner = kernel_tests.test_score_win_matches_score_on_random_situations.hypothesis.inner_test
    for seed in range(60 * HANDS):
        inner(seed, seed % 2 == 0, seed % 3 == 0, [1, 2, 0][seed % 3], [6, 3, 0][seed % 3])
    kernel_tests.test_score_win_of_no_win_is_empty()


def test_the_batched_env_in_the_core_as_python_is_the_engines():
    vector_tests._check_against_engine(VectorEnv(2, ("learner", "random", "greedy", "ukeire")), 20 * HANDS, seed=5)
    vector_tests.test_step_before_reset_and_a_bad_game_index_are_refused()
    vector_tests.test_a_refused_seed_leaves_every_game_as_it_was()


def test_the_features_in_the_core_as_python_are_the_pythons():
    feature_tests.test_melds_are_read_back_from_their_tile_counts()
    feature_tests.test_the_batch_function_is_the_per_row_function()
    opponent_tests.test_features_come_with_each_batch()


def test_policy_seats_and_state_in_the_core_as_python_are_the_engines():
    def first_legal(planes, mask):
        return mask.argmax(axis=1).astype(np.int64)

    env = VectorEnv(2, ("learner", first_legal, "learner", "random"))
    b = env.reset(seed=3)
    for _ in range(4 * HANDS):
        b = env.step(b.legal_action_mask.argmax(axis=1))
    for i in range(2):
        g, _ = opponent_tests._replay(env, i)
        assert np.array_equal(opponent_tests.encode_state(g, 1), env.state()[i])


# ---------------------------------------------------------------------------------------------- compiled results
_RUN_COMPILED = (
    "import sys, numpy as np; sys.path.insert(0, sys.argv[1]); import test_core_as_python as m; "
    "np.savez(sys.argv[3], **getattr(m, sys.argv[2])())"
)


def _compiled(name: str) -> dict[str, np.ndarray]:
    """What this module's function ``name`` (no arguments, a dict of arrays) returns in a process with
    the JIT on: the compiled kernels' numbers, for the plain-Python ones to equal."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "COVERAGE_PROCESS_START")}
    here = str(Path(__file__).resolve().parent)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "out.npz"
        subprocess.run([sys.executable, "-c", _RUN_COMPILED, here, name, str(path)], env=env, check=True, timeout=1800)
        with np.load(path) as z:
            return {k: z[k] for k in z.files}


def _assert_same(py: dict[str, np.ndarray], compiled: dict[str, np.ndarray]) -> None:
    assert sorted(py) == sorted(compiled)
    for k in py:
        np.testing.assert_array_equal(np.asarray(py[k]), compiled[k], err_msg=k)


# ---------------------------------------------------------------------------------------------- search
def _search_positions(hands: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(view, legal codes)`` of decisions with several options in greedy hands, those offering a win first."""
    from shangrao.bots import get_bot
    from shangrao.bots.search import view_from_observation
    from shangrao.game import Game
    from shangrao.sim.events import action_code

    wins, others = [], []
    for h in range(hands):
        g = Game(DEFAULT_RULES, seed=f"py-search:{h}", dealer=h % 4)
        bots = [get_bot("greedy", f"py-search:{h}:{i}") for i in range(4)]
        n = 0
        while not g.is_over:
            seat, legal = g.current_seat, g.legal_actions()
            if len(legal) > 1:
                codes = np.array([action_code(a) for a in legal], np.int32)
                pos = (view_from_observation(g.observation(seat)), codes)
                if C.A_WIN in codes:
                    wins.append(pos)
                elif n % 15 == 4:
                    others.append(pos)
                n += 1
            g.push(legal[0] if len(legal) == 1 else bots[seat].choose(g.observation(seat), legal))
    return wins + others


def _rob_positions() -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``(view, legal codes, rules)`` of every rob window with several options in the engine's
    robbing-a-kong scenarios (scripted walls: no random hand comes near enough of them)."""
    from shangrao.bots.search import view_from_observation
    from shangrao.game import Game
    from shangrao.sim.events import action_code

    with pytest.MonkeyPatch.context() as mp:
        games = identity._games_of(mp, [s for s in identity.SCENARIOS if s[0].startswith("robbing")])
    out = []
    for g in games:
        r = Game(g.rules, seed=g.seed, dealer=g.dealer, scores=g.start_scores, wall=g.wall, dice=g.dice)
        for ev in g.events:
            if "action" not in ev:
                continue
            legal = r.legal_actions()
            if r.phase == "rob" and len(legal) > 1:
                codes = np.array([action_code(a) for a in legal], np.int32)
                out.append((view_from_observation(r.observation(r.current_seat)), codes, encode_rules(g.rules)))
            r.apply(ev["action"])  # type: ignore[typeddict-item]
    return out


def search_numbers() -> dict[str, np.ndarray]:
    """The search's choices, values and standard errors on a few decisions (a win offered in several),
    with each play-out policy, pruned and not, on uniform, weighted and tilted worlds, in rob windows too."""
    rs, tb = encode_rules(DEFAULT_RULES), K.tables()
    variants = [
        S.default_params(2, 2),
        S.default_params(3, 2, win_z=0, win_margin=0),
        S.default_params(2, 1, C.BOT_RANDOM),
        S.default_params(2, 2, C.BOT_UKEIRE, candidates=4),
        S.default_params(2, 2, prune=False),
        S.default_params(2, 2, tilt=20),  # tilted worlds on the seat's own turn (search:tilted)
    ]
    out: dict[str, list] = {"choice": [], "vals": [], "ses": []}
    rob = _rob_positions()
    assert rob
    positions = [(v, codes, rs) for v, codes in _search_positions(4)] + rob
    for pi, (v, codes, rules) in enumerate(positions):
        n = len(codes)
        legal = np.zeros(48, np.int32)
        legal[:n] = codes
        for vi, params in enumerate(variants):
            vals, ses = np.zeros(48), np.zeros(48)
            word = (pi * 7919 + vi * 104729) & 0xFFFFFFFF
            lr = S.weights_for(params)
            out["choice"].append(S.search(v, legal, n, rules, tb, rs, word, params, lr, vals, ses))
            out["vals"].append(vals)
            out["ses"].append(ses)
    return {k: np.array(x) for k, x in out.items()}


def test_search_decisions_of_the_core_as_python_are_the_compiled_ones():
    py = search_numbers()
    assert py["choice"].shape[0] >= 20 and np.isfinite(py["vals"]).any()
    _assert_same(py, _compiled("search_numbers"))


def test_a_view_no_deal_can_hold_is_searched_as_its_first_option():
    v, codes = _search_positions(1)[-1]
    n = len(codes)
    legal = np.zeros(48, np.int32)
    legal[:n] = codes
    rs, tb = encode_rules(DEFAULT_RULES), K.tables()
    world = np.zeros(C.STATE_SIZE, C.ST_DTYPE)
    mt = np.zeros(625, np.uint32)
    k = int(np.argmax(v[S.V_HAND : S.V_HAND + 34]))
    five_held, five_discarded = v.copy(), v.copy()
    five_held[S.V_HAND + k] = 5
    five_discarded[S.V_NDISC] = 5
    five_discarded[S.V_DISC : S.V_DISC + 5] = k
    for bad in (five_held, five_discarded):
        assert S.deal_world(bad, legal, n, rs, tb, mt, world) == 1
        vals, ses = np.zeros(48), np.zeros(48)
        assert (
            S.search(bad, legal, n, rs, tb, rs, 1, S.default_params(2, 2, prune=False), S.NO_WEIGHTS, vals, ses)
            == codes[0]
        )
        assert np.isnan(vals[:n]).all()


def test_search_hands_of_the_core_as_python_are_the_engines():
    import test_search as search_tests  # here, not above: it reads the tables on import (these, compiled)

    from shangrao.game.actions import IllegalActionError
    from shangrao.sim.play import play_hand

    search_tests._check_identity(2, "py-ident")
    bots = ["search:2:keep=2", "greedy", "search:2:keep=2", "ukeire"]
    h = play_hand(seed="py-script", bots=bots)
    again = play_hand(seed="py-script", bots=bots, script=list(h.decisions))  # every decision scripted
    assert list(again.decisions) == list(h.decisions) and np.array_equal(again.rows, h.rows)
    with pytest.raises(IllegalActionError, match=r"script\[0\]"):
        play_hand(seed="py-script", bots=["search:2", "external", "external", "external"], script=["pung 5m"])
    search_tests.test_a_world_holds_every_tile_once_and_keeps_what_the_seat_sees()
    search_tests.test_search_is_deterministic_for_a_seed_and_costs_nothing_on_a_single_option()
    search_tests.test_the_search_evaluator_values_every_legal_option_with_a_standard_error()
    search_tests.test_the_core_plays_a_search_spec_and_refuses_two_different_ones()


def test_matches_with_search_seats_in_the_core_as_python_are_the_engines():
    from shangrao.selfplay import simulate_hands

    for bots in (["search:2:keep=2", "greedy", "ukeire", "random"], ["random", "greedy", "ukeire", "greedy"]):
        assert simulate_hands(HANDS, 7, bots, engine="fast") == simulate_hands(HANDS, 7, bots, engine="python")


# ---------------------------------------------------------------------------------------------- belief
def belief_numbers() -> dict[str, np.ndarray]:
    """The behaviour model's kernels on a few self-play states: a fit on a few hands, worlds dealt
    uniformly and tilted, their weights, per-state log ratios, the tilted gain and worlds played out."""
    tb = K.tables()
    rules = encode_rules(DEFAULT_RULES)
    bots = np.full(4, C.BOT_UKEIRE, np.int32)
    snaps, seats, _ = B.self_play_states(3, "py-belief", ("ukeire", "greedy", "random", "greedy"))
    params = B.fit(hands=4, seed="py-fit", worlds=2)
    log_model = params.log_p_model()
    mt = np.zeros(625, np.uint32)
    C.mt_seed(mt, C.seed_key("py-belief"))
    mts = np.zeros((4, 625), np.uint32)
    world = np.zeros(C.STATE_SIZE, np.int64)
    out: dict[str, list] = {k: [] for k in ("uniform", "tilted", "weight", "lr3", "gain", "w", "sh", "d", "n")}
    for st, seat in list(zip(snaps, seats))[:: max(1, len(seats) // 6)]:
        seat = int(seat)
        out["n"].append(B.deal_world(st, seat, mt, world))
        out["uniform"].append(world.copy())
        out["weight"].append(B.world_log_weight(world, seat, tb, params.log_ratio))
        lr3 = np.zeros((3, B.N_SH))
        B.opponent_log_ratios(st, seat, params.log_ratio, lr3)
        out["lr3"].append(lr3.copy())
        B.state_log_ratios(st, seat, tb, log_model, mt, 6, lr3)
        out["lr3"].append(lr3.copy())
        out["n"].append(B.deal_world_tilted(st, seat, tb, lr3, mt, world, 5))
        out["tilted"].append(world.copy())
        out["gain"].append(B.tilted_log_gain(st, seat, tb, lr3, mt, 6))
        for tilted in (False, True):
            w, sh, d = np.zeros(2), np.zeros((2, 3), np.int64), np.zeros((2, 3), np.int64)
            args = (rules, bots, mts, C.BOT_RULES, w, sh, d)
            out["n"].append(B.sample_worlds(st, seat, tb, params.log_ratio, lr3, mt, 2, tilted, True, *args))
            out["w"].append(w)
            out["sh"].append(sh)
            out["d"].append(d)
    arrays = {k: np.array(x) for k, x in out.items()}
    return {**arrays, "snaps": snaps, "seats": seats, "log_ratio": params.log_ratio, "n_model": params.n_model}


def test_the_belief_kernels_as_python_are_the_compiled_ones():
    py = belief_numbers()
    assert py["snaps"].shape[0] >= 6 and (py["n"] >= 0).all()
    _assert_same(py, _compiled("belief_numbers"))


@pytest.fixture(scope="module")
def belief_states():
    return B.self_play_states(12, "test-belief", ("ukeire", "greedy", "ukeire", "greedy"))  # the belief tests' own


@pytest.mark.parametrize("kind", ["uniform", "tilted", "pilot"])
def test_worlds_dealt_by_the_belief_kernels_as_python_keep_what_the_seat_sees(belief_states, kind):
    import test_belief as belief_tests

    belief_tests.test_a_dealt_world_keeps_everything_the_seat_sees_and_is_self_consistent(belief_states, kind)


def test_the_belief_model_as_python_fits_saves_loads_and_refuses_bad_input(belief_states, tmp_path):
    import test_belief as belief_tests

    belief_tests.test_a_dealt_world_plays_to_its_end_without_an_error(belief_states)
    belief_tests.test_no_world_is_dealt_in_a_claim_window(belief_states)
    claim = belief_states[0][0].copy()
    claim[C._O_PHASE] = C.P_CLAIM
    for tilted in (False, True):
        w, sh, d = np.zeros(2), np.zeros((2, 3), np.int64), np.zeros((2, 3), np.int64)
        rest = (encode_rules(DEFAULT_RULES), np.full(4, C.BOT_GREEDY, np.int32), np.zeros((4, 625), np.uint32))
        lr = B.load_params().log_ratio
        mt = np.zeros(625, np.uint32)
        args = (claim, 0, K.tables(), lr, np.zeros((3, B.N_SH)), mt, 2, tilted, True, *rest, C.BOT_RULES, w, sh, d)
        assert B.sample_worlds(*args) == 0
    for call, says in (
        (lambda: B.self_play_states(0, "x"), "hands and stride"),
        (lambda: B.self_play_states(1, "x", ("expert",) * 4), "bots: give 4 core bots"),
        (lambda: B.fit(hands=1, worlds=0), "worlds and alpha"),
    ):
        with pytest.raises(InputError, match=says):
            call()
    assert B.self_play_states(1, "x", stride=1, max_per_hand=0)[0].shape == (0, C.STATE_SIZE)
    small_meta = {"log_ratio": np.zeros((B.N_CELLS, B.N_SH)), "n_model": np.zeros((B.N_CELLS, B.N_SH))}
    np.savez(tmp_path / "field.npz", **small_meta)
    (tmp_path / "text.npz").write_text("not a zip")
    full = {**small_meta, "n_uniform": np.zeros((B.N_CELLS, B.N_SH))}
    np.savez(tmp_path / "json.npz", **full, meta=np.array("{"))
    np.savez(tmp_path / "version.npz", **full, meta=np.array('{"features_version": -1}'))
    for name, says in (
        ("field", "field n_uniform is missing$"),
        ("text", "not a params file"),
        ("json", "meta is not JSON"),
        ("version", "features version -1"),
    ):
        with pytest.raises(InputError, match=says):
            B.load_params(tmp_path / f"{name}.npz")
    small = B.fit(hands=3, seed="py-small", worlds=1)
    belief_tests.test_params_survive_a_round_trip_and_a_bad_file_is_named(tmp_path, small)
    belief_tests.test_log_weight_names_a_bad_state_or_seat(belief_states, small)
    out = tmp_path / "fit.npz"
    assert B.main(["fit", "--hands", "2", "--seed", "py", "--worlds", "1", "--out", str(out)]) == 0
    assert B.load_params(out).meta["hands"] == 2


# ---------------------------------------------------------------------------------------------- guards
@pytest.mark.parametrize("search", [False, True])
def test_a_hand_with_too_small_buffers_stops_with_their_error_codes(search):
    """The core's guards (no real hand comes near its buffers) name the full buffer: the event rows
    (error 2: the hand plays on, its rows not kept), the decisions (error 3: the hand stops)."""
    rs, tb = encode_rules(DEFAULT_RULES), K.tables()
    bots = np.full(4, S.BOT_SEARCH if search else C.BOT_GREEDY, np.int32)
    params = S.default_params(1, 1)
    for rows, decisions, error in ((6, C.MAX_DECISIONS, 2), (C.MAX_EVENTS, 3, 3)):
        st = np.zeros(C.STATE_SIZE, C.ST_DTYPE)
        ev = np.zeros((rows, C.EV_WIDTH), C.ST_DTYPE)
        dec = np.zeros(decisions, np.int32)
        no_wall, no_dice = np.full(136, -1, np.int32), np.zeros(2, np.int32)
        C.new_hand(st, ev, rs, tb, C.seed_key("full"), 0, np.zeros(4, C.ST_DTYPE), 0, no_wall, no_dice)
        mts = np.zeros((4, 625), np.uint32)
        args = (st, ev, dec, rs, tb, bots, mts, np.zeros(1, np.int32), 0, C.BOT_RULES)
        nd = S.play_to_end(*args, params, S.weights_for(params)) if search else C.play_to_end(*args)
        assert st[C._O_ERROR] == error
        assert (nd == decisions) if error == 3 else (st[C._O_PHASE] == C.P_OVER and nd > 0)


def test_dataset_rows_and_labels_in_the_core_as_python_are_the_engines(tmp_path):
    """shangrao.sim.record as plain Python: the rows of random hands and random labels, as the engine's."""
    from shangrao.data import Dataset, write_selfplay
    from shangrao.data.dagger import write_dagger

    for engine in ("python", "fast"):
        write_selfplay(tmp_path / engine, HANDS, 2, "random", engine=engine, label="random")
    a, b = Dataset(tmp_path / "python").load(), Dataset(tmp_path / "fast").load()
    for col in a:
        assert np.array_equal(a[col], b[col]), col

    def first_legal(planes, mask):
        return mask.argmax(axis=1).astype(np.int64)

    meta = write_dagger(tmp_path / "dagger", HANDS, 4, first_legal, "random", num_envs=2)
    assert meta["hands"] == HANDS and meta["decisions"] > 0
