"""Bad arguments to Game() and Game.apply(): one clear InputError before anything is logged,
never a crash at settlement, a raw TypeError or an AttributeError; numpy integers accepted."""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.errors import InputError
from shangrao.game import Game
from shangrao.game.actions import Action, ActionType, IllegalActionError


@pytest.mark.parametrize("scores", ["0000", (0.5, 0, 0, 0), (True, 0, 0, 0), None, 0])
def test_game_scores_must_be_four_ints(scores):
    with pytest.raises(InputError, match="scores"):
        Game(seed=1, scores=scores)


@pytest.mark.parametrize("hand_no", ["1", 1.5, -1, True])
def test_game_hand_no_must_be_an_int_ge_0(hand_no):
    with pytest.raises(InputError, match="hand_no"):
        Game(seed=1, hand_no=hand_no)


@pytest.mark.parametrize("dealer", [True, 1.0, 4, "0"])
def test_game_dealer_must_be_a_seat_int(dealer):
    with pytest.raises(InputError, match="dealer"):
        Game(seed=1, dealer=dealer)


@pytest.mark.parametrize("dice", [(True, True), 7, (1.0, 2), (0, 3), "34"])
def test_game_dice_must_be_two_ints_1_6(dice):
    with pytest.raises(InputError, match="dice"):
        Game(seed=1, dice=dice)


@pytest.mark.parametrize("seed", [[1], 1.5, True, {}])
def test_game_seed_of_another_type_is_one_clear_error(seed):
    with pytest.raises(InputError, match="seed"):
        Game(seed=seed)


def test_game_accepts_numpy_integers_like_ints():
    a = Game(
        seed=np.int64(1),
        dealer=np.int64(2),
        scores=np.zeros(4, dtype=np.int64),
        hand_no=np.int64(3),
        dice=(np.int64(3), np.int64(4)),
    )
    b = Game(seed=1, dealer=2, scores=(0, 0, 0, 0), hand_no=3, dice=(3, 4))
    assert a.wall == b.wall and a.dealer == 2 and a.seed.__class__ is int
    assert all(s.__class__ is int for s in a.scores)


def test_apply_normalises_an_action_built_with_a_str_type():
    g = Game(seed=1)
    k = next(a.tile for a in g.legal_actions() if a.type is ActionType.DISCARD)
    g.apply(Action("discard", k))  # type: ignore[arg-type]
    assert g.events[-1] is not None


@pytest.mark.parametrize(
    "bad",
    [
        Action("bogus", 3),
        Action(ActionType.DISCARD, 99),  # type: ignore[arg-type]
        Action(ActionType.DISCARD, 1.0),
        Action(ActionType.PASS, 3),
        None,
        5,
    ],
)
def test_apply_refuses_a_malformed_action_clearly(bad):
    g = Game(seed=1)
    with pytest.raises(IllegalActionError):
        g.apply(bad)
