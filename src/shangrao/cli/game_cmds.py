"""``shangrao simulate``, ``play``, ``games`` and ``replay``: the game side of the command line."""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from ..analysis import waits as waits_of
from ..bots import BOT_NAMES, get_bot
from ..game import Action, ActionType, Game, Match, ReplayError, parse_action, redact, replay
from ..records import Store
from ..records.summary import Stats, hand_summary
from ..rules import DEFAULT_RULES
from ..tiles import format_tile, tile_name
from .common import CliError, dump_json, err_console, out_console
from .render import BAO_STYLE, pond_text, render_score, short_melds_text, short_name, tiles_text

__all__ = ["register", "simulate", "run_simulation", "play", "games", "replay_cmd"]

DbOption = Annotated[Optional[str], typer.Option(
    "--db", metavar="PATH|URL",
    help="Records database: a file path (SQLite) or a SQLAlchemy URL (postgresql+psycopg://…). "
         "Default: $SHANGRAO_DB, else shangrao.sqlite3 in the user data directory.")]


# --------------------------------------------------------------------------- simulate
def _parse_bots(text: str, what: str = "--bots") -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise CliError(f"{what}: give 4 bot names separated by commas (or one for all seats), got {text!r}")
    for n in names:
        if n not in BOT_NAMES:
            raise CliError(f"{what}: unknown bot {n!r}; known: {', '.join(BOT_NAMES)}")
    return names


def run_simulation(hands: int, seed: int, bots: list[str], store: Store | None, progress=None,
                   workers: int = 1, ray_address: str | None = None) -> dict:
    """Play ``hands`` hands as matches of ``rules.hands_per_match``; store each hand; return the summary.

    The hands are played by :func:`shangrao.selfplay.iter_hands` — in this process
    (``workers=1``), in ``workers`` processes, or on a Ray cluster (``ray_address``) —
    and come back in match order, so the summary and the records are the same either way.
    Deterministic for a given seed and bots, except ``timing`` (and ``storage``).
    """
    from ..selfplay import iter_hands

    rules = DEFAULT_RULES
    per = rules.hands_per_match
    n_matches = math.ceil(hands / per)
    stats = Stats(bots)
    game_ids = []
    t0 = time.perf_counter()
    task = progress.add_task("simulating", total=hands) if progress is not None else None
    gid = None
    current = None
    last = None

    def finish(rec: dict) -> None:
        if store is not None and gid is not None:
            meta = {} if rec["match_over"] else {"stopped_after": rec["hand_no"] + 1}
            store.finish_game(gid, list(rec["result"]["scores"]), meta=meta)

    for rec in iter_hands(hands, seed, bots, rules, workers=workers, ray_address=ray_address):
        if rec["match"] != current:
            if last is not None:
                finish(last)
            current = rec["match"]
            if store is not None:
                gid = store.create_game("simulate", bots, seed=rec["match_seed"], rules=rules,
                                        meta={"run_seed": seed, "match": current})
                game_ids.append(gid)
        if store is not None:
            store.append_hand(gid, rec["hand_no"], rec["dealer"], rec["events"], rec["summary"],
                              scores_after=list(rec["result"]["scores"]))
        stats.add(rec["summary"])
        last = rec
        if progress is not None:
            progress.update(task, advance=1)
    if last is not None:
        finish(last)
    elapsed = time.perf_counter() - t0
    played = stats.hands
    out = {"seed": seed, "bots": bots, "matches": n_matches, "hands_per_match": per, **stats.to_dict()}
    out["timing"] = {"seconds": round(elapsed, 3), "hands_per_second": round(played / elapsed, 2) if elapsed else None,
                     "workers": workers if ray_address is None else None, "ray": ray_address}
    out["storage"] = {"db": store._safe_url() if store is not None else None, "game_ids": game_ids}
    return out


def _count_table(title: str, counts: dict, hands: int, key_name: str) -> Table:
    t = Table(title=title, title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    t.add_column(key_name)
    t.add_column("count", justify="right")
    t.add_column("per 100 hands", justify="right")
    for k, v in counts.items():
        t.add_row(str(k), str(v), f"{100 * v / max(hands, 1):.1f}")
    if not counts:
        t.add_row("—", "0", "0.0")
    return t


_WIN_BY_NAMES = {"self_draw": "自摸 self-draw", "robbing_kong": "抢杠 robbing the kong",
                 "dealer_first_discard": "地糊 dealer's first discard", "天糊": "天糊 heavenly"}


def render_summary(s: dict, console: Console) -> None:
    h = s["hands"]
    console.print(Text(f"shangrao simulate: {h} hands in {s['matches']} match(es) of {s['hands_per_match']}, "
                       f"seed {s['seed']}, bots {','.join(s['bots'])}", style="bold"))
    seats = Table(title="seats", title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    for col, just in (("seat", "right"), ("bot", "left"), ("wins", "right"), ("win %", "right"),
                      ("points", "right"), ("points/hand", "right"), ("dealt", "right")):
        seats.add_column(col, justify=just)
    for r in s["seats"]:
        seats.add_row(str(r["seat"]), r["bot"], str(r["wins"]), f"{100 * r['win_rate']:.1f}",
                      f"{r['points']:+d}", f"{r['points_per_hand']:+.2f}", str(r["dealt"]))
    console.print(seats)
    if len(s["by_bot"]) > 1:
        bt = Table(title="bots", title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False)
        for col in ("bot", "seats", "wins", "points"):
            bt.add_column(col, justify="left" if col == "bot" else "right")
        for b in s["by_bot"]:
            bt.add_row(b["bot"], ",".join(map(str, b["seats"])), str(b["wins"]), f"{b['points']:+d}")
        console.print(bt)
    console.print(Text(f"wins {s['wins']}  ·  drawn hands 荒牌 {s['drawn']} ({100 * s['drawn_rate']:.1f}%)  ·  "
                       f"hands with several winners (抢杠) {s['multi_winner_hands']}"))
    console.print(_count_table("how wins came", {_WIN_BY_NAMES.get(k, k): v for k, v in s["win_by"].items()},
                               h, "win by"))
    console.print(_count_table("patterns 牌型", s["patterns"], h, "pattern"))
    console.print(_count_table("doublings 加倍 (×2 each)", s["doublings"], h, "doubling"))
    console.print(_count_table("bonuses 奖励分", s["bonuses"], h, "bonus"))
    if s.get("biggest_win"):
        b = s["biggest_win"]
        console.print(Text(f"biggest win: seat {b['seat']} {b['pattern']} +{b['points']} in all "
                           f"(hand {b['hand']}: {b['breakdown']})"))
    t = s["timing"]
    console.print(Text(f"time {t['seconds']:.1f} s  ·  {t['hands_per_second']} hands/s", style="dim"))
    if s["storage"]["db"]:
        ids = s["storage"]["game_ids"]
        span = f"{ids[0]}..{ids[-1]}" if len(ids) > 1 else str(ids[0]) if ids else "-"
        console.print(Text(f"stored as game(s) {span} in {s['storage']['db']}", style="dim"))


#: --hands beyond this is a typo: the run plans every match up front (and would take years)
MAX_HANDS = 10_000_000


def simulate(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, max=MAX_HANDS,
                                       help=f"Number of hands to play (1..{MAX_HANDS}).")] = 200,
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Seed; the same seed gives the same results. "
                                                "Default: a random seed (printed).")] = None,
    bots: Annotated[str, typer.Option("--bots", metavar="B,B,B,B",
                                      help="Bots for seats 0-3 (random, greedy, ukeire); one name fills all seats.")]
    = "greedy,greedy,greedy,greedy",
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    workers: Annotated[int, typer.Option("--workers", "-w", min=0,
                                         help="Processes to play in (0: one per CPU). Same results as 1.")] = 1,
    ray: Annotated[Optional[str], typer.Option("--ray", metavar="ADDRESS",
                                               help="Play on a Ray cluster: 'auto', host:port, or 'local' "
                                                    "(needs pip install '.[ray]'). Same results.")] = None,
) -> None:
    """Let bots play N hands and print a summary.

    The hands are played as matches of rules.hands_per_match hands, and every hand is stored.
    """
    names = _parse_bots(bots)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    store = Store(db)
    try:
        econ = err_console()
        with Progress(TextColumn("[bold]simulate"), BarColumn(), MofNCompleteColumn(), TextColumn("hands"),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=econ, transient=True,
                      disable=not econ.is_terminal) as progress:
            summary = run_simulation(hands, seed, names, store, progress, workers=workers, ray_address=ray)
    finally:
        store.close()
    if as_json:
        sys.stdout.write(dump_json(summary) + "\n")
    else:
        render_summary(summary, out_console())


# --------------------------------------------------------------------------- seats, events
YOU = "你 you"


def seat_label(seat: int, me: int | None = 0, players: list[str] | None = None) -> str:
    """``你 you`` / ``下家 seat 1`` … relative to ``me`` (or ``seat N (bot)`` without a viewer)."""
    name = f" ({players[seat]})" if players else ""
    if me is None:
        return f"seat {seat}{name}"
    rel = (seat - me) % 4
    return (YOU, f"下家 seat {seat}", f"对家 seat {seat}", f"上家 seat {seat}")[rel] + ("" if rel == 0 else name)


def verb(who: str, base: str, third: str | None = None) -> str:
    """The verb agreeing with the subject: ``你 you draw`` but ``下家 seat 1 draws``."""
    if who == YOU:
        return base
    return third if third is not None else base + "s"


def _t(kind_text: str) -> str:
    from ..tiles import parse_tile

    k = parse_tile(kind_text)
    return f"{tile_name(k)} ({kind_text})"


_CLAIM_ZH = {"chow": "吃 chow", "pung": "碰 pung", "kong": "杠 kong", "win": "糊 win", "catch_bao": "接宝 catch_bao"}


def _meld_words(meld_str: str) -> str:
    """``吃 chow 二条 三条 四条 (234s)`` from a stored meld string ``chow:234s``."""
    from ..melds import parse_meld

    try:
        m = parse_meld(meld_str)
    except ValueError:
        return meld_str
    zh = {"chow": "吃 chow", "pung": "碰 pung", "kong": "杠 kong", "concealed_kong": "自摸杠 concealed kong"}
    names = " ".join(tile_name(k) for k in m.tiles) if m.kind.value == "chow" else tile_name(m.tiles[0])
    return f"{zh.get(m.kind.value, m.kind.value)} {names} ({meld_str.split(':', 1)[-1]})"


_CLAIM_END = frozenset({"draw", "end", "discard", "kong_stands", "concealed_kong", "added_kong"})


def _call_outcome(events: list[dict], i: int) -> tuple[str, dict | None]:
    """What became of the call ``events[i]``: ``("done", ev)``, ``("overridden", ev)`` or ``("open", None)``.

    A claim window's calls are stored when they are made; the claim that wins (a
    higher claim, or a win) is the next meld/win event.  ``open``: not resolved in
    ``events`` yet (a live view).
    """
    call = events[i]
    word = str(call.get("action", "")).split(" ", 1)[0]
    seat = call.get("seat")
    if word == "catch_bao":
        return ("done", None)
    first = None
    for ev in events[i + 1:]:
        t = ev.get("type")
        if t in ("chow", "pung", "kong"):
            if first is None:
                first = ev
            if word != "win":
                return ("done" if ev.get("seat") == seat and t == word else "overridden", ev)
            return ("overridden", first)
        if t == "win":
            if word == "win" and ev.get("seat") == seat:
                return ("done", ev)
            first = first or ev
            continue
        if t in _CLAIM_END:
            return ("overridden", first) if first is not None else ("open", None)
    return ("overridden", first) if first is not None else ("open", None)


def event_lines(events: list[dict], start: int, bao: int | None, label, *, show_passes: bool = False) -> list[Text]:
    """The readable lines of ``events[start:]``, looking ahead in ``events`` to resolve calls.

    A call that is carried out is not repeated (the meld or win line says it, unless
    ``show_passes``); a call beaten by a higher claim is marked ``(overridden by …)``.
    """
    out = []
    for i in range(start, len(events)):
        ev = events[i]
        if ev.get("type") == "call":
            outcome, by = _call_outcome(events, i)
            if outcome == "done" and not show_passes:
                continue
            line = event_line(ev, bao, label, show_passes=show_passes)
            if outcome == "overridden" and by is not None:
                t = "win" if by.get("type") == "win" else by["type"]
                line.append(f"  (overridden by {label(by['seat'])}'s {_CLAIM_ZH[t]})", style="dim")
            out.append(line)
            continue
        line = event_line(ev, bao, label, show_passes=show_passes)
        if line is not None:
            out.append(line)
    return out


def event_line(ev: dict, bao: int | None, label, *, show_passes: bool = False) -> Text | None:
    """One readable line for an event (None for events not worth a line)."""
    t = ev.get("type")
    s = ev.get("seat")
    who = label(s) if s is not None else ""
    if t == "draw":
        if ev.get("kind") is None:
            return Text(f"  {who} {verb(who, 'draw')}" + (" a kong replacement" if ev.get("source") == "tail" else ""),
                        style="dim")
        extra = " (kong replacement from the tail)" if ev.get("source") == "tail" else ""
        style = BAO_STYLE if bao is not None and ev["kind"] == format_tile(bao) else "dim"
        return Text(f"  {who} {verb(who, 'draw')} {_t(ev['kind'])}{extra}", style=style)
    if t == "discard":
        fly = "  飞宝!" if bao is not None and ev["kind"] == format_tile(bao) else ""
        return Text(f"  {who} 打 {verb(who, 'discard')} {_t(ev['kind'])}{fly}")
    if t == "pass":
        return Text(f"  {who} {verb(who, 'pass', 'passes')} 过", style="dim") if show_passes else None
    if t == "call":
        word, _, rest = str(ev["action"]).partition(" ")
        return Text(f"  {who} {verb(who, 'call')} {_CLAIM_ZH.get(word, word)}{' ' + rest if rest else ''}",
                    style="bold")
    if t in ("chow", "pung", "kong"):
        return Text(f"  {who} {_meld_words(ev['meld'])} from {label(ev['from'])}", style="bold")
    if t in ("concealed_kong", "added_kong"):
        zh = "自摸杠 concealed kong" if t == "concealed_kong" else "碰杠 added kong"
        return Text(f"  {who} {zh} {_t(ev['kind'])}", style="bold")
    if t == "kong_stands":
        whose = "你的 your" if who == YOU else f"{who}'s"
        return Text(f"  {whose} kong {ev['meld']} stands", style="dim")
    if t == "catch_bao":
        return Text(f"  {who} 接宝 {verb(who, 'catch', 'catches')} the 宝", style="bold magenta")
    if t == "four_bao":
        return Text(f"  {who} 四个宝: {verb(who, 'have', 'has')} drawn all four 宝", style="bold magenta")
    if t == "transfer":
        payer = label(ev["payer"])
        return Text(f"  {payer} {verb(payer, 'pay')} {label(ev['payee'])} {ev['points']} ({ev['name']})", style="cyan")
    if t == "declare_win":
        return Text(f"  {who} 糊! {verb(who, 'declare')} a win", style="bold green")
    if t == "win":
        how = {"self_draw": "自摸", "robbing_kong": "抢杠", "dealer_first_discard": "地糊"}.get(ev["win_by"], ev["win_by"])
        return Text(f"  {who} {verb(who, 'win')} {how} on {_t(ev['kind'])}: {ev['pattern']}  {ev['breakdown']}",
                    style="bold green")
    if t == "end":
        if ev["drawn"]:
            return Text("  荒牌 drawn hand: the wall is empty", style="bold")
        return None
    return None


def render_settlement(game_result, label, players_scores_label=None) -> list:
    """The itemized settlement of a finished hand: each win, every transfer, deltas and scores."""
    parts: list = []
    r = game_result
    if r.drawn:
        parts.append(Text("荒牌 drawn hand — no win; bonuses already paid stay paid.", style="bold"))
    for w in r.wins:
        how = {"self_draw": "自摸 self-draw", "robbing_kong": "抢杠 robbing the kong",
               "dealer_first_discard": "地糊"}[w.situation.win_by.value]
        if w.situation.heavenly:
            how = "天糊 heavenly"
        who = label(w.seat)
        parts.append(Text(f"{who} 糊 {verb(who, 'win')} — {how}", style="bold green"))
        parts.append(render_score(w.score, w.situation, payer_names=[label(p) for p in w.payers]))
    tr = Table(title="transfers of the hand", title_justify="left", show_edge=False, box=None, padding=(0, 2),
               pad_edge=False)
    tr.add_column("payer")
    tr.add_column("payee")
    tr.add_column("points", justify="right")
    tr.add_column("reason")
    for x in r.transfers:
        tr.add_row(label(x.payer), label(x.payee), str(x.points), x.name)
    if not r.transfers:
        tr.add_row("—", "—", "0", "nothing paid")
    parts.append(tr)
    sc = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    sc.add_column("seat")
    sc.add_column("this hand", justify="right")
    sc.add_column("score", justify="right")
    for i in range(4):
        sc.add_row(label(i) + (" 庄" if i == r.dealer else ""), f"{r.deltas[i]:+d}", str(r.scores[i]))
    parts.append(sc)
    return parts


# --------------------------------------------------------------------------- play
_ACTION_ORDER = {ActionType.WIN: 0, ActionType.CATCH_BAO: 1, ActionType.CONCEALED_KONG: 2, ActionType.ADDED_KONG: 3,
                 ActionType.KONG: 4, ActionType.PUNG: 5, ActionType.CHOW: 6, ActionType.PASS: 7, ActionType.DISCARD: 8}


def _order_actions(legal: list[Action]) -> list[Action]:
    return sorted(legal, key=lambda a: (_ACTION_ORDER[a.type], -1 if a.tile is None else a.tile))


def _action_text(a: Action, obs, bao: int, can_win: bool = False) -> Text:
    t = a.type
    if t is ActionType.DISCARD:
        text = Text(f"打 discard {tile_name(a.tile)} ({format_tile(a.tile)})")
        if a.tile == bao:
            text.append("  飞宝", style=BAO_STYLE)
        if can_win:
            text.append("  (偷机: declines the win)", style="dim")
        hand = list(obs.hand_34)
        hand[a.tile] -= 1
        try:
            w = waits_of(hand, bao, list(obs.melds[obs.seat]))
        except ValueError:
            w = {}
        if w:
            text.append("  → 听 " + " ".join(short_name(k) for k in w), style="green")
        return text
    if t is ActionType.CHOW:
        text = Text(f"吃 chow {tile_name(a.tile)} {tile_name(a.tile + 1)} {tile_name(a.tile + 2)} ({a})")
        _flag_bao_use(text, a, obs, bao)
        return text
    if t is ActionType.WIN:
        return Text("糊 win!", style="bold green")
    if t is ActionType.PASS:
        what = " (decline the win)" if can_win else ""
        return Text(f"过 pass{what}")
    if t is ActionType.CATCH_BAO:
        return Text("接宝 catch the 宝", style=BAO_STYLE)
    zh = {ActionType.PUNG: "碰 pung", ActionType.KONG: "杠 kong", ActionType.ADDED_KONG: "碰杠 added kong",
          ActionType.CONCEALED_KONG: "自摸杠 concealed kong"}[t]
    text = Text(f"{zh} {tile_name(a.tile)} ({format_tile(a.tile)})")
    _flag_bao_use(text, a, obs, bao)
    return text


def bao_tiles_used(a: Action, obs, bao: int | None) -> int:
    """How many of the player's own 宝 tiles a meld action would lay down as plain faces.

    The claimed discard is not the player's (a discarded 宝 is 飞宝, not theirs); the
    tiles taken from the hand are: two for a pung, three for a kong on a discard,
    four for a concealed kong, the added one for an added kong, two for a chow.
    """
    if bao is None or a.tile is None:
        return 0
    claimed = obs.last_discard[1] if obs.last_discard is not None and obs.phase == "claim" else None
    t = a.type
    if t is ActionType.CHOW:
        own = [k for k in (a.tile, a.tile + 1, a.tile + 2) if k != claimed]
        return own.count(bao)
    if a.tile != bao:
        return 0
    return {ActionType.PUNG: 2, ActionType.KONG: 3, ActionType.CONCEALED_KONG: 4, ActionType.ADDED_KONG: 1}.get(t, 0)


def _flag_bao_use(text: Text, a: Action, obs, bao: int | None) -> None:
    n = bao_tiles_used(a, obs, bao)
    if n:
        count = "" if n == 1 else f"{n} of "
        text.append(f"  (用宝 uses {count}your 宝 {tile_name(bao)})", style=BAO_STYLE)


def render_table(obs, hand_no: int, hands_total: int, players: list[str]) -> list:
    """The player's screen: header, every seat's melds and discards, own hand, waits."""
    me = obs.seat
    label = lambda s: seat_label(s, me, players)  # noqa: E731
    bao = obs.bao
    parts: list = []
    head = Text(f"第 {hand_no + 1}/{hands_total} 局  ", style="bold")
    head.append(f"宝 {tile_name(bao)} ({format_tile(bao)})", style=BAO_STYLE)
    head.append(f"  indicator 指示牌 {tile_name(obs.indicator)} ({format_tile(obs.indicator)})")
    head.append(f"  tiles left 余 {obs.tiles_left}  dealer 庄 {label(obs.dealer)}")
    parts.append(head)
    t = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    t.add_column("seat")
    t.add_column("score", justify="right")
    t.add_column("tiles", justify="right")
    t.add_column("melds 副露", overflow="fold")
    t.add_column("discards 牌河 (in order)", overflow="fold")
    for i in [(me + k) % 4 for k in (1, 2, 3, 0)]:
        pond = pond_text(obs.discards[i], bao)
        name = label(i) + (" 庄" if i == obs.dealer else "")
        flown = f" 飞宝×{obs.flown[i]}" if obs.flown[i] else ""
        if flown:
            pond.append(flown, style=BAO_STYLE)
        t.add_row(name, str(obs.scores[i]), str(obs.hand_sizes[i]), short_melds_text(obs.melds[i], bao), pond)
    parts.append(t)
    hand = Text("你的手牌 your hand  ", style="bold")
    hand.append_text(tiles_text(obs.hand, bao))
    if obs.drawn is not None:
        hand.append(f"   drew 摸 {tile_name(obs.drawn)} ({format_tile(obs.drawn)})", style="bold")
    parts.append(hand)
    if obs.last_discard is not None and obs.phase == "claim":
        s, k = obs.last_discard
        parts.append(Text(f"on the table: {label(s)} discarded {tile_name(k)} ({format_tile(k)})", style="bold"))
    if obs.kong is not None:
        s, k, kind = obs.kong
        who = label(s)
        parts.append(Text(f"{who} {verb(who, 'declare')} a kong of {tile_name(k)}: rob it (抢杠)?", style="bold"))
    n_melds = len(obs.melds[me])
    if len(obs.hand) == 13 - 3 * n_melds:
        try:
            w = waits_of(list(obs.hand_34), bao, list(obs.melds[me]))
        except ValueError:
            w = {}
        if w:
            parts.append(Text("听牌 waits: " + ", ".join(f"{tile_name(k)} ({format_tile(k)})" for k in w), style="green"))
    return parts


def _only_action_named(word: str, actions: list[Action]) -> Action | None:
    """A bare action word (``pung``) when exactly one legal action has that type."""
    name = word.strip().lower().replace("-", "_")
    same = [a for a in actions if a.type.value == name]
    return same[0] if len(same) == 1 else None


def _typing_hint(actions: list[Action]) -> str:
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
        lines.add_row(f"{i}.", _action_text(a, obs, bao, can_win))
    console.print(Text("legal actions 可选:", style="bold"))
    console.print(lines)
    while True:
        answer = Prompt.ask(f"choose 1-{len(actions)} (or e.g. {_typing_hint(actions)}, q to quit)", console=console)
        answer = (answer or "").strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise EOFError
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        only = _only_action_named(answer, actions)
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
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Seed of the match (default: random).")] = None,
    db: DbOption = None,
    bot: Annotated[str, typer.Option("--bot", help="The bot at seats 1-3 (greedy, ukeire or random).")] = "greedy",
) -> None:
    """Play seat 0 against three bots in the terminal.

    Type the number of an action, or an action like 'discard 5m' or 'pung'.

    The match is stored hand by hand: q, Ctrl-D or Ctrl-C leaves, and 'shangrao replay' shows it later.
    """
    bot = _parse_bots(bot, "--bot")[1]
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    console = out_console()
    rules = DEFAULT_RULES
    players = ["human", bot, bot, bot]
    label = lambda s: seat_label(s, 0, players)  # noqa: E731
    store = Store(db)
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
                    action = legal[0] if len(legal) == 1 else bots[seat].choose(game.observation(seat), legal)
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
                action = _choose(console, _order_actions(legal), obs, game.bao)
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
            except Exception:  # noqa: BLE001 - leaving anyway; completed hands are already stored
                pass
        try:
            n_stored = store.load_game(gid).hands_played
        except Exception:  # noqa: BLE001
            n_stored = len(match.hands)
        console.print()
        console.print(Text(f"left the match: saved as game {gid} (unfinished, {n_stored} hand(s) stored). "
                           f"shangrao replay {gid} shows it.", style="bold"))
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    finally:
        store.close()


# --------------------------------------------------------------------------- games, replay
def _players_text(players: list[str]) -> str:
    """``greedy×4``, ``human,greedy×3``: runs of one name compressed."""
    out: list[list] = []
    for p in players:
        if out and out[-1][0] == p:
            out[-1][1] += 1
        else:
            out.append([p, 1])
    return ",".join(p if n == 1 else f"{p}×{n}" for p, n in out)


def games(
    db: DbOption = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Show at most this many (newest first).")] = 30,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List stored games: id, date, kind, players, hands, status, scores."""
    store = Store(db)
    try:
        rows = store.list_games(limit=limit)
        total = store.count_games()
    finally:
        store.close()
    if as_json:
        sys.stdout.write(dump_json([{k: v for k, v in r.to_dict().items() if k != "rules"} for r in rows]) + "\n")
        return
    console = out_console()
    if not rows:
        console.print(f"no stored games in {store._safe_url()}")
        return
    t = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    for col, just in (("id", "right"), ("date", "left"), ("kind", "left"), ("players", "left"), ("hands", "right"),
                      ("status", "left"), ("scores", "left"), ("seed", "right")):
        t.add_column(col, justify=just, overflow="fold")
    for r in rows:
        t.add_row(str(r.id), r.created.astimezone().strftime("%Y-%m-%d %H:%M"), r.kind, _players_text(r.players),
                  str(r.hands_played), r.status, " ".join(f"{x:+d}" for x in r.scores),
                  "" if r.seed is None else str(r.seed))
    console.print(t)
    if total > len(rows):
        console.print(Text(f"{len(rows)} of {total} games shown; --limit shows more", style="dim"))


def _print_hand(console: Console, index: int, dealer: int | None, events: list[dict], label, passes: bool,
                title_note: str = "") -> None:
    """Rule, deal (dealer, dice, 宝, the four hands) and every event line of one hand."""
    from ..tiles import parse_tile

    deal = events[0] if events and events[0].get("type") == "deal" else {}
    bao_text = deal.get("bao")
    bao = parse_tile(bao_text) if bao_text else None
    console.rule(f"第 {index + 1} 局 hand {index + 1}{title_note}")
    if deal:
        if dealer is None:
            dealer = deal.get("dealer")
        head = Text(f"dealer 庄 {label(dealer)} · dice {deal['dice'][0]}+{deal['dice'][1]} · indicator "
                    f"{_t(deal['indicator_kind'])} → ")
        head.append(f"宝 {_t(bao_text)}", style=BAO_STYLE)
        console.print(head)
        for s in range(4):
            kinds = [tid // 4 for tid in deal["hands"][s]]
            line = Text(f"  {label(s)}: ")
            line.append_text(tiles_text(kinds, bao))
            console.print(line)
    for line in event_lines(events, 1 if deal else 0, bao, label, show_passes=passes):
        console.print(line)


def replay_cmd(
    game_id: Annotated[int, typer.Argument(metavar="GAME_ID", help="Id from 'shangrao games'.")],
    hand: Annotated[Optional[int], typer.Option("--hand", "-k", min=1, help="Only hand K (1 = the first).")] = None,
    db: DbOption = None,
    passes: Annotated[bool, typer.Option("--passes", help="Also show every pass in claim windows.")] = False,
) -> None:
    """Print a stored game step by step, with each settlement.

    Each finished hand is replayed from its events and must give the stored result (exit 1 if not).

    A hand left unfinished in 'play' is shown up to where it stopped, without a settlement.
    """
    store = Store(db)
    try:
        rec = store.load_game(game_id, hand=None if hand is None else hand - 1)
    finally:
        store.close()
    pending = {k: evs for k, evs in sorted(rec.pending.items()) if hand is None or k == hand - 1}
    if hand is not None and not rec.hands and not pending:
        raise CliError(f"game {game_id} has {rec.hands_played} stored hand(s); there is no hand {hand}")
    console = out_console()
    players = rec.players
    label = lambda s: seat_label(s, None, players)  # noqa: E731
    console.print(Text(f"game {rec.id} · {rec.kind} · {rec.created.astimezone():%Y-%m-%d %H:%M} · seed {rec.seed} · "
                       f"{rec.status} · {rec.hands_played} hand(s) · players {', '.join(players)}", style="bold"))
    failures = []
    for h in rec.hands:
        _print_hand(console, h.index, h.dealer, h.events, label, passes)
        try:
            g = replay(h.events)
        except ReplayError as err:
            failures.append(f"hand {h.index + 1}: {err}")
            console.print(Text(f"replay FAILED: {err}", style="bold red"))
            continue
        res = g.result
        if res is None:
            failures.append(f"hand {h.index + 1}: the events do not end the hand")
            continue
        stored = h.result
        mismatch = [k for k, mine in (("deltas", list(res.deltas)), ("winners", list(res.winners)),
                                      ("scores", list(res.scores)), ("drawn", res.drawn))
                    if k in stored and stored[k] != mine]
        console.print(Text("结算 settlement", style="bold"))
        for part in render_settlement(res, label):
            console.print(part)
        if mismatch:
            failures.append(f"hand {h.index + 1}: replay gives other {', '.join(mismatch)} than stored")
            console.print(Text(f"replay does NOT match the stored {', '.join(mismatch)}", style="bold red"))
        else:
            console.print(Text("✓ replay of the events reproduces the stored result", style="green"))
    for k, evs in pending.items():
        _print_hand(console, k, None, evs, label, passes, title_note=" · 未完 unfinished")
        console.print(Text(f"未完 unfinished: the hand was left here ({len(evs)} event(s) stored); "
                           "no settlement, nothing to verify", style="bold yellow"))
    if failures:
        sys.stderr.write(f"error: game {game_id}: replay does not reproduce the record ({'; '.join(failures)})\n")
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)
    app.command("play")(play)
    app.command("games")(games)
    app.command("replay")(replay_cmd)
