"""Duplicate evaluation of bots (the format of the IJCAI Mahjong AI competitions).

A *deal* is one hand's wall and dice (one seed).  Every deal is played four
times, once per rotation of the lineup through the seats, so each bot meets
the same tiles from every seat and the luck of the deal cancels out.  A bot's
score for a deal is the mean of its points per hand over the hands it played
in that deal; the confidence interval is computed **over deals** (the deals
are the independent samples, the four rotations of one deal are not).

Bots are given by spec (:func:`shangrao.bots.check_bot_spec`): a registered name, ``policy:PATH``,
``ext:COMMAND`` or a plugin's name; specs are strings, resolved in each worker process or Ray task.

Lineups: ``--bots A,B`` is the lineup ``A,B,B,B`` (the bot under test against
three copies of B); ``--lineup A,B,C,D`` plays four named bots.  Rotation
``r`` seats ``lineup[(i - r) % 4]`` at seat ``i``; the dealer is seat 0.

Deal ``d`` of a run with seed ``S`` is ``Game(seed=f"arena:{S}:{d}")``; the bot
at seat ``i`` in rotation ``r`` is ``get_bot(name, seed=f"arena:{S}:{d}:{r}:{i}")``.
Every deal depends only on ``(S, d, lineup, rules)``, so the numbers are the same
for ``workers=1``, ``workers=N`` and Ray (:func:`shangrao.selfplay.run_jobs`).

API::

    from shangrao.arena import run_arena, lineup_from_bots
    res = run_arena(lineup_from_bots("expert", "ukeire"), deals=100, seed=1, workers=2)
    res["bots"][0]["points_per_hand"], res["bots"][0]["ci95"]

Result (JSON-able dict): ``lineup``, ``seed``, ``deals``, ``hands`` (4 × deals) and
``bots``: one entry per distinct bot name with ``points_per_hand`` (mean over deals of
the per-deal mean, points), ``ci95`` ([low, high], Student t over deals), ``sd_deals``,
``hands``, ``wins``, ``win_rate``, ``mean_win_points`` (points gained per win, from the
win payments), ``mean_hand_value``, ``patterns`` (Chinese names → count), ``doublings``,
``declined_wins`` (偷机 and other declined wins), ``feibao`` (宝 discarded), ``caught_bao``
(接宝), ``kongs`` (kongs that stood), ``robbed`` (its kongs robbed), ``robs`` (its 抢杠 wins).
``timing`` (not deterministic): seconds, and per bot ``decisions`` and ``decisions_per_second``.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.context import BaseContext
from typing import Any

from .bots import check_bot_spec, close_bot, get_bot
from .game import Action, Bot, Game, HandResult, Observation, play_hand
from .rules import DEFAULT_RULES, RuleSet

__all__ = [
    "MAX_DEALS",
    "ArenaStats",
    "deal_seed",
    "iter_deals",
    "lineup_from_bots",
    "play_deal",
    "run_arena",
    "t_interval",
]

#: more deals than this is a typo (the run plans every deal up front)
MAX_DEALS = 1_000_000


def deal_seed(run_seed: int, d: int) -> str:
    """The seed of deal ``d`` of an arena run (a string for ``Game(seed=...)``)."""
    return f"arena:{run_seed}:{d}"


def lineup_from_bots(test: str, opponent: str) -> list[str]:
    """``[test, opponent, opponent, opponent]``: the bot under test against three copies of another."""
    return [test, opponent, opponent, opponent]


def _check_lineup(lineup: Sequence[str]) -> list[str]:
    if isinstance(lineup, str):
        raise ValueError(f"lineup: give 4 bot names, got the string {lineup!r}")
    names = list(lineup)
    if len(names) != 4:
        raise ValueError(f"lineup: give 4 bot names, got {len(names)}")
    return [check_bot_spec(n) for n in names]  # UnknownBotError (ValueError) naming the known bots


class _Counted:
    """Wraps a bot: counts its decisions, their time, and the wins it declined (偷机)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0
        self.declined = 0
        self.needs_observation = getattr(bot, "needs_observation", True)
        if hasattr(bot, "see_log"):
            self.see_log = bot.see_log

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        t0 = time.perf_counter()
        a = self.bot.choose(obs, legal)
        self.seconds += time.perf_counter() - t0
        self.decisions += 1
        if a.type.value != "win" and any(x.type.value == "win" for x in legal):
            self.declined += 1
        return a


def _core_rotation(
    seed: str, r: int, names: list[str], rules: RuleSet
) -> tuple[Game, HandResult, list[int], list[int]]:
    """One rotation in the compiled core: the hand, then the engine replaying its decisions (the
    log, and the per-seat counts :class:`_Counted` keeps: decisions asked, wins declined)."""
    from .game.actions import ActionType
    from .sim.events import code_action
    from .sim.play import play_hand as core_hand

    h = core_hand(seed=seed, bots=names, bot_seeds=[f"{seed}:{r}:{i}" for i in range(4)], rules=rules)
    game = Game(rules, seed=seed, dealer=0, hand_no=0)
    decisions = [0, 0, 0, 0]
    declined = [0, 0, 0, 0]
    for code in h.decisions:
        seat = game.current_seat
        assert seat is not None
        legal = game.legal_actions()
        action = code_action(code)
        if len(legal) > 1:  # play_hand asks the bot only then
            decisions[seat] += 1
            if action.type is not ActionType.WIN and any(a.type is ActionType.WIN for a in legal):
                declined[seat] += 1
        game.apply(action)
    assert game.result is not None
    return game, game.result, declined, decisions


def play_deal(args: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Play deal ``d`` once per rotation; ``args = (run_seed, d, lineup, rules[, engine])`` (engine
    ``"python"``, the default, or ``"fast"``: the compiled core, same records, ``seconds`` 0).

    Returns four records (rotation order): ``{"deal", "rotation", "seed", "bots", "result",
    "summary", "events", "declined", "decisions", "seconds"}`` (per-seat lists for the last three).
    """
    from .records.summary import hand_summary

    run_seed, d, lineup, rules = args[:4]
    engine = args[4] if len(args) > 4 else "python"
    seed = deal_seed(run_seed, d)
    out = []
    for r in range(4):
        names = [lineup[(i - r) % 4] for i in range(4)]
        if engine == "fast":
            game, result, declined, decisions = _core_rotation(seed, r, names, rules)
            out.append(
                {
                    "deal": d,
                    "rotation": r,
                    "seed": seed,
                    "bots": names,
                    "result": result.to_dict(),
                    "summary": hand_summary(result, game.events),
                    "events": game.events,
                    "declined": declined,
                    "decisions": decisions,
                    "seconds": [0.0] * 4,
                }
            )
            continue
        bots = [_Counted(get_bot(n, seed=f"{seed}:{r}:{i}")) for i, n in enumerate(names)]
        game = Game(rules, seed=seed, dealer=0, hand_no=0)
        try:
            result = play_hand(game, bots)
        finally:
            for b in bots:
                close_bot(b.bot)
        out.append(
            {
                "deal": d,
                "rotation": r,
                "seed": seed,
                "bots": names,
                "result": result.to_dict(),
                "summary": hand_summary(result, game.events),
                "events": game.events,
                "declined": [b.declined for b in bots],
                "decisions": [b.decisions for b in bots],
                "seconds": [b.seconds for b in bots],
            }
        )
    return out


def iter_deals(
    deals: int,
    seed: int,
    lineup: Sequence[str],
    rules: RuleSet = DEFAULT_RULES,
    workers: int | None = 1,
    ray_address: str | None = None,
    mp_context: BaseContext | None = None,
    engine: str | None = "python",
) -> Iterator[list[dict[str, Any]]]:
    """Yield each deal's four records (:func:`play_deal`) in deal order, as deals finish.  ``engine``
    as for :func:`shangrao.selfplay.iter_hands` (None: fast where every bot is a core bot)."""
    from .selfplay import resolve_engine, run_jobs

    if not isinstance(deals, int) or isinstance(deals, bool) or not 0 <= deals <= MAX_DEALS:
        raise ValueError(f"deals must be an int 0..{MAX_DEALS}, got {deals!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int, got {seed!r}")
    if not isinstance(rules, RuleSet):
        raise ValueError(f"rules must be a RuleSet, got {type(rules).__name__}")
    names = _check_lineup(lineup)
    engine = resolve_engine(engine, names)
    jobs = [(seed, d, names, rules, engine) for d in range(deals)]
    yield from run_jobs(play_deal, jobs, workers, ray_address, mp_context)


def t_interval(samples: Sequence[float], level: float = 0.95) -> tuple[float, float, float, float]:
    """(mean, low, high, sd) of a Student-t interval for the mean of ``samples``.

    With fewer than two samples the interval is (mean, -inf, inf).
    """
    n = len(samples)
    if n == 0:
        return (0.0, -math.inf, math.inf, 0.0)
    mean = sum(samples) / n
    if n < 2:
        return (mean, -math.inf, math.inf, 0.0)
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    sd = math.sqrt(var)
    q = _t_quantile(0.5 + level / 2, n - 1)
    half = q * sd / math.sqrt(n)
    return (mean, mean - half, mean + half, sd)


def _t_quantile(p: float, df: int) -> float:
    """Student t quantile from the normal one (Cornish-Fisher series in 1/df; error < 1e-3 for df >= 5)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(p)
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


class _BotStats:
    def __init__(self, name: str) -> None:
        self.name = name
        self.hands = 0
        self.points = 0
        self.per_deal: list[float] = []
        self.wins = 0
        self.win_points = 0
        self.hand_values = 0
        self.patterns: Counter[str] = Counter()
        self.doublings: Counter[str] = Counter()
        self.declined = 0
        self.feibao = 0
        self.caught = 0
        self.kongs = 0
        self.robbed = 0
        self.robs = 0
        self.decisions = 0
        self.seconds = 0.0


class ArenaStats:
    """Aggregates deal records (:func:`play_deal`) into the arena result, deal by deal."""

    def __init__(self, lineup: Sequence[str], seed: int) -> None:
        self.lineup = list(lineup)
        self.seed = seed
        self.deals = 0
        self.bots: dict[str, _BotStats] = {}
        for n in self.lineup:
            self.bots.setdefault(n, _BotStats(n))

    def add_deal(self, records: Sequence[dict[str, Any]]) -> None:
        self.deals += 1
        deal_pts: Counter[str] = Counter()
        deal_hands: Counter[str] = Counter()
        for rec in records:
            names = rec["bots"]
            summ = rec["summary"]
            bao = next(ev["bao"] for ev in rec["events"] if ev["type"] == "deal")
            for seat, name in enumerate(names):
                b = self.bots[name]
                b.hands += 1
                b.points += summ["deltas"][seat]
                deal_pts[name] += summ["deltas"][seat]
                deal_hands[name] += 1
                b.declined += rec["declined"][seat]
                b.decisions += rec["decisions"][seat]
                b.seconds += rec["seconds"][seat]
            for w in summ["wins"]:
                b = self.bots[names[w["seat"]]]
                b.wins += 1
                b.win_points += sum(w["win_payments"])
                b.hand_values += w["hand_value"]
                b.patterns[w["pattern"]] += 1
                for dbl in w["doublings"]:
                    b.doublings[dbl["name"]] += dbl["count"]
                if w["win_by"] == "robbing_kong":
                    b.robs += 1
            for ev in rec["events"]:
                t = ev["type"]
                if t == "discard" and ev["kind"] == bao:
                    self.bots[names[ev["seat"]]].feibao += 1
                elif t == "catch_bao":
                    self.bots[names[ev["seat"]]].caught += 1
                elif t == "kong_stands":
                    self.bots[names[ev["seat"]]].kongs += 1
            robbed_from = {
                ev["from"] for ev in rec["events"] if ev["type"] == "win" and ev.get("win_by") == "robbing_kong"
            }
            for s in robbed_from:
                self.bots[names[s]].robbed += 1
        for name, n in deal_hands.items():
            self.bots[name].per_deal.append(deal_pts[name] / n)

    def to_dict(self) -> dict[str, Any]:
        """The deterministic result (see the module docstring); no timing."""
        out = []
        for b in self.bots.values():
            mean, lo, hi, sd = t_interval(b.per_deal)
            h = b.hands or 1
            w = b.wins or 1
            out.append(
                {
                    "bot": b.name,
                    "seats_per_deal": self.lineup.count(b.name),
                    "hands": b.hands,
                    "points": b.points,
                    "points_per_hand": round(mean, 4),
                    "ci95": [
                        round(lo, 4) if math.isfinite(lo) else None,
                        round(hi, 4) if math.isfinite(hi) else None,
                    ],  # null: one deal gives no interval
                    "sd_deals": round(sd, 4),
                    "wins": b.wins,
                    "win_rate": round(b.wins / h, 4),
                    "mean_win_points": round(b.win_points / w, 3),
                    "mean_hand_value": round(b.hand_values / w, 3),
                    "patterns": dict(sorted(b.patterns.items(), key=lambda kv: (-kv[1], kv[0]))),
                    "doublings": dict(sorted(b.doublings.items(), key=lambda kv: (-kv[1], kv[0]))),
                    "declined_wins": b.declined,
                    "feibao": b.feibao,
                    "caught_bao": b.caught,
                    "kongs": b.kongs,
                    "robbed": b.robbed,
                    "robs": b.robs,
                }
            )
        return {"lineup": self.lineup, "seed": self.seed, "deals": self.deals, "hands": 4 * self.deals, "bots": out}

    def timing(self) -> dict[str, Any]:
        return {
            b.name: {
                "decisions": b.decisions,
                "seconds": round(b.seconds, 3),
                "decisions_per_second": round(b.decisions / b.seconds, 1) if b.seconds else None,
            }
            for b in self.bots.values()
        }


def run_arena(
    lineup: Sequence[str],
    deals: int,
    seed: int,
    rules: RuleSet = DEFAULT_RULES,
    workers: int | None = 1,
    ray_address: str | None = None,
    on_deal: Callable[[list[dict[str, Any]]], None] | None = None,
    mp_context: BaseContext | None = None,
    engine: str | None = "python",
) -> dict[str, Any]:
    """Play ``deals`` deals four times each and return the result dict (module docstring).
    ``engine``: ``"python"``, ``"fast"`` (the compiled core; the same numbers) or None (fast where
    every bot of the lineup is a core bot).

    on_deal(records): called with each deal's four records, in deal order (to store them or
    advance a progress bar).  Raises ``ValueError`` for a bad lineup, deal count or seed.
    """
    from .selfplay import resolve_engine

    stats = ArenaStats(_check_lineup(lineup), seed)
    engine = resolve_engine(
        engine, stats.lineup, deals * 4 if isinstance(deals, int) else None
    )  # once: the summary names it
    t0 = time.perf_counter()
    for recs in iter_deals(deals, seed, stats.lineup, rules, workers, ray_address, mp_context, engine):
        stats.add_deal(recs)
        if on_deal is not None:
            on_deal(recs)
    out = stats.to_dict()
    out["timing"] = {
        "seconds": round(time.perf_counter() - t0, 3),
        "workers": workers if ray_address is None else None,
        "ray": ray_address,
        "bots": stats.timing(),
        "engine": engine,
    }
    return out
