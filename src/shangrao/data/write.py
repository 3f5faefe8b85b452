"""Writing decision datasets (schema in :mod:`shangrao.data`): from self-play or stored games."""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

import numpy as np

from ..game import Action, Game, Observation, play_hand
from ..game.match import Match
from ..rules import DEFAULT_RULES, RuleSet
from .dataset import COLUMNS, SCHEMA_VERSION, DatasetError

__all__ = ["DecisionRecorder", "deal_id", "write_from_games", "write_selfplay"]

#: one recorded decision: (planes, mask, action index or -1, seat)
Row = tuple[np.ndarray, np.ndarray, int, int]

#: rows per shard by default (a shard of 50,000 rows is ~2 MB compressed)
DEFAULT_SHARD_ROWS = 50_000


def deal_id(hand_seed: object) -> int:
    """A 63-bit id of a hand's seed (the same wall and dice give the same id)."""
    return int.from_bytes(hashlib.blake2b(str(hand_seed).encode(), digest_size=8).digest(), "big") >> 1


def _encode(
    obs: Observation, legal: Sequence[Action], hands_left: int
) -> tuple[np.ndarray, np.ndarray, dict[Action, int]]:
    from .. import encoding as enc

    claimed = obs.last_discard[1] if obs.last_discard is not None else None
    index = {a: enc.action_to_index(a, claimed) for a in legal}
    mask = np.zeros(enc.N_ACTIONS, dtype=np.int8)
    mask[list(index.values())] = 1
    return enc.encode_observation(obs, hands_left), mask, index


class DecisionRecorder:
    """Wraps a bot: records (planes, mask, action) of every decision it is asked, then plays the bot's choice."""

    def __init__(
        self, bot: Any, seat: int, rows: list[Row], hands_left: Callable[[], int], labeler: Any = None
    ) -> None:
        self.bot = bot
        self.seat = seat
        self.rows = rows
        self.hands_left = hands_left
        self.labeler = labeler  # DAgger: record this bot's choice, play the bot's
        self.needs_observation = True
        for hook in ("see_log", "close"):
            if hasattr(bot, hook):
                setattr(self, hook, getattr(bot, hook))

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        planes, mask, index = _encode(obs, legal, self.hands_left())
        action: Action = self.bot.choose(obs, legal)
        label = action if self.labeler is None else self.labeler.choose(obs, legal)
        self.rows.append((planes, mask, index.get(label, -1), self.seat))
        return action


def _close(bots: Iterable[Any]) -> None:
    for b in bots:
        close = getattr(b, "close", None)
        if close is not None:
            close()


def _selfplay_job(args: tuple[Any, ...]) -> dict[str, Any]:
    """One match of self-play as dataset columns (picklable for processes and Ray)."""
    from ..bots import get_bot
    from ..selfplay import match_seed

    run_seed, m, specs, rules, limit, label = args[:6]
    if len(args) > 6 and args[6] == "fast":
        return _core_selfplay_job(run_seed, m, specs, rules, limit, label)
    mseed = match_seed(run_seed, m)
    rows: list[Row] = []
    match = Match(rules, seed=mseed)
    bots = [
        DecisionRecorder(
            get_bot(s, seed=f"{mseed}:{i}"),
            i,
            rows,
            lambda: rules.hands_per_match - len(match.hands),
            None if label is None else get_bot(label, seed=f"{mseed}:label:{i}"),
        )
        for i, s in enumerate(specs)
    ]
    hand_rows: list[tuple[int, int, int]] = []  # (first row, hand_no, deal id) per hand
    deltas: list[tuple[int, ...]] = []
    start_scores = tuple(match.scores)
    try:
        while not match.is_over and len(deltas) < limit:
            game = match.new_hand()
            first = len(rows)
            play_hand(game, bots)
            rec = match.finish_hand(game)
            hand_rows.append((first, rec.hand_no, deal_id(rec.seed)))
            deltas.append(tuple(rec.result.deltas))
    finally:
        _close(bots)
    return _columns(rows, hand_rows, deltas, start_scores, match.scores, m, rules, specs)


def _core_selfplay_job(
    run_seed: int, m: int, specs: Sequence[str], rules: RuleSet, limit: int, label: str | None = None
) -> dict[str, Any]:
    """:func:`_selfplay_job` with the match played by the compiled core (``shangrao.sim``) and its rows
    encoded there too (:func:`shangrao.sim.record.encode_hands`: one compiled replay of the match, no
    Python per decision) — the same rows as the Python engine's, labeller included (a core bot)."""
    from ..selfplay import match_seed
    from ..sim.play import iter_match_hands
    from ..sim.record import encode_hands

    mseed = match_seed(run_seed, m)
    hands = list(iter_match_hands([mseed], [limit], list(specs), rules))
    enc = encode_hands(hands, rules, label)
    n = len(enc["action"])
    out = _empty(n)
    for c in ("planes", "mask", "action", "seat"):
        out[c][:] = enc[c]
    off = enc["row_off"]
    final: Sequence[int] = (0, 0, 0, 0)
    for j, h in enumerate(hands):
        sl = slice(int(off[j]), int(off[j + 1]))
        out["hand_points"][sl] = _points(h.deltas, "hand")[out["seat"][sl]]
        out["hand_id"][sl] = m * rules.hands_per_match + h.hand_no
        out["deal_id"][sl] = deal_id(h.hand_seed)
        final = h.final_scores
    out["match_points"][:] = _points(final, "match")[out["seat"]]
    out["match_id"][:] = m
    out["policy"][:] = out["seat"]
    return {"columns": out, "hands": len(hands), "specs": list(specs)}


def _points(values: Sequence[int], what: str) -> np.ndarray:
    """``int64[4]`` of a hand's or a match's points per seat; :class:`DatasetError` for one beyond int64."""
    try:
        return np.asarray(values, dtype=np.int64)
    except OverflowError:
        raise DatasetError(f"{what} points {list(values)!r} do not fit the dataset's int64 columns") from None


def _columns(
    rows: list[Row],
    hand_rows: list[tuple[int, int, int]],
    deltas: list[tuple[int, ...]],
    start_scores: Sequence[int],
    final: Sequence[int],
    m: int,
    rules: RuleSet,
    specs: Sequence[str],
) -> dict[str, Any]:
    n = len(rows)
    out = _empty(n)
    for j, (planes, mask, action, seat) in enumerate(rows):
        out["planes"][j] = planes
        out["mask"][j] = mask
        out["action"][j] = action
        out["seat"][j] = seat
    bounds = [h[0] for h in hand_rows] + [n]
    for h, (first, hand_no, did) in enumerate(hand_rows):
        sl = slice(first, bounds[h + 1])
        seats = out["seat"][sl]
        out["hand_points"][sl] = _points(deltas[h], "hand")[seats]
        out["hand_id"][sl] = m * rules.hands_per_match + hand_no
        out["deal_id"][sl] = did
    out["match_points"][:] = _points([final[i] - start_scores[i] for i in range(4)], "match")[out["seat"]]
    out["match_id"][:] = m
    out["policy"][:] = out["seat"]  # seat i's bot is policies[specs index]; remapped by the writer
    return {"columns": out, "hands": len(hand_rows), "specs": list(specs)}


def _empty(n: int) -> dict[str, np.ndarray]:
    return {c: np.zeros((n, *shape), dtype=dtype) for c, (dtype, shape) in COLUMNS.items()}


class _ShardWriter:
    def __init__(self, out: Path, shard_rows: int) -> None:
        self.out = out
        self.shard_rows = shard_rows
        self.pending: list[dict[str, np.ndarray]] = []
        self.pending_rows = 0
        self.shards: list[dict[str, Any]] = []
        self.rows = 0

    def add(self, cols: dict[str, np.ndarray]) -> None:
        n = len(cols["action"])
        if n == 0:
            return
        self.pending.append(cols)
        self.pending_rows += n
        while self.pending_rows >= self.shard_rows:
            self._flush(self.shard_rows)

    def _flush(self, rows: int) -> None:
        merged = {c: np.concatenate([p[c] for p in self.pending]) for c in COLUMNS}
        head = {c: v[:rows] for c, v in merged.items()}
        rest = {c: v[rows:] for c, v in merged.items()}
        name = f"shard-{len(self.shards):05d}.npz"
        arrays: dict[str, Any] = head
        np.savez_compressed(self.out / name, **arrays)
        self.shards.append({"file": name, "rows": len(head["action"])})
        self.rows += len(head["action"])
        self.pending = [rest] if len(rest["action"]) else []
        self.pending_rows = len(rest["action"])

    def finish(self) -> None:
        if self.pending_rows:
            self._flush(self.pending_rows)

    def write_meta(self, source: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Write ``meta.json`` (the format, schema version and ``source``, then ``fields``, then the row
        and shard counts) after :meth:`finish`; returns the dict written."""
        meta = {"format": "shangrao-dataset", "version": SCHEMA_VERSION, "source": source}
        meta |= fields | {"decisions": self.rows, "shards": self.shards}
        (self.out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
        return meta


def _prepare_out(out: str | Path, overwrite: bool) -> Path:
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise DatasetError(f"{path}: exists and is not a directory")
    if path.is_dir() and any(path.iterdir()):
        if not overwrite:
            raise DatasetError(f"{path}: not empty (give an empty or new directory, or overwrite=True / --force)")
        for f in path.glob("shard-*.npz"):
            f.unlink()
        (path / "meta.json").unlink(missing_ok=True)
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_selfplay(
    out: str | Path,
    hands: int,
    seed: int,
    bots: Sequence[str] = ("ukeire",) * 4,
    rules: RuleSet = DEFAULT_RULES,
    workers: int | None = 1,
    ray_address: str | None = None,
    shard_rows: int = DEFAULT_SHARD_ROWS,
    overwrite: bool = False,
    mp_context: BaseContext | None = None,
    on_hands: Callable[[int], None] | None = None,
    label: str | None = None,
    engine: str | None = "python",
) -> dict[str, Any]:
    """Play ``hands`` hands of self-play (matches of ``rules.hands_per_match``, seeds as
    :func:`shangrao.selfplay.simulate_hands`) and write every decision of every seat to ``out``.

    bots: four bot specs (or one for all seats): names, ``policy:PATH``, ``ext:COMMAND``, plugins.
    label: a bot spec whose choice is *recorded* as ``action`` while the seat's bot plays (DAgger: the
    learner visits the states, the expert labels them); ``policy`` then names the labeller.
    engine: ``"python"``, ``"fast"`` (the compiled core plays and encodes the rows,
    :mod:`shangrao.sim.record`: the same rows; bots and ``label`` core bots — random, greedy, ukeire,
    search) or None (fast where it applies).
    Returns the ``meta.json`` dict plus ``seconds`` and ``decisions_per_second``.  The same
    ``(hands, seed, bots, rules)`` writes the same rows for any ``workers`` (the shard boundaries too).
    Raises :class:`DatasetError` / ``ValueError`` for a bad directory, count or bot spec.
    """
    from ..bots import check_bot_spec
    from ..selfplay import run_jobs

    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise DatasetError(f"hands must be a positive int, got {hands!r}")
    if not isinstance(shard_rows, int) or shard_rows < 1:
        raise DatasetError(f"shard_rows must be a positive int, got {shard_rows!r}")
    specs = [bots] * 4 if isinstance(bots, str) else list(bots)
    if len(specs) == 1:
        specs = specs * 4
    if len(specs) != 4:
        raise DatasetError(f"bots: give 4 bot specs (or one for all seats), got {len(specs)}")
    specs = [check_bot_spec(s) for s in specs]
    label = None if label is None else check_bot_spec(label)
    policies = list(dict.fromkeys(specs)) if label is None else [label]
    path = _prepare_out(out, overwrite)
    per = rules.hands_per_match
    from ..errors import InputError
    from ..selfplay import resolve_engine

    try:
        engine = resolve_engine(engine, specs if label is None else [*specs, label], hands)
    except InputError as err:
        raise DatasetError(str(err)) from None
    jobs = [(seed, m, specs, rules, min(per, hands - m * per), label, engine) for m in range(math.ceil(hands / per))]
    writer = _ShardWriter(path, shard_rows)
    t0 = time.perf_counter()
    n_hands = 0
    remap = np.asarray([policies.index(s) if label is None else 0 for s in specs], dtype=np.int16)
    for res in run_jobs(_selfplay_job, jobs, workers, ray_address, mp_context):
        cols = res["columns"]
        cols["policy"] = remap[cols["seat"]]
        writer.add(cols)
        n_hands += res["hands"]
        if on_hands is not None:
            on_hands(res["hands"])
    writer.finish()
    seconds = time.perf_counter() - t0
    meta = writer.write_meta(
        "selfplay",
        {"policies": policies, "bots": specs, "label": label, "seed": seed, "hands": n_hands, "rules": rules.to_dict()},
    )
    return meta | {
        "seconds": round(seconds, 3),
        "decisions_per_second": round(writer.rows / seconds, 1) if seconds else None,
        "hands_per_second": round(n_hands / seconds, 2) if seconds else None,
    }


def _replay_rows(events: list[dict[str, Any]]) -> tuple[list[Row], tuple[int, ...], int | str | None]:
    """Re-play one stored hand's decisions: (rows, deltas, seed) — rows as in :class:`DecisionRecorder`."""
    from ..game import ReplayError, parse_action

    deal = events[0] if events else {}
    if deal.get("type") != "deal" or "wall" not in deal:
        raise DatasetError("a stored hand must start with its full deal event (wall and seed)")
    try:
        game = Game(
            RuleSet.from_dict(deal["rules"]),
            seed=deal.get("seed"),
            dealer=deal["dealer"],
            scores=deal["scores"],
            wall=deal["wall"],
            dice=deal["dice"],
            hand_no=deal.get("hand_no", 0),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise DatasetError(f"the deal event does not re-play: {err}") from None
    hands_left = game.rules.hands_per_match - game.hand_no  # as the self-play recorder counts it
    rows: list[Row] = []
    for ev in events:
        if "action" not in ev:
            continue
        if game.is_over:
            break
        seat = game.current_seat
        assert seat is not None
        legal = game.legal_actions()
        try:
            action = parse_action(ev["action"])
            if len(legal) > 1:
                planes, mask, index = _encode(game.observation(seat), legal, hands_left)
                rows.append((planes, mask, index.get(action, -1), seat))
            game.apply(action, ev.get("seat"))
        except (ValueError, ReplayError) as err:
            raise DatasetError(
                f"a stored hand does not re-play at {ev.get('type')} {ev.get('action')!r}: {err}"
            ) from None
    if not game.is_over or game.result is None:
        raise DatasetError("a stored hand ends before its end event (an unfinished hand)")
    return rows, tuple(game.result.deltas), deal.get("seed")


def write_from_games(
    out: str | Path, store: Any, game_ids: Sequence[int], shard_rows: int = DEFAULT_SHARD_ROWS, overwrite: bool = False
) -> dict[str, Any]:
    """Write the decisions of stored games (:class:`shangrao.records.Store`) to ``out``.

    Every completed hand is re-played from its stored deal (wall, dice) and decisions, so the planes
    are the engine's own; ``policy`` is the player name stored for the seat; ``hand_id`` is
    ``game_id * 1000 + hand index`` and ``match_id`` the game id.  Raises :class:`DatasetError` for an
    unknown game id or a hand that does not re-play.
    """
    from ..records import RecordError

    path = _prepare_out(out, overwrite)
    writer = _ShardWriter(path, shard_rows)
    policies: list[str] = []
    n_hands = 0
    t0 = time.perf_counter()
    for gid in game_ids:
        try:
            rec = store.load_game(gid)
        except Exception as err:  # GameNotFound / RecordError: named with the id
            raise DatasetError(f"game {gid}: {err}") from None
        players = list(rec.players)
        for p in players:
            if p not in policies:
                policies.append(p)
        pidx = np.asarray([policies.index(p) for p in players], dtype=np.int16)
        totals = [0, 0, 0, 0]
        cols_list = []
        for h in rec.hands:
            try:
                events = h.events  # a compact hand (shangrao simulate's fast engine) is replayed here
            except RecordError as err:  # CompactHandError: names the game and the hand
                raise DatasetError(str(err)) from None
            rows, deltas, hseed = _replay_rows(events)
            totals = [t + d for t, d in zip(totals, deltas)]
            cols = _empty(len(rows))
            for j, (planes, mask, action, seat) in enumerate(rows):
                cols["planes"][j], cols["mask"][j], cols["action"][j], cols["seat"][j] = planes, mask, action, seat
            cols["hand_points"][:] = _points(deltas, "hand")[cols["seat"]]
            cols["hand_id"][:] = gid * 1000 + h.index
            cols["deal_id"][:] = deal_id(hseed)
            cols["match_id"][:] = gid
            cols["policy"][:] = pidx[cols["seat"]]
            cols_list.append(cols)
            n_hands += 1
        for cols in cols_list:
            cols["match_points"][:] = _points(totals, "match")[cols["seat"]]
            writer.add(cols)
    writer.finish()
    seconds = time.perf_counter() - t0
    meta = writer.write_meta(
        "records", {"policies": policies, "bots": policies, "games": list(game_ids), "hands": n_hands, "rules": None}
    )
    return meta | {"seconds": round(seconds, 3)}
