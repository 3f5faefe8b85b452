"""The stored summary of a hand, and statistics over many hands (``shangrao simulate``).

:func:`hand_summary` turns a hand's result and events into the JSON stored in
``hands.result``; :class:`Stats` aggregates such summaries, so statistics can
be computed while simulating or later from the database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..game.protocol import EventType
from ..melds import MeldType
from ..scoring.items import BONUS_NAMES, PATTERNS

HEAVENLY = PATTERNS["heavenly"]  # 天糊 counts as its own way to win in the statistics

__all__ = ["hand_summary", "bonus_events", "Stats"]


def bonus_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The bonus (奖励分) occurrences of a hand: ``{"seat", "reason", "name"}`` each, in order."""
    out = []
    for ev in events:
        t = ev.get("type")
        if t == EventType.KONG_STANDS:
            concealed = str(ev.get("meld", "")).startswith(MeldType.CONCEALED_KONG.value + ":")
            reason = "concealed_kong" if concealed else "pung_kong"
        elif t in (EventType.FOUR_BAO, EventType.CATCH_BAO):
            reason = "four_bao" if t == EventType.FOUR_BAO else "caught_bao"
        else:
            continue
        out.append({"seat": ev["seat"], "reason": reason, "name": BONUS_NAMES[reason]})
    return out


def hand_summary(result: Any, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``hands.result`` JSON of a finished hand.

    result: a :class:`shangrao.game.HandResult`.  Keys: winners, drawn, dealer,
    next_dealer, deltas, scores, patterns (Chinese names, one per winner), wins
    (seat, win_by, pattern, pattern_id, factor, hand_value, doublings, payers,
    win_payments, breakdown), bonuses (see :func:`bonus_events`), transfers.
    """
    wins = []
    for w in result.wins:
        s = w.score
        wins.append(
            {
                "seat": w.seat,
                "win_by": w.situation.win_by.value,
                "heavenly": w.situation.heavenly,
                "pattern": s.pattern.name,
                "pattern_id": s.pattern.id,
                "factor": s.pattern.factor,
                "hand_value": s.hand_value,
                "doublings": [{"id": d.id, "name": d.name, "count": d.count, "factor": d.factor} for d in s.doublings],
                "payers": list(w.payers),
                "win_payments": list(s.win_payments),
                "breakdown": s.breakdown(),
            }
        )
    return {
        "winners": list(result.winners),
        "drawn": bool(result.drawn),
        "dealer": result.dealer,
        "next_dealer": result.next_dealer,
        "deltas": list(result.deltas),
        "scores": list(result.scores),
        "patterns": [w["pattern"] for w in wins],
        "wins": wins,
        "bonuses": bonus_events(events),
        "transfers": [t.to_dict() for t in result.transfers],
    }


class Stats:
    """Counts over hand summaries: wins and points per seat, patterns, doublings, bonuses, draws."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        n = len(players)
        self.hands = 0
        self.drawn = 0
        self.wins = [0] * n
        self.points = [0] * n
        self.dealt = [0] * n
        self.patterns: Counter[str] = Counter()
        self.doublings: Counter[str] = Counter()
        self.bonuses: Counter[str] = Counter()
        self.win_by: Counter[str] = Counter()
        self.multi_winner_hands = 0
        self.biggest: dict[str, Any] | None = None

    def add(self, summary: dict[str, Any]) -> None:
        self.hands += 1
        self.dealt[summary["dealer"]] += 1
        if summary["drawn"]:
            self.drawn += 1
        for i, d in enumerate(summary["deltas"]):
            self.points[i] += d
        if len(summary["winners"]) > 1:
            self.multi_winner_hands += 1
        for w in summary["wins"]:
            self.wins[w["seat"]] += 1
            self.patterns[w["pattern"]] += 1
            self.win_by[HEAVENLY.name if w.get("heavenly") else w["win_by"]] += 1
            for d in w["doublings"]:
                self.doublings[d["name"]] += d["count"]
            gain = sum(w["win_payments"])
            if self.biggest is None or gain > self.biggest["points"]:
                self.biggest = {
                    "seat": w["seat"],
                    "pattern": w["pattern"],
                    "points": gain,
                    "breakdown": w["breakdown"],
                    "hand": self.hands,
                }
        for b in summary["bonuses"]:
            self.bonuses[b["name"]] += 1

    def to_dict(self) -> dict[str, Any]:
        """Deterministic statistics (no timing)."""
        total_wins = sum(self.wins)
        h = self.hands or 1
        by_bot: dict[str, dict[str, Any]] = {}
        for i, name in enumerate(self.players):
            b = by_bot.setdefault(name, {"bot": name, "seats": [], "wins": 0, "points": 0})
            b["seats"].append(i)
            b["wins"] += self.wins[i]
            b["points"] += self.points[i]
        return {
            "hands": self.hands,
            "seats": [
                {
                    "seat": i,
                    "bot": name,
                    "wins": self.wins[i],
                    "win_rate": round(self.wins[i] / h, 4),
                    "points": self.points[i],
                    "points_per_hand": round(self.points[i] / h, 3),
                    "dealt": self.dealt[i],
                }
                for i, name in enumerate(self.players)
            ],
            "by_bot": list(by_bot.values()),
            "wins": total_wins,
            "drawn": self.drawn,
            "drawn_rate": round(self.drawn / h, 4),
            "multi_winner_hands": self.multi_winner_hands,
            "win_by": dict(sorted(self.win_by.items(), key=lambda kv: (-kv[1], kv[0]))),
            "patterns": dict(sorted(self.patterns.items(), key=lambda kv: (-kv[1], kv[0]))),
            "doublings": dict(sorted(self.doublings.items(), key=lambda kv: (-kv[1], kv[0]))),
            "bonuses": dict(sorted(self.bonuses.items(), key=lambda kv: (-kv[1], kv[0]))),
            "biggest_win": self.biggest,
        }
