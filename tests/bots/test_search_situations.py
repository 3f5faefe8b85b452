"""The ``search`` bot on scripted situations with a clear answer (issue 35's Must show): it declines a
win for 宝吊 while the opponents are far, and takes it when the opponents' melds show them ready; it
makes an added kong while the opponents are far, not when they are shown ready (抢杠: a ready
opponent holding a 宝 robs it).

The position (as ``shangrao advise`` reads it, seat 0, 宝 = 5s): 123m 456p 789s 222z 1z + 5s, 2z just
drawn, 60 tiles left, a few discards.  Winning now is a small 有宝平糊 (3 points); discarding 1z leaves
the 宝 alone — 宝吊, which wins on any tile drawn, at a higher value (the expert declines too)."""

from __future__ import annotations

from dataclasses import replace

from shangrao.bots.search import SearchBot
from shangrao.cli.advise_cmd import situation_to_observation
from shangrao.game import Action, ActionType
from shangrao.game.state import Observation
from shangrao.melds import Meld, MeldType
from shangrao.sim import search as S

SITUATION = {"hand": "123m456p789s222z1z5s", "bao": "5s", "drawn": "2z", "tiles_left": 60, "discards": "19m4z7p"}
#: enough worlds that the answers are not a coin's toss, small enough for a test
WORLDS = 96
WIN = Action(ActionType.WIN)
TO_BAODIAO = Action(ActionType.DISCARD, 27)  # discard 1z


def _position() -> tuple[Observation, list[Action]]:
    obs, legal = situation_to_observation(SITUATION)
    assert WIN in legal and TO_BAODIAO in legal
    return obs, legal


KONG_SITUATION = {
    "hand": "123m456p78s1z1z3z",
    "melds": ["pung:333z"],
    "bao": "5s",
    "drawn": "3z",
    "tiles_left": 40,
    "discards": "19m4z7p",
}
ADDED_KONG = Action(ActionType.ADDED_KONG, 29)  # 3z on the pung of 3z
#: the kong's answer is a matter of a few points: more worlds
KONG_WORLDS = 256


def _ready_opponents(obs: Observation) -> Observation:
    """``obs`` with seats 1, 2 and 3 each showing four pungs and holding one concealed tile: each is
    ready whatever that tile is (its pair, or a 宝, wins)."""
    pungs = {1: [3, 4, 5, 6], 2: [7, 9, 10, 11], 3: [16, 18, 19, 20]}  # 4m-7m, 8m 1p-3p, 8p 1s-3s: unseen kinds
    melds = list(obs.melds)
    sizes = list(obs.hand_sizes)
    for s, kinds in pungs.items():
        melds[s] = tuple(Meld(MeldType.PUNG, (k, k, k), claimed=k, from_seat=(s + 3) % 4) for k in kinds)
        sizes[s] = 1
    return replace(obs, melds=tuple(melds), hand_sizes=tuple(sizes))  # type: ignore[arg-type]


def test_search_declines_a_small_win_for_baodiao_while_the_opponents_are_far():
    obs, legal = _position()
    bot = SearchBot("far", worlds=WORLDS)
    assert bot.choose(obs, legal) == TO_BAODIAO, bot.last
    value, se = bot.last[TO_BAODIAO]
    assert value > bot.last[WIN][0] + S.DEFAULT_WIN_Z * se + S.DEFAULT_WIN_MARGIN  # past the win rule's margin


def test_search_takes_the_win_when_the_opponents_melds_show_them_ready():
    obs, legal = _position()
    bot = SearchBot("ready", worlds=WORLDS)
    assert bot.choose(_ready_opponents(obs), legal) == WIN, bot.last


def test_search_makes_an_added_kong_while_the_opponents_are_far():
    obs, legal = situation_to_observation(KONG_SITUATION)
    bot = SearchBot("kong", worlds=KONG_WORLDS)
    assert bot.choose(obs, legal) == ADDED_KONG, bot.last


def test_search_does_not_make_a_kong_that_ready_opponents_could_rob():
    obs, legal = situation_to_observation(KONG_SITUATION)
    assert ADDED_KONG in legal
    bot = SearchBot("kong", worlds=KONG_WORLDS)
    a = bot.choose(_ready_opponents(obs), legal)
    assert a != ADDED_KONG and a.type is ActionType.DISCARD, bot.last
    kong, se = bot.last[ADDED_KONG]
    assert kong + 2 * se < bot.last[a][0]  # worse by more than two standard errors
