"""Compact hand records (revision 0004, issue 23): a completed hand stored by its decisions.

A hand played by the compiled core (``shangrao simulate`` with the fast engine) is stored without
its event log: ``hands.decisions`` holds the hand's decisions and what replays them, ``hands.events``
is NULL.  Reading the hand (:attr:`shangrao.records.StoredHand.events`) replays the decisions in the
Python engine on the hand's deal, once, when its events are first asked for, and gives exactly the
events a full record of the same hand holds.

What a hand's deal is made of, and where each part is stored:

* the hand seed ``f"{games.seed}:{hands.hand_index}"`` (as :class:`~shangrao.game.Match` seeds it),
  and ``hand_no`` = ``hands.hand_index``;
* the rules: ``games.rules`` (``RuleSet.to_dict()``);
* the dealer: ``hands.dealer``;
* the scores before the hand and the decisions: in the ``hands.decisions`` value.

The value (bytes, little-endian) is::

    offset  size      field
    0       1         format, 1
    1       32        the scores before the hand, 4 × int64 (seats 0..3)
    33      8         check: BLAKE2b-64 of the replay's inputs (below)
    41      2 × n     the n decisions, each a uint16 code ``type * 34 + kind`` (``type``: the index of
                      the action's :class:`~shangrao.game.actions.ActionType` in declaration order;
                      ``kind``: its tile kind 0..33, 0 for win, pass and catch_bao) — the compiled
                      core's codes (``shangrao.sim.events.action_code``)

about 130 bytes for a hand of 44 decisions, where its JSON-lines log is 6–10 kB.  The check covers
the rules (canonical JSON), the hand seed, ``hand_no``, the dealer, the scores and the decisions, so
an edit of any of them (the row's bytes, ``games.seed``, ``games.rules``, ``hands.dealer``) is found
before anything is shown; the replay must also end the hand with the decisions and give the stored
``hands.result`` (:func:`shangrao.records.summary.hand_summary`) exactly.  A hand that fails any of
these is a :class:`CompactHandError` naming the game and the hand, never a wrong log.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..game.actions import Action, ActionType
from .codec import RecordError

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "FORMAT",
    "CompactHandError",
    "pack_hand",
    "unpack_hand",
    "replay_check",
    "expand_hand",
    "decode_action",
    "rules_key",
]

#: the format byte of a ``hands.decisions`` value this code writes and reads
FORMAT = 1
_HEAD = struct.Struct("<B4q8s")
_TYPES = list(ActionType)
_UNTILED = (ActionType.WIN, ActionType.PASS, ActionType.CATCH_BAO)
#: one more than the largest decision code
N_CODES = len(_TYPES) * 34
_DOMAIN = b"shangrao compact hand 1\x00"


class CompactHandError(RecordError):
    """A compact hand (``hands.decisions``) that does not replay to its record: damaged bytes, an
    edited seed, rules, dealer or result, an illegal decision.  The message names the game and the
    hand (0-based index, as the records store it) and says what is wrong."""


def rules_key(rules: Any) -> bytes:
    """The canonical bytes of a game's rules for the check: ``RuleSet.to_dict()`` as sorted JSON.
    ``rules``: a :class:`~shangrao.rules.RuleSet` or its dict (``games.rules``).  Raises
    ``RuleSetError`` (a ValueError) for a dict that is not a rule set."""
    from ..rules import RuleSet

    rs = rules if isinstance(rules, RuleSet) else RuleSet.from_dict(rules)
    return json.dumps(rs.to_dict(), sort_keys=True, separators=(",", ":")).encode()


def _check(rules_bytes: bytes, hand_seed: str, hand_no: int, dealer: int, scores: Sequence[int], codes: bytes) -> bytes:
    h = hashlib.blake2b(_DOMAIN, digest_size=8)
    h.update(rules_bytes)
    h.update(b"\x00" + hand_seed.encode() + b"\x00")
    h.update(struct.pack("<qB4q", hand_no, dealer, *scores))
    h.update(codes)
    return h.digest()


def pack_hand(
    rules_bytes: bytes,
    game_seed: int | str,
    hand_no: int,
    dealer: int,
    scores: Sequence[int],
    decisions: Sequence[int] | np.ndarray,
) -> bytes:
    """The ``hands.decisions`` value of a hand (the format in the module doc).

    rules_bytes: :func:`rules_key` of the game's rules (computed once per run by the caller);
    game_seed: ``games.seed`` (the match seed); hand_no: the hand's index in the game; dealer: 0..3;
    scores: the 4 scores before the hand; decisions: the decision codes in order
    (``CoreMatchHand.decisions``, int array or sequence).  Raises :class:`RecordError` for a code
    outside ``0..N_CODES-1`` or a score beyond 64 bits."""
    codes = np.asarray(decisions)
    if codes.size and (int(codes.min()) < 0 or int(codes.max()) >= N_CODES):
        raise RecordError(f"hand {hand_no}: a decision code is outside 0..{N_CODES - 1}")
    raw = codes.astype("<u2").tobytes()
    try:
        sc = tuple(int(s) for s in scores)
        check = _check(rules_bytes, f"{game_seed}:{hand_no}", hand_no, dealer, sc, raw)
        return _HEAD.pack(FORMAT, *sc, check) + raw
    except struct.error as err:
        raise RecordError(f"hand {hand_no}: scores {list(scores)!r} cannot be stored ({err})") from None


def unpack_hand(value: Any) -> tuple[tuple[int, int, int, int], bytes, bytes]:
    """``(scores before, check, decision bytes)`` of a ``hands.decisions`` value.  Raises
    ValueError saying what is wrong with a value that is not of this format."""
    if isinstance(value, memoryview):
        value = value.tobytes()
    if not isinstance(value, (bytes, bytearray)):
        raise ValueError(f"the decisions are not bytes but {type(value).__name__}")
    if len(value) < _HEAD.size or (len(value) - _HEAD.size) % 2:
        raise ValueError(f"the decisions value has {len(value)} bytes: not {_HEAD.size} + 2 per decision")
    fmt, s0, s1, s2, s3, check = _HEAD.unpack_from(value)
    if fmt != FORMAT:
        raise ValueError(f"the decisions value is of format {fmt}; this shangrao reads format {FORMAT}")
    return (s0, s1, s2, s3), check, bytes(value[_HEAD.size :])


def decode_action(code: int) -> Action:
    """The :class:`Action` of a decision code (the compiled core's ``code_action``).  Raises
    ValueError for a code outside ``0..N_CODES-1``."""
    if not 0 <= code < N_CODES:
        raise ValueError(f"decision code {code} is outside 0..{N_CODES - 1}")
    t, k = divmod(code, 34)
    atype = _TYPES[t]
    return Action(atype) if atype in _UNTILED else Action(atype, k)


def replay_check(value: Any, game_seed: Any, rules: Any, hand_index: int, dealer: Any) -> Game:
    """The Python :class:`~shangrao.game.Game` of a compact hand after its decisions, checked: the
    value's format and check (inputs unchanged since it was written), every decision legal
    (``Game.apply``), the hand over after the last one.  Raises ValueError saying what is wrong."""
    from ..game import Game
    from ..game.actions import IllegalActionError
    from ..rules import RuleSet

    scores, check, raw = unpack_hand(value)
    if not isinstance(game_seed, int) or isinstance(game_seed, bool):
        raise ValueError(f"the game's seed is {game_seed!r}, not an integer: the deal cannot be made")
    try:
        rs = RuleSet.from_dict(rules)
    except (TypeError, ValueError) as err:
        raise ValueError(f"the game's rules do not read ({err})") from None
    if not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise ValueError(f"the dealer is not a seat 0..3: {dealer!r}")
    seed = f"{game_seed}:{hand_index}"
    if _check(rules_key(rs), seed, hand_index, dealer, scores, raw) != check:
        raise ValueError(
            "the check does not match: the decisions, the scores, the dealer, the game's "
            "seed or its rules were changed after the hand was stored"
        )
    game = Game(rs, seed=seed, dealer=dealer, scores=scores, hand_no=hand_index)
    codes = np.frombuffer(raw, dtype="<u2")
    for i, code in enumerate(codes.tolist()):
        try:
            game.apply(decode_action(code))
        except (IllegalActionError, ValueError) as err:
            raise ValueError(
                f"decision {i} of {len(codes)} does not replay: {' '.join(str(err).split())[:200]}"
            ) from None
    if game.result is None:
        raise ValueError(f"the {len(codes)} decisions end before the hand does")
    return game


def expand_hand(
    game_id: int, hand_index: int, dealer: Any, value: Any, game_seed: Any, rules: Any, result: Any
) -> list[dict[str, Any]]:
    """The events of a compact hand, as a full record of it stores them (JSON objects, the lines of
    ``hands.events`` read back): :func:`replay_check`, then the replay's summary must equal the
    stored ``result``.  Raises :class:`CompactHandError` naming the game and the hand."""
    from .codec import _dumps, event_to_dict
    from .summary import hand_summary

    try:
        game = replay_check(value, game_seed, rules, hand_index, dealer)
        events: list[dict[str, Any]] = json.loads(_dumps([event_to_dict(e) for e in game.events]))
        if json.loads(_dumps(hand_summary(game.result, game.events))) != result:
            raise ValueError("the replay's result differs from the stored result")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecordError) as err:
        raise CompactHandError(
            f"game {game_id}, hand {hand_index} (0-based): the compact record does not replay: {err}"
        ) from None
    return events
