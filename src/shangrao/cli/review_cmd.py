"""``shangrao review``: every decision of a stored game re-evaluated (牌谱分析, :mod:`shangrao.review`).

``shangrao review GAME [--hand N] [--seat S] [--json] [--db …]`` reviews a stored game (any mode:
web, play, simulate, arena); ``shangrao review --file PATH`` a game written in the event-log format
(:mod:`shangrao.game.protocol`: JSON lines, each hand starting with its ``deal`` event, or a JSON
array of such events) by another program — refused, one line and exit 2, where a hand is not a
legal Shangrao hand.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..errors import InputError
from ..game.events import ReplayError, events_from_jsonl
from ..review import BIG_MISTAKE, MISTAKE, Decision, GameReview, Summary, review_hands
from .common import CliError, dump_json, open_store, out_console, parse_json, read_text
from .simulate import DbOption

__all__ = ["register", "review_cmd", "split_hands"]


def split_hands(events: list[Any], where: str) -> list[tuple[int, list[dict[str, Any]]]]:
    """A log of one or more hands cut at each ``deal`` event: ``[(hand index, events)]``.  Raises
    CliError when the log is empty or does not start with a deal."""
    hands: list[tuple[int, list[dict[str, Any]]]] = []
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            raise CliError(f"{where}: event {i + 1} is not a JSON object")
        if e.get("type") == "deal":
            hands.append((len(hands), []))
        elif not hands:
            first = f"of type {str(e['type'])[:40]!r}" if "type" in e else "without a type"
            raise CliError(f"{where}: the log must start with a deal event, event 1 is {first}")
        hands[-1][1].append(e)
    if not hands:
        raise CliError(f"{where}: no events")
    return hands


def _read_file(path: str) -> list[tuple[int, list[dict[str, Any]]]]:
    text, name = read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        events = parse_json(stripped, name)
        if not isinstance(events, list):
            raise CliError(f"{name}: a JSON array of events expected")
    else:
        try:
            events = events_from_jsonl(text)
        except ReplayError as err:
            raise CliError(f"{name}: {err}") from None
    return split_hands(events, name)


def _whole(hands: list[tuple[int, list[dict[str, Any]]]], where: str) -> None:
    """Refuse a hand that stops before its ``end`` event (a log cut off, or of a hand still being
    played): its review would count only the decisions before the cut, as if the hand were whole
    (a stored game's unfinished hand is not reviewed either)."""
    for index, events in hands:
        if events[-1].get("type") != "end":
            raise CliError(
                f"{where}: hand {index + 1} stops after event {len(events) - 1} without its end event "
                "(a log cut off, or a hand still being played): only finished hands are reviewed"
            )


def _seat_words(s: int, players: list[str] | None) -> str:
    return f"seat {s}" + (f" ({players[s]})" if players and s < len(players) else "")


def _summary_line(s: Summary) -> str:
    return (
        f"match {100 * s.match_rate:.0f}% of {s.decisions} · lost {s.loss:.2f} points "
        f"({s.loss_per_hand:.2f} a hand) · mistakes >{MISTAKE:g}: {s.mistakes} · >{BIG_MISTAKE:g}: {s.big_mistakes}"
    )


def _print(review: GameReview, players: list[str] | None, all_decisions: bool) -> None:
    console = out_console()
    console.print(
        Text(
            f"review by {review.evaluator} (version {review.version}); values are expected points "
            "of the hand from the decision",
            style="dim",
        )
    )
    for s in review.seats:
        console.print(Text(f"{_seat_words(s, players)}: {_summary_line(review.summary[str(s)])}", style="bold"))
    for h in review.hands:
        console.rule(f"第 {h.hand + 1} 局 hand {h.hand + 1}")
        for s in review.seats:
            console.print(f"{_seat_words(s, players)}: {_summary_line(h.summary[str(s)])}")
        t = Table(show_edge=False, box=None, padding=(0, 1), pad_edge=False)
        for col in ("step", "seat", "chosen", "best", "loss", "options"):
            t.add_column(col, overflow="fold")
        shown = [d for d in h.decisions if all_decisions or d.loss > MISTAKE]
        for d in shown:
            style = "bold red" if d.loss > BIG_MISTAKE else "yellow" if d.loss > MISTAKE else ""
            t.add_row(str(d.step), str(d.seat), d.chosen, d.best, Text(f"{d.loss:.2f}", style=style), _options(d))
            if d.reason:
                t.add_row("", "", Text(d.reason, style="dim"), "", "", "")
        if shown:
            console.print(t)
        elif h.decisions:
            console.print(Text("no mistakes over 0.5 points (--all lists every decision)", style="dim"))


def _options(d: Decision, n: int = 4) -> str:
    return "  ".join(f"{o.action} {o.value:+.2f}" for o in d.options[:n]) + ("  …" if len(d.options) > n else "")


def review_cmd(
    game_id: Annotated[int | None, typer.Argument(metavar="[GAME]", help="Id from 'shangrao games'.")] = None,
    file: Annotated[
        str | None,
        typer.Option(
            "--file",
            "-f",
            metavar="PATH",
            help="Review an event log (JSON lines or a JSON array; '-' stdin) instead of a stored game.",
        ),
    ] = None,
    hand: Annotated[int | None, typer.Option("--hand", "-k", min=1, help="Only hand K (1 = the first).")] = None,
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", "-s", min=0, max=3, help="Review this seat (0-3; repeat for more). Default: all four."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    all_decisions: Annotated[bool, typer.Option("--all", help="List every decision, not only the mistakes.")] = False,
    db: DbOption = None,
) -> None:
    """Review a game (牌谱分析): each option's value, each choice's loss.

    Every decision of the seat (discard, 吃/碰/杠 or pass, win or decline, 飞宝) is valued by the expert's estimates.

    The loss is the best option's value minus the chosen one's; a mistake loses over 0.5 points, a big one over 2.

    A stored game's review is kept in the database.
    """
    if (game_id is None) == (file is None):
        raise CliError("give a GAME id or --file PATH (one of them)")
    players: list[str] | None = None
    if file is not None:
        hands = _read_file(file)
        if hand is not None:
            if hand > len(hands):
                raise CliError(f"{file}: has {len(hands)} hand(s); there is no hand {hand}")
            hands = [hands[hand - 1]]
        _whole(hands, file)
        try:
            review = review_hands(hands, seat)
        except ReplayError as e:
            raise CliError(f"{file}: not a legal Shangrao game: {e}") from None
        except InputError as e:
            raise CliError(str(e)) from None
    else:
        assert game_id is not None
        review, players = _stored(game_id, hand, seat, db)
    if as_json:
        d = review.to_dict()
        if players:
            d["players"] = players
        sys.stdout.write(dump_json(d) + "\n")
        return
    _print(review, players, all_decisions)


def _stored(game_id: int, hand: int | None, seats: list[int] | None, db: str | None) -> tuple[GameReview, list[str]]:
    """A stored game's review: read from the database where kept, else computed and kept there."""
    from ..records import GameNotFound, RecordError
    from ..records.reviews import review_game

    try:
        store = open_store(db)
    except CliError:
        store = open_store(db, read_only=True)  # a database we may not write: computed, not kept
    tty = sys.stderr.isatty()

    def note(n: int, total: int) -> None:
        if tty:
            sys.stderr.write(f"\rreviewed hand {n}/{total}" + ("\n" if n == total else ""))
            sys.stderr.flush()

    try:
        rec = store.load_game(game_id, hand=None if hand is None else hand - 1)
        if hand is not None and not rec.hands:
            raise CliError(f"game {game_id} has {rec.hands_played} stored hand(s); there is no hand {hand}")
        if not rec.hands:
            raise CliError(f"game {game_id} has no finished hand to review")
        review = review_game(store, game_id, hand=None if hand is None else hand - 1, progress=note)
    except ReplayError as e:
        raise CliError(f"game {game_id}: not a legal Shangrao game: {e}") from None
    except GameNotFound as e:
        raise CliError(str(e)) from None
    except RecordError:
        raise
    finally:
        store.close()
    try:
        return review.for_seats(seats), list(rec.players)
    except InputError as e:
        raise CliError(str(e)) from None


def register(app: typer.Typer) -> None:
    app.command("review")(review_cmd)
