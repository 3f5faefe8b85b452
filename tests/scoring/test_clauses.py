"""One test per clause of the seed's 糊牌的方式 (1)-(23), 计分方法 (1)-(18), 注 1-2 and 奖励分.

Each test quotes the clause it checks.  Amounts are points with 基本分 1
(DEFAULT_RULES); ``payments`` is what each of the three payers pays, seat
order after the winner; ``total`` is the winner's gain.  Decisions D1-D9 are
those of issue 2 / docs/rules.md.
"""

from __future__ import annotations

import pytest

import shangrao
from shangrao import SituationError
from shangrao.analysis import is_baodiao_state, waits
from shangrao.rules import DEFAULT_RULES
from shangrao.tiles import parse_tile, parse_tiles, to_34


def sc(**situation):
    return shangrao.score(situation)


def ids(result) -> dict[str, int]:
    return {d.id: d.factor for d in result.doublings}


# A 宝吊 hand: 123m 456m 789m 123p + one 宝 (9p); any draw wins.
BAODIAO = dict(hand="123m456m789m123p9p", bao="9p")
# The same with an all-pung hand: 111m 222p 333s 444z + 宝.
PP_BAODIAO = dict(hand="111m222p333s444z9p", bao="9p")
PINGHU = dict(hand="123m456p789s123s5z", win_tile="5z")


# ------------------------------------------------------------------ 糊牌的方式 (1)-(23)


def test_baodiao_tou_x3():
    # (1) 宝吊头 … 等下轮摸牌时任一张牌都可糊牌的局面；计分方法 (3) 宝吊头：*3
    r = sc(**BAODIAO, win_tile="4s")
    assert (r.pattern.name, r.pattern.factor) == ("宝吊头", 3)
    assert r.payments == (3, 3, 3) and r.total == 9


def test_baodiao_tou_state_any_tile_wins():
    # (1) 宝吊头: "任一张牌都可糊牌" — from the 宝吊 state every kind completes the hand
    t34 = to_34(parse_tiles(BAODIAO["hand"]))
    bao = parse_tile("9p")
    assert is_baodiao_state(t34, bao)
    assert set(waits(t34, bao, exclude_dead=False)) == set(range(34))
    # the state needs the rest (without one 宝) to be complete melds
    assert not is_baodiao_state(to_34(parse_tiles("123m456m789m124p9p")), bao)
    assert not is_baodiao_state(to_34(parse_tiles("123m456m789m123p9p")), None)


def test_tianhu_flat_10():
    # (2) 天糊：庄家第一轮牌摸到的14张牌形成糊牌牌形；计分方法 (6) 天糊：10分 — flat, no doublings
    r = sc(**PINGHU, heavenly=True)
    assert (r.pattern.name, r.pattern.flat) == ("天糊", True)
    assert r.doublings == [] and r.payments == (10, 10, 10) and r.total == 30
    # all-1/9/honor 清碰碰糊 would be worth 20 as a plain self-draw: 天糊 is still a flat 10
    r = sc(hand="111m999p111s111z2z", win_tile="2z", heavenly=True)
    assert r.payments == (10, 10, 10)


def test_tianhu_bonuses_still_added():
    # D6/D9: 天糊 is a flat 10 from each payer; the winner's 奖励分 is still added
    r = sc(hand="9999p123m456m111z", win_tile="2z", bao="9p", heavenly=True, four_bao=True)
    assert r.pattern.name == "天糊" and r.payments == (20, 20, 20)


def test_dihu_flat_10():
    # (3) 地糊：在第一轮庄家出牌时，其它某一玩家发生了糊牌过程；计分方法 (7) 地糊：10分
    # 注 1 exception: no payer doubling for 地糊, even if the dealer's discard was a 宝
    r = sc(hand="123m456p789s123s5z", win_tile="9p", bao="9p", win_by="dealer_first_discard", payers_flown=[1, 0, 0])
    assert (r.pattern.name, r.pattern.flat) == ("地糊", True)
    assert r.payer_factors == (1, 1, 1) and r.payments == (10, 10, 10) and r.total == 30


def test_gangkai_2_pow_n():
    # (4) 扛开 / 计分方法 (8) 杠开：在糊的基础上*2 的 n次方，其中的n代表连续杠的次数
    one = sc(hand="123m456m789s1z", win_tile="1z", melds=["concealed_kong:5555p"], kong_chain=1)
    assert ids(one)["gangkai"] == 2 and one.hand_value == 2 * 2
    two = sc(hand="123m456m1z", win_tile="1z", melds=["concealed_kong:5555p", "kong:7777s"], kong_chain=2)
    assert ids(two)["gangkai"] == 4 and two.hand_value == 2 * 4
    # bonuses: 自摸杠 2 + 碰杠 1 on top of each payer's 8
    assert two.payments == (11, 11, 11)
    none = sc(hand="123m456m789s1z", win_tile="1z", melds=["concealed_kong:5555p"])
    assert "gangkai" not in ids(none)


def test_pengpenghu_x4():
    # (5) 碰碰糊：有宝发挥作用，但是没形成宝吊头的情况下，并且由碰子或者杠子所组成；计分方法 (9) *4
    r = sc(hand="111m222p333s44z5z9p", win_tile="5z", bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("碰碰糊", 4) and r.payments == (4, 4, 4)
    assert r.reading.bao_acting and r.reading.all_pungs


def test_qing_pengpenghu_x10():
    # (6) 清碰碰糊：没有宝，由碰子或者杠子所组成；计分方法 (10) 清碰碰糊：*10
    r = sc(hand="111m222p333s444z5z", win_tile="5z", bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("清碰碰糊", 10) and r.total == 30
    # with declared pungs and kongs too
    r = sc(hand="333s444z5z", win_tile="5z", melds=["pung:111m", "kong:2222p"])
    assert r.pattern.name == "清碰碰糊" and r.payments == (11, 11, 11)


def test_touji_baodiao_hand_drawing_bao_scores_baodiao_bao():
    # (7) 偷机：当形成宝吊头的局面下，不去吊头，继续抓牌 — at scoring: the 宝吊 hand kept
    # drawing and drew a 宝 → (8) 宝吊宝; drawing another tile is still 宝吊头
    assert sc(**BAODIAO, win_tile="9p").pattern.name == "宝吊宝"
    assert sc(**BAODIAO, win_tile="7z").pattern.name == "宝吊头"


def test_baodiao_bao_x6():
    # (8) 宝吊宝：在偷机的时候，又抓到一块宝；计分方法 (5) 宝吊宝：*6
    r = sc(**BAODIAO, win_tile="9p")
    assert (r.pattern.name, r.pattern.factor) == ("宝吊宝", 6) and r.payments == (6, 6, 6)


def test_baodiao_wubao_x6():
    # (9) 宝吊无宝：…在没有其它对子的情况下用2个宝来做为对子；计分方法 (4) 宝吊无宝：*6
    # 123m 456m 789m 78p + 宝宝 (9p): draw 6p → 678p and 9p9p as their own face
    r = sc(hand="123m456m789m78p99p", win_tile="6p", bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("宝吊无宝", 6) and r.total == 18
    assert not r.reading.bao_acting
    # the same hand drawing a tile the 宝 must stand for is only 宝吊头
    assert sc(hand="123m456m789m78p99p", win_tile="1z", bao="9p").pattern.name == "宝吊头"


def test_feibao_winner_2_pow_n():
    # (10) 飞宝：将手中的宝打出；注 2: 飞宝 doubles per 宝 the winner discarded
    one = sc(**PINGHU, bao="9p", winner_flown=1)
    assert ids(one)["feibao"] == 2 and one.payments == (4, 4, 4)
    three = sc(**PINGHU, bao="9p", winner_flown=3)
    assert ids(three)["feibao"] == 8 and three.payments == (16, 16, 16)


def test_feibao_payer_doubles():
    # 注 1: 如遇到自己飞宝后其它任何一方糊了的，都需付给糊了的那方在其糊的基础上*2的n次方
    r = sc(**PINGHU, bao="9p", winner_flown=1, payers_flown=[1, 0, 2])
    assert r.hand_value == 4 and r.payer_factors == (2, 1, 4)
    assert r.payments == (8, 4, 16) and r.total == 28


def test_feibao_payer_no_double_when_winner_never_held_bao():
    # 注 1: 除天糊、地糊和其他从未拥有宝但是糊了的情况外
    r = sc(**PINGHU, bao="9p", payers_flown=[1, 1, 0])
    assert r.payer_factors == (1, 1, 1) and r.payments == (2, 2, 2)
    # a 宝 the winner drew is still in sight or flown (R17): saying it held one with none of them is
    # refused (issue 22) ...
    with pytest.raises(SituationError, match="winner_held_bao: true, but no 宝"):
        sc(**PINGHU, bao="9p", payers_flown=[1, 1, 0], winner_held_bao=True)
    # ... but a 宝 in a meld may be a payer's discard claimed as its face: held is then as stated
    # (a chow's claimed tile comes from 上家, the last payer, who flew one here)
    kw = dict(hand="123m456p123s5z", win_tile="5z", melds=["chow:789p"], bao="9p", payers_flown=[1, 0, 1])
    assert sc(**kw, winner_held_bao=True).payments == (4, 2, 4)
    assert sc(**kw, winner_held_bao=False).payments == (2, 2, 2)
    # a pung of 9p holds at least two the winner drew
    with pytest.raises(SituationError, match="winner_held_bao: false, but the melds hold 3 宝"):
        sc(**{**kw, "melds": ["pung:999p"]}, winner_held_bao=False)
    # a 宝 in the winning hand means the winner held one
    r = sc(**BAODIAO, win_tile="4s", payers_flown=[0, 2, 0])
    assert r.payments == (3, 12, 3)


def test_qidui_x4():
    # (11) 七对：有宝并且由7对对子所组成；计分方法 (13) 七对： *4
    r = sc(hand="11m22m33p44p55s66s1z", win_tile="9p", bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("七对", 4) and r.payments == (4, 4, 4)


def test_qing_qidui_x10():
    # (12) 清七对：由7对对子所组成的牌形中没有用宝代替的；计分方法 (14) *10
    r = sc(hand="11m22m33p44p55s66s7z", win_tile="7z", bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("清七对", 10) and r.total == 30


def test_haohua_qidui_4_times_2n():
    # (13) 豪华七对：有宝并且由对子和杠子组成；计分方法 (15) *4*2的n次方，n代表杠子的数目
    one = sc(hand="1111m22m33p44p55s6s", win_tile="9p", bao="9p")
    assert (one.pattern.name, one.pattern.factor) == ("豪华七对", 8)
    assert one.reading.quads == 1
    two = sc(hand="1111m2222m33p44p5s", win_tile="9p", bao="9p")
    assert (two.pattern.name, two.pattern.factor, two.reading.quads) == ("豪华七对", 16, 2)


def test_qing_haohua_qidui_10_times_2n():
    # (14) 清豪华七对：由对子和杠子组成并且牌形中没有用宝代替的；计分方法 (16) *10*2的n次方
    r = sc(hand="1111m2222m33p44p5s", win_tile="5s", bao="9p")
    assert (r.pattern.name, r.pattern.factor, r.reading.quads) == ("清豪华七对", 40, 2)
    assert r.payments == (40, 40, 40)


def test_shisanlang_youbao_x2():
    # (15) 十三浪 / 计分方法 (17) 有宝的情况下： *2 (宝 9m cannot be its own face next to 7m)
    r = sc(hand="147m147p147s1234z", win_tile="9m", bao="9m")
    assert (r.pattern.name, r.pattern.factor) == ("有宝十三浪", 2) and r.payments == (2, 2, 2)


def test_shisanlang_wubao_x4():
    # (15) 十三浪：序数牌间隔大于等于3，字牌没有重复；计分方法 (17) 无宝的情况下：*4
    r = sc(hand="147m147p147s1234z", win_tile="5z", bao="9m")
    assert (r.pattern.name, r.pattern.factor) == ("无宝十三浪", 4) and r.total == 12


def test_qixing_shisanlang_x8_x4():
    # (16) 七星十三浪：十三浪中字牌包括所有的风牌(东西南北中发白)；计分方法 (18) 有宝 *4，无宝 *8
    r = sc(hand="147m25p36s123456z", win_tile="7z", bao="9m")
    assert (r.pattern.name, r.pattern.factor) == ("无宝七星十三浪", 8)
    r = sc(hand="147m25p36s123456z", win_tile="9m", bao="9m")
    assert (r.pattern.name, r.pattern.factor) == ("有宝七星十三浪", 4)


def test_jiuyao_x4_x2():
    # (17) 九幺：由一、九这些边牌、…风字牌中的任意牌组成；计分方法 (17) 有宝 *2，无宝 *4
    r = sc(hand="119m199p19s11235z", win_tile="6z", bao="5m")
    assert (r.pattern.name, r.pattern.factor) == ("无宝九幺", 4) and r.payments == (4, 4, 4)
    r = sc(hand="119m199p19s11235z", win_tile="5m", bao="5m")
    assert (r.pattern.name, r.pattern.factor) == ("有宝九幺", 2)


def test_qixing_jiuyao_x8_x4():
    # (18) 七星九幺 (D: a 九幺 holding each honor exactly once)；计分方法 (18) 有宝 *4，无宝 *8
    r = sc(hand="19m19p19s1234567z", win_tile="1m", bao="5m")
    assert (r.pattern.name, r.pattern.factor) == ("无宝七星九幺", 8)
    r = sc(hand="19m19p19s123456z5m", win_tile="1m", bao="5m")
    assert (r.pattern.name, r.pattern.factor) == ("有宝七星九幺", 4)
    # an honor twice is not 七星
    r = sc(hand="19m19p19s1123456z", win_tile="1m", bao="5m")
    assert r.pattern.name == "无宝九幺"


def test_pinghu_zimo_x2():
    # (19) 平糊自摸：当没有宝且自己摸到的牌形成了糊牌牌形…其中一定有一个 XXX 为顺子；计分方法 (1) *2
    r = sc(**PINGHU, bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("平糊自摸", 2) and r.payments == (2, 2, 2)


def test_basic_1_when_bao_acts():
    # D3 / 基本分 1 分: a plain standard win in which a 宝 acts, none of the named patterns
    r = sc(hand="123m456m789m12p55z", win_tile="9p", bao="9p")
    assert (r.pattern.name, r.pattern.factor) == ("有宝平糊", 1) and r.payments == (1, 1, 1)


def test_qianggang_x6_paid_by_robbed():
    # (20) 抢杠 / 计分方法 (2) 抢杠方在抢得杠子糊的情况基础上乘以6倍。（这些都由被抢杠的一方出）
    r = sc(hand="123m456p789s12s55z", win_tile="3s", win_by="robbing_kong", robbed=1)
    assert r.pattern.name == "平糊自摸" and ids(r)["qianggang"] == 6
    assert r.payments == (0, 12, 0) and r.total == 12


def test_qianggang_robbed_pays_own_factor_others_pay_bonuses():
    # D8/D9: the robbed payer alone pays the hand (×2^n if that payer flew 宝);
    # 奖励分 are still paid by all three
    r = sc(
        hand="123m456p12s55z",
        melds=["pung:999p"],
        win_tile="3s",
        win_by="robbing_kong",
        robbed=1,
        bao="9p",
        caught_bao=True,
        payers_flown=[0, 1, 0],
    )
    assert r.win_payments == (0, 24, 0) and r.payments == (10, 34, 10) and r.total == 54


def test_qianggang_with_baodiao():
    # (20) 有宝和宝吊头时也可抢杠
    r = sc(**BAODIAO, win_tile="4s", win_by="robbing_kong", robbed=2)
    assert r.pattern.name == "宝吊头" and r.payments == (0, 0, 18)


def test_bonus_jiebao_10():
    # (21) 接宝 / 奖励分 接宝： 10分
    # three 宝 drawn (here the pung of 9p as its face) and the fourth discarded by a payer
    r = sc(hand="123m456p123s5z", win_tile="5z", melds=["pung:999p"], bao="9p", caught_bao=True, payers_flown=[1, 0, 0])
    assert [(b.name, b.points) for b in r.bonuses] == [("接宝", 10)]
    assert r.payments == (2 * 2 + 10, 12, 12) and r.total == 38


def test_bonus_sige_bao_10():
    # (22) 四个宝：在同一盘中，同一个人抓到过4个宝；奖励分 四个宝： 10分
    r = sc(hand="123m456p123s5z", win_tile="5z", melds=["concealed_kong:9999p"], bao="9p", four_bao=True)
    assert [(b.name, b.points) for b in r.bonuses] == [("自摸杠", 2), ("四个宝", 10)]
    assert r.payments == (14, 14, 14)


def test_dandiao():
    # (23) 单吊：在经过碰、吃、杠等过程后，使得手里只剩下一张牌；注 2 单吊 doubles
    r = sc(hand="1z", win_tile="1z", melds=["chow:123m", "pung:555p", "chow:789s", "pung:222z"])
    assert ids(r)["dandiao"] == 2 and r.pattern.name == "平糊自摸" and r.payments == (4, 4, 4)
    # a lone 宝 is a 宝吊 single wait: 宝吊头 ×3, 单吊 ×2
    r = sc(hand="9p", win_tile="1z", bao="9p", melds=["chow:123m", "pung:555p", "chow:789s", "pung:222z"])
    assert r.pattern.name == "宝吊头" and r.hand_value == 6
    # fewer than four melds: no 单吊
    assert "dandiao" not in ids(sc(**PINGHU))


# ------------------------------------------------------------------ 计分方法 (11), (12), 注 2, 奖励分


def test_pengpenghu_baodiao_x8():
    # 计分方法 (11) 碰碰糊宝吊头：*8
    r = sc(**PP_BAODIAO, win_tile="5z")
    assert (r.pattern.name, r.pattern.factor) == ("碰碰糊宝吊头", 8) and r.payments == (8, 8, 8)


def test_pengpenghu_baodiao_wubao_x16():
    # 计分方法 (12) 碰碰糊宝吊无宝：*16 (…在有其它对子的情况下用3个宝形成了碰子 / 2个宝做对子)
    r = sc(hand="222p333s44z99p", win_tile="4z", bao="9p", melds=["pung:111m"])
    assert (r.pattern.name, r.pattern.factor) == ("碰碰糊宝吊无宝", 16) and r.total == 48


def test_pengpenghu_baodiao_bao_x16():
    # D5: an all-pung 宝吊 hand drawing a 宝 is 碰碰糊宝吊宝, ×16 like 碰碰糊宝吊无宝
    r = sc(**PP_BAODIAO, win_tile="9p")
    assert (r.pattern.name, r.pattern.factor) == ("碰碰糊宝吊宝", 16)


def test_jiuyao_doubling():
    # 注 2: 名目…杠开、单吊、飞宝、九幺 — 九幺 doubles another pattern when every tile is 1/9/honor
    r = sc(hand="111m999p111s111z2z", win_tile="2z")
    assert r.pattern.name == "清碰碰糊" and ids(r) == {"jiuyao": 2} and r.hand_value == 20
    # the 九幺 form itself is not doubled again
    r = sc(hand="119m199p19s11235z", win_tile="6z", bao="5m")
    assert r.pattern.name == "无宝九幺" and "jiuyao" not in ids(r)


def test_jiuyao_doubling_qidui_with_bao_pair_as_terminal():
    # 注 2 九幺 with 七对: a pair made only of 宝 may stand for a 1/9/honor (D2: best reading)
    r = sc(hand="11119999m111p55m", win_tile="5m", bao="5m")
    assert r.pattern.name == "豪华七对" and r.pattern.factor == 32
    assert ids(r) == {"jiuyao": 2} and r.hand_value == 64


def test_doublings_stack():
    # 注 2: 每种名目的每一次都可以是使糊家能得到在原有的基础上*2的n次方
    r = sc(
        hand="1z",
        win_tile="1z",
        bao="5m",
        kong_chain=2,
        winner_flown=1,
        melds=["concealed_kong:1111m", "concealed_kong:9999m", "pung:111p", "pung:222z"],
    )
    assert ids(r) == {"gangkai": 4, "dandiao": 2, "feibao": 2, "jiuyao": 2}
    assert r.hand_value == 10 * 4 * 2 * 2 * 2


def test_bonus_penggang_1():
    # 奖励分 碰杠： 1分 (kong on a discard, or a drawn tile added to a pung)
    r = sc(hand="123m456m789s1z", win_tile="1z", melds=["kong:5555p"])
    assert [(b.name, b.points) for b in r.bonuses] == [("碰杠", 1)]
    assert r.payments == (3, 3, 3)


def test_bonus_zimogang_2():
    # 奖励分 自摸杠： 2分
    r = sc(hand="123m456m789s1z", win_tile="1z", melds=["concealed_kong:5555p"])
    assert [(b.name, b.points) for b in r.bonuses] == [("自摸杠", 2)]
    assert r.payments == (4, 4, 4)


def test_best_reading_scored_and_alternatives_listed():
    # D2: when several patterns fit, the one paying most is scored and the result says which
    r = sc(hand="111m999p111s111z2z", win_tile="2z")
    assert r.pattern.name == "清碰碰糊"
    assert ("无宝九幺", 4) in r.alternatives


def test_not_winning_pays_nothing():
    r = sc(hand="123m456p789s12s55z", win_tile="9s")
    assert not r.winning and r.payments == (0, 0, 0) and r.total == 0


@pytest.mark.parametrize("field,value", [("base_points", 2)])
def test_rules_base_points_scale(field, value):
    # 基本分 1 分 is a rule option: doubling it doubles the hand
    rules = DEFAULT_RULES.replace(**{field: value})
    r = shangrao.score(dict(PINGHU), rules)
    assert r.payments == (4, 4, 4)


# --- situations the seed rules out are refused, not scored -------------------------------------------------


def test_earthly_win_refused_when_switched_off_by_rules():
    """地糊 is a RuleSet option (earthly_win); with it off a 地糊 situation is an error, not a score."""
    from shangrao import RuleSet, SituationError, score

    sit = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "win_by": "dealer_first_discard"}
    assert score(sit).pattern.name == "地糊"
    with pytest.raises(SituationError, match="earthly_win"):
        score(sit, RuleSet(earthly_win=False))


def test_earthly_win_with_melds_refused():
    """地糊 comes on the dealer's first discard: nobody has a declared meld yet."""
    from shangrao import SituationError, score

    with pytest.raises(SituationError, match="地糊"):
        score(
            {
                "hand": "456p789s123s5z",
                "win_tile": "5z",
                "melds": ["pung:111m"],
                "bao": "9p",
                "win_by": "dealer_first_discard",
            }
        )


def test_flown_bao_without_holding_one_refused():
    """注 1: a winner who discarded a 宝 (飞宝) held one; winner_held_bao false contradicts it."""
    from shangrao import SituationError, score

    with pytest.raises(SituationError, match="winner_held_bao"):
        score(
            {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "winner_flown": 1, "winner_held_bao": False}
        )
