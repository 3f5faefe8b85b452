"""Game review (issue 37): planted blunders in scripted hands are reported with a positive loss; the
evaluator's own choices lose nothing; a log that is not a legal hand is refused."""

from __future__ import annotations

import json

import pytest

from shangrao.bots.evaluator import Evaluator, ExpertEvaluator
from shangrao.bots.expert import ExpertBot
from shangrao.game import Action, ActionType, Game, ReplayError, script_wall
from shangrao.game.actions import parse_action
from shangrao.game.match import play_hand
from shangrao.review import MISTAKE, GameReview, review_events, review_hands
from shangrao.rules import DEFAULT_RULES

PASS = Action(ActionType.PASS)


def _game(hands, draws) -> Game:
    # indicator 7z (中): 宝 = 6z (发), in nobody's hand
    return Game(DEFAULT_RULES, dealer=0, scores=(0, 0, 0, 0), **script_wall(hands, draws=draws, indicator="7z"))


def _drive(g: Game, plan: list[tuple[int, str]]) -> None:
    """Apply each (seat, action); every claim window in between is passed."""
    for seat, text in plan:
        a = parse_action(text)
        while not (g.current_seat == seat and a in g.legal_actions()):
            assert PASS in g.legal_actions(), (seat, text, g.current_seat, [str(x) for x in g.legal_actions()])
            g.apply(PASS)
        g.apply(a, seat=seat)


def _decision(review, step_action: str):
    found = [d for d in review.decisions if d.chosen == step_action]
    assert found, [d.chosen for d in review.decisions]
    return found[-1]


def test_discarding_from_a_ready_hand_so_it_is_no_longer_ready_is_a_mistake_with_a_positive_loss():
    # seat 0 (dealer): 123m 456p 789s 111z 5m, draws 9p: discarding 9p (or 5m) stays ready; 1z breaks it
    g = _game({0: "123m456p789s111z5m"}, draws="9p")
    assert [str(a) for a in g.legal_actions()][-1].startswith("discard")
    _drive(g, [(0, "discard 1z")])
    r = review_events(g.events, seats=[0])
    d = _decision(r, "discard 1z")
    assert d.loss > MISTAKE
    assert d.best in ("discard 9p", "discard 5m")
    assert "向听 1" in d.reason and "听牌" in d.reason
    print(d.reason, "|", d.reason_zh)
    assert "打 东风后离听牌差 1 张（1 向听）" in d.reason_zh and "保持听牌" in d.reason_zh  # the Chinese UI's words
    assert r.summary["0"].mistakes == 1 and r.summary["0"].match_rate == 0.0


def test_declining_a_win_when_an_opponent_is_one_tile_from_winning_is_a_mistake_with_a_positive_loss():
    # seat 1 pungs seat 0's 1p, 4p, 7p and is left with 2s2s5s5s: three 碰 shown, one tile from winning.
    # seat 0 then draws 1z for 123m 456m 789m 111z 22z and discards it instead of winning.
    hands = {
        0: "123m456m789m11z1p4p",
        1: "1p1p4p4p7p7p2s2s5s5s8s9s3z",
        2: "1s1s3s3s9p9p8p8p2m2m4z4z5z",
        3: "7s7s3p3p5p5p9s3m3m4m4m8m8m",
    }
    draws = "2z7z5z7p7z5z2z7z5z1z"  # s0, s2, s3 each round (seat 1 claims)
    g = _game(hands, draws)
    _drive(
        g,
        [
            (0, "discard 1p"),
            (1, "pung 1p"),
            (1, "discard 3z"),
            (2, "discard 7z"),
            (3, "discard 5z"),
            (0, "discard 4p"),
            (1, "pung 4p"),
            (1, "discard 8s"),
            (2, "discard 7z"),
            (3, "discard 5z"),
            (0, "discard 7p"),
            (1, "pung 7p"),
            (1, "discard 9s"),
            (2, "discard 7z"),
            (3, "discard 5z"),
        ],
    )
    assert Action(ActionType.WIN) in g.legal_actions(0)
    _drive(g, [(0, "discard 1z")])
    r = review_events(g.events, seats=[0])
    d = _decision(r, "discard 1z")
    assert d.best == "win"
    assert d.loss > MISTAKE
    assert "the win now" in d.reason and "下家 shows 碰" in d.reason
    print(d.reason, "|", d.reason_zh)
    assert "现在糊" in d.reason_zh and "下家亮出 碰 一筒" in d.reason_zh  # the Chinese UI's words
    assert d.options[0].action == "win"


def test_the_evaluators_own_choices_in_a_self_played_hand_lose_nothing():
    g = Game(DEFAULT_RULES, seed="review-self-play", dealer=0)
    play_hand(g, [ExpertBot() for _ in range(4)])
    r = review_events(g.events)
    assert len(r.decisions) > 20
    assert all(d.loss == 0 and d.matched for d in r.decisions), [d.to_dict() for d in r.decisions if d.loss]
    assert all(s.match_rate == 1.0 and s.loss == 0 for s in r.summary.values())


def test_every_legal_option_is_valued_and_the_review_is_json_able():
    g = Game(DEFAULT_RULES, seed="review-json", dealer=1)
    from shangrao.bots import get_bot

    play_hand(g, [get_bot("random", seed=1), get_bot("greedy"), get_bot("random", seed=2), get_bot("greedy")])
    gr = review_hands([(0, g.events)], seats=[0, 1])
    for d in gr.decisions():
        assert len(d.options) >= 2 and d.chosen in [o.action for o in d.options]
        assert d.loss == pytest.approx(
            max(0.0, d.options[0].value - next(o.value for o in d.options if o.action == d.chosen)), abs=2e-3
        )
    back = GameReview.from_dict(json.loads(json.dumps(gr.to_dict())))
    assert back.to_dict() == gr.to_dict()
    assert isinstance(ExpertEvaluator(), Evaluator)


def test_a_log_that_is_not_a_legal_hand_is_refused_naming_the_event():
    g = Game(DEFAULT_RULES, seed="review-bad", dealer=0)
    play_hand(g, [ExpertBot(fast=True) for _ in range(4)])
    events = [dict(e) for e in g.events]
    i = next(i for i, e in enumerate(events) if e.get("type") == "discard" and i > 3)
    events[i]["action"] = "discard 6z" if events[i]["action"] != "discard 6z" else "discard 7z"
    with pytest.raises(ReplayError, match=f"event {i}"):
        review_events(events)
    with pytest.raises(ReplayError, match="starts with a deal"):
        review_events(events[1:])


def test_a_stored_games_review_is_computed_once_and_kept_with_the_evaluators_name_and_version(monkeypatch):
    import shangrao.review as review_mod
    from shangrao.records import Store
    from shangrao.records.reviews import delete_reviews, load_reviews, review_game
    from shangrao.records.summary import hand_summary

    store = Store("sqlite://")
    g = Game(DEFAULT_RULES, seed="review-store", dealer=0)
    play_hand(g, [ExpertBot(fast=True) for _ in range(4)])
    gid = store.create_game("play", ["human", "expert", "expert", "expert"], rules=DEFAULT_RULES)
    store.append_hand(gid, 0, 0, g.events, hand_summary(g.result, g.events), list(g.scores))
    seen = []
    first = review_game(store, gid, progress=lambda n, total: seen.append((n, total)))
    assert seen == [(1, 1)]
    kept = load_reviews(store, gid, "expert", ExpertEvaluator.version)
    assert list(kept) == [0] and kept[0]["decisions"]

    def boom(*a, **k):
        raise AssertionError("computed again")

    monkeypatch.setattr(review_mod, "review_events", boom)
    again = review_game(store, gid)
    assert again.to_dict()["summary"] == first.to_dict()["summary"]
    assert first.for_seats([0]).seats == [0]
    assert delete_reviews(store, gid) == 1
