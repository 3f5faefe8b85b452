"""Helpers to script situations: a wall, then actions written as 'seat:action'."""

from __future__ import annotations

from shangrao.game import Game, script_wall
from shangrao.game.actions import ActionType, parse_action
from shangrao.rules import DEFAULT_RULES

# 宝 for scripted games: indicator 7z (中) -> 宝 = 6z (发)
INDICATOR = "7z"


def make_game(hands, draws="", replacements="", indicator=INDICATOR, dealer=0, rules=DEFAULT_RULES,
              dice=(1, 1), scores=(0, 0, 0, 0)) -> Game:
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
