"""advise() checks its observation and legal actions at entry: an action the observer's hand
cannot make is one IllegalActionError naming it, never a bytes/IndexError/AttributeError deep
inside the ranking, an empty answer or a p_win of 1.0 for a hand that does not win."""

from __future__ import annotations

import pytest

from shangrao.bots.expert import advise
from shangrao.cli.advise_cmd import situation_to_observation
from shangrao.game import Action, ActionType, Game, IllegalActionError
from shangrao.tiles import parse_tile

A = ActionType


def _obs(**kw):
    return situation_to_observation({"tiles_left": 60, **kw})


def test_advise_refuses_a_discard_of_a_tile_not_in_hand():
    obs, _ = _obs(hand="1133m2255p88s167z5s", bao="5s")
    with pytest.raises(IllegalActionError, match=r"discard 1p.*no 1p in hand"):
        advise(obs, [Action(A.DISCARD, parse_tile("1p"))])


def test_advise_refuses_another_seats_legal_actions():
    g = Game(seed=3)
    legal0 = g.legal_actions()
    obs1 = g.observation(1)
    foreign = [a for a in legal0 if a.type is A.DISCARD and not obs1.hand_34[a.kind]]
    assert foreign
    with pytest.raises(IllegalActionError, match="seat 1"):
        advise(obs1, foreign)


@pytest.mark.parametrize(
    "bad",
    [
        Action(A.DISCARD, 99),
        Action(A.DISCARD, -1),
        Action("bogus"),  # type: ignore[arg-type]
        None,
        3,
        "discard 9z",
    ],
)
def test_advise_refuses_a_malformed_action(bad):
    obs, _ = _obs(hand="1133m2255p88s167z5s", bao="5s")
    with pytest.raises(IllegalActionError):
        advise(obs, [bad])


def test_advise_reads_action_strings():
    obs, legal = _obs(hand="1133m2255p88s167z5s", bao="5s")
    as_text = advise(obs, [str(a) for a in legal], top=3)
    assert [c.action for c in as_text] == [c.action for c in advise(obs, legal, top=3)]


@pytest.mark.parametrize("bad", [None, {}, "obs"])
def test_advise_refuses_an_observation_that_is_not_one(bad):
    with pytest.raises(TypeError, match="observation must be"):
        advise(bad, [Action(A.PASS)])


def test_advise_refuses_win_for_a_hand_that_does_not_win():
    obs, _ = _obs(hand="1133m2255p88s167z5s", bao="5s")
    with pytest.raises(IllegalActionError, match="does not win"):
        advise(obs, [Action(A.WIN)])


def test_advise_refuses_a_pung_without_the_discard_or_two_copies():
    obs, _ = _obs(hand="1133m2255p88s167z5s", bao="5s")
    with pytest.raises(IllegalActionError, match="pung"):
        advise(obs, [Action(A.PUNG, 0)])
