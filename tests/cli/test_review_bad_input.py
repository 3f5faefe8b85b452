"""``shangrao review`` given bad input (issue 37, tried as a careless operator): a log cut off before
its hand's end, and a stored review damaged by hand, each said in one line or mended — never a
review of half a hand presented as whole, never an internal error."""

from __future__ import annotations

import json
import sqlite3

from shangrao.bots import get_bot
from shangrao.game import Game
from shangrao.game.match import play_hand
from shangrao.rules import DEFAULT_RULES


def _hand(seed: str = "bad-input") -> list[dict]:
    g = Game(DEFAULT_RULES, seed=seed, dealer=0)
    play_hand(g, [get_bot("greedy") for _ in range(4)])
    return [dict(e) for e in g.events]


def test_review_file_refuses_a_hand_cut_off_before_its_end_naming_the_hand(run, tmp_path, one_line_error):
    events = _hand()
    assert events[-1]["type"] == "end"
    for cut, name in ((events[:10], "cut.json"), (events[:1], "deal_only.json")):
        path = tmp_path / name
        path.write_text(json.dumps(cut), encoding="utf-8")
        one_line_error(
            run("review", "--file", str(path)), f"hand 1 stops after event {len(cut) - 1}", "only finished hands"
        )
    # a whole first hand and a cut second one: --hand 1 reviews the whole one, --hand 2 is refused
    both = tmp_path / "both.json"
    both.write_text(json.dumps(events + _hand("second")[:7]), encoding="utf-8")
    one_line_error(run("review", "--file", str(both), "--hand", "2"), "hand 2 stops after event 6")
    assert run("review", "--file", str(both), "--hand", "1", "--seat", "0").returncode == 0


def test_review_file_names_a_first_event_without_a_type(run, tmp_path, one_line_error):
    path = tmp_path / "objects.jsonl"
    path.write_text("{}\n{}\n", encoding="utf-8")
    one_line_error(run("review", "--file", str(path)), "must start with a deal event, event 1 is without a type")


def test_a_stored_review_damaged_by_hand_is_computed_again_and_mended_not_an_internal_error(run, tmp_path):
    from shangrao.records import Store
    from shangrao.records.reviews import load_reviews, review_game
    from shangrao.records.summary import hand_summary

    db = tmp_path / "damaged.sqlite3"
    store = Store(f"sqlite:///{db}")
    g = Game(DEFAULT_RULES, seed="damaged-review", dealer=0)
    play_hand(g, [get_bot("greedy") for _ in range(4)])
    gid = store.create_game("play", ["human", "greedy", "greedy", "greedy"], rules=DEFAULT_RULES)
    store.append_hand(gid, 0, 0, g.events, hand_summary(g.result, g.events), list(g.scores))
    good = review_game(store, gid).to_dict()
    store.close()
    for damage in (
        '"x"',
        '{"hand": 0, "seats": [0], "decisions": [], "summary": []}',
        json.dumps({**good["hands"][0], "decisions": [{**good["hands"][0]["decisions"][0], "loss": "x"}]}),
    ):
        with sqlite3.connect(db) as con:
            con.execute("UPDATE reviews SET review = ?", (damage,))
        p = run("review", str(gid), "--db", str(db), "--json")
        assert p.returncode == 0, (damage, p.stderr)
        assert json.loads(p.stdout)["summary"] == good["summary"]
        store = Store(f"sqlite:///{db}")
        try:  # mended in place: one review of the hand, the good one
            assert (
                load_reviews(store, gid, good["evaluator"], good["version"])[0]["summary"]
                == good["hands"][0]["summary"]
            )
        finally:
            store.close()
