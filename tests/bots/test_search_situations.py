"""The ``search`` bot on scripted situations with a clear answer (issue 35's Must show): it declines a
宝吊 win for more while the opponents are far, takes it when an opponent's melds show it ready,
and does not make a kong that an opponent shown ready could rob (抢杠)."""

from __future__ import annotations

from dataclasses import replace

from shangrao.bots.search import SearchBot
from shangrao.game import Action, ActionType, Game, script_wall
from shangrao.game.state import Observation
from shangrao.melds import Meld, MeldType

BAODIAO1 = "1m2m3m4m5m6m7m8m9m1p2p3p6z"  # 宝吊 once any tile is drawn (宝 = 6z, indicator 7z)
#: enough worlds that the answers are not a coin's toss, small enough for a test
WORLDS = 96


def _baodiao_turn() -> tuple[Game, Observation]:
    g = Game(dealer=0, **script_wall({1: BAODIAO1}, draws="4z5s", indicator="7z", dealer=0))
    g.apply("discard 4z")
    while g.phase == "claim":
        g.apply("pass")
    assert g.current_seat == 1 and g.phase == "act"
    obs = g.observation(1)
    assert Action(ActionType.WIN) in g.legal_actions()
    return g, obs


def _pungs(kinds: list[int], from_seat: int) -> tuple[Meld, ...]:
    return tuple(Meld(MeldType.PUNG, (k, k, k), claimed=k, from_seat=from_seat) for k in kinds)


def _ready_opponent(obs: Observation, seat: int = 2) -> Observation:
    """``obs`` with ``seat`` holding four pungs (7p 8p 9p 2s) and one concealed tile: ready, whatever it is
    (a 宝 or the tile's pair wins)."""
    melds = list(obs.melds)
    melds[seat] = _pungs([15, 16, 17, 19], (seat + 3) % 4)
    sizes = list(obs.hand_sizes)
    sizes[seat] = 1
    return replace(obs, melds=tuple(melds), hand_sizes=tuple(sizes))  # type: ignore[arg-type]


def test_search_declines_a_baodiao_win_for_more_while_the_opponents_are_far():
    g, obs = _baodiao_turn()
    bot = SearchBot("far", worlds=WORLDS)
    a = bot.choose(obs, g.legal_actions())
    win, _ = bot.last[Action(ActionType.WIN)]
    assert a.type is ActionType.DISCARD, bot.last
    assert bot.last[a][0] > win


def test_search_takes_the_baodiao_win_when_an_opponents_melds_show_it_ready():
    g, obs = _baodiao_turn()
    bot = SearchBot("ready", worlds=WORLDS)
    assert bot.choose(_ready_opponent(obs), g.legal_actions()) == Action(ActionType.WIN), bot.last
