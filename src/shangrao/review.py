"""Game review (牌谱分析, issue 37): every decision of a seat in a stored hand, what each option was
worth and what the choice cost.

A hand's event log (:mod:`shangrao.game.protocol`) is replayed by the engine (checked, as
:func:`shangrao.game.replay`); at every decision of a reviewed seat with more than one legal action
the evaluator (:class:`shangrao.bots.evaluator.Evaluator`; by default the expert's estimates) values
each legal action in points.  A decision's **loss** is the best option's value minus the chosen
one's (points, >= 0); a **mistake** is a loss over :data:`MISTAKE` (0.5) points, a **big** one over
:data:`BIG_MISTAKE` (2).  Where a rule explains the choice the decision carries a ``reason`` in words,
made only from what the evaluator knows (its values, the forms it aims at, the hand's shanten) and
what the seat saw (the others' melds and discards); in English (``reason``: ``--json``, the CLI, the
English web UI) and in Chinese (``reason_zh``: the Chinese web UI).

Everything here is JSON-able (``to_dict``/``from_dict``): a review is stored once in the records
database (``reviews``) and served to the replay page.

>>> from shangrao.review import Summary
>>> Summary.of([]).to_dict()["match_rate"]
1.0
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .analysis import shanten as _shanten
from .bots.evaluator import Evaluator, ExpertEvaluator
from .bots.expert import Candidate
from .errors import InputError
from .game.actions import Action, ActionType, parse_action
from .game.events import ReplayError
from .game.frames import replayed_start
from .game.state import Game, Observation
from .scoring.items import DOUBLINGS, PATTERNS
from .tiles import format_tile, tile_name

__all__ = [
    "BIG_MISTAKE",
    "MISTAKE",
    "Decision",
    "GameReview",
    "HandReview",
    "Option",
    "Summary",
    "review_events",
    "review_hands",
]

A = ActionType
#: a decision that lost more than this many points is a mistake; more than BIG_MISTAKE a big one
MISTAKE = 0.5
BIG_MISTAKE = 2.0
_SEAT_WORDS = {1: "下家", 2: "对家", 3: "上家"}


@dataclass
class Option:
    """One legal action: ``action`` (its string form), ``value`` (points), ``stderr`` (points or None)."""

    action: str
    value: float
    stderr: float | None = None


@dataclass
class Decision:
    """One decision of the reviewed seat.

    ``hand``: hand index; ``seat``; ``event``: index in the hand's log of the event that recorded the
    choice; ``step``: index of the replay page's frame after it (1-based: frame 0 is the deal);
    ``phase`` (act, discard, claim, rob); ``tiles``: the seat's concealed kinds before it; ``drawn``;
    ``options``: every legal action, best first; ``chosen``/``best``: action strings; ``loss``
    (points, >= 0); ``stderr`` of the loss or None; ``reason``: words (English, the Chinese names
    kept), or ""; ``reason_zh``: the same in Chinese (the Chinese web UI), or "".
    """

    hand: int
    seat: int
    event: int
    step: int
    phase: str
    tiles: list[int]
    drawn: int | None
    options: list[Option]
    chosen: str
    best: str
    loss: float
    stderr: float | None = None
    reason: str = ""
    reason_zh: str = ""

    @property
    def matched(self) -> bool:
        return self.chosen == self.best or self.loss <= 1e-9

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["matched"] = self.matched
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decision:
        kw = {k: v for k, v in d.items() if k != "matched"}
        kw["options"] = [Option(**o) for o in d["options"]]
        return cls(**kw)


@dataclass
class Summary:
    """Decisions, matches, ``match_rate`` (0..1), ``loss`` (points in all), ``hands`` and
    ``loss_per_hand`` (points), ``mistakes`` (loss > 0.5), ``big_mistakes`` (> 2), ``largest``: up
    to five ``{hand, seat, step, loss, chosen, best}`` of the largest losses."""

    decisions: int = 0
    matches: int = 0
    match_rate: float = 1.0
    loss: float = 0.0
    hands: int = 0
    loss_per_hand: float = 0.0
    mistakes: int = 0
    big_mistakes: int = 0
    largest: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, decisions: Sequence[Decision], hands: int = 1) -> Summary:
        n = len(decisions)
        m = sum(d.matched for d in decisions)
        loss = sum(d.loss for d in decisions)
        top = sorted((d for d in decisions if d.loss > 1e-9), key=lambda d: -d.loss)[:5]
        return cls(
            n,
            m,
            (m / n) if n else 1.0,
            round(loss, 3),
            hands,
            round(loss / hands, 3) if hands else 0.0,
            sum(d.loss > MISTAKE for d in decisions),
            sum(d.loss > BIG_MISTAKE for d in decisions),
            [
                {"hand": d.hand, "seat": d.seat, "step": d.step, "loss": d.loss, "chosen": d.chosen, "best": d.best}
                for d in top
            ],
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class HandReview:
    """The review of one hand: ``hand`` index, ``seats`` reviewed, ``decisions`` (in play order),
    ``summary`` per seat (str(seat) -> :class:`Summary`), ``seconds`` (CPU time it took)."""

    hand: int
    seats: list[int]
    decisions: list[Decision]
    summary: dict[str, Summary]
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "seats": list(self.seats),
            "decisions": [d.to_dict() for d in self.decisions],
            "summary": {k: v.to_dict() for k, v in self.summary.items()},
            "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandReview:
        return cls(
            d["hand"],
            list(d["seats"]),
            [Decision.from_dict(x) for x in d["decisions"]],
            {k: Summary(**v) for k, v in d["summary"].items()},
            d.get("seconds", 0.0),
        )


@dataclass
class GameReview:
    """A game's review: ``evaluator`` and ``version``, ``seats``, ``hands`` (:class:`HandReview`),
    ``summary`` per seat over the reviewed hands (str(seat) -> :class:`Summary`)."""

    evaluator: str
    version: str
    seats: list[int]
    hands: list[HandReview]
    summary: dict[str, Summary]

    def to_dict(self) -> dict[str, Any]:
        return {
            "evaluator": self.evaluator,
            "version": self.version,
            "seats": list(self.seats),
            "hands": [h.to_dict() for h in self.hands],
            "summary": {k: v.to_dict() for k, v in self.summary.items()},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameReview:
        return cls(
            d["evaluator"],
            d["version"],
            list(d["seats"]),
            [HandReview.from_dict(h) for h in d["hands"]],
            {k: Summary(**v) for k, v in d["summary"].items()},
        )

    def for_seats(self, seats: Iterable[int] | None) -> GameReview:
        """The same review narrowed to ``seats`` (None: unchanged).  Raises InputError for a bad seat."""
        if seats is None:
            return self
        keep = _check_seats(seats)
        hands = [
            HandReview(
                h.hand,
                keep,
                [d for d in h.decisions if d.seat in keep],
                {str(s): h.summary[str(s)] for s in keep if str(s) in h.summary},
                h.seconds,
            )
            for h in self.hands
        ]
        return GameReview(self.evaluator, self.version, keep, hands, summarize(hands, keep))

    def decisions(self, seat: int | None = None) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions if seat is None or d.seat == seat]


def _check_seats(seats: Iterable[int] | None) -> list[int]:
    if seats is None:
        return [0, 1, 2, 3]
    out = sorted(set(seats))
    for s in out:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < 4:
            raise InputError(f"review: a seat is 0..3, got {s!r}")
    return out


def _win_points(g: Game, seat: int, a: Action) -> float | None:
    """The points ``seat`` gets from taking the win ``a`` now (a copy of the game; other seats in the
    same window pass)."""
    g2 = copy.deepcopy(g)
    before = g2.scores[seat]
    try:
        g2.apply(a, seat=seat)
        guard = 0
        while g2.result is None and g2.current_seat is not None and guard < 8:
            legal = g2.legal_actions()
            g2.apply(Action(A.PASS) if Action(A.PASS) in legal else legal[0])
            guard += 1
    except ValueError:
        return None
    if g2.result is None:
        return None
    return float(g2.scores[seat] - before)


def review_events(
    events: Sequence[Mapping[str, Any]],
    seats: Iterable[int] | None = None,
    *,
    hand: int = 0,
    evaluator: Evaluator | None = None,
) -> HandReview:
    """Review one hand from its event log (every decision of ``seats``, default all four).

    Raises :class:`~shangrao.game.ReplayError` (an InputError) where the log is not a legal Shangrao
    hand (no deal, an illegal action, an event the engine does not reproduce), InputError for a bad
    seat.
    """
    seats_l = _check_seats(seats)
    ev = evaluator or ExpertEvaluator()
    t0 = time.process_time()
    log, g = replayed_start(events)
    out: list[Decision] = []
    step = 0
    for i, e in enumerate(log):
        if "action" not in e:
            continue
        step += 1
        seat = e["seat"]
        chosen = parse_action(e["action"])
        if seat in seats_l:
            legal = g.legal_actions(seat)
            if len(legal) > 1:
                out.append(_decide(g, seat, legal, chosen, ev, hand, i, step))
        g.apply(chosen, seat=seat)
    summary = {str(s): Summary.of([x for x in out if x.seat == s]) for s in seats_l}
    return HandReview(hand, seats_l, out, summary, time.process_time() - t0)


def _decide(
    g: Game, seat: int, legal: list[Action], chosen: Action, ev: Evaluator, hand: int, i: int, step: int
) -> Decision:
    obs = g.observation(seat)
    wins = {}
    for a in legal:
        if a.type is A.WIN:
            p = _win_points(g, seat, a)
            if p is not None:
                wins[a] = p
    values = ev.evaluate(obs, legal, wins)
    order = sorted(legal, key=lambda a: (-values[a][0], a != chosen, a.sort_key()))
    best = order[0]
    vb, sb = values[best]
    vc, sc = values[chosen]
    loss = max(0.0, vb - vc)
    err: float | None = None if sb is None and sc is None else ((sb or 0.0) ** 2 + (sc or 0.0) ** 2) ** 0.5
    if loss <= 1e-9:
        best = chosen if values[chosen][0] >= vb - 1e-9 else best
    opts = [Option(str(a), round(values[a][0], 3), _r(values[a][1])) for a in order]
    cands = getattr(ev, "last", None) or []
    reason, reason_zh = (
        _reason(obs, legal, chosen, best, values, {c.action: c for c in cands}) if loss > MISTAKE else ("", "")
    )
    return Decision(
        hand,
        seat,
        i,
        step,
        str(getattr(obs.phase, "value", obs.phase)),
        list(obs.hand),
        obs.drawn,
        opts,
        str(chosen),
        str(best),
        round(loss, 3),
        _r(err),
        reason,
        reason_zh,
    )


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def _zh(a: Action) -> str:
    """An action in Chinese, as the web shows it: 打 五筒, 吃 三万四万五万, 碰 东风, 糊, 过."""
    if a.tile is None:
        return a.type.chinese
    if a.type is A.CHOW:
        return f"{a.type.chinese} {''.join(tile_name(a.tile + i) for i in range(3))}"
    return f"{a.type.chinese} {tile_name(a.tile)}"


def _opponents(obs: Observation) -> tuple[str, str]:
    """What the seat saw of the others: their melds and discards, in words (only where they show
    melds), in English and in Chinese."""
    en, zh = [], []
    for off in (1, 2, 3):
        s = (obs.seat + off) % 4
        ms = obs.melds[s]
        if ms:
            chow = [m.type.value == "chow" for m in ms]
            shown = "、".join(f"{m.type.chinese} {format_tile(m.tiles[0])}{'…' if c else ''}" for m, c in zip(ms, chow))
            shown_zh = "、".join(
                f"{m.type.chinese} {tile_name(m.tiles[0])}{'…' if c else ''}" for m, c in zip(ms, chow)
            )
            n = len(obs.discards[s])
            en.append(f"{_SEAT_WORDS[off]} shows {shown} and has discarded {n}")
            zh.append(f"{_SEAT_WORDS[off]}亮出 {shown_zh}，已打出 {n} 张")
    return "; ".join(en), "；".join(zh)


def _reason(
    obs: Observation,
    legal: list[Action],
    chosen: Action,
    best: Action,
    values: Mapping[Action, tuple[float, float | None]],
    cands: Mapping[Action, Candidate],
) -> tuple[str, str]:
    """The rule that explains the loss, in words, from the evaluator's candidates (modest: only what it
    knows): (English, Chinese)."""
    vb, vc = values[best][0], values[chosen][0]
    cb, cc = cands.get(best), cands.get(chosen)
    en: list[str] = []
    zh: list[str] = []
    has_win = any(a.type is A.WIN for a in legal)
    if best.type is A.WIN and chosen.type is not A.WIN:
        aim = cb.aim_name if cb is not None and cb.aim_name and cb.aim_name != A.WIN.chinese else ""
        win = f"the win now{f' ({aim})' if aim else ''} is worth {vb:+.1f}; declining it is valued at {vc:+.1f}"
        win_zh = f"现在糊{f'（{aim}）' if aim else ''}值 {vb:+.1f} 分，不糊估值 {vc:+.1f} 分"
        if cc is not None and cc.p_win < 1:
            win += f" (the hand still wins {100 * cc.p_win:.0f}% of the time, by the estimate)"
            win_zh += f"（按估计，之后糊牌的机会 {100 * cc.p_win:.0f}%）"
        en.append(win)
        zh.append(win_zh)
        opp, opp_zh = _opponents(obs)
        if opp:
            en.append(opp)
            zh.append(opp_zh)
    elif has_win and chosen.type is A.WIN and best.type is not A.WIN:
        if cb is not None and cb.aim == "baodiao":
            name = PATTERNS["baodiao"].name
            en.append(
                f"declining the win for {name} (宝 alone: any draw wins) is valued at "
                f"{vb:+.1f} against {vc:+.1f} now (偷机)"
            )
            zh.append(f"不糊、等{name}（单吊宝：摸到什么都能糊）估值 {vb:+.1f} 分，现在糊 {vc:+.1f} 分（偷机）")
        else:
            en.append(f"declining the win is valued at {vb:+.1f} against {vc:+.1f} now")
            zh.append(f"不糊估值 {vb:+.1f} 分，现在糊 {vc:+.1f} 分")
    elif chosen.type is A.DISCARD and best.type is A.DISCARD:
        sh_c = _shanten_after(obs, chosen)
        sh_b = _shanten_after(obs, best)
        if sh_c is not None and sh_b is not None and sh_c > sh_b:
            ready = "keeps the hand ready (听牌)" if sh_b == 0 else f"keeps it {sh_b} from ready (向听 {sh_b})"
            ready_zh = "保持听牌" if sh_b == 0 else f"离听牌只差 {sh_b} 张（{sh_b} 向听）"
            en.append(f"{chosen} leaves the hand {sh_c} from ready (向听 {sh_c}); {best} {ready}")
            zh.append(f"{_zh(chosen)}后离听牌差 {sh_c} 张（{sh_c} 向听）；{_zh(best)}{ready_zh}")
        if chosen.tile == obs.bao:
            name = DOUBLINGS["feibao"].name
            en.append(
                f"{name} doubles what the hand wins and what it pays; the expert flies a 宝 only into a ready hand"
            )
            zh.append(f"{name}让这手牌赢的和输的都翻倍；专家只在听牌时飞宝")
        if cc is not None and cb is not None and cb.aim != cc.aim and cb.aim_name:
            en.append(f"{best} aims at {cb.aim_name}")
            zh.append(f"{_zh(best)}是冲着{cb.aim_name}去的")
    elif chosen.type in (A.CHOW, A.PUNG, A.KONG) or best.type in (A.CHOW, A.PUNG, A.KONG):
        pc = f" (win chance {100 * cc.p_win:.0f}%)" if cc is not None else ""
        pb = f" (win chance {100 * cb.p_win:.0f}%)" if cb is not None else ""
        pc_zh = f"（糊牌机会 {100 * cc.p_win:.0f}%）" if cc is not None else ""
        pb_zh = f"（糊牌机会 {100 * cb.p_win:.0f}%）" if cb is not None else ""
        en.append(f"{best} is valued at {vb:+.1f}{pb}, {chosen} at {vc:+.1f}{pc}")
        zh.append(f"{_zh(best)}：估值 {vb:+.1f} 分{pb_zh}；{_zh(chosen)}：{vc:+.1f} 分{pc_zh}")
    return "; ".join(en), "；".join(zh)


def _shanten_after(obs: Observation, a: Action) -> int | None:
    """Shanten (宝 acting) of the concealed hand after discarding ``a``'s tile, or None."""
    if a.tile is None:
        return None
    c = list(obs.hand_34)
    if not c[a.tile]:
        return None
    c[a.tile] -= 1
    try:
        return int(_shanten(c, obs.bao, len(obs.melds[obs.seat])))
    except (TypeError, ValueError):
        return None


def review_hands(
    hands: Iterable[tuple[int, Sequence[Mapping[str, Any]]]],
    seats: Iterable[int] | None = None,
    *,
    evaluator: Evaluator | None = None,
    progress: Callable[[int, HandReview], None] | None = None,
) -> GameReview:
    """Review a game: ``hands`` is ``(hand index, events)`` per hand; ``progress(done, hand_review)``
    is called after each hand.  Raises ReplayError naming the hand whose log does not replay."""
    seats_l = _check_seats(seats)
    ev = evaluator or ExpertEvaluator()
    out: list[HandReview] = []
    for n, (index, events) in enumerate(hands, start=1):
        try:
            hr = review_events(events, seats_l, hand=index, evaluator=ev)
        except ReplayError as err:
            raise ReplayError(f"hand {index + 1}: {err}") from None
        out.append(hr)
        if progress is not None:
            progress(n, hr)
    return GameReview(ev.name, ev.version, seats_l, out, summarize(out, seats_l))


def summarize(hands: Sequence[HandReview], seats: Sequence[int]) -> dict[str, Summary]:
    """Per seat over ``hands``: :class:`Summary` (points lost per hand over the hands reviewed)."""
    return {str(s): Summary.of([d for h in hands for d in h.decisions if d.seat == s], hands=len(hands)) for s in seats}
