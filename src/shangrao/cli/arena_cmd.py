"""``shangrao arena``: duplicate evaluation of bots (:mod:`shangrao.arena`) from the command line."""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..arena import MAX_DEALS, lineup_from_bots, run_arena
from ..bots import UnknownBotError, check_bot_spec
from ..rules import DEFAULT_RULES
from ..scoring.items import BONUSES, DOUBLINGS
from .common import CliError, check_engine, check_run_options, dump_json, err_console, open_store, out_console

if TYPE_CHECKING:  # the records layer (SQLAlchemy) is imported only when a command stores
    from ..records import Store

__all__ = ["arena", "register"]


def _ci_text(ci: list[float | None]) -> str:
    """The 95 % interval as printed; one deal gives none."""
    return "— (1 deal)" if ci[0] is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def _names(text: str, what: str, n: int) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if len(names) != n:
        raise CliError(f"{what}: give {n} bot names separated by commas, got {text!r}")
    try:
        return [check_bot_spec(n) for n in names]
    except UnknownBotError as err:
        raise CliError(f"{what}: {err}") from None


class _Recorder:
    """Stores the arena's hands: one game per rotation, one hand per deal (``replay GAME --hand D``)."""

    def __init__(self, store: Store, lineup: list[str], seed: int) -> None:
        self.store = store
        self.lineup = lineup
        self.seed = seed
        self.ids: list[int] = []
        self.scores = [[0] * 4 for _ in range(4)]

    def __call__(self, records: list[dict[str, Any]]) -> None:
        if not self.ids:
            for r in range(4):
                players = [self.lineup[(i - r) % 4] for i in range(4)]
                self.ids.append(
                    self.store.create_game(
                        "arena",
                        players,
                        seed=self.seed,
                        rules=DEFAULT_RULES,
                        meta={"run_seed": self.seed, "rotation": r, "lineup": self.lineup},
                    )
                )
        for rec in records:
            r = rec["rotation"]
            sc = self.scores[r]
            for i, d in enumerate(rec["result"]["deltas"]):
                sc[i] += d
            self.store.append_hand(
                self.ids[r], rec["deal"], rec["result"]["dealer"], rec["events"], rec["summary"], scores_after=list(sc)
            )

    def finish(self) -> None:
        for r, gid in enumerate(self.ids):
            self.store.finish_game(gid, list(self.scores[r]))


def _count(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items()) or "—"


def render(res: dict[str, Any], console: Console) -> None:
    console.print(
        Text(
            f"shangrao arena: {res['deals']} deals × 4 rotations = {res['hands']} hands, "
            f"seed {res['seed']}, "
            f"lineup {','.join(res['lineup'])}",
            style="bold",
        )
    )
    t = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    for col, just in (
        ("bot", "left"),
        ("pts/hand", "right"),
        ("95% CI", "right"),
        ("win%", "right"),
        ("win pts", "right"),
        ("value", "right"),
        ("偷机", "right"),
        (DOUBLINGS["feibao"].name, "right"),
        (BONUSES["caught_bao"].name, "right"),
        ("kongs", "right"),
        ("robbed", "right"),
        ("dec/s", "right"),
    ):
        t.add_column(col, justify="left" if just == "left" else "right", no_wrap=True)
    timing = res.get("timing", {}).get("bots", {})
    for b in res["bots"]:
        dps = timing.get(b["bot"], {}).get("decisions_per_second")
        t.add_row(
            b["bot"],
            f"{b['points_per_hand']:+.3f}",
            _ci_text(b["ci95"]),
            f"{100 * b['win_rate']:.1f}",
            f"{b['mean_win_points']:.2f}",
            f"{b['mean_hand_value']:.2f}",
            str(b["declined_wins"]),
            str(b["feibao"]),
            str(b["caught_bao"]),
            str(b["kongs"]),
            str(b["robbed"]),
            "-" if dps is None else f"{dps:,.0f}",
        )
    console.print(t)
    console.print(
        Text(
            "pts/hand: mean over deals of the bot's points per hand; 95% CI: Student t over deals; "
            "win pts: points gained per win; value: hand value per win; 偷机: wins declined",
            style="dim",
        )
    )
    for b in res["bots"]:
        console.print(Text(f"{b['bot']}: patterns 牌型: {_count(b['patterns'])}"))
        console.print(Text(f"{' ' * len(b['bot'])}  doublings 加倍: {_count(b['doublings'])}; 抢杠 wins {b['robs']}"))
    tm = res.get("timing", {})
    if tm:
        console.print(Text(f"time {tm['seconds']:.1f} s", style="dim"))
    st = res.get("storage") or {}
    if st.get("game_ids"):
        ids = st["game_ids"]
        console.print(
            Text(f"stored as games {ids[0]}..{ids[-1]} (one per rotation; hand D = deal D) in {st['db']}", style="dim")
        )


def arena(
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", metavar="A,B", help="The bot under test and its opponent: A plays one seat against three B."
        ),
    ] = None,
    lineup: Annotated[
        str | None,
        typer.Option(
            "--lineup",
            metavar="A,B,C,D",
            help="Four bots instead of --bots; each deal is played once per rotation of the lineup.",
        ),
    ] = None,
    deals: Annotated[
        int, typer.Option("--deals", "-n", min=1, max=MAX_DEALS, help="Deals (walls); each is played 4 times.")
    ] = 100,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", help="Seed; the same seed gives the same numbers. Default: random (printed)."),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=0, help="Processes to play in (0: one per CPU). Same numbers as 1.")
    ] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray", metavar="ADDRESS", help="Play on a Ray cluster ('auto', host:port, 'local'). Same numbers."
        ),
    ] = None,
    db: Annotated[
        str | None, typer.Option("--db", metavar="PATH|URL", help="Records database (as for simulate).")
    ] = None,
    no_store: Annotated[bool, typer.Option("--no-store", help="Do not store the hands.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    engine: Annotated[
        str | None,
        typer.Option(
            "--engine",
            metavar="python|fast",
            help="python: the engine; fast: the compiled core (random, greedy, ukeire only). "
            "Default: fast for core bots once compiled. Same numbers.",
        ),
    ] = None,
) -> None:
    """Duplicate evaluation of bots: each deal played 4 times, seats rotated.

    Prints per bot the points per hand with a 95% interval over deals, win rate and value of wins.

    Also how the wins came: patterns, doublings, 偷机, 飞宝, 接宝, kongs, robbed kongs; and decisions per second.

    The hands are stored (one game per rotation), so 'shangrao replay' shows any of them.
    """
    if (bots is None) == (lineup is None):
        raise CliError("give either --bots A,B or --lineup A,B,C,D")
    names = lineup_from_bots(*_names(bots, "--bots", 2)) if bots is not None else _names(lineup or "", "--lineup", 4)
    check_run_options(seed, workers, ray)
    engine = check_engine(engine, names, deals * 4)
    if no_store and db is not None:
        raise CliError("--db and --no-store: give one")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    store = None if no_store else open_store(db)
    recorder = _Recorder(store, names, seed) if store is not None else None
    try:
        econ = err_console()
        with Progress(
            TextColumn("[bold]arena"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("deals"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=econ,
            transient=True,
            disable=not econ.is_terminal,
        ) as progress:
            task = progress.add_task("arena", total=deals)

            def on_deal(recs: list[dict[str, Any]]) -> None:
                if recorder is not None:
                    recorder(recs)
                progress.update(task, advance=1)

            res = run_arena(
                names, deals, seed, DEFAULT_RULES, workers=workers, ray_address=ray, on_deal=on_deal, engine=engine
            )
        if recorder is not None:
            recorder.finish()
        res["storage"] = {
            "db": store._safe_url() if store is not None else None,
            "game_ids": recorder.ids if recorder is not None else [],
        }
    finally:
        if store is not None:
            store.close()
    if as_json:
        sys.stdout.write(dump_json(res) + "\n")
    else:
        render(res, out_console())


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
