"""The compiled kernels (issue 23) answer exactly as the Python engine: tables, win check, shanten,
the bots' discard arithmetic, 宝吊, and the score of every win of real self-play."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shangrao.analysis import is_baodiao_state, is_winning, shanten
from shangrao.analysis import tables as tables_module
from shangrao.analysis.tables import HandKey, entry
from shangrao.bots import get_bot
from shangrao.bots.greedy import _neighbourhood
from shangrao.game import Match
from shangrao.melds import Meld, MeldType
from shangrao.rules import DEFAULT_RULES, RuleSet, RuleSetError
from shangrao.scoring import SituationError, WinSituation, score
from shangrao.sim import kernels as K
from shangrao.sim.convert import breakdown, score_situation
from shangrao.sim.rules import N_RULES, decode_rules, encode_rules
from shangrao.tiles import TERMINALS_AND_HONORS

SUIT, HONOR = K.tables()
TH = sorted(TERMINALS_AND_HONORS)


def _digits(code: int, width: int) -> list[int]:
    return [code // 5**r % 5 for r in range(width)]


# ---------------------------------------------------------------- tables
@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14))
def test_suit_table_rows_equal_the_python_entries(counts):
    code = sum(c * 5**r for r, c in enumerate(counts))
    assert list(SUIT[code]) == list(entry(code)[: K.N_FIELDS])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 4), min_size=7, max_size=7).filter(lambda c: sum(c) <= 14))
def test_honor_table_rows_equal_the_python_entries(counts):
    code = sum(c * 5**r for r, c in enumerate(counts))
    assert list(HONOR[code]) == list(entry(code, True)[: K.N_FIELDS])


def test_table_entry_arithmetic_is_the_python_function_compiled():
    assert K._entry_fields.py_func is tables_module.entry_fields
    assert K.N_FIELDS == tables_module.N_FIELDS and K.F_SL == tables_module.SL and K.F_N == tables_module.N


def test_tables_are_built_once_and_read_only():
    assert K.tables() is K.tables()
    assert SUIT.shape == (5**9, K.N_FIELDS) and HONOR.shape == (5**7, K.N_FIELDS)
    assert SUIT.dtype == np.int8 and not SUIT.flags.writeable


# ---------------------------------------------------------------- hands
@st.composite
def hands(draw, extra=None):
    """(counts, bao, m): a concealed hand of 3m+1 or 3m+2 tiles, 0-4 宝, never a fifth copy; a third
    of them built complete (then maybe one tile changed: near-wins)."""
    m = draw(st.integers(0, 4))
    extra = draw(st.integers(1, 2)) if extra is None else extra
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    counts = [0] * 34
    if extra == 2 and draw(st.booleans()):
        melds = [[s * 9 + r, s * 9 + r + 1, s * 9 + r + 2] for s in range(3) for r in range(7)]
        melds += [[k] * 3 for k in range(34)]
        while True:
            counts = [0] * 34
            counts[rng.randrange(34)] += 2
            for _ in range(m):
                for k in rng.choice(melds):
                    counts[k] += 1
            if max(counts) <= 4:
                break
        if draw(st.booleans()):
            k = rng.choice([k for k in range(34) if counts[k]])
            counts[k] -= 1
            counts[rng.choice([x for x in range(34) if counts[x] < 4])] += 1
    else:
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        for k in wall[: 3 * m + extra]:
            counts[k] += 1
    bao = draw(st.one_of(st.none(), st.integers(0, 33)))
    if bao is not None:
        for k in [k for k in range(34) if counts[k] and k != bao][: draw(st.integers(0, 4))]:
            if counts[bao] < 4:
                counts[k] -= 1
                counts[bao] += 1
    return counts, bao, m


def _b(bao):
    return K.NO_BAO if bao is None else bao


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(hands(extra=2), st.booleans())
def test_is_win_matches_the_engine_on_random_hands(case, jiuyao_ok):
    counts, bao, m = case
    a = np.array(counts, dtype=np.int8)
    got = K.is_win(SUIT, HONOR, a, _b(bao), m, jiuyao_ok)
    assert got == HandKey(counts, bao).is_win(m, jiuyao_ok)
    if jiuyao_ok == (m == 4):  # the entry point reads 九幺 only without declared melds
        assert got == is_winning(counts, bao, 4 - m)


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(hands(), st.booleans())
def test_shanten_matches_the_engine_on_random_hands(case, jiuyao_ok):
    counts, bao, m = case
    got = K.shanten(SUIT, HONOR, np.array(counts, dtype=np.int8), _b(bao), m, jiuyao_ok)
    assert got == HandKey(counts, bao).shanten(m, jiuyao_ok)
    if jiuyao_ok == (m == 4) and 4 not in counts:  # a hand ready only on a fifth copy: issue 22
        assert got == shanten(counts, bao, 4 - m)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hands(extra=2))
def test_batched_win_checks_and_shanten_equal_one_by_one(case):
    counts, bao, m = case
    rows = np.array([counts] * 3, dtype=np.int8)
    baos = np.array([_b(bao), K.NO_BAO, _b(bao)], dtype=np.int64)
    ms = np.full(3, m, dtype=np.int64)
    jo = np.array([True, False, m == 4])
    wins = np.zeros(3, dtype=np.bool_)
    sh = np.zeros(3, dtype=np.int64)
    K.is_win_batch(SUIT, HONOR, rows, baos, ms, jo, wins)
    K.shanten_batch(SUIT, HONOR, rows, baos, ms, jo, sh)
    for i in range(3):
        b = None if baos[i] < 0 else int(baos[i])
        assert wins[i] == HandKey(counts, b).is_win(m, bool(jo[i]))
        assert sh[i] == HandKey(counts, b).shanten(m, bool(jo[i]))


@settings(max_examples=500, deadline=None, derandomize=True)
@given(hands(extra=1))
def test_baodiao_state_matches_the_analysis(case):
    counts, bao, m = case
    got = K.is_baodiao_state(SUIT, HONOR, np.array(counts, dtype=np.int8), _b(bao))
    assert got == is_baodiao_state(counts, bao, 4 - m)


def _useful_reference(counts, bao, m, jiuyao_ok, t, best, unseen):
    """GreedyBot._discard's 进张 count of discard ``t``, as the bot writes it."""
    key = HandKey(counts, bao)
    c = list(counts)
    c[t] -= 1
    return sum(
        unseen[k]
        for k in _neighbourhood(c)
        if unseen[k] and k != t and key.shanten(m, jiuyao_ok, remove=(t,), add=(k,)) < best
    )


@settings(max_examples=400, deadline=None, derandomize=True)
@given(hands(extra=2), st.booleans(), st.integers(0, 2**32 - 1))
def test_discard_shanten_and_useful_tiles_match_the_ukeire_bot(case, jiuyao_ok, seed):
    counts, bao, m = case
    rng = random.Random(seed)
    unseen = [rng.randint(0, 4 - c) for c in counts]
    a = np.array(counts, dtype=np.int8)
    out = np.zeros(34, dtype=np.int64)
    best = K.discard_shanten(SUIT, HONOR, a, _b(bao), m, jiuyao_ok, out)
    key = HandKey(counts, bao)
    want = [key.shanten(m, jiuyao_ok, remove=(k,)) if counts[k] else 99 for k in range(34)]
    assert list(out) == want and best == min(want)
    u = np.array(unseen, dtype=np.int8)
    for t in range(34):
        if counts[t]:
            assert K.useful_tiles(SUIT, HONOR, a, _b(bao), m, jiuyao_ok, t, best, u) == _useful_reference(
                counts, bao, m, jiuyao_ok, t, best, unseen
            )


# ---------------------------------------------------------------- rules
def test_rule_sets_round_trip_through_the_int_array():
    for rules in (
        DEFAULT_RULES,
        RuleSet(
            base_points=3, robbing_kong_factor=4, jiuyao_melds=False, baodiao_bao_needs_touji=True, kong_after_pung=True
        ),
    ):
        a = encode_rules(rules)
        assert a.dtype == np.int32 and a.shape == (N_RULES,)
        assert decode_rules(a) == rules


def test_a_bad_rule_array_is_refused_naming_the_option():
    with pytest.raises(RuleSetError, match="shape"):
        decode_rules(np.zeros(3, dtype=np.int32))
    a = encode_rules()
    a[14] = 2
    with pytest.raises(RuleSetError, match="jiuyao_melds"):
        decode_rules(a)
    with pytest.raises(TypeError, match="RuleSet"):
        encode_rules({"base_points": 1})  # type: ignore[arg-type]


# ---------------------------------------------------------------- scoring
def _random_situation(rng: random.Random) -> dict:
    """A situation dict of every form (standard with melds, 七对, 十三浪, 九幺), 0-4 宝, every way of
    winning and flag; some are no win, some no game can reach (the caller skips those)."""
    c = [0] * 34
    melds: list[Meld] = []
    nm = rng.choice([0, 0, 0, 1, 2, 3, 4])
    form = rng.random()
    if form < 0.55:
        pure = rng.random() < 0.15  # terminals and honors only: 九幺 doubling
        for _ in range(nm):
            if rng.random() < 0.3 and not pure:
                k = 9 * rng.randrange(3) + rng.randrange(7)
                melds.append(Meld(MeldType.CHOW, (k, k + 1, k + 2)))
            else:
                k = rng.choice(TH) if pure else rng.randrange(34)
                mt = rng.choice([MeldType.PUNG, MeldType.PUNG, MeldType.KONG, MeldType.CONCEALED_KONG])
                melds.append(Meld(mt, (k,) * (3 if mt is MeldType.PUNG else 4)))
        c[rng.choice(TH) if pure else rng.randrange(34)] += 2
        for _ in range(4 - nm):
            if rng.random() < 0.5 and not pure:
                k = 9 * rng.randrange(3) + rng.randrange(7)
                for d in range(3):
                    c[k + d] += 1
            else:
                c[rng.choice(TH) if pure else rng.randrange(34)] += 3
    elif form < 0.75:
        for _ in range(7):
            c[rng.choice(TH) if rng.random() < 0.3 else rng.randrange(34)] += 2
    elif form < 0.87:
        kinds = list(range(27, 34))
        for s in range(3):
            kinds += [9 * s + r for r in rng.choice([(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 3, 7), (0, 4, 8), (0, 3, 8)])]
        for k in rng.sample(kinds, 14):
            c[k] += 1
    else:
        for _ in range(nm):
            k = rng.choice(TH)
            mt = rng.choice([MeldType.PUNG, MeldType.KONG, MeldType.CONCEALED_KONG])
            melds.append(Meld(mt, (k,) * (3 if mt is MeldType.PUNG else 4)))
        for _ in range(14 - 3 * nm):
            c[rng.choice(TH)] += 1
    tiles = [k for k in range(34) for _ in range(c[k])]
    total = list(c)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    bao = None
    if rng.random() < 0.75:
        bao = rng.randrange(34) if rng.random() < 0.5 else rng.choice(tiles)
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
            j = rng.randrange(len(tiles))
            if total[bao] >= 4 or tiles[j] == bao:
                continue
            total[tiles[j]] -= 1
            tiles[j] = bao
            total[bao] += 1
    if rng.random() < 0.1:  # a near-win, often no win
        tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    win_tile = tiles.pop(rng.randrange(len(tiles)))
    win_by = rng.choice(["self_draw"] * 6 + ["robbing_kong", "dealer_first_discard"])
    d: dict = {"hand": tiles, "win_tile": win_tile, "melds": [str(m) for m in melds], "bao": bao, "win_by": win_by}
    if win_by == "self_draw":
        d["kong_chain"] = rng.randint(0, sum(1 for m in melds if m.is_kong))
        d["heavenly"] = not melds and rng.random() < 0.1
    if win_by == "robbing_kong":
        d["robbed"] = rng.randrange(3)
    if bao is not None:
        d["winner_flown"] = rng.choice([0, 0, 0, 1, 2])
        d["payers_flown"] = [rng.choice([0, 0, 0, 1]) for _ in range(3)]
        d["winner_held_bao"] = rng.choice([None, True, False])
        d["four_bao"] = rng.random() < 0.05
        d["caught_bao"] = rng.random() < 0.05
        d["touji"] = rng.choice([0, 0, 1, 2])
    return d


def _assert_same_score(sit: WinSituation, rules: RuleSet) -> None:
    res = score(sit, rules)
    out = score_situation(sit, rules)
    assert (out[K.O_PATTERN] >= 0) == res.winning
    if res.winning:
        assert res.pattern is not None
        assert K.PATTERN_IDS[out[K.O_PATTERN]] == res.pattern.id
        assert out[K.O_FACTOR] == res.pattern.factor and out[K.O_HAND_VALUE] == res.hand_value
        assert tuple(out[K.O_WIN : K.O_WIN + 3]) == res.win_payments
        assert tuple(out[K.O_PAYER_FACTOR : K.O_PAYER_FACTOR + 3]) == res.payer_factors
        assert (out[K.O_BONUS],) * 3 == res.bonus_payments
        assert breakdown(out, rules) == res.breakdown()


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.booleans(),
    st.sampled_from([1, 1, 2, 0]),
    st.sampled_from([6, 6, 3, 0]),
)
def test_score_win_matches_score_on_random_situations(seed, jiuyao_melds, needs_touji, base, robbing):
    """(A base of 0 or a 抢杠 factor of 0 makes every candidate worth 0: then the first pattern of
    PATTERNS and the first reading met decide, as ``score()``'s stable sort does.)"""
    rng = random.Random(seed)
    try:
        sit = WinSituation.from_dict(_random_situation(rng))
        rules = RuleSet(
            jiuyao_melds=jiuyao_melds,
            baodiao_bao_needs_touji=needs_touji,
            base_points=base,
            robbing_kong_factor=robbing,
        )
        score(sit, rules)
    except SituationError:
        return  # no game reaches it, or the rules refuse it (score() says which)
    _assert_same_score(sit, rules)


def test_score_win_of_no_win_is_empty():
    sit = WinSituation.from_dict({"hand": "123m456p789s1234z", "win_tile": "5z", "bao": None})
    out = score_situation(sit)
    assert out[K.O_PATTERN] == -1 and not out[K.O_WIN : K.O_WIN + 3].any()
    assert breakdown(out) == "不糊 (not a win)"


# ---------------------------------------------------------------- real hands
#: house rules played in the self-play identity runs (each switched from its default)
HOUSE_RULES = [
    RuleSet(),
    RuleSet(kong_after_pung=True),
    RuleSet(added_kong_drawn_only=True),
    RuleSet(jiuyao_melds=False),
    RuleSet(win_on_bao_tile=False),
    RuleSet(baodiao_bao_needs_touji=True),
    RuleSet(rob_concealed_kong=True, rob_exposed_kong=False, earthly_win=False),
]


def _check_hands(bots: list[str], rules: RuleSet, n_hands: int, seed: int) -> int:
    """Play ``n_hands`` and check every win against the kernel: pattern, hand value, payments, the
    WIN event's breakdown, and the hand's deltas rebuilt from the kernel's win payments plus the
    engine's other transfers.  Returns the number of wins checked."""
    wins = 0
    played = 0
    match_no = 0
    while played < n_hands:
        players = [get_bot(b, seed=f"{seed}:{match_no}:{i}") for i, b in enumerate(bots)]
        for rec in Match(rules, seed=f"{seed}:{match_no}", bots=players):
            played += 1
            res = rec.result
            deltas = [0, 0, 0, 0]
            for t in res.transfers:
                if t.reason != "win":
                    deltas[t.payer] -= t.points
                    deltas[t.payee] += t.points
            events = [e for e in rec.events if e["type"] == "win"]
            for w, ev in zip(res.wins, events):
                out = score_situation(w.situation, rules)
                assert K.PATTERN_IDS[out[K.O_PATTERN]] == ev["pattern_id"]
                assert out[K.O_HAND_VALUE] == ev["hand_value"]
                assert list(out[K.O_WIN : K.O_WIN + 3]) == ev["win_payments"]
                assert breakdown(out, rules) == ev["breakdown"]
                for payer, pts in zip(w.payers, out[K.O_WIN : K.O_WIN + 3]):
                    deltas[payer] -= int(pts)
                    deltas[w.seat] += int(pts)
                wins += 1
            assert tuple(deltas) == res.deltas, (rec.seed, res.deltas, deltas)
            if played >= n_hands:
                break
        match_no += 1
    return wins


@pytest.mark.parametrize("bot", ["random", "greedy", "ukeire"])
def test_every_win_of_self_play_scores_as_the_engine_recorded(bot):
    n, least = {"random": (2000, 30), "greedy": (500, 150), "ukeire": (150, 45)}[bot]
    assert _check_hands([bot] * 4, DEFAULT_RULES, n, seed=23) >= least


def _changed(rules: RuleSet) -> str:
    return ",".join(k for k, v in rules.to_dict().items() if v != getattr(DEFAULT_RULES, k))


@pytest.mark.parametrize("rules", HOUSE_RULES[1:], ids=_changed)
def test_every_win_under_each_house_rule_scores_as_the_engine_recorded(rules):
    assert _changed(rules)
    assert _check_hands(["greedy", "greedy", "ukeire", "random"], rules, 120, seed=31) >= 20


# ---------------------------------------------------------------- the bots' arithmetic on real states
def _kernel_discard(obs, legal, ukeire: bool):
    """GreedyBot._discard's choice from the kernels (discard_shanten, then useful_tiles on the ties),
    None where the choice falls to greedy's connectivity order (not the kernels')."""
    from shangrao.game.actions import ActionType

    c = np.array(obs.hand_34, dtype=np.int8)
    melds = obs.melds[obs.seat]
    m = 4 - len(melds)
    jiuyao_ok = all(t in TERMINALS_AND_HONORS for md in melds for t in md.tiles)
    out = np.zeros(34, dtype=np.int64)
    K.discard_shanten(SUIT, HONOR, c, _b(obs.bao), m, jiuyao_ok, out)
    kinds = [a.kind for a in legal if a.type is ActionType.DISCARD]
    non_bao = [k for k in kinds if k != obs.bao]
    kinds = non_bao or kinds
    best = min(int(out[k]) for k in kinds)
    tied = [k for k in kinds if out[k] == best]
    if len(tied) == 1:
        return tied[0]
    if not ukeire:
        return None
    unseen = np.array(obs.unseen(), dtype=np.int8)
    ranked = [(K.useful_tiles(SUIT, HONOR, c, _b(obs.bao), m, jiuyao_ok, t, best, unseen), t) for t in tied]
    return max(ranked)[1]


class _Checking:
    """A greedy/ukeire bot whose every discard is compared with the kernels' choice."""

    def __init__(self, name: str, seed: str) -> None:
        self.bot = get_bot(name, seed=seed)
        self.ukeire = name == "ukeire"
        self.checked = 0

    def choose(self, obs, legal):
        from shangrao.game.actions import ActionType

        action = self.bot.choose(obs, legal)
        types = {a.type for a in legal}
        # a discard decision (not 偷机, the drawn tile discarded instead of a win; not a kong)
        if action.type is ActionType.DISCARD and ActionType.WIN not in types:
            want = _kernel_discard(obs, legal, self.ukeire)
            if want is not None:
                assert want == action.kind, (obs.to_dict(), want, action)
                self.checked += 1
        return action


@pytest.mark.parametrize(("name", "least"), [("greedy", 30), ("ukeire", 300)])
def test_the_kernels_choose_the_bots_discards_on_real_states(name, least):
    """Every discard of 30 hands where the kernels decide (the lowest shanten, then for ``ukeire``
    the most 进张; greedy's connectivity tie-break is the core's) is the bot's own."""
    bots = [_Checking(name, f"k:{i}") for i in range(4)]
    played = 0
    for match_no in range(3):
        for _ in Match(DEFAULT_RULES, seed=f"kern:{match_no}", bots=bots):
            played += 1
            if played >= 30:
                break
        if played >= 30:
            break
    assert sum(b.checked for b in bots) >= least


# ---------------------------------------------------------------- the checked batch entry points
@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(hands(extra=2), min_size=1, max_size=8))
def test_batched_win_checks_equal_is_winning_row_by_row(cases):
    from shangrao.sim.batch import is_winning_many, shanten_many

    rows = np.array([c for c, _, _ in cases])
    baos = [bao for _, bao, _ in cases]
    declared = [4 - m for _, _, m in cases]
    wins = is_winning_many(rows, baos, declared)
    sh = shanten_many(rows, baos, declared)
    for i, (c, bao, m) in enumerate(cases):
        assert wins[i] == is_winning(c, bao, 4 - m)
        assert sh[i] == HandKey(c, bao).shanten(m, m == 4)


def test_a_bad_batch_is_refused_naming_the_field_and_the_row():
    from shangrao.sim.batch import BatchError, is_winning_many, shanten_many

    good = np.zeros((3, 34), dtype=np.int8)
    good[:, 0] = 2
    for k in (1, 2, 3, 9, 10, 11, 18, 19, 20, 27):
        good[:, k] += 1
    good[:, 27] += 2
    assert is_winning_many(good).all()
    with pytest.raises(BatchError, match=r"hands: must be an array of shape \(N, 34\), got \(3, 33\)"):
        is_winning_many(good[:, :33])
    bad = good.copy()
    bad[1, 5] = 7
    with pytest.raises(BatchError, match=r"hands\[1\]: the count of kind 5 must be 0..4, got 7"):
        is_winning_many(bad)
    short = good.copy()
    short[2, 0] = 1
    with pytest.raises(BatchError, match=r"hands\[2\]: a win check with 0 declared meld\(s\) needs 14 tiles, got 13"):
        is_winning_many(short)
    assert shanten_many(short).tolist()[2] == HandKey(short[2].tolist(), None).shanten(4, True)
    with pytest.raises(BatchError, match=r"bao\[1\]: must be -1..33, got 34"):
        is_winning_many(good, [0, 34, 0])
    with pytest.raises(BatchError, match=r"bao: must be one value or one per hand, shape \(3,\), got \(2,\)"):
        is_winning_many(good, [0, 1])
    with pytest.raises(BatchError, match=r"declared_melds: must be integers"):
        is_winning_many(good, None, [True, False, False])
    with pytest.raises(BatchError, match=r"hands: must hold integer counts, got float64"):
        is_winning_many(good.astype(float))
    with pytest.raises(ValueError):  # a BatchError is a ValueError
        shanten_many(good, None, 5)


# ---------------------------------------------------------------- the on-disk cache
def test_the_kernels_cache_is_stamped_with_every_source_of_the_package(tmp_path):
    """numba alone keys a cached function on its own file: a caller in core.py would keep an old
    kernel of kernels.py.  The package's locator stamps every function with all its sources."""
    from shangrao.sim import _cache

    locator = K.score_win._cache._impl.locator
    assert getattr(locator, "_shangrao_sim", False)
    assert locator.get_source_stamp() == _cache.sources_stamp()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    before = _cache.sources_stamp(tmp_path)
    (tmp_path / "b.py").write_text("y = 3\n")
    assert _cache.sources_stamp(tmp_path) != before
    assert _cache.install()  # idempotent: the locators are put in once
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    assert sum(getattr(c, "_shangrao_sim", False) for c in impl._locator_classes) == 3
