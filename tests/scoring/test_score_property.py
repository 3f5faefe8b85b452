"""Property tests of the scoring calculator's bookkeeping on random situations."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shangrao.analysis import is_winning
from shangrao.scoring import SituationError, WinBy, WinSituation, score
from shangrao.tiles import indicator_of, to_34


def _load_hands():
    """The hand strategy of tests/analysis/test_property.py (tests are not a package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "analysis" / "test_property.py"
    spec = importlib.util.spec_from_file_location("_shangrao_hand_strategies", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.hands


hands = _load_hands()


@st.composite
def situations(draw):
    t34, bao, melds = draw(hands(size_extra=2))
    kinds = [k for k in range(34) for _ in range(t34[k])]
    win_tile = kinds.pop(draw(st.integers(0, len(kinds) - 1)))
    kongs = sum(1 for m in melds if m.is_kong)
    # 地糊 is on the dealer's first discard: nobody has declared a meld yet
    win_by = draw(st.sampled_from([w for w in WinBy if not melds or w is not WinBy.DEALER_FIRST_DISCARD]))
    # only possible situations (issue 10): the 宝 in sight plus those flown never pass four,
    # the indicator (R1) leaves three copies, 四个宝/接宝 leave the payers no/one 宝 to discard
    flown = [0, 0, 0, 0]
    four = caught = False
    if bao is not None:
        in_sight = (list(kinds) + [win_tile] + [t for m in melds for t in m.tiles]).count(bao)
        ind = indicator_of(bao)
        assume((list(kinds) + [win_tile] + [t for m in melds for t in m.tiles]).count(ind) <= 3)
        flown = draw(st.lists(st.integers(0, 2), min_size=4, max_size=4).filter(lambda f: sum(f) <= 4 - in_sight))
        four = draw(st.booleans()) and not any(flown[1:])
        caught = draw(st.booleans()) and sum(flown[1:]) <= 1
    heavenly = win_by is WinBy.SELF_DRAW and not melds and draw(st.booleans()) and draw(st.booleans())
    held = [t for m in melds for t in m.tiles] + kinds
    if win_by is WinBy.ROBBING_KONG and (win_tile in held or (bao is not None and win_tile == indicator_of(bao))):
        win_by = WinBy.SELF_DRAW  # 抢杠: the robbed kong holds all four copies of its kind (issue 22)
    kw = dict(
        hand=tuple(kinds),
        win_tile=win_tile,
        melds=melds,
        bao=bao,
        win_by=win_by,
        heavenly=heavenly,
        kong_chain=draw(st.integers(0, kongs)) if win_by is WinBy.SELF_DRAW else 0,
        winner_flown=flown[0],
        payers_flown=tuple(flown[1:]),
        four_bao=four,
        caught_bao=caught,
        robbed=draw(st.integers(0, 2)) if win_by is WinBy.ROBBING_KONG else None,
    )
    # the flags drawn at random often cannot go together (issue 22: 四个宝 needs four 宝 drawn, 接宝 three
    # and one payer's 飞宝, 天糊/地糊 no 飞宝 …): drop them one by one until the situation can exist
    for drop in (
        {},
        {"four_bao": False, "caught_bao": False},
        {"four_bao": False, "caught_bao": False, "winner_flown": 0, "payers_flown": (0, 0, 0)},
    ):
        try:
            return WinSituation(**{**kw, **drop})
        except SituationError:
            continue
    assume(False)
    return None


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(situations())
def test_score_bookkeeping(s):
    r = score(s)
    hand = to_34(list(s.hand) + [s.win_tile])
    assert r.winning == is_winning(hand, s.bao, s.melds)
    if not r.winning:
        assert r.payments == (0, 0, 0) and r.total == 0
        return
    assert r.total == sum(r.payments)
    assert r.payments == tuple(w + b for w, b in zip(r.win_payments, r.bonus_payments))
    bonus = sum(b.points for b in r.bonuses)
    assert r.bonus_payments == (bonus,) * 3
    if r.pattern.flat:  # 天糊 / 地糊: a flat 10 each, no doublings, no payer factors
        assert r.doublings == [] and r.win_payments == (10, 10, 10)
        return
    value = r.pattern.factor
    for d in r.doublings:
        value *= d.factor
    assert r.hand_value == value
    if s.win_by is WinBy.ROBBING_KONG:
        assert [i for i, w in enumerate(r.win_payments) if w] == [s.robbed]
    else:
        assert r.win_payments == tuple(value * f for f in r.payer_factors)
    # every alternative pays no more than the pattern scored (D2)
    assert all(v <= r.hand_value for _, v in r.alternatives)
