"""``shangrao dataset``: decision-level datasets for learning (:mod:`shangrao.data`)."""

from __future__ import annotations

import random
import sys
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from .common import CliError, check_engine, check_run_options, dump_json, err_console, open_store, out_console
from .simulate import MAX_HANDS, parse_bots, parse_rule_options

__all__ = ["dataset", "register"]


def _game_ids(text: str) -> list[int]:
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("..")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise CliError(f"--games: {part!r} is not a game id or a range A..B") from None
        if b < a or b - a > 1_000_000:
            raise CliError(f"--games: {part!r} is not a range A..B with A <= B")
        ids.extend(range(a, b + 1))
    if not ids:
        raise CliError("--games: give game ids, e.g. 3,5,10..20")
    return ids


def dataset(
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR", help="The directory to write (new or empty).")],
    hands: Annotated[
        int | None, typer.Option("--hands", "-n", min=1, max=MAX_HANDS, help="Hands of fresh self-play to write.")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="B,B,B,B",
            help="Bot specs for seats 0-3 (names, policy:PATH, ext:COMMAND, plugins); one fills all seats.",
        ),
    ] = "ukeire",
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed (default: random, printed).")] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=0, help="Processes to play in (0: one per CPU). Same rows as 1.")
    ] = 1,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS", help="Play on a Ray cluster.")] = None,
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", metavar="KEY=VALUE", help="A rule option, repeatable (as for simulate)."),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option("--games", metavar="IDS", help="Instead of self-play: stored games (ids and ranges A..B)."),
    ] = None,
    db: Annotated[str | None, typer.Option("--db", metavar="PATH|URL", help="Records database for --games.")] = None,
    label: Annotated[
        str | None,
        typer.Option(
            "--label",
            metavar="BOT",
            help="Record this bot's choice instead of the one played (DAgger: the bots play, BOT labels).",
        ),
    ] = None,
    tables: Annotated[
        int | None,
        typer.Option(
            "--tables",
            min=1,
            max=65536,
            metavar="N",
            help="DAgger in the batched environment: the --bots policy plays every seat of N tables, the "
            "--label core bot labels (one-hand episodes; no Python per decision).",
        ),
    ] = None,
    shard_rows: Annotated[int, typer.Option("--shard-rows", min=1, help="Decisions per shard file.")] = 50_000,
    force: Annotated[bool, typer.Option("--force", help="Overwrite a dataset already in DIR.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the metadata as JSON.")] = False,
    engine: Annotated[
        str | None,
        typer.Option(
            "--engine",
            metavar="python|fast",
            help="Self-play in the engine or the compiled core, which encodes the rows too (bots and --label: "
            "random, greedy, ukeire, search). Default: fast where it applies. Same rows.",
        ),
    ] = None,
) -> None:
    """Write decision-level samples for learning, as sharded .npz files.

    Each sample: observation planes, mask, action, seat, points, ids and the policy that acted.

    From fresh self-play (--hands, any bots and rules, --workers) or from stored games (--games).

    The schema is in docs/rl.md; read it with shangrao.data.Dataset.
    """
    from ..data import DatasetError, write_from_games, write_selfplay

    if (hands is None) == (games is None):
        raise CliError("give either --hands N (fresh self-play) or --games IDS (stored games)")
    if tables is not None and games is not None:
        raise CliError("--tables plays fresh hands in the batched environment: give --hands N, not --games")
    try:
        if games is not None:
            ids = _game_ids(games)
            store = open_store(db, read_only=True)
            try:
                meta = write_from_games(out, store, ids, shard_rows=shard_rows, overwrite=force)
            finally:
                store.close()
        elif tables is not None:
            assert hands is not None
            from ..data.dagger import write_dagger

            if label is None:
                raise CliError("--tables: give the labeller with --label (random, greedy, ukeire, search)")
            learner = bots.strip()
            if "," in learner:
                raise CliError("--tables: --bots is the one policy that plays every seat (policy:PATH)")
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            meta = write_dagger(
                out,
                hands,
                seed,
                learner,
                label,
                num_envs=tables,
                rules=parse_rule_options(rule),
                shard_rows=shard_rows,
                overwrite=force,
            )
        else:
            assert hands is not None
            names = parse_bots(bots)
            rules = parse_rule_options(rule)
            check_run_options(seed, workers, ray)
            labeller = None if label is None else parse_bots(label, "--label")[0]
            engine = check_engine(engine, names if labeller is None else [*names, labeller], hands)
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            econ = err_console()
            with Progress(
                TextColumn("[bold]dataset"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("hands"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=econ,
                transient=True,
                disable=not econ.is_terminal,
            ) as progress:
                task = progress.add_task("dataset", total=hands)
                meta = write_selfplay(
                    out,
                    hands,
                    seed,
                    names,
                    rules,
                    workers=workers,
                    ray_address=ray,
                    shard_rows=shard_rows,
                    overwrite=force,
                    on_hands=lambda n: progress.update(task, advance=n),
                    label=labeller,
                    engine=engine,
                )
    except DatasetError as err:
        raise CliError(str(err)) from None
    meta.pop("rules", None)
    if as_json:
        sys.stdout.write(dump_json(meta) + "\n")
        return
    c = out_console()
    rate = f", {meta['decisions_per_second']:,.0f} decisions/s" if meta.get("decisions_per_second") else ""
    c.print(
        Text(
            f"wrote {meta['decisions']:,} decisions of {meta['hands']:,} hands in {len(meta['shards'])} "
            f"shard(s) to {out} ({meta['seconds']:.1f} s{rate}); policies: {', '.join(meta['policies'])}"
        )
    )


def register(app: typer.Typer) -> None:
    app.command("dataset")(dataset)
