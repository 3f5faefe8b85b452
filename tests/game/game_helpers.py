"""Helpers to script situations: a wall, then actions written as 'seat:action'."""

from __future__ import annotations

from shangrao.game import Action, Game, Observation, script_wall
from shangrao.game.actions import ActionType, parse_action
from shangrao.rules import DEFAULT_RULES

# 宝 for scripted games: indicator 7z (中) -> 宝 = 6z (发)
INDICATOR = "7z"


def make_game(
    hands,
    draws="",
    replacements="",
    indicator=INDICATOR,
    dealer=0,
    rules=DEFAULT_RULES,
    dice=(1, 1),
    scores=(0, 0, 0, 0),
) -> Game:
    w = script_wall(hands, draws=draws, replacements=replacements, indicator=indicator, dice=dice, dealer=dealer)
    return Game(rules, dealer=dealer, scores=scores, **w)


def do(game: Game, *steps: str) -> None:
    """Apply steps 'seat:action'; the seat must be the one asked."""
    for step in steps:
        seat_text, _, action = step.partition(":")
        seat = int(seat_text)
        assert game.current_seat == seat, (
            f"step {step!r}: seat {game.current_seat} is to decide (phase {game.phase}), "
            f"legal {[str(a) for a in game.legal_actions()]}"
        )
        game.apply(parse_action(action), seat=seat)


def pass_windows(game: Game) -> None:
    """PASS every claim/rob window until someone must act in its own turn."""
    while game.phase in ("claim", "rob"):
        game.apply("pass")


def legal_strs(game: Game, seat: int | None = None) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def tsumogiri_to_end(game: Game) -> None:
    """Everyone passes windows and discards the tile just drawn (declining wins) to the end."""
    while not game.is_over:
        if game.phase in ("claim", "rob"):
            game.apply("pass")
        else:
            seat = game.current_seat
            tid = game.last_draw[seat]
            game.apply(f"discard {_fmt(tid >> 2)}")


def _fmt(kind: int) -> str:
    from shangrao.tiles import format_tile

    return format_tile(kind)


def reasons(game: Game) -> list[tuple[int, int, int, str]]:
    return [(t.payer, t.payee, t.points, t.reason) for t in game.transfers]


__all__ = ["make_game", "do", "pass_windows", "legal_strs", "tsumogiri_to_end", "reasons", "ActionType"]


# hands of the table-protocol tests (tests/game/test_table*.py): seat 0 discards 5m first
TABLE_SEAT0 = "5m2p3p4p7p8p9p1s2s3s7s8s9s"
TABLE_SEAT2_TRIPLET = "5m5m5m2m8m3p6p4s6s2z3z4z5z"  # may pung or kong 5m
TABLE_SEAT3 = "3m7m8m4p4p8s8s1z1z2z4z5z7z"
TABLE_NOBODY = "1m1m9m9m1p1p9p9p2s2s4z4z3z"  # nothing on 5m
TABLE_NOBODY2 = "2m2m8m8m5p5p6p6p3s3s7m3z5s"


class Scripted:
    """A bot (or a seat's stand-in) that plays what it is told, the first of ``wants`` that is legal
    (else the first legal action), and counts its calls."""

    def __init__(self, *wants: str) -> None:
        self.wants = [parse_action(w) for w in wants]
        self.calls = 0

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        self.calls += 1
        for w in self.wants:
            if w in legal_actions:
                return w
        return legal_actions[0]
