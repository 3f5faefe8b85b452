"""``shangrao advise``: the expert bot's top choices for a situation (:func:`shangrao.bots.expert.advise`).

Input (a JSON object, from FILE or stdin), either

* a situation in the vocabulary of ``shangrao score``::

    {"hand": "123m456p789s1122z5s", "bao": "5s", "melds": ["pung:555p"],
     "discards": "19m1z…", "seen": "…", "tiles_left": 40, "drawn": "5s", "flown": 0,
     "claim": {"tile": "3m", "from": "left"}}

  ``hand``: the concealed tiles (``3*(4-melds)+2`` on your turn, ``+1`` when deciding on a
  claim); ``drawn``: the tile just drawn (default: the last tile of ``hand``); ``discards``:
  every discard in sight; ``seen``: other visible tiles (others' melds, the indicator);
  ``tiles_left`` (default 60); ``flown``: 宝 you discarded; ``claim``: the discard on the
  table and who discarded it (``left`` 上家, ``across`` 对家, ``right`` 下家); or

* an observation exported from ``play``/``replay`` (``Observation.to_dict()``: keys ``seat``,
  ``phase``, ``hand``, ``melds``, ``discards``, ``bao`` …).

Output: the top candidates with expected points, win chance, expected gain of a win and the
pattern aimed at — in Chinese, ``--lang en`` in English, ``--json`` for programs.  A bad
input is one line ``error: …`` and exit 2.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..analysis import is_winning
from ..bots.advice import ALWAYS_EV, choice_text, order_note
from ..bots.advice import action_text as _action_text
from ..bots.advice import aim_text as _aim_text
from ..bots.expert import advise
from ..errors import quote
from ..game.actions import Action, ActionType
from ..game.phase import Phase
from ..game.state import Observation
from ..melds import Meld, MeldKind, parse_meld
from ..tiles import format_tile, indicator_of, parse_tile, parse_tiles
from .common import CliError, dump_json, out_console, parse_json, read_text

__all__ = ["advise_cmd", "register", "situation_to_observation"]

A = ActionType
_FROM = {"left": 3, "上家": 3, "across": 2, "对家": 2, "right": 1, "下家": 1}


def _tiles(data: dict[str, Any], name: str, default: str = "") -> list[int]:
    v = data.get(name, default)
    if isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 34 for x in v):
        return list(v)
    if not isinstance(v, str):
        raise CliError(f"{name}: must be a tile string like '123m' or a list of kinds 0..33")
    try:
        return parse_tiles(v) if v.strip() else []
    except ValueError as err:
        raise CliError(f"{name}: {err}") from None


def _tile(data: dict[str, Any], name: str) -> int | None:
    v = data.get(name)
    if v is None:
        return None
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 34:
        return v
    if not isinstance(v, str):
        raise CliError(f"{name}: must be one tile like '5p'")
    if name == "bao" and v.strip().lower() in ("none", "null", "no", "-"):
        raise CliError(
            "bao: advise needs the 宝 of the hand, one tile like '5p' (every hand has one; "
            "'none' is for score and analyze)"
        )
    try:
        return parse_tile(v)
    except ValueError as err:
        raise CliError(f"{name}: {err}") from None


def _int(data: dict[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    v = data.get(name, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise CliError(f"{name}: must be an int {lo}..{hi}, got {v!r}")
    return v


def _melds(raw: Any, name: str = "melds") -> list[Meld]:
    if not isinstance(raw, list):
        raise CliError(f'{name}: must be a list like ["pung:555p"]')
    out: list[Meld] = []
    for i, m in enumerate(raw):
        try:
            out.append(parse_meld(m) if isinstance(m, str) else parse_meld(f"{m['kind']}:{m['tiles']}"))
        except (ValueError, KeyError, TypeError) as err:
            raise CliError(f"{name}[{i}]: {err}") from None
    return out


def _counts(kinds: list[int]) -> list[int]:
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return c


def situation_to_observation(data: dict[str, Any]) -> tuple[Observation, list[Action]]:
    """An :class:`Observation` (seat 0) and its legal actions from a situation or an exported observation.

    Raises :class:`CliError` (a ValueError) naming the bad field.
    """
    if not isinstance(data, dict):
        raise CliError(f"a situation must be a JSON object, got {type(data).__name__}")
    if "phase" in data and "hand_sizes" in data:
        return _from_observation(data)
    known = {"hand", "bao", "melds", "discards", "seen", "tiles_left", "drawn", "win_tile", "flown", "claim"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise CliError(f"unknown field(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    if "hand" not in data:
        raise CliError("hand: missing")
    hand = _tiles(data, "hand")
    bao = _tile(data, "bao")
    if bao is None:
        raise CliError('bao: missing (the 宝 kind, e.g. "5s")')
    melds = _melds(data.get("melds", []))
    if len(melds) > 4:
        raise CliError(f"melds: at most 4, got {len(melds)}")
    discards = _tiles(data, "discards")
    seen = _tiles(data, "seen")
    tiles_left = _int(data, "tiles_left", 60, 0, 83)
    flown = _int(data, "flown", 0, 0, 4)
    size = 13 - 3 * len(melds)
    claim = data.get("claim")
    c = _counts(hand)
    indicator = indicator_of(bao)  # always in sight; `seen` may name it too (counted once)
    if indicator in seen:
        seen.remove(indicator)
    total = _counts(hand + discards + seen + [indicator] + [t for m in melds for t in m.tiles])
    for k in range(34):
        if total[k] > 4:
            raise CliError(
                f"hand, melds, discards, seen and the indicator {format_tile(indicator)} hold "
                f"{total[k]} copies of {format_tile(k)}; there are only 4"
            )
    in_sight = (discards + seen).count(bao)
    if flown > in_sight:
        raise CliError(
            f"flown: you flew {flown} 宝 ({format_tile(bao)}), but discards and seen hold {in_sight}: "
            "a flown 宝 stays in sight (in a pond, or claimed into a meld) (飞宝)"
        )
    ponds: list[list[int]] = [[], [], [], []]
    for i, k in enumerate(discards + seen):  # out of reach like a discard: the draw odds count them
        ponds[1 + i % 3].append(k)
    if claim is not None:
        if len(hand) != size:
            raise CliError(
                f"hand: deciding on a claim with {len(melds)} meld(s) you hold {size} tiles, got {len(hand)}"
            )
        if not isinstance(claim, dict) or "tile" not in claim:
            raise CliError('claim: must be an object like {"tile": "3m", "from": "left"}')
        kk = _tile(claim, "tile")
        frm = claim.get("from", "left")
        if frm not in _FROM:
            raise CliError(f"claim.from: must be left, across or right (上家/对家/下家), got {frm!r}")
        if kk is None:
            raise CliError("claim.tile: missing")
        k = kk
        if total[k] >= 4:
            raise CliError(f"claim.tile: all four copies of {format_tile(k)} are already in sight")
        discarder = _FROM[frm]
        ponds[discarder].append(k)
        legal = _claim_actions(c, k, bao, discarder == 3)
        obs = _obs(hand, c, bao, melds, ponds, tiles_left, flown, Phase.CLAIM, None, (discarder, k), seen)
        return obs, legal
    if len(hand) != size + 1:
        raise CliError(
            f"hand: on your turn with {len(melds)} meld(s) you hold {size + 1} tiles, got {len(hand)} "
            "(give 'claim' to decide on another player's discard)"
        )
    drawn = _tile(data, "drawn") if "drawn" in data else _tile(data, "win_tile")
    if drawn is None:
        drawn = hand[-1]
    if drawn not in hand:
        raise CliError(f"drawn: {format_tile(drawn)} is not in the hand")
    legal = _turn_actions(c, bao, melds, tiles_left)
    obs = _obs(hand, c, bao, melds, ponds, tiles_left, flown, Phase.ACT, drawn, None, seen)
    return obs, legal


def _obs(
    hand: list[int],
    c: list[int],
    bao: int,
    melds: list[Meld],
    ponds: list[list[int]],
    tiles_left: int,
    flown: int,
    phase: Phase,
    drawn: int | None,
    last: tuple[int, int] | None,
    seen: object,
) -> Observation:
    indicator = indicator_of(bao)
    return Observation(
        seat=0,
        phase=phase,
        current_seat=0,
        hand=tuple(sorted(hand)),
        hand_34=tuple(c),
        drawn=drawn,
        hand_sizes=(len(hand), 13, 13, 13),
        melds=(tuple(melds), (), (), ()),
        discards=tuple(tuple(p) for p in ponds),
        bao=bao,
        indicator=indicator,
        tiles_left=tiles_left,
        dealer=0,
        scores=(0, 0, 0, 0),
        flown=(flown, 0, 0, 0),
        bao_drawn=c[bao] + flown,
        last_discard=last,
        kong=None,
        kong_chain=0,
        first_discard=False,
    )


def _turn_actions(c: list[int], bao: int, melds: list[Meld], tiles_left: int) -> list[Action]:
    out: list[Action] = []
    if is_winning(c, bao, melds):
        out.append(Action(A.WIN))
    if tiles_left > 0:
        out += [Action(A.CONCEALED_KONG, k) for k in range(34) if c[k] == 4]
        out += [Action(A.ADDED_KONG, m.tiles[0]) for m in melds if m.kind is MeldKind.PUNG and c[m.tiles[0]]]
    out += [Action(A.DISCARD, k) for k in range(34) if c[k]]
    return out


def _claim_actions(c: list[int], k: int, bao: int, from_left: bool) -> list[Action]:
    out: list[Action] = []
    if c[k] >= 2:
        out.append(Action(A.PUNG, k))
    if c[k] >= 3:
        out.append(Action(A.KONG, k))
    if from_left and k < 27:
        r = k % 9
        if r >= 2 and c[k - 2] and c[k - 1]:
            out.append(Action(A.CHOW, k - 2))
        if 1 <= r <= 7 and c[k - 1] and c[k + 1]:
            out.append(Action(A.CHOW, k - 1))
        if r <= 6 and c[k + 1] and c[k + 2]:
            out.append(Action(A.CHOW, k))
    out.append(Action(A.PASS))
    return out


#: the fields of ``Observation.to_dict()`` (what play/replay export)
_OBS_FIELDS = {
    "seat",
    "phase",
    "current_seat",
    "hand",
    "drawn",
    "hand_sizes",
    "melds",
    "discards",
    "bao",
    "indicator",
    "tiles_left",
    "dealer",
    "scores",
    "flown",
    "bao_drawn",
    "last_discard",
    "kong",
    "kong_chain",
    "first_discard",
}


def _from_observation(d: dict[str, Any]) -> tuple[Observation, list[Action]]:
    unknown = sorted(set(d) - _OBS_FIELDS)
    if unknown:
        raise CliError(f"unknown field(s) of an exported observation: {', '.join(quote(k, 40) for k in unknown[:5])}")
    seat = _int(d, "seat", 0, 0, 3)
    phase = d["phase"]
    if phase not in ("act", "discard", "claim"):
        raise CliError(f"phase: advise needs an observation in phase act, discard or claim, got {quote(phase)}")
    hand = _tiles(d, "hand")
    c = _counts(hand)
    bao = _tile(d, "bao")
    if bao is None:
        raise CliError("bao: missing")
    indicator = _tile(d, "indicator")
    if indicator is None:
        raise CliError("indicator: missing (the flipped tile the 宝 follows)")
    for name in ("melds", "discards"):
        if not isinstance(d.get(name), list) or len(d[name]) != 4:
            raise CliError(f"{name}: one list per seat (4), got {quote(d.get(name))}")
    melds = tuple(tuple(_melds(ms, f"melds[{i}]")) for i, ms in enumerate(d["melds"]))
    discards = tuple(tuple(_tiles({f"discards[{i}]": p}, f"discards[{i}]")) for i, p in enumerate(d["discards"]))
    last = d.get("last_discard")
    last_t = None if last is None else _ints(last, "last_discard", 2, 0, 33)
    drawn = _tile(d, "drawn")
    first = d.get("first_discard", False)
    if not isinstance(first, bool):
        raise CliError(f"first_discard: true or false, got {quote(first)}")
    obs = Observation(
        seat=seat,
        phase=phase,
        current_seat=seat,
        hand=tuple(sorted(hand)),
        hand_34=tuple(c),
        drawn=drawn,
        hand_sizes=_ints(d.get("hand_sizes"), "hand_sizes", 4, 0, 14),
        melds=melds,
        discards=discards,
        bao=bao,
        indicator=indicator,
        tiles_left=_int(d, "tiles_left", 60, 0, 135),
        dealer=_int(d, "dealer", 0, 0, 3),
        scores=_ints(d.get("scores", [0, 0, 0, 0]), "scores", 4, -(10**9), 10**9),
        flown=_ints(d.get("flown", [0, 0, 0, 0]), "flown", 4, 0, 4),
        bao_drawn=_int(d, "bao_drawn", 0, 0, 4),
        last_discard=(last_t[0], last_t[1]) if last_t else None,
        kong=None,
        kong_chain=_int(d, "kong_chain", 0, 0, 4),
        first_discard=first,
    )
    _check_observation(obs)
    if phase == "claim":
        if last_t is None:
            raise CliError("last_discard: a claim observation needs it")
        legal = _claim_actions(c, last_t[1], bao, (last_t[0] + 1) % 4 == seat)
    elif phase == "discard":
        legal = [Action(A.DISCARD, k) for k in range(34) if c[k]]
    else:
        legal = _turn_actions(c, bao, list(melds[seat]), obs.tiles_left)
    return obs, legal


def _ints(value: object, name: str, n: int, lo: int, hi: int) -> Any:  # a tuple of n ints
    if (
        not isinstance(value, (list, tuple))
        or len(value) != n
        or not all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in value)
    ):
        raise CliError(f"{name}: {n} integers {lo}..{hi}, got {value!r:.80}")
    return tuple(value)


def _check_observation(obs: Observation) -> None:
    """Refuse an exported observation no table can reach (a :class:`CliError` naming the field): hand size
    against melds and phase, more than four copies of a kind in sight, a drawn tile not in hand, the 宝
    not following its indicator, seats and counts out of range."""
    from ..tiles import bao_from_indicator

    seat = obs.seat
    sizes = _ints(obs.hand_sizes, "hand_sizes", 4, 0, 14)
    _ints(obs.flown, "flown", 4, 0, 4)
    if not isinstance(obs.dealer, int) or isinstance(obs.dealer, bool) or not 0 <= obs.dealer <= 3:
        raise CliError(f"dealer: a seat 0..3, got {obs.dealer!r:.40}")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in obs.scores) or len(obs.scores) != 4:
        raise CliError(f"scores: 4 integers, got {obs.scores!r:.80}")
    if not 0 <= obs.kong_chain <= 4:
        raise CliError(f"kong_chain: 0..4, got {obs.kong_chain}")
    if not 0 <= obs.bao_drawn <= 4:
        raise CliError(f"bao_drawn: 0..4, got {obs.bao_drawn}")
    n_melds = len(obs.melds[seat])
    want = 13 - 3 * n_melds + (0 if obs.phase == "claim" else 1)
    if len(obs.hand) != want:
        raise CliError(
            f"hand: in phase {obs.phase} with {n_melds} meld(s) seat {seat} holds {want} tiles, got {len(obs.hand)}"
        )
    if sizes[seat] != len(obs.hand):
        raise CliError(f"hand_sizes[{seat}]: {sizes[seat]}, but the hand holds {len(obs.hand)} tiles")
    for s, ms in enumerate(obs.melds):
        if len(ms) > 4:
            raise CliError(f"melds[{s}]: at most 4, got {len(ms)}")
    if obs.drawn is not None and (
        not isinstance(obs.drawn, int) or not 0 <= obs.drawn < 34 or not obs.hand_34[obs.drawn]
    ):
        raise CliError(f"drawn: {obs.drawn!r:.20} is not a tile of the hand")
    if bao_from_indicator(obs.indicator) != obs.bao:
        raise CliError(
            f"bao: {format_tile(obs.bao)} does not follow the indicator {format_tile(obs.indicator)} "
            f"(that gives {format_tile(bao_from_indicator(obs.indicator))})"
        )
    if obs.last_discard is not None:
        who, k = obs.last_discard
        if not 0 <= who <= 3 or who == seat or not 0 <= k < 34:
            raise CliError(f"last_discard: [seat of another player 0..3, kind 0..33], got {list(obs.last_discard)}")
    total = obs.seen()
    for k in range(34):
        if total[k] > 4:
            raise CliError(
                f"hand, melds, discards and indicator hold {total[k]} copies of {format_tile(k)}; there are only 4"
            )
    _check_bao_counts(obs)


def _check_bao_counts(obs: Observation) -> None:
    """The 宝 the seat drew and every seat's 飞宝 against the 宝 in sight (issue 22): a drawn 宝 is in the
    hand, the seat's melds or flown by it; a flown 宝 is in its pond or claimed into another seat's meld
    (or the kong waiting in the rob window)."""
    from ..melds import MeldType

    bao, seat = obs.bao, obs.seat
    name = format_tile(bao)
    in_hand = obs.hand_34[bao]
    own_melds = sum(1 for m in obs.melds[seat] for t in m.tiles if t == bao)
    low = in_hand + obs.flown[seat]
    if not low <= obs.bao_drawn <= low + own_melds:
        raise CliError(
            f"bao_drawn: {obs.bao_drawn}, but the 宝 ({name}) seat {seat} drew are in its hand ({in_hand}), "
            f"flown by it (flown[{seat}] = {obs.flown[seat]}) or in its melds ({own_melds})"
        )
    pending = 1 if obs.kong is not None and obs.kong[1] == bao else 0
    for s in range(4):
        claimed = pending + sum(
            1
            for o in range(4)
            if o != s
            for m in obs.melds[o]
            if bao in m.tiles and m.type is not MeldType.CONCEALED_KONG
        )
        pond = obs.discards[s].count(bao)
        if obs.flown[s] > pond + claimed:
            raise CliError(
                f"flown[{s}]: {obs.flown[s]} 宝 ({name}) discarded by seat {s}, but its pond holds {pond} "
                f"and other seats' melds {claimed}: a flown 宝 stays in sight (飞宝)"
            )


def hint_line(obs: Observation, legal: list[Action], top: int = 3) -> str:
    """The ``提示 hint`` of ``shangrao play``: the expert's ``top`` choices for this decision, one
    line each, best first, with its expected points (points), win chance and the pattern aimed at."""
    cands = advise(obs, legal, top=top)
    note = order_note(cands)
    return "\n".join([f"{i}. {choice_text(c)}" for i, c in enumerate(cands, 1)] + ([note] if note else []))


def advise_cmd(
    source: Annotated[str | None, typer.Argument(metavar="[FILE]", help="JSON situation; '-' or none: stdin.")] = None,
    top: Annotated[int, typer.Option("--top", "-k", min=1, max=50, help="How many candidates to show.")] = 5,
    lang: Annotated[str, typer.Option("--lang", help="zh (default) or en.")] = "zh",
    as_json: Annotated[bool, typer.Option("--json", help="Print the candidates as JSON.")] = False,
    bot: Annotated[
        str,
        typer.Option(
            "--bot",
            help="expert (default) or search: every option played out "
            "in the compiled core, its mean points and standard error.",
        ),
    ] = "expert",
) -> None:
    """The expert bot's best choices for a situation.

    Reads a situation (hand, bao, melds, discards, seen, tiles_left, drawn, win_tile, flown, claim: docs/cli.md) or an exported observation.

    Prints each candidate's expected points, win chance, points if it wins and the pattern aimed at.
    """
    if lang not in ("zh", "en"):
        raise CliError(f"--lang: zh or en, got {lang!r}")
    if bot not in _ADVISORS:
        raise CliError(f"--bot: {' or '.join(f'{k} ({v})' for k, v in _ADVISORS.items())}, got {quote(bot)}")
    text, name = read_text(source)
    data = parse_json(text, name)
    try:
        obs, legal = situation_to_observation(data)
    except (IndexError, KeyError, TypeError, ValueError) as err:
        if isinstance(err, CliError):
            raise
        # a field of an exported observation out of its range or of the wrong type
        raise CliError(f"{name}: not a situation advise can read ({type(err).__name__}: {err})") from None
    if not legal:
        raise CliError(f"{name}: no legal action in this situation (check hand, phase and melds)")
    if bot == "search":
        _search_advice(obs, legal, top, lang, as_json)
        return
    cands = advise(obs, legal, top=top)
    if as_json:
        sys.stdout.write(
            dump_json({"candidates": [c.to_dict() for c in cands], "order_note": order_note(cands, lang) or None})
            + "\n"
        )
        return
    console = out_console()
    zh = lang == "zh"
    t = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    heads = (
        ("#", "动作", "期望得分", "糊率", "糊时得分", "目标", "向听")
        if zh
        else ("#", "action", "exp. points", "win chance", "gain if won", "aiming at", "shanten")
    )
    for i, h in enumerate(heads):
        t.add_column(h, justify="right" if i in (0, 2, 3, 4, 6) else "left")
    for i, c in enumerate(cands, 1):
        ev = "必选" if zh and c.ev >= ALWAYS_EV else ("always" if c.ev >= ALWAYS_EV else f"{c.ev:+.2f}")
        t.add_row(
            str(i),
            _action_text(c.action, lang),
            ev,
            f"{100 * c.p_win:.0f}%",
            f"{c.gain:.1f}",
            _aim_text(c, lang),
            ActionType.WIN.chinese if zh and c.shanten < 0 else ("win" if c.shanten < 0 else str(c.shanten)),
        )
    console.print(Text("专家建议 (expert bot)" if zh else "expert's advice", style="bold"))
    console.print(t)
    note = order_note(cands, lang)
    if note:
        console.print(Text(note, style="dim"))


#: the bots advise can ask -> what their values are
_ADVISORS = {"expert": "the expert's estimates", "search": "every option played out in the compiled core"}


def _search_advice(obs: Observation, legal: list[Action], top: int, lang: str, as_json: bool) -> None:
    """``advise --bot search``: every legal option's play-out value (mean points over the rest of the
    hand) and standard error, best first (:class:`shangrao.bots.search.SearchEvaluator`, seed 0)."""
    import math

    from ..bots.search import SearchEvaluator

    values = SearchEvaluator(seed=0).evaluate(obs, legal)
    ranked = sorted(legal, key=lambda a: -values[a][0] if not math.isnan(values[a][0]) else math.inf)[:top]

    def num(x: float | None) -> float | None:
        return None if x is None or math.isnan(x) else round(x, 3)

    if as_json:
        sys.stdout.write(
            dump_json(
                {
                    "bot": "search",
                    "candidates": [
                        {"action": str(a), "value": num(values[a][0]), "se": num(values[a][1])} for a in ranked
                    ],
                }
            )
            + "\n"
        )
        return
    zh = lang == "zh"
    t = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    for i, h in enumerate(("#", "动作", "期望得分", "标准误") if zh else ("#", "action", "exp. points", "std. error")):
        t.add_column(h, justify="left" if i == 1 else "right")
    for i, a in enumerate(ranked, 1):
        v, se = values[a]
        t.add_row(str(i), _action_text(a, lang), f"{v:+.2f}", "" if se is None or math.isnan(se) else f"{se:.2f}")
    console = out_console()
    console.print(Text("搜索建议 (search bot)" if zh else "search's advice", style="bold"))
    console.print(t)


def register(app: typer.Typer) -> None:
    app.command("advise")(advise_cmd)
