"""``shangrao play``: you against three bots in the terminal."""

from __future__ import annotations

import random
import signal
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.prompt import Prompt
from rich.text import Text

from ..bots import BOTS, STRONGEST, get_bot
from ..game import (
    Action,
    ActionType,
    Game,
    Match,
    Observation,
    redact,
)
from ..rules import DEFAULT_RULES
from .advise_cmd import hint_line
from .common import open_store, out_console
from .narrate import (
    action_text,
    event_lines,
    order_actions,
    render_choices,
    render_recap,
    render_settlement,
    render_table,
    seat_label,
)
from .play_input import (
    CONFIRM_TYPES,
    HELP_LINES,
    ChoiceError,
    Command,
    hint_provider,
    read_choice,
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


_CONFIRM_WORDS = frozenset({"", "y", "yes", "ok", "是", "好", "确认", "确定", "send"})


def _ask(console: Console, prompt: str) -> str:
    return Prompt.ask(prompt, console=console, default="", show_default=False) or ""


def _confirm(console: Console, action: Action, obs: Observation, bao: int) -> bool | None:
    """A claim waits for Enter before it is sent: True send, False take back, None quit."""
    while True:
        console.print(Text.assemble(("→ ", "bold"), action_text(action, obs, bao)))
        answer = _ask(console, "Enter sends it, 撤销/undo takes it back")
        word = " ".join(answer.split()).lower()
        if word in _CONFIRM_WORDS:
            return True
        try:
            cmd = read_choice(word, [action])
        except ChoiceError:
            cmd = None
        if cmd is Command.QUIT:
            return None
        if cmd is Command.UNDO or word in ("n", "no", "不"):
            console.print(Text("taken back — choose again", style="yellow"))
            return False
        console.print(Text("press Enter to send, or type 撤销 (undo) to choose again", style="red"))


def _hint(console: Console, obs: Observation, actions: list[Action]) -> None:
    """``提示``/``hint``: the installed advisor's answer, by default the expert's top choices."""
    provider = hint_provider() or hint_line
    advice = provider(obs, actions)
    if advice:
        console.print(Text("提示 hint (expert):", style="bold cyan"))
        console.print(Text(advice, style="cyan"))
    else:
        console.print(Text("提示 hint: no advice for this decision", style="dim"))


def prompt_text(actions: list[Action]) -> str:
    """The prompt, with examples taken from this decision's legal actions (``打 南风`` only when 南风 may be
    discarded; 碰 only when a pung is offered …)."""
    from ..tiles import tile_name

    A = ActionType
    types = {a.type for a in actions}
    words = []
    discards = [a.tile for a in actions if a.type is A.DISCARD and a.tile is not None]
    if discards:
        words.append(f"打 {tile_name(discards[0])}")
    for t in (A.WIN, A.CATCH_BAO, A.PUNG, A.CHOW):
        if t in types:
            words.append(t.chinese)
    if types & {A.KONG, A.ADDED_KONG, A.CONCEALED_KONG}:
        words.append("杠")  # the input word for every kong (play_input)
    if A.PASS in types:
        words.append(A.PASS.chinese)
    examples = f"or {', '.join(words)}; " if words else ""
    return f"choose 1-{len(actions)} ({examples}? help)"


def _choose(console: Console, actions: list[Action], obs: Observation, bao: int) -> Action:
    """Ask until the player picks a legal action (see :mod:`.play_input` for what may be typed).

    A claim (吃 碰 杠 糊 接宝, or a pass that declines a win) is echoed and sent on Enter;
    ``撤销``/``undo`` takes it back.  Raises ``EOFError`` when the player quits.
    """
    for line in render_choices(actions, obs, bao, width=min(console.width, 80)):
        console.print(line)
    can_win = any(a.type is ActionType.WIN for a in actions)
    while True:
        answer = _ask(console, prompt_text(actions))
        try:
            choice = read_choice(answer, actions)
        except ChoiceError as err:
            console.print(Text(str(err), style="red"))
            continue
        if choice is Command.QUIT:
            raise EOFError
        if choice is Command.HELP:
            for help_line in HELP_LINES:
                console.print(help_line)
            continue
        if choice is Command.HINT:
            _hint(console, obs, actions)
            continue
        if choice is Command.UNDO:
            console.print(Text("nothing to take back: a claim is confirmed before it is sent", style="dim"))
            continue
        assert isinstance(choice, Action)
        if choice.type in CONFIRM_TYPES or (choice.type is ActionType.PASS and can_win):
            ok = _confirm(console, choice, obs, bao)
            if ok is None:
                raise EOFError
            if not ok:
                continue
        return choice


def _keep_ctrl_c() -> None:
    """Make Ctrl-C leave the match, as the help promises, also when ``play`` was started with SIGINT
    ignored — as every background job of a non-interactive shell (``nohup …``, ``cmd &`` in a script)
    is, and Python then never raises KeyboardInterrupt.  Only on a terminal, whose user can press it."""
    if sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def play(
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the match (default: random).")] = None,
    db: DbOption = None,
    bot: Annotated[str, typer.Option("--bot", help="The bot at seats 1-3: " + ", ".join(BOTS) + ".")] = STRONGEST,
) -> None:
    """Play seat 0 against three bots in the terminal.

    Type a number, a tile to discard (南, 一万, 5m, 🀇, 打 南), or 碰 吃 杠 糊 过 (pung, chow, kong, win, pass).

    A claim is sent on Enter; 撤销 (undo) takes it back. help, ? or 帮助 lists what you can type.

    The match is stored hand by hand: q, Ctrl-D or Ctrl-C leaves, and 'shangrao replay' shows it later.
    """
    bot = parse_bots(bot, "--bot")[1]
    _keep_ctrl_c()
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
    console.print(
        Text(
            f"上饶麻将 Shangrao Mahjong — game {gid}, seed {seed}. You are seat 0 against "
            f"three {bot} bots; {rules.hands_per_match} hands. ? shows what to type; "
            "q or Ctrl-C leaves (the game is saved).",
            style="bold",
        )
    )
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
                    if seat_bot is not None and len(legal) > 1 and hasattr(seat_bot, "see_log"):
                        seat_bot.see_log(game.events, seat)  # an outside bot (ext:) follows its seat's log
                    action = (
                        legal[0]
                        if seat_bot is None or len(legal) == 1
                        else seat_bot.choose(game.observation(seat), legal)
                    )
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
            from ..records.summary import hand_summary

            store.append_hand(
                gid,
                rec.hand_no,
                rec.dealer,
                rec.events,
                hand_summary(rec.result, rec.events),
                scores_after=list(rec.result.scores),
            )
            stored = len(game.events)
            game = None
            console.rule(f"第 {rec.hand_no + 1} 局 settlement 结算")
            parts = render_settlement(rec.result, label)
            for part in parts:
                console.print(part)
            tall = sum(len(console.render_lines(part, pad=False)) for part in parts)
            if tall + 3 > console.height:  # the winner has scrolled off the screen: say it again
                for line in render_recap(rec.result, label):
                    console.print(line)
            if not match.is_over:
                answer = _ask(console, "press Enter for the next hand (q to quit)")
                if " ".join(answer.split()).lower() in ("q", "quit", "exit", "退出"):
                    raise EOFError
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
        console.print(
            Text(
                f"left the match: saved as game {gid} (unfinished, {n_stored} hand(s) stored). "
                f"shangrao replay {gid} shows it.",
                style="bold",
            )
        )
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    finally:
        store.close()
