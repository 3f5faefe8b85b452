"""The table-driven analysis (issue 4) answers exactly as the plain recursive one and the brute-force reference."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shangrao.analysis import Form, form_shanten, is_baodiao_state, is_winning, shanten
from shangrao.analysis import reference as ref
from shangrao.analysis.hand import form_deficits, form_deficits_plain
from shangrao.analysis.shapes import standard_overlap
from shangrao.analysis.tables import HandKey, entries_codes, hand_codes, need_standard, suit_code
from shangrao.melds import Meld, MeldType


@st.composite
def concealed_hands(draw):
    """A concealed hand of 3m+1 or 3m+2 tiles (m = 0..4 melds still to make), 0-4 宝."""
    m = draw(st.integers(0, 4))
    size = 3 * m + draw(st.integers(1, 2))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    counts = [0] * 34
    for k in wall[:size]:
        counts[k] += 1
    bao = draw(st.one_of(st.none(), st.integers(0, 33)))
    n_bao = draw(st.integers(0, 4))
    if bao is not None:
        for k in [k for k in range(34) if counts[k] and k != bao][:n_bao]:
            if counts[bao] < 4:
                counts[k] -= 1
                counts[bao] += 1
    return counts, bao, 4 - m


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(concealed_hands())
def test_tables_equal_plain_decomposition(case):
    """Every form's deficit from the tables equals the plain recursive decomposition's."""
    counts, bao, declared = case
    assert form_deficits(counts, bao, declared) == form_deficits_plain(counts, bao, declared)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(concealed_hands())
def test_tables_equal_brute_force_reference(case):
    """is_winning, shanten and the 宝吊 state from the tables equal the substitution reference."""
    counts, bao, declared = case
    # declared melds stand in as pungs of 5m: not 1/9/honor, so (as with a count) 九幺 is out
    melds = [Meld(MeldType.PUNG, (4, 4, 4))] * declared
    size = sum(counts) - 3 * (4 - declared)
    if size == 2:
        assert is_winning(counts, bao, declared) == ref.ref_is_winning(counts, bao, melds)
    else:
        assert is_baodiao_state(counts, bao, declared) == ref.ref_is_baodiao_state(counts, bao, melds)
    assert shanten(counts, bao, declared) == min(ref.ref_shanten(counts, bao, melds).values())


def test_standard_need_matches_overlap_on_complete_hands():
    rng = random.Random(7)
    for _ in range(3000):
        m = rng.randrange(5)
        n_real = rng.randrange(0, 3 * m + 3)
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        c = [0] * 34
        for k in wall[:n_real]:
            c[k] += 1
        w = 3 * m + 2 - n_real
        assert (need_standard(*entries_codes(hand_codes(c))) <= w) == (standard_overlap(c, m) + w >= 3 * m + 2)


def test_hand_key_incremental_equals_fresh_encoding():
    rng = random.Random(3)
    key = HandKey()
    counts = [0] * 34
    for _ in range(2000):
        k = rng.randrange(34)
        if counts[k] < 4 and (rng.random() < 0.6 or sum(counts) == 0):
            counts[k] += 1
            key.add(k)
        elif counts[k]:
            counts[k] -= 1
            key.remove(k)
        assert key.codes == list(hand_codes(counts))
    assert suit_code([1, 0, 0, 0, 0, 0, 0, 0, 2]) == 1 + 2 * 5**8


def test_hand_key_with_bao_answers_as_the_public_functions():
    """HandKey keeps the 宝 apart; its win check and shanten equal is_winning / shanten, after changes too."""
    rng = random.Random(11)
    for _ in range(400):
        bao = rng.randrange(34)
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        counts = [0] * 34
        for k in wall[:14]:
            counts[k] += 1
        key = HandKey(counts, bao)
        assert key.bao_count == counts[bao]
        assert key.is_win(4, True) == is_winning(counts, bao)
        assert key.shanten(4, True) == min(form_shanten(counts, bao).values())  # copy-blind (issue 22)
        assert key.shanten(4, True) == shanten(counts, bao) or 4 in counts
        out, new = wall[0], wall[20]
        after = list(counts)
        after[out] -= 1
        assert key.is_win(4, True, extra=None) == is_winning(counts, bao)  # unchanged by the query
        after13 = list(after)
        after[new] += 1
        if after[new] <= 4:
            assert key.shanten(4, True, remove=(out,), add=(new,)) == min(form_shanten(after, bao).values())
            assert key.is_win(4, True) == is_winning(counts, bao)
            k2 = HandKey(after13, bao)
            assert k2.is_win(4, True, extra=new) == is_winning(after, bao)
        key.remove(out)
        key.add(new)
        assert key.codes == HandKey(after, bao).codes and key.bao_count == after[bao]


def test_engine_incremental_win_check_equals_is_winning():
    """The engine's win check from its incremental keys equals shangrao.is_winning at every decision."""
    from shangrao.bots import get_bot
    from shangrao.game import Action, ActionType, Game, Phase

    for seed in range(30):
        g = Game(seed=seed)
        bots = [get_bot("random", seed * 4 + i) for i in range(4)]
        while not g.is_over:
            seat = g.current_seat
            legal = g.legal_actions()
            if g.phase == Phase.ACT:
                can_win = Action(ActionType.WIN) in legal
                assert can_win == is_winning(g.counts[seat], g.bao, g.melds[seat])
            g.push(bots[seat].choose(None, legal))


def test_fifth_copy_is_rejected_with_a_clear_error():
    import pytest

    c = [0] * 34
    c[0] = 5
    c[1] = 9
    with pytest.raises(ValueError, match=r"above 4|copies"):
        shanten(c, None)


def test_forms_unchanged_by_tables_on_seed_shapes():
    from shangrao.tiles import parse_tiles, to_34

    assert form_deficits(to_34(parse_tiles("147m258p369s12345z")), None, 0)[Form.SHISANLANG] == 0
    assert form_deficits(to_34(parse_tiles("19m19p19s1234567z1z")), None, 0)[Form.JIUYAO] == 0


def test_numpy_counts_are_read_as_counts():
    """A numpy vector (as RL code passes) is read by value, not as raw memory."""
    import numpy as np

    from shangrao.tiles import parse_tiles, to_34

    h = to_34(parse_tiles("123m456p789s123s55z"))
    assert is_winning(np.array(h, dtype=np.int64), None) is True
    assert shanten(np.array(h, dtype=np.int8), None) == -1
    h13 = to_34(parse_tiles("123m456p789s12s5z9p"))
    assert shanten(np.array(h13), 17) == shanten(h13, 17) == 0


def test_waits_after_each_discard_equal_waits_of_the_hand_left():
    from shangrao.analysis import waits, waits_after_discards
    from shangrao.tiles import parse_tiles, to_34

    hand = to_34(parse_tiles("123m456p789s12s55z9p"))
    after = waits_after_discards(hand, 17)
    assert after  # the hand is ready after some discard
    for k in range(34):
        if hand[k]:
            left = list(hand)
            left[k] -= 1
            assert after.get(k, {}) == waits(left, 17)
    assert set(waits_after_discards(hand, 17, discards=[0, 1])) <= {0, 1}


@settings(max_examples=500, deadline=None, derandomize=True)
@given(concealed_hands(), st.integers(0, 33), st.booleans(), st.integers(-1, 6))
def test_draws_below_equals_a_shanten_per_draw(case, out, jiuyao_ok, target):
    """HandKey.draws_below (one removal, one suit looked up again per draw) equals ``shanten`` called
    once per drawn kind, 宝 draws included."""
    counts, bao, declared = case
    key = HandKey(counts, bao)
    remove = (out,) if counts[out] else ()
    m = 4 - declared
    want = [t for t in range(34) if key.shanten(m, jiuyao_ok, remove, (t,)) < target]
    assert key.draws_below(m, jiuyao_ok, remove, range(34), target) == want
