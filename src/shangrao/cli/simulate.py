"""``shangrao simulate``: matches between bots, stored, with a summary of wins, patterns and speed."""

from __future__ import annotations

import dataclasses
import math
import random
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, JustifyMethod
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..bots import BOT_NAMES, UnknownBotError, check_bot_spec
from ..errors import quote
from ..rules import DEFAULT_RULES, RuleSet
from ..scoring import WinBy
from ..scoring.items import DOUBLINGS, PATTERNS
from .common import CliError, check_engine, check_run_options, dump_json, err_console, open_store, out_console

if TYPE_CHECKING:  # the records layer (SQLAlchemy) is imported only by the commands that store
    from ..records import Store
    from ..records.summary import Stats

__all__ = ["MAX_HANDS", "DbOption", "parse_bots", "render_summary", "run_simulation", "simulate"]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="PATH|URL",
        help="Records database: a file path (SQLite) or a SQLAlchemy URL (postgresql+psycopg://user@host/db). "
        "Default: $SHANGRAO_DB, else shangrao.sqlite3 in the user data directory.",
    ),
]


# --------------------------------------------------------------------------- simulate
def parse_bots(text: str, what: str = "--bots") -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise CliError(f"{what}: give 4 bot names separated by commas (or one for all seats), got {text!r}")
    try:
        return [check_bot_spec(n) for n in names]
    except UnknownBotError as err:
        raise CliError(f"{what}: {err}") from None


def parse_rule_options(items: list[str] | None, base: RuleSet = DEFAULT_RULES) -> RuleSet:
    """``--rule key=value`` options (repeatable) on top of ``base``: true/false for switches,
    an int for points.  Raises :class:`CliError` naming the bad item and the known keys."""
    if not items:
        return base
    changes: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(RuleSet)}
    for item in items:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in fields:
            raise CliError(f"--rule {quote(item)}: expected KEY=VALUE with KEY one of {', '.join(fields)}")
        if key in changes:
            raise CliError(f"--rule {key}: given twice")
        if fields[key].type in ("bool", bool):
            low = value.lower()
            if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise CliError(f"--rule {quote(item)}: {key} is true or false")
            changes[key] = low in ("true", "1", "yes", "on")
        else:
            try:
                changes[key] = int(value)
            except ValueError:
                raise CliError(f"--rule {quote(item)}: {key} is an integer") from None
    try:
        return base.replace(**changes)
    except ValueError as err:
        raise CliError(f"--rule: {err}") from None


def run_simulation(
    hands: int,
    seed: int,
    bots: list[str],
    store: Store | None,
    progress: Progress | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    rules: RuleSet = DEFAULT_RULES,
    engine: str | None = "python",
) -> dict[str, Any]:
    """Play ``hands`` hands as matches of ``rules.hands_per_match``; store each hand; return the summary.

    The hands are played by :func:`shangrao.selfplay.iter_hands` — in this process
    (``workers=1``), in ``workers`` processes, or on a Ray cluster (``ray_address``) —
    and come back in match order, so the summary and the records are the same either way.
    Deterministic for a given seed and bots, except ``timing`` (and ``storage``); the same for
    ``engine`` ``"python"`` and ``"fast"`` (the compiled core, :mod:`shangrao.sim`; None: fast where
    every bot is a core bot).  The fast engine never replays the hands' logs: with a store it writes
    compact hands (their decisions, :mod:`shangrao.records.compact`; read back, they give the events
    the Python engine's records hold), whole games at a time.  Raises
    :class:`~shangrao.records.RecordError` when the store refuses a write.
    """
    from ..records.summary import Stats
    from ..selfplay import iter_hands, resolve_engine

    engine = resolve_engine(engine, bots, hands)  # once: the summary names the engine that played
    per = rules.hands_per_match
    n_matches = math.ceil(hands / per)
    stats = Stats(bots)
    game_ids: list[int] = []
    t0 = time.perf_counter()
    task = progress.add_task("simulating", total=hands) if progress is not None else None
    compact = store is not None and engine == "fast"
    if compact:
        assert store is not None
        records = iter_hands(
            hands,
            seed,
            bots,
            rules,
            workers=workers,
            ray_address=ray_address,
            engine=engine,
            events=False,
            compact=True,
        )
        _store_compact(records, store, seed, bots, rules, stats, game_ids, progress, task)
    else:
        _store_full(
            iter_hands(
                hands,
                seed,
                bots,
                rules,
                workers=workers,
                ray_address=ray_address,
                engine=engine,
                events=store is not None,
            ),
            store,
            seed,
            bots,
            rules,
            stats,
            game_ids,
            progress,
            task,
        )
    elapsed = time.perf_counter() - t0
    played = stats.hands
    out = {
        "seed": seed,
        "bots": bots,
        "matches": n_matches,
        "hands_per_match": per,
        **stats.to_dict(),
        "doubling_factors": doubling_factors(rules),
    }
    out["timing"] = {
        "seconds": round(elapsed, 3),
        "hands_per_second": round(played / elapsed, 2) if elapsed else None,
        "workers": workers if ray_address is None else None,
        "ray": ray_address,
        "engine": engine,
    }
    out["storage"] = {"db": store._safe_url() if store is not None else None, "game_ids": game_ids}
    return out


#: compact hands are written this many at a time (whole games, one transaction: Store.insert_games)
BULK_HANDS = 4096


def _store_full(
    records: Iterable[dict[str, Any]],
    store: Store | None,
    seed: int,
    bots: list[str],
    rules: RuleSet,
    stats: Stats,
    game_ids: list[int],
    progress: Progress | None,
    task: TaskID | None,
) -> None:
    """The Python engine's records (or none stored): a game per match, created with its first hand,
    each hand stored with its events (one transaction a hand), finished with its last."""
    gid = None
    current = None
    last = None

    def finish(rec: dict[str, Any]) -> None:
        if store is not None and gid is not None:
            meta = {} if rec["match_over"] else {"stopped_after": rec["hand_no"] + 1}
            store.finish_game(gid, list(rec["summary"]["scores"]), meta=meta)

    for rec in records:
        if rec["match"] != current:
            if last is not None:
                finish(last)
            current = rec["match"]
            if store is not None:
                gid = store.create_game(
                    "simulate", bots, seed=rec["match_seed"], rules=rules, meta={"run_seed": seed, "match": current}
                )
                game_ids.append(gid)
        if store is not None:
            assert gid is not None  # the match's game was created with its first hand
            store.append_hand(
                gid,
                rec["hand_no"],
                rec["dealer"],
                rec["events"],
                rec["summary"],
                scores_after=list(rec["result"]["scores"]),
            )
        stats.add(rec["summary"])
        last = rec
        if progress is not None and task is not None:
            progress.update(task, advance=1)
    if last is not None:
        finish(last)


def _store_compact(
    records: Iterable[dict[str, Any]],
    store: Store,
    seed: int,
    bots: list[str],
    rules: RuleSet,
    stats: Stats,
    game_ids: list[int],
    progress: Progress | None,
    task: TaskID | None,
) -> None:
    """The fast engine's compact records: each match becomes a whole game of compact hands
    (:mod:`shangrao.records.compact`), written :data:`BULK_HANDS` hands at a time in one transaction
    (:meth:`Store.insert_games`), never replayed here.  The same games, hands and results as
    :func:`_store_full` stores for the same run; the events come back when a hand is read."""
    from ..records import CompactHand, NewGame

    rules_dict = rules.to_dict()
    batch: list[NewGame] = []
    in_batch = 0
    hands_of: list[CompactHand] = []
    last: dict[str, Any] | None = None

    def close_match(rec: dict[str, Any]) -> None:
        meta = {"run_seed": seed, "match": rec["match"]}
        if not rec["match_over"]:
            meta["stopped_after"] = rec["hand_no"] + 1
        batch.append(NewGame("simulate", bots, rec["match_seed"], rules_dict, meta, list(hands_of)))
        hands_of.clear()

    def flush() -> None:
        nonlocal in_batch
        game_ids.extend(store.insert_games(batch))
        batch.clear()
        in_batch = 0

    for rec in records:
        if last is not None and rec["match"] != last["match"]:
            close_match(last)
            if in_batch >= BULK_HANDS:
                flush()
        summary = rec["summary"]
        hands_of.append(CompactHand(rec["hand_no"], rec["dealer"], rec["decisions"], summary, summary["scores"]))
        in_batch += 1
        stats.add(summary)
        last = rec
        if progress is not None and task is not None:
            progress.update(task, advance=1)
    if last is not None:
        close_match(last)
    flush()


def doubling_factors(rules: RuleSet) -> dict[str, int]:
    """Each doubling's multiplier by its Chinese name: ×2 each time (注 2), 抢杠 the rules' factor (×6)."""
    return {d.name: rules.robbing_kong_factor if k == "qianggang" else 2 for k, d in DOUBLINGS.items()}


def _count_table(
    title: str, counts: dict[str, int], hands: int, key_name: str, factors: dict[str, int] | None = None
) -> Table:
    t = Table(title=title, title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    t.add_column(key_name)
    if factors is not None:
        t.add_column("×", justify="right")
    t.add_column("count", justify="right")
    t.add_column("per 100 hands", justify="right")
    for k, v in counts.items():
        factor = [] if factors is None else [f"×{factors[k]}" if k in factors else ""]
        t.add_row(str(k), *factor, str(v), f"{100 * v / max(hands, 1):.1f}")
    if not counts:
        t.add_row("—", *([] if factors is None else [""]), "0", "0.0")
    return t


_HEAVENLY = PATTERNS["heavenly"]
_WIN_BY_NAMES = {
    **{w.value: f"{w.chinese} {w.english}" for w in WinBy},
    _HEAVENLY.name: f"{_HEAVENLY.name} {_HEAVENLY.english}",
}


def render_summary(s: dict[str, Any], console: Console) -> None:
    h = s["hands"]
    console.print(
        Text(
            f"shangrao simulate: {h} hands in {s['matches']} match(es) of {s['hands_per_match']}, "
            f"seed {s['seed']}, bots {','.join(s['bots'])}",
            style="bold",
        )
    )
    seats = Table(title="seats", title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("seat", "right"),
        ("bot", "left"),
        ("wins", "right"),
        ("win %", "right"),
        ("points", "right"),
        ("points/hand", "right"),
        ("dealt", "right"),
    )
    for col, just in columns:
        seats.add_column(col, justify=just)
    for r in s["seats"]:
        seats.add_row(
            str(r["seat"]),
            r["bot"],
            str(r["wins"]),
            f"{100 * r['win_rate']:.1f}",
            f"{r['points']:+d}",
            f"{r['points_per_hand']:+.2f}",
            str(r["dealt"]),
        )
    console.print(seats)
    if len(s["by_bot"]) > 1:
        bt = Table(title="bots", title_justify="left", show_edge=False, box=None, padding=(0, 2), pad_edge=False)
        for col in ("bot", "seats", "wins", "points"):
            bt.add_column(col, justify="left" if col == "bot" else "right")
        for b in s["by_bot"]:
            bt.add_row(b["bot"], ",".join(map(str, b["seats"])), str(b["wins"]), f"{b['points']:+d}")
        console.print(bt)
    console.print(
        Text(
            f"wins {s['wins']}  ·  drawn hands 荒牌 {s['drawn']} ({100 * s['drawn_rate']:.1f}%)  ·  "
            f"hands with several winners (抢杠) {s['multi_winner_hands']}"
        )
    )
    console.print(
        _count_table("how wins came", {_WIN_BY_NAMES.get(k, k): v for k, v in s["win_by"].items()}, h, "win by")
    )
    console.print(_count_table("patterns 牌型", s["patterns"], h, "pattern"))
    console.print(
        _count_table(
            "doublings 加倍 (each time)",
            s["doublings"],
            h,
            "doubling",
            s.get("doubling_factors") or doubling_factors(DEFAULT_RULES),
        )
    )
    console.print(_count_table("bonuses 奖励分", s["bonuses"], h, "bonus"))
    if s.get("biggest_win"):
        b = s["biggest_win"]
        console.print(
            Text(
                f"biggest win: seat {b['seat']} {b['pattern']} +{b['points']} in all "
                f"(hand {b['hand']}: {b['breakdown']})"
            )
        )
    t = s["timing"]
    console.print(Text(f"time {t['seconds']:.1f} s  ·  {t['hands_per_second']} hands/s", style="dim"))
    if s["storage"]["db"]:
        ids = s["storage"]["game_ids"]
        span = f"{ids[0]}..{ids[-1]}" if len(ids) > 1 else str(ids[0]) if ids else "-"
        console.print(Text(f"stored as game(s) {span} in {s['storage']['db']}", style="dim"))


#: --hands beyond this is a typo: the run plans every match up front (and would take years)
MAX_HANDS = 10_000_000


def simulate(
    hands: Annotated[
        int, typer.Option("--hands", "-n", min=1, max=MAX_HANDS, help=f"Number of hands to play (1..{MAX_HANDS}).")
    ] = 200,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", "-s", help="Seed; the same seed gives the same results. Default: a random seed (printed)."
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="B,B,B,B",
            show_default="greedy in every seat",
            help="Bots for seats 0-3 (" + ", ".join(BOT_NAMES) + "); one name fills all seats.",
        ),
    ] = "greedy,greedy,greedy,greedy",
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=0, help="Processes to play in (0: one per CPU). Same results as 1.")
    ] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Play on a Ray cluster: 'auto', host:port, or 'local' (needs pip install '.\\[ray]'). Same results.",
        ),
    ] = None,
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            metavar="KEY=VALUE",
            help="A rule option, repeatable, e.g. --rule kong_after_pung=true --rule base_points=2 "
            "(RuleSet fields; docs/rules.md).",
        ),
    ] = None,
    engine: Annotated[
        str | None,
        typer.Option(
            "--engine",
            metavar="python|fast",
            help="python: the engine; fast: the compiled core (random, greedy, ukeire only). "
            "Default: fast for core bots once compiled. Same results.",
        ),
    ] = None,
    store_hands: Annotated[
        bool,
        typer.Option("--store/--no-store", help="Store every hand in the records (default) or only print the summary."),
    ] = True,
) -> None:
    """Let bots play N hands and print a summary.

    The hands are played as matches of rules.hands_per_match hands, and every hand is stored.
    """
    names = parse_bots(bots)
    rules = parse_rule_options(rule)
    check_run_options(seed, workers, ray)
    engine = check_engine(engine, names, hands)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    store = open_store(db) if store_hands else None
    try:
        econ = err_console()
        with Progress(
            TextColumn("[bold]simulate"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("hands"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=econ,
            transient=True,
            disable=not econ.is_terminal,
        ) as progress:
            summary = run_simulation(
                hands, seed, names, store, progress, workers=workers, ray_address=ray, rules=rules, engine=engine
            )
    finally:
        if store is not None:
            store.close()
    if as_json:
        sys.stdout.write(dump_json(summary) + "\n")
    else:
        render_summary(summary, out_console())
