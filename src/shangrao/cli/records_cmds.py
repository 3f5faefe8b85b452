"""``shangrao games``, ``shangrao replay``, ``shangrao abandon`` and ``shangrao backup``: list stored games,
replay a hand step by step, end a game that cannot be played on, copy a live SQLite records database."""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from ..game import (
    EventType,
    Game,
    ReplayError,
    replay,
)
from .common import CliError, dump_json, open_store, out_console
from .narrate import Label, event_lines, render_settlement, seat_label, tile_words
from .render import (
    BAO_STYLE,
    tiles_text,
)
from .simulate import DbOption

if TYPE_CHECKING:
    from ..records import Store


# --------------------------------------------------------------------------- backup
def backup(
    dest: Annotated[str, typer.Argument(help="The new file to write the copy to (never overwritten).")],
    db: DbOption = None,
) -> None:
    """Copy a live SQLite records database, beside servers and commands.

    SQLite's online backup: one consistent snapshot, checked with PRAGMA integrity_check.

    For PostgreSQL use pg_dump.
    """
    from ..records import RecordError
    from ..records.backup import backup_sqlite

    try:
        games = backup_sqlite(db, dest)
    except RecordError as err:
        raise CliError(str(err)) from None
    typer.echo(f"backed up {games} game(s) to {dest} (integrity check: ok)")


# --------------------------------------------------------------------------- games, replay
def _players_text(players: list[str]) -> str:
    """``greedy×4``, ``human,greedy×3``: runs of one name compressed."""
    out: list[list[Any]] = []
    for p in players:
        if out and out[-1][0] == p:
            out[-1][1] += 1
        else:
            out.append([p, 1])
    return ", ".join(p if n == 1 else f"{p}×{n}" for p, n in out)  # a space: a narrow table wraps between names


def _status_text(r: Any) -> str:  # a GameSummary or HistoryRow
    """A game's status as listed: a match ended by a 解散 vote (issue 24) is "finished 解散"."""
    meta = getattr(r, "meta", None)
    status: str = r.status
    return status + (" 解散" if isinstance(meta, dict) and meta.get("end_reason") == "dissolved" else "")


def games(
    db: DbOption = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Show at most this many (newest first).")] = 30,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List stored games: id, date, kind, players, hands, status, scores."""
    store = open_store(db, read_only=True)
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
    t = Table(show_edge=False, box=None, padding=(0, 1), pad_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("id", "right"),
        ("date", "left"),
        ("kind", "left"),
        ("players", "left"),
        ("hands", "right"),
        ("status", "left"),
        ("scores", "left"),
        ("seed", "right"),
    )
    for col, just in columns:
        t.add_column(col, justify=just, overflow="fold")
    for r in rows:
        t.add_row(
            str(r.id),
            r.created.astimezone().strftime("%Y-%m-%d %H:%M"),
            r.mode,
            _players_text(r.players),
            str(r.hands_played),
            _status_text(r),
            " ".join(f"{x:+d}" for x in r.scores),
            "" if r.seed is None else str(r.seed),
        )
    console.print(t)
    if total > len(rows):
        console.print(Text(f"{len(rows)} of {total} games shown; --limit shows more", style="dim"))


def _print_hand(
    console: Console,
    index: int,
    dealer: int | None,
    events: list[dict[str, Any]],
    label: Label,
    passes: bool,
    title_note: str = "",
) -> None:
    """Rule, deal (dealer, dice, 宝, the four hands) and every event line of one hand."""
    from ..tiles import parse_tile

    deal = events[0] if events and events[0].get("type") == EventType.DEAL else {}
    bao_text = deal.get("bao")
    bao = parse_tile(bao_text) if bao_text else None
    console.rule(f"第 {index + 1} 局 hand {index + 1}{title_note}")
    if deal:
        if dealer is None:
            dealer = deal.get("dealer")
        head = Text(
            f"dealer 庄 {label(dealer) if dealer is not None else '?'} · dice {deal['dice'][0]}+{deal['dice'][1]} · indicator "
            f"{tile_words(deal['indicator_kind'])} → "
        )
        head.append(f"宝 {tile_words(bao_text)}" if bao_text else "宝 ?", style=BAO_STYLE)
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
    hand: Annotated[int | None, typer.Option("--hand", "-k", min=1, help="Only hand K (1 = the first).")] = None,
    db: DbOption = None,
    passes: Annotated[bool, typer.Option("--passes", help="Also show every pass in claim windows.")] = False,
) -> None:
    """Print a stored game step by step, with each settlement.

    Each finished hand is replayed from its events and must give the stored result (exit 1 if not).

    A hand left unfinished in 'play' is shown up to where it stopped, without a settlement.
    """
    from ..records import RecordError

    store = open_store(db, read_only=True)
    try:
        rec = store.load_game(game_id, hand=None if hand is None else hand - 1)
    finally:
        store.close()
    pending = {k: evs for k, evs in sorted(rec.pending.items()) if hand is None or k == hand - 1}
    if hand is not None and not rec.hands and not pending:
        raise CliError(f"game {game_id} has {rec.hands_played} stored hand(s); there is no hand {hand}")
    console = out_console()
    players = rec.players

    def label(s: int) -> str:
        return seat_label(s, None, players)

    console.print(
        Text(
            f"game {rec.id} · {rec.mode} · {rec.created.astimezone():%Y-%m-%d %H:%M} · seed {rec.seed} · "
            f"{rec.status} · {rec.hands_played} hand(s) · players {', '.join(players)}",
            style="bold",
        )
    )
    failures = []

    def show(index: int, dealer: int | None, events: list[dict[str, Any]], note: str = "") -> Game | None:
        """Replay first, then narrate: a log that does not replay is reported, not narrated (its events may
        hold anything); the narration reads the log's own labels, or the replay's where those are damaged."""
        try:
            g = replay(events)
        except ReplayError as err:
            console.rule(f"第 {index + 1} 局 hand {index + 1}{note}")
            failures.append(f"hand {index + 1}: {err}")
            console.print(Text(f"replay FAILED: {err}", style="bold red"))
            return None
        try:
            _print_hand(Console(file=io.StringIO(), width=console.width), index, dealer, events, label, passes, note)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            events = [
                dict(e) for e in g.events[: len(events)]
            ]  # a display label of the log is damaged: the replay's labels
        _print_hand(console, index, dealer, events, label, passes, note)
        return g

    mismatch_marker = object()
    expected_index = 0
    for h in rec.hands:
        wrong_index = hand is None and h.index != expected_index
        expected_index += 1
        try:
            events = h.events  # a compact hand (issue 23) is replayed from its decisions here
        except RecordError as err:  # CompactHandError: the record is damaged; the other hands are shown
            console.rule(f"第 {h.index + 1} 局 hand {h.index + 1}")
            failures.append(f"hand {h.index + 1}: {err}")
            console.print(Text(f"replay FAILED: {err}", style="bold red"))
            continue
        g = show(h.index, h.dealer, events)
        if g is None:
            continue
        res = g.result
        if res is None:
            failures.append(f"hand {h.index + 1}: the events do not end the hand")
            continue
        stored = h.result
        # every stored fact is checked: a missing one is a mismatch too (an emptied result is not "reproduced")
        mismatch = [
            k
            for k, mine in (
                ("deltas", list(res.deltas)),
                ("winners", list(res.winners)),
                ("scores", list(res.scores)),
                ("drawn", res.drawn),
            )
            if stored.get(k, mismatch_marker) != mine
        ]
        if wrong_index:
            mismatch.append(f"hand number (stored as {h.index + 1})")
        console.print(Text("结算 settlement", style="bold"))
        for part in render_settlement(res, label):
            console.print(part)
        if mismatch:
            failures.append(f"hand {h.index + 1}: replay gives other {', '.join(mismatch)} than stored")
            console.print(Text(f"replay does NOT match the stored {', '.join(mismatch)}", style="bold red"))
        else:
            console.print(Text("✓ replay of the events reproduces the stored result", style="green"))
    for k, evs in pending.items():
        if show(k, None, evs, " · 未完 unfinished") is None:
            continue
        console.print(
            Text(
                f"未完 unfinished: the hand was left here ({len(evs)} event(s) stored); "
                "no settlement, nothing to verify",
                style="bold yellow",
            )
        )
    if failures:
        what = "; ".join(" ".join(f.split())[:300] for f in failures)  # one line, whatever a record held
        sys.stderr.write(f"error: game {game_id}: replay does not reproduce the record ({what})\n")
        raise typer.Exit(1)


def abandon_cmd(
    game_id: Annotated[int, typer.Argument(metavar="GAME_ID", help="Id from 'shangrao games' (or the lobby).")],
    db: DbOption = None,
) -> None:
    """End an unfinished game that cannot be played on (a damaged web table).

    A web table the server lists as damaged; `shangrao replay GAME_ID` shows what is wrong.

    It is marked finished ("abandoned"), its rows kept; a server drops it from its damaged list.

    Exit 2 if there is no such game or it has finished already.
    """
    from ..records import GameNotFound, RecordError

    store = open_store(db)
    try:
        try:
            status = store.game_head(game_id).status
        except GameNotFound:
            raise CliError(f"no game {game_id} in {store._safe_url()}") from None
        except (TypeError, ValueError):  # a row too damaged to read its head: it has not finished
            status = "unfinished"
        if status == "finished":
            raise CliError(f"game {game_id} has finished already: nothing to end")
        if _served(store) and _loads(store, game_id):
            raise CliError(
                f"game {game_id} is a live table of the server running on this database (it loads and "
                "can be played on): end it at the table (解散) or stop the server first"
            )
        try:
            store.finish_game(game_id, meta={"end_reason": "abandoned"})
        except RecordError as err:
            raise CliError(f"game {game_id}: {err}") from None
    finally:
        store.close()
    typer.echo(f"game {game_id} ended (abandoned); its records stay in the history")


def _served(store: Store) -> bool:
    """A ``shangrao serve`` owns ``store``'s live tables now (records/owner.py's locks, taken and given
    back at once; nothing opens the database file outside SQLite)."""
    from ..records.owner import StoreBusy, check_free

    try:
        check_free(store)
    except StoreBusy:
        return True
    return False


def _loads(store: Store, game_id: int) -> bool:
    """The game loads as a server loads a table: its record, a web table's ``meta.web`` and every
    hand's events replay (False: damaged, what ``shangrao serve`` lists as damaged)."""
    from ..game import replay
    from ..web.stored import web_meta

    try:
        rec = store.load_game(game_id)
        if rec.mode == "web":
            web_meta(rec.meta, rec.id)
        for h in rec.hands:
            replay(h.events)
        pending = rec.pending.get(len(rec.hands))
        if pending:
            replay(pending)
    except Exception:
        return False
    return True
