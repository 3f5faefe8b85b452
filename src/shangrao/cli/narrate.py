"""Narration of a hand for the terminal: seat labels, event lines, the settlement, the table screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..analysis import is_baodiao_state, waits_after_discards
from ..analysis import waits as waits_of
from ..analysis.readings import Form
from ..game import (
    Action,
    ActionType,
    EventType,
    HandResult,
    Observation,
    Phase,
)
from ..melds import MeldType
from ..scoring import WinBy
from ..scoring.items import PATTERNS
from ..tiles import format_tile, tile_name
from .render import (
    ANY_TILE_BAODIAO,
    BAO_STYLE,
    discards_text,
    render_score,
    short_melds_text,
    short_name,
    tiles_text,
)

# --------------------------------------------------------------------------- seats, events
#: a seat's name as the lines show it (seat 0..3 -> words)
Label = Callable[[int], str]

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


def tile_words(kind_text: str) -> str:
    from ..tiles import parse_tile

    k = parse_tile(kind_text)
    return f"{tile_name(k)} ({kind_text})"


def _claim_words(word: str) -> str:
    """``碰 pung`` for a call's action word (the labels of :class:`ActionType`)."""
    try:
        return ActionType(word).label
    except ValueError:
        return word


def _meld_words(meld_str: str) -> str:
    """``吃 chow 二条 三条 四条 (234s)`` from a stored meld string ``chow:234s``."""
    from ..melds import parse_meld

    try:
        m = parse_meld(meld_str)
    except ValueError:
        return meld_str
    names = " ".join(tile_name(k) for k in m.tiles) if m.type is MeldType.CHOW else tile_name(m.tiles[0])
    return f"{m.type.chinese} {m.type.english} {names} ({meld_str.split(':', 1)[-1]})"


_CLAIM_END = frozenset(
    {
        EventType.DRAW,
        EventType.END,
        EventType.DISCARD,
        EventType.KONG_STANDS,
        EventType.CONCEALED_KONG,
        EventType.ADDED_KONG,
    }
)


def _call_outcome(events: list[dict[str, Any]], i: int) -> tuple[str, dict[str, Any] | None]:
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
    for ev in events[i + 1 :]:
        t = ev.get("type")
        if t in (EventType.CHOW, EventType.PUNG, EventType.KONG):
            if first is None:
                first = ev
            if word != "win":
                return ("done" if ev.get("seat") == seat and t == word else "overridden", ev)
            return ("overridden", first)
        if t == EventType.WIN:
            if word == "win" and ev.get("seat") == seat:
                return ("done", ev)
            first = first or ev
            continue
        if t in _CLAIM_END:
            return ("overridden", first) if first is not None else ("open", None)
    return ("overridden", first) if first is not None else ("open", None)


def event_lines(
    events: list[dict[str, Any]], start: int, bao: int | None, label: Label, *, show_passes: bool = False
) -> list[Text]:
    """The readable lines of ``events[start:]``, looking ahead in ``events`` to resolve calls.

    A call that is carried out is not repeated (the meld or win line says it, unless
    ``show_passes``); a call beaten by a higher claim is marked ``(overridden by …)``.
    """
    out: list[Text] = []
    for i in range(start, len(events)):
        ev = events[i]
        if ev.get("type") == EventType.CALL:
            outcome, by = _call_outcome(events, i)
            if outcome == "done" and not show_passes:
                continue
            line = event_line(ev, bao, label, show_passes=show_passes)
            assert line is not None  # a call always has a line
            if outcome == "overridden" and by is not None:
                t = "win" if by.get("type") == EventType.WIN else by["type"]
                line.append(f"  (overridden by {label(by['seat'])}'s {_claim_words(t)})", style="dim")
            out.append(line)
            continue
        line = event_line(ev, bao, label, show_passes=show_passes)
        if line is not None:
            out.append(line)
    return out


def event_line(ev: dict[str, Any], bao: int | None, label: Label, *, show_passes: bool = False) -> Text | None:
    """One readable line for an event (None for events not worth a line)."""
    t = ev.get("type")
    s = ev.get("seat")
    who = label(s) if s is not None else ""
    if t == EventType.DRAW:
        if ev.get("kind") is None:
            return Text(
                f"  {who} {verb(who, 'draw')}" + (" a kong replacement" if ev.get("source") == "tail" else ""),
                style="dim",
            )
        extra = " (kong replacement from the tail)" if ev.get("source") == "tail" else ""
        style = BAO_STYLE if bao is not None and ev["kind"] == format_tile(bao) else "dim"
        return Text(f"  {who} {verb(who, 'draw')} {tile_words(ev['kind'])}{extra}", style=style)
    if t == EventType.DISCARD:
        fly = "  飞宝!" if bao is not None and ev["kind"] == format_tile(bao) else ""
        return Text(f"  {who} 打 {verb(who, 'discard')} {tile_words(ev['kind'])}{fly}")
    if t == EventType.PASS:
        return Text(f"  {who} {verb(who, 'pass', 'passes')} 过", style="dim") if show_passes else None
    if t == EventType.CALL:
        word, _, rest = str(ev["action"]).partition(" ")
        return Text(f"  {who} {verb(who, 'call')} {_claim_words(word)}{' ' + rest if rest else ''}", style="bold")
    if t in (EventType.CHOW, EventType.PUNG, EventType.KONG):
        return Text(f"  {who} {_meld_words(ev['meld'])} from {label(ev['from'])}", style="bold")
    if t in (EventType.CONCEALED_KONG, EventType.ADDED_KONG):
        return Text(f"  {who} {ActionType(t).label} {tile_words(ev['kind'])}", style="bold")
    if t == EventType.KONG_STANDS:
        whose = "你的 your" if who == YOU else f"{who}'s"
        return Text(f"  {whose} kong {ev['meld']} stands", style="dim")
    if t == EventType.CATCH_BAO:
        return Text(f"  {who} 接宝 {verb(who, 'catch', 'catches')} the 宝", style="bold magenta")
    if t == EventType.FOUR_BAO:
        return Text(f"  {who} 四个宝: {verb(who, 'have', 'has')} drawn all four 宝", style="bold magenta")
    if t == EventType.TRANSFER:
        payer = label(ev["payer"])
        return Text(f"  {payer} {verb(payer, 'pay')} {label(ev['payee'])} {ev['points']} ({ev['name']})", style="cyan")
    if t == EventType.DECLARE_WIN:
        return Text(f"  {who} 糊! {verb(who, 'declare')} a win", style="bold green")
    if t == EventType.WIN:
        how = WinBy(ev["win_by"]).chinese
        return Text(
            f"  {who} {verb(who, 'win')} {how} on {tile_words(ev['kind'])}: {ev['pattern']}  {ev['breakdown']}",
            style="bold green",
        )
    if t == EventType.END:
        if ev["drawn"]:
            return Text("  荒牌 drawn hand: the wall is empty", style="bold")
        return None
    return None


def render_settlement(
    game_result: HandResult, label: Label, players_scores_label: Label | None = None
) -> list[RenderableType]:
    """The itemized settlement of a finished hand: each win, every transfer, deltas and scores."""
    parts: list[RenderableType] = []
    r = game_result
    if r.drawn:
        parts.append(Text("荒牌 drawn hand — no win; bonuses already paid stay paid.", style="bold"))
    for w in r.wins:
        wb = w.situation.win_by
        how = f"{wb.chinese} {wb.english}"
        if w.situation.heavenly:
            how = f"{PATTERNS['heavenly'].name} {PATTERNS['heavenly'].english}"
        who = label(w.seat)
        parts.append(Text(f"{who} 糊 {verb(who, 'win')} — {how}", style="bold green"))
        parts.append(render_score(w.score, w.situation, payer_names=[label(p) for p in w.payers]))
    tr = Table(
        title="transfers of the hand", title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False
    )
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


def render_recap(game_result: HandResult, label: Label) -> list[Text]:
    """Two or three lines that say who won with which hand and what each seat got: printed after a
    settlement taller than the terminal, right above the prompt, so that an 80×24 screen still shows
    the winner and the winning hand when the itemized lines have scrolled away."""
    r = game_result
    out: list[Text] = []
    if r.drawn:
        out.append(Text("结果 result: 荒牌 drawn hand", style="bold"))
    for w in r.wins:
        sit = w.situation
        who = label(w.seat)
        t = Text(f"结果 result: {who} 糊 ", style="bold green")
        if w.score.pattern is not None:
            t.append(w.score.pattern.name, style="bold green")
        t.append(f" {sit.win_by.chinese}  +{w.score.total}", style="bold green")
        out.append(t)
        hand = Text("  手牌 hand ")
        hand.append_text(tiles_text(sit.hand, sit.bao))
        hand.append(" + ")
        hand.append_text(tiles_text([sit.win_tile], sit.bao))
        if sit.melds:
            hand.append("  ")
            hand.append_text(short_melds_text(sit.melds, sit.bao))
        out.append(hand)
    out.append(Text("  this hand  " + "  ".join(f"{label(i)} {r.deltas[i]:+d}" for i in range(4)), style="bold"))
    return out


# --------------------------------------------------------------------------- play
_ACTION_ORDER = {
    ActionType.WIN: 0,
    ActionType.CATCH_BAO: 1,
    ActionType.CONCEALED_KONG: 2,
    ActionType.ADDED_KONG: 3,
    ActionType.KONG: 4,
    ActionType.PUNG: 5,
    ActionType.CHOW: 6,
    ActionType.PASS: 7,
    ActionType.DISCARD: 8,
}


def order_actions(legal: list[Action]) -> list[Action]:
    return sorted(legal, key=lambda a: (_ACTION_ORDER[a.type], -1 if a.tile is None else a.tile))


def action_text(a: Action, obs: Observation, bao: int, can_win: bool = False, baodiao: bool = False) -> Text:
    """One choice in words.  A discard shows what it would leave you waiting on (tiles left
    only).  ``baodiao``: a win is on offer in the 宝吊头 state, so declining it is 偷机."""
    t = a.type
    if t is ActionType.DISCARD:
        text = Text(f"{t.label} {tile_name(a.kind)} ({format_tile(a.kind)})")
        if a.kind == bao:
            text.append("  飞宝", style=BAO_STYLE)
        waits = discard_waits_words(obs, bao, a.kind)
        if waits:
            text.append("  → 听 " + waits, style="green")
        return text
    if t is ActionType.CHOW:
        text = Text(f"{t.label} {tile_name(a.kind)} {tile_name(a.kind + 1)} {tile_name(a.kind + 2)} ({a})")
        _flag_bao_use(text, a, obs, bao)
        return text
    if t is ActionType.WIN:
        return Text(f"{t.label}!", style="bold green")
    if t is ActionType.PASS:
        what = (
            " (偷机: decline the 宝吊 win, draw on)" if can_win and baodiao else " (decline the win)" if can_win else ""
        )
        return Text(f"{t.label}{what}")
    if t is ActionType.CATCH_BAO:
        return Text(t.label, style=BAO_STYLE)
    text = Text(f"{t.label} {tile_name(a.kind)} ({format_tile(a.kind)})")
    _flag_bao_use(text, a, obs, bao)
    return text


def discard_waits(obs: Observation, bao: int | None, tile: int) -> dict[int, list[Form]]:
    """Waits after discarding ``tile`` from the player's hand, counting only tiles left unseen
    (:func:`shangrao.analysis.waits_after_discards`)."""
    try:
        after = waits_after_discards(obs.hand_34, bao, list(obs.melds[obs.seat]), discards=(tile,), unseen=_unseen(obs))
    except ValueError:
        return {}
    return after.get(tile, {})


def discard_waits_words(obs: Observation, bao: int | None, tile: int) -> str:
    """What discarding ``tile`` leaves the hand waiting on, in words: the wait tiles (tiles left
    only, short names) or, when the discard leaves the hand in the 宝吊 state (宝吊头, D5),
    :data:`ANY_TILE_BAODIAO`; ``""`` when the discard leaves the hand not ready."""
    w = discard_waits(obs, bao, tile)
    if not w:
        return ""
    hand = list(obs.hand_34)
    hand[tile] -= 1
    try:
        if is_baodiao_state(hand, bao, list(obs.melds[obs.seat])):
            return ANY_TILE_BAODIAO
    except ValueError:
        pass
    return " ".join(short_name(k) for k in w)


def _unseen(obs: Observation) -> list[int] | None:
    unseen = getattr(obs, "unseen", None)
    return unseen() if callable(unseen) else None


def win_offer_in_baodiao(obs: Observation, bao: int | None, actions: list[Action]) -> bool:
    """Whether a self-drawn win on offer comes from the 宝吊头 state (declining it is 偷机)."""
    drawn = getattr(obs, "drawn", None)
    if bao is None or not any(a.type is ActionType.WIN for a in actions) or drawn is None:
        return False
    hand = list(obs.hand_34)
    if sum(hand) != 14 - 3 * len(obs.melds[obs.seat]):
        return False
    hand[drawn] -= 1
    try:
        return is_baodiao_state(hand, bao, list(obs.melds[obs.seat]))
    except ValueError:
        return False


def render_choices(actions: list[Action], obs: Observation, bao: int, width: int = 80) -> list[Text]:
    """The numbered choices, compact for 80 columns: discards as a grid of numbered tiles, other
    actions one a line, then the discards that leave you ready with their waits (tiles left)."""
    from rich.cells import cell_len

    can_win = any(a.type is ActionType.WIN for a in actions)
    baodiao = win_offer_in_baodiao(obs, bao, actions)
    out: list[Text] = [Text("可选 choices:", style="bold")]
    for i, a in enumerate(actions, 1):
        if a.type is not ActionType.DISCARD:
            out.append(Text(f"{i:>3}. ") + action_text(a, obs, bao, can_win, baodiao))
    line = Text("  打")
    for i, a in enumerate(actions, 1):
        if a.type is not ActionType.DISCARD or a.tile is None:
            continue
        cell = Text(f" {i}.")
        cell.append(short_name(a.tile), style=BAO_STYLE if a.tile == bao else "")
        if cell_len(line.plain) + cell_len(cell.plain) > width - 1:
            out.append(line)
            line = Text("    ")
        line.append_text(cell)
    if line.plain.strip() not in ("", ActionType.DISCARD.chinese):
        out.append(line)
    ready = []
    for a in actions:
        if a.type is ActionType.DISCARD and a.tile is not None:
            waits = discard_waits_words(obs, bao, a.tile)
            if waits:
                ready.append(Text(f"  打 {short_name(a.tile)} → 听 {waits}", style="green"))
    out.extend(ready)
    if can_win:
        if baodiao:
            out.append(Text("  宝吊头: 糊 is on offer; discarding or passing instead is 偷机 (draw on)", style="dim"))
        elif any(a.type is ActionType.DISCARD for a in actions):
            out.append(Text("  糊 is on offer; discarding instead declines the win", style="dim"))
    return out


def bao_tiles_used(a: Action, obs: Observation, bao: int | None) -> int:
    """How many of the player's own 宝 tiles a meld action would lay down as plain faces.

    The claimed discard is not the player's (a discarded 宝 is 飞宝, not theirs); the
    tiles taken from the hand are: two for a pung, three for a kong on a discard,
    four for a concealed kong, the added one for an added kong, two for a chow.
    """
    if bao is None or a.tile is None:
        return 0
    claimed = obs.last_discard[1] if obs.last_discard is not None and obs.phase == Phase.CLAIM else None
    t = a.type
    if t is ActionType.CHOW:
        own = [k for k in (a.tile, a.tile + 1, a.tile + 2) if k != claimed]
        return own.count(bao)
    if a.tile != bao:
        return 0
    return {ActionType.PUNG: 2, ActionType.KONG: 3, ActionType.CONCEALED_KONG: 4, ActionType.ADDED_KONG: 1}.get(t, 0)


def _flag_bao_use(text: Text, a: Action, obs: Observation, bao: int | None) -> None:
    n = bao_tiles_used(a, obs, bao)
    if n and bao is not None:
        count = "" if n == 1 else f"{n} of "
        text.append(f"  (用宝 uses {count}your 宝 {tile_name(bao)})", style=BAO_STYLE)


def short_seat(seat: int, me: int) -> str:
    """``你`` / ``下家 1`` / ``对家 2`` / ``上家 3``: the seat column of the table at 80 columns."""
    rel = (seat - me) % 4
    return "你 you" if rel == 0 else f"{('下家', '对家', '上家')[rel - 1]} {seat}"


def render_table(obs: Observation, hand_no: int, hands_total: int, players: list[str]) -> list[RenderableType]:
    """The player's screen for 80 columns: header, every seat's melds and discards (wrapped in
    their column, never cut), own hand, waits (tiles left only)."""
    me = obs.seat
    bao = obs.bao
    parts: list[RenderableType] = []
    head = Text(f"第 {hand_no + 1}/{hands_total} 局  ", style="bold")
    head.append(f"宝 {tile_name(bao)} {format_tile(bao)}", style=BAO_STYLE)
    head.append(f"  指示牌 indicator {tile_name(obs.indicator)} {format_tile(obs.indicator)}")
    head.append(f"  余 left {obs.tiles_left}  庄 {short_seat(obs.dealer, me)}")
    parts.append(head)
    t = Table(show_edge=False, box=None, padding=(0, 1), pad_edge=False)
    t.add_column("seat", no_wrap=True)
    t.add_column("score", justify="right", no_wrap=True)
    t.add_column("张", justify="right", no_wrap=True)
    t.add_column("melds 副露", overflow="fold", ratio=2)
    t.add_column("discards 牌河", overflow="fold", ratio=3)
    for i in [(me + k) % 4 for k in (1, 2, 3, 0)]:
        discards = discards_text(obs.discards[i], bao)
        name = short_seat(i, me) + (" 庄" if i == obs.dealer else "")
        if obs.flown[i]:
            discards.append(f" 飞宝×{obs.flown[i]}", style=BAO_STYLE)
        t.add_row(name, str(obs.scores[i]), str(obs.hand_sizes[i]), short_melds_text(obs.melds[i], bao), discards)
    parts.append(t)
    hand = Text("你的手牌 hand  ", style="bold")
    hand.append_text(tiles_text(obs.hand, bao))
    if obs.drawn is not None:
        hand.append(f"  摸 drew {tile_name(obs.drawn)}", style="bold")
    parts.append(hand)

    def label(s: int) -> str:
        return seat_label(s, me, players)

    if obs.last_discard is not None and obs.phase == Phase.CLAIM:
        s, k = obs.last_discard
        parts.append(Text(f"on the table: {label(s)} discarded {tile_name(k)} ({format_tile(k)})", style="bold"))
    if obs.kong is not None:
        s, k, _kind = obs.kong
        who = label(s)
        parts.append(Text(f"{who} {verb(who, 'declare')} a kong of {tile_name(k)}: rob it (抢杠)?", style="bold"))
    n_melds = len(obs.melds[me])
    if len(obs.hand) == 13 - 3 * n_melds:
        try:
            baodiao = is_baodiao_state(list(obs.hand_34), bao, list(obs.melds[me]))
            w = {} if baodiao else waits_of(list(obs.hand_34), bao, list(obs.melds[me]), unseen=_unseen(obs))
        except ValueError:
            baodiao, w = False, {}
        if baodiao:
            parts.append(Text("听牌 waits: " + ANY_TILE_BAODIAO, style="green"))
        elif w:
            parts.append(
                Text("听牌 waits: " + " ".join(f"{short_name(k)}({format_tile(k)})" for k in w), style="green")
            )
    return parts
