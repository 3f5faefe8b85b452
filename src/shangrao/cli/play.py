"""``shangrao play``: you against three bots in the terminal."""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.console import Console
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from ..bots import BOTS, get_bot
from ..game import (
    Action,
    ActionType,
    Game,
    Match,
    parse_action,
    redact,
)
from ..records.summary import hand_summary
from ..rules import DEFAULT_RULES
from .common import open_store, out_console
from .narrate import (
    action_text,
    event_lines,
    order_actions,
    render_settlement,
    render_table,
    seat_label,
)
from .simulate import DbOption, parse_bots


def only_action_named(word: str, actions: list[Action]) -> Action | None:
    """A bare action word (``pung``) when exactly one legal action has that type."""
    name = word.strip().lower().replace("-", "_")
    same = [a for a in actions if a.type.value == name]
    return same[0] if len(same) == 1 else None


def typing_hint(actions: list[Action]) -> str:
    """Examples of what can be typed now, from the legal actions: ``'pung', 'pass'`` or ``'discard 5m'``."""
    examples: list[str] = []
    for a in actions:
        same = [b for b in actions if b.type is a.type]
        ex = a.type.value if len(same) == 1 else str(same[-1] if a.type is ActionType.DISCARD else same[0])
        if ex not in examples:
            examples.append(ex)
    return ", ".join(f"'{e}'" for e in examples[:3])


def _choose(console: Console, actions: list[Action], obs, bao: int) -> Action:
    lines = Table(show_edge=False, box=None, padding=(0, 1), pad_edge=False, show_header=False)
    lines.add_column(justify="right")
    lines.add_column()
    can_win = any(a.type is ActionType.WIN for a in actions)
    for i, a in enumerate(actions, 1):
        lines.add_row(f"{i}.", action_text(a, obs, bao, can_win))
    console.print(Text("legal actions 可选:", style="bold"))
    console.print(lines)
    while True:
        answer = Prompt.ask(f"choose 1-{len(actions)} (or e.g. {typing_hint(actions)}, q to quit)", console=console)
        answer = (answer or "").strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise EOFError
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        only = only_action_named(answer, actions)
        if only is not None:
            return only
        try:
            a = parse_action(answer) if " " in answer or not answer[:1].isdigit() else parse_action("discard " + answer)
        except ValueError as err:
            console.print(Text(f"not understood: {err}. Type a number from 1 to {len(actions)}.", style="red"))
            continue
        if a in actions:
            return a
        console.print(Text(f"{a} is not legal now. Type a number from 1 to {len(actions)}.", style="red"))


def play(
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the match (default: random).")] = None,
    db: DbOption = None,
    bot: Annotated[str, typer.Option("--bot", help="The bot at seats 1-3: " + ", ".join(BOTS) + ".")] = "greedy",
) -> None:
    """Play seat 0 against three bots in the terminal.

    Type the number of an action, or an action like 'discard 5m' or 'pung'.

    The match is stored hand by hand: q, Ctrl-D or Ctrl-C leaves, and 'shangrao replay' shows it later.
    """
    bot = parse_bots(bot, "--bot")[1]
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    console = out_console()
    rules = DEFAULT_RULES
    players = ["human", bot, bot, bot]

    def label(s: int) -> str:
        return seat_label(s, 0, players)

    store = open_store(db)
    match = Match(rules, seed=seed)
    bots = [None] + [get_bot(bot, seed=f"{seed}:{i}") for i in (1, 2, 3)]
    gid = store.create_game("play", players, seed=seed, rules=rules)
    console.print(Text(f"上饶麻将 Shangrao Mahjong — game {gid}, seed {seed}. You are seat 0; "
                       f"{rules.hands_per_match} hands. q or Ctrl-C leaves (the game is saved).", style="bold"))
    game: Game | None = None
    stored = 0
    try:
        while not match.is_over:
            game = match.new_hand()
            stored = 0
            shown = 0
            while not game.is_over:
                seat = game.current_seat
                legal = game.legal_actions()
                if seat != 0 or len(legal) == 1:
                    assert seat is not None  # the hand is not over
                    seat_bot = bots[seat]
                    action = (legal[0] if seat_bot is None or len(legal) == 1
                              else seat_bot.choose(game.observation(seat), legal))
                    game.apply(action)
                    continue
                for ev in game.events[stored:]:
                    store.append_event(gid, game.hand_no, ev)
                stored = len(game.events)
                view = redact(game.events, 0)
                for line in event_lines(view, shown, game.bao, label):
                    console.print(line)
                shown = len(view)
                obs = game.observation(0)
                console.rule()
                for part in render_table(obs, game.hand_no, rules.hands_per_match, players):
                    console.print(part)
                action = _choose(console, order_actions(legal), obs, game.bao)
                game.apply(action, seat=0)
            view = redact(game.events, 0)
            for line in event_lines(view, shown, game.bao, label):
                console.print(line)
            rec = match.finish_hand(game)
            store.append_hand(gid, rec.hand_no, rec.dealer, rec.events, hand_summary(rec.result, rec.events),
                              scores_after=list(rec.result.scores))
            stored = len(game.events)
            game = None
            console.rule(f"第 {rec.hand_no + 1} 局 settlement 结算")
            for part in render_settlement(rec.result, label):
                console.print(part)
            if not match.is_over:
                Prompt.ask("press Enter for the next hand (q to quit)", console=console, default="",
                           show_default=False)
        store.finish_game(gid, list(match.scores))
        console.rule("match over 终局")
        for i in range(4):
            console.print(f"{label(i)}: {match.scores[i]:+d}")
        console.print(Text(f"saved as game {gid} (finished)", style="dim"))
    except (KeyboardInterrupt, EOFError) as stop:
        if game is not None and not game.is_over:
            try:
                for ev in game.events[stored:]:
                    store.append_event(gid, game.hand_no, ev)
            except Exception:
                pass
        try:
            n_stored = store.load_game(gid).hands_played
        except Exception:
            n_stored = len(match.hands)
        console.print()
        console.print(Text(f"left the match: saved as game {gid} (unfinished, {n_stored} hand(s) stored). "
                           f"shangrao replay {gid} shows it.", style="bold"))
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    finally:
        store.close()
