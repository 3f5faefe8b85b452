"""The analysis entry points: wins, readings, waits and shanten of one hand with 宝 (wildcards).

Seed clauses: 糊牌的规定 2 (基本牌型 AA XXX XXX XXX XXX, 七对, 十三浪, 九幺) and
宝 ("宝可以代替任何一张牌").  A 宝 is a wildcard only in the concealed hand;
a 宝 in a declared meld is just its face, and a 宝 in hand may also stand for
its own face.  A 宝 may stand for any kind, even one whose four copies are
all in sight (docs/rules.md, "宝 as a fifth copy").

Fast entry points take ``tiles_34`` (length-34 counts of the concealed hand,
宝 tiles included) and ``bao`` (the 宝 kind 0..33, or None):

>>> from shangrao.tiles import parse_tiles, to_34
>>> is_winning(to_34(parse_tiles("123m456p789s111z2z5m")), bao=None)
False
>>> shanten(to_34(parse_tiles("123m456p789s111z2z")), bao=None)
0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..errors import InputError
from ..melds import Meld
from ..tiles import NUM_KINDS, TERMINALS_AND_HONORS, check_bao, check_kind, format_tile, tile_name, validate_tiles_34
from .availability import available_deficits, check_unseen
from .readings import Form, Group, Reading, enumerate_readings
from .shapes import jiuyao_overlap, seven_pairs_overlap, shisanlang_overlap, standard_overlap
from .tables import (
    _HONORS_B,
    _SUITS_B,
    NEED0,
    PAIR,
    Entry,
    N,
    _entry_b,
    deficits_entries,
    entries_34,
    is_win_entries,
    shanten_entries,
)

__all__ = [
    "HandError",
    "CopyLimitError",
    "Form",
    "Group",
    "Reading",
    "Analysis",
    "is_winning",
    "shanten",
    "form_shanten",
    "waits",
    "waits_after_discards",
    "winning_forms",
    "enumerate_readings",
    "is_baodiao_state",
    "INFINITE_SHANTEN",
    "unseen_counts",
]


class HandError(InputError):
    """A ``tiles_34`` vector, 宝 or meld list that is not a hand: says what is wrong (a ValueError)."""


class CopyLimitError(HandError):
    """The hand and its declared melds hold more than four copies of a kind (a ValueError):
    raised by every entry point given the melds themselves, as by :func:`shangrao.analyze`."""


#: shanten reported for a form the hand can never reach (e.g. 七对 with a declared meld)
INFINITE_SHANTEN = 99


def _melds_info(declared_melds: int | Sequence[Meld]) -> tuple[int, bool]:
    """(number of declared melds, whether they allow 九幺)."""
    if isinstance(declared_melds, int) and not isinstance(declared_melds, bool):
        n = declared_melds
        if not 0 <= n <= 4:
            raise HandError(f"declared_melds must be 0..4, got {n}")
        return n, n == 0
    if isinstance(declared_melds, (str, bytes)) or not isinstance(declared_melds, Iterable):
        raise TypeError(f"declared_melds must be a count 0..4 or a list of Meld, got {type(declared_melds).__name__}")
    melds = list(declared_melds)
    if len(melds) > 4:
        raise HandError(f"at most 4 declared melds, got {len(melds)}")
    for m in melds:
        if not isinstance(m, Meld):
            raise TypeError(
                f"declared_melds must hold Meld objects, got {m!r}; "
                "read 'pung:555p' with shangrao.parse_meld (or pass it to shangrao.analyze)"
            )
    return len(melds), all(t in TERMINALS_AND_HONORS for m in melds for t in m.tiles)


def _args(tiles_34: Sequence[int], bao: int | None) -> tuple[list[int], int | None]:
    """The entry points' check of ``tiles_34`` and ``bao``: a list of 34 plain ints 0..4 and a
    plain int kind or None.  numpy integers are accepted; floats (even integral), bools,
    strings, mappings and None are refused with :class:`HandError`."""
    counts = validate_tiles_34(tiles_34, "hand", HandError)
    try:
        return counts, check_bao(bao)
    except InputError as err:
        raise HandError(str(err)) from None


def _split(tiles_34: Sequence[int], bao: int | None) -> tuple[list[int], int]:
    if len(tiles_34) != NUM_KINDS:
        raise HandError(f"tiles_34 must have 34 entries, got {len(tiles_34)}")
    real = list(tiles_34)
    if bao is None:
        return real, 0
    w = real[bao]
    real[bao] = 0
    return real, w


#: declared melds as the entry points take them: a count, or the melds (九幺 with melds needs them)
DeclaredMelds: TypeAlias = int | Sequence[Meld]
#: what :func:`_prepare` returns: the four entries, the 宝 count, melds still to make, 九幺 possible
Prepared: TypeAlias = tuple[Entry, Entry, Entry, Entry, int, int, bool]


def _entries(tiles_34: Sequence[int], bao: int | None) -> tuple[Entry, Entry, Entry, Entry, int]:
    """Table entries of the real tiles and the 宝 count; clear errors for bad input."""
    cls = tiles_34.__class__
    if (
        (cls is list or cls is tuple)
        and len(tiles_34) == NUM_KINDS
        and (bao is None or (bao.__class__ is int and 0 <= bao < NUM_KINDS))
    ):
        try:
            return entries_34(tiles_34, bao)
        except (TypeError, ValueError):
            pass
    return entries_34(*_args(tiles_34, bao))


def _check_copies(tiles_34: Sequence[int], melds: Sequence[Meld], what: str) -> None:
    """:class:`CopyLimitError` when the hand (checked counts) and the melds hold more than four copies
    of a kind."""
    in_melds: dict[int, int] = {}
    for m in melds:
        for t in m.tiles:
            in_melds[t] = in_melds.get(t, 0) + 1
    for k, n in in_melds.items():
        c = tiles_34[k] + n
        if c > 4:
            raise CopyLimitError(
                f"{what}: the hand and the declared melds hold {c} copies of {format_tile(k)} "
                f"({tile_name(k)}); there are only 4"
            )


def _prepare(
    tiles_34: Sequence[int], bao: int | None, declared_melds: DeclaredMelds, sizes: tuple[int, ...], what: str
) -> Prepared:
    n_melds, jiuyao_ok = _melds_info(declared_melds)
    e0, e1, e2, e3, w = _entries(tiles_34, bao)
    m = 4 - n_melds
    size = e0[N] + e1[N] + e2[N] + e3[N] + w
    if size - 3 * m not in sizes:
        want = " or ".join(str(3 * m + s) for s in sizes)
        raise HandError(f"{what}: a hand with {n_melds} declared meld(s) has {want} concealed tiles, got {size}")
    if n_melds and not isinstance(declared_melds, int):
        _check_copies(tiles_34, declared_melds, what)  # the counts passed _entries' checks
    return e0, e1, e2, e3, w, m, jiuyao_ok


#: the types of a plain ``tiles_34`` list: 34 ``int`` (a ``bool`` is refused, as by :func:`_prepare`)
_INTS_34 = [int] * 34


def _fast_prepare(tiles_34: Sequence[int], bao: int | None, declared_melds: DeclaredMelds) -> Prepared | None:
    """:func:`_prepare` for plain arguments (a count of melds 0..4, a list or tuple of 34 ``int``
    counts 0..4, 宝 None or 0..33), with no size check (the caller checks ``3*m + extra``); None
    for anything else, which then goes through :func:`_prepare` for its clear error message.
    One call, the checks once: the public scalar calls' hot path (docs/performance.md)."""
    cls = tiles_34.__class__
    if (
        declared_melds.__class__ is not int
        or not 0 <= declared_melds <= 4
        or (cls is not list and cls is not tuple)
        or len(tiles_34) != 34
        or [*map(type, tiles_34)] != _INTS_34
    ):  # True == 1: refused by _prepare
        return None
    try:
        if bao is None:
            w = 0
            b = bytes(tiles_34)  # ValueError outside 0..255
        elif bao.__class__ is int and 0 <= bao < 34:
            w = tiles_34[bao]
            if w:
                ba = bytearray(tiles_34)
                ba[bao] = 0
                b = bytes(ba)
            else:
                b = bytes(tiles_34)
        else:
            return None
        k0 = b[0:9]
        k1 = b[9:18]
        k2 = b[18:27]
        k3 = b[27:34]
        s = _SUITS_B
        h = _HONORS_B
        e0 = s.get(k0) or _entry_b(k0, False)  # InputError (a ValueError) for a count above 4
        e1 = s.get(k1) or _entry_b(k1, False)
        e2 = s.get(k2) or _entry_b(k2, False)
        e3 = h.get(k3) or _entry_b(k3, True)
    except ValueError:
        return None
    m = 4 - declared_melds
    return e0, e1, e2, e3, w, m, m == 4


def form_deficits(tiles_34: Sequence[int], bao: int | None, declared_melds: DeclaredMelds) -> dict[Form, int]:
    """Tiles lacking to complete each reachable form (0 = complete)."""
    n_melds, jiuyao_ok = _melds_info(declared_melds)
    e0, e1, e2, e3, w = _entries(tiles_34, bao)
    std, sp, sl, jy = deficits_entries(e0, e1, e2, e3, w, 4 - n_melds, jiuyao_ok)
    out = {Form.STANDARD: std}
    if sp is not None and sl is not None:
        out[Form.SEVEN_PAIRS] = sp
        out[Form.SHISANLANG] = sl
    if jy is not None:
        out[Form.JIUYAO] = jy
    return out


def form_deficits_plain(tiles_34: Sequence[int], bao: int | None, declared_melds: DeclaredMelds) -> dict[Form, int]:
    """:func:`form_deficits` by the plain recursive decomposition (:mod:`.shapes`), any counts."""
    n_melds, jiuyao_ok = _melds_info(declared_melds)
    real, w = _split(tiles_34, bao)
    m = 4 - n_melds
    target = 3 * m + 2
    out = {Form.STANDARD: target - min(target, standard_overlap(real, m) + w)}
    if m == 4:
        out[Form.SEVEN_PAIRS] = 14 - min(14, seven_pairs_overlap(real) + w)
        out[Form.SHISANLANG] = 14 - min(14, shisanlang_overlap(real) + w)
    if jiuyao_ok:
        out[Form.JIUYAO] = target - min(target, jiuyao_overlap(real) + w)
    return out


def _check_size(tiles_34: Sequence[int], n_melds: int, sizes: tuple[int, ...], what: str) -> int:
    size = sum(tiles_34)
    if size - 3 * (4 - n_melds) not in sizes:
        want = " or ".join(str(3 * (4 - n_melds) + s) for s in sizes)
        raise HandError(f"{what}: a hand with {n_melds} declared meld(s) has {want} concealed tiles, got {size}")
    return size


def winning_forms(tiles_34: Sequence[int], bao: int | None, declared_melds: int | Sequence[Meld] = 0) -> list[Form]:
    """Forms in which a complete hand (``3*(4-melds)+2`` tiles) wins; [] if none.

    Raises ``ValueError`` for a wrong tile count.
    """
    tiles_34, bao = _args(tiles_34, bao)
    _prepare(tiles_34, bao, declared_melds, (2,), "winning_forms")
    return [f for f, d in form_deficits(tiles_34, bao, declared_melds).items() if d == 0]


def is_winning(tiles_34: Sequence[int], bao: int | None, declared_melds: int | Sequence[Meld] = 0) -> bool:
    """Whether a complete concealed hand is a win in any form (糊牌的规定 2).

    tiles_34: length-34 counts (ints 0..4) of the concealed hand, 宝 included;
    ``sum == 3*(4-declared)+2``.  bao: the 宝 kind or None.
    declared_melds: the number of declared melds, or the melds themselves.
    With a number, 九幺 is considered only when it is 0 (pass the melds to
    let a 九幺 with terminal/honor melds count).

    Table-driven (:mod:`shangrao.analysis.tables`).  Raises ``ValueError`` for
    a wrong tile count or a bad argument, :class:`CopyLimitError` when the hand and the given
    melds hold more than four copies of a kind (with a count of melds there is nothing to check
    across: the fast path).
    """
    # the plain case inline, its checks once (the hot path of the public call; _fast_prepare's steps):
    # a count of melds 0..4, a list or tuple of 34 ``int`` counts 0..4, 宝 None or 0..33
    cls = tiles_34.__class__
    if (
        declared_melds.__class__ is int
        and 0 <= declared_melds <= 4
        and (cls is list or cls is tuple)
        and len(tiles_34) == 34
        and [*map(type, tiles_34)] == _INTS_34
        and (bao is None or (bao.__class__ is int and 0 <= bao < 34))
    ):
        try:
            if bao is not None and tiles_34[bao]:
                w = tiles_34[bao]
                ba = bytearray(tiles_34)
                ba[bao] = 0
                b = bytes(ba)
            else:
                w = 0
                b = bytes(tiles_34)  # ValueError outside 0..255
            k0 = b[0:9]
            k1 = b[9:18]
            k2 = b[18:27]
            k3 = b[27:34]
            s = _SUITS_B
            try:
                e0 = s[k0]
                e1 = s[k1]
                e2 = s[k2]
                e3 = _HONORS_B[k3]
            except KeyError:  # a suit not met yet: its entry made (InputError, a ValueError, for a count above 4)
                e0 = s.get(k0) or _entry_b(k0, False)
                e1 = s.get(k1) or _entry_b(k1, False)
                e2 = s.get(k2) or _entry_b(k2, False)
                e3 = _HONORS_B.get(k3) or _entry_b(k3, True)
        except ValueError:
            e0 = None
        m = 4 - declared_melds
        if e0 is not None and e0[N] + e1[N] + e2[N] + e3[N] + w == 3 * m + 2:
            # the standard form first (most wins): :func:`~.tables.need_standard`
            t = w - e0[NEED0] - e1[NEED0] - e2[NEED0] - e3[NEED0]  # need_standard <= w, without a call to min
            if e0[PAIR] <= t or e1[PAIR] <= t or e2[PAIR] <= t or e3[PAIR] <= t:
                return True
            return is_win_entries(e0, e1, e2, e3, w, m, m == 4)
    return is_win_entries(*_prepare(*_args(tiles_34, bao), declared_melds, (2,), "is_winning"))


def form_shanten(
    tiles_34: Sequence[int],
    bao: int | None,
    declared_melds: int | Sequence[Meld] = 0,
    *,
    unseen: Sequence[int] | None = None,
) -> dict[Form, int]:
    """Shanten in each form (-1 complete, 0 ready); forms out of reach get ``INFINITE_SHANTEN``.

    tiles_34 holds ``3*(4-declared)+1`` or ``+2`` tiles.  unseen: optional length-34
    counts of copies not in sight (see :func:`shanten`).  Raises ``ValueError`` otherwise.
    """
    _prepare(tiles_34, bao, declared_melds, (1, 2), "shanten")
    d: dict[Form, int | None]
    if unseen is None:
        d = dict(form_deficits(tiles_34, bao, declared_melds))
    else:
        d = _available(tiles_34, bao, declared_melds, unseen)
    return {f: (v - 1 if (v := d.get(f)) is not None else INFINITE_SHANTEN) for f in Form}


def _available(
    tiles_34: Sequence[int], bao: int | None, declared_melds: DeclaredMelds, unseen: Sequence[int]
) -> dict[Form, int | None]:
    n_melds, jiuyao_ok = _melds_info(declared_melds)
    u = check_unseen(unseen, tiles_34)
    d = available_deficits(list(tiles_34), bao, u, 4 - n_melds, jiuyao_ok)
    return {Form(k): v for k, v in d.items()}


def unseen_counts(
    tiles_34: Sequence[int], melds: Sequence[Meld] = (), indicator: int | None = None, seen: Sequence[int] = ()
) -> list[int]:
    """Copies of each kind not in sight: 4 less the hand, the melds, the indicator (out of
    play, R1) and ``seen`` (kinds of other visible tiles: ponds, other players' melds).

    Returns length-34 counts 0..4.  Raises :class:`HandError` (a ``ValueError``) naming the
    kind when the tiles in sight hold more than four copies of it (an impossible hand), or
    for a bad ``tiles_34``, indicator or seen kind; ``TypeError`` for melds that are not Meld.
    """
    count, _ = _args(tiles_34, None)
    _melds_info(melds)
    try:
        ind = None if indicator is None else check_kind(indicator, "indicator")
        if isinstance(seen, (str, bytes)) or not isinstance(seen, Iterable):
            raise HandError(f"seen must be a list of kinds 0..33, got {type(seen).__name__}")
        seen = [check_kind(k, "seen: a kind") for k in seen]
    except InputError as err:
        raise HandError(str(err)) from None
    parts = ["the hand"]
    for m in melds:
        for t in m.tiles:
            count[t] += 1
    if melds:
        parts.append("the melds")
    if ind is not None:
        count[ind] += 1
        parts.append("the indicator")
    for k in seen:
        count[k] += 1
    if seen:
        parts.append("the tiles seen")
    for k, c in enumerate(count):
        if c > 4:
            raise HandError(f"{' + '.join(parts)} hold {c} {format_tile(k)} ({tile_name(k)}); there are only 4")
    return [4 - c for c in count]


def shanten(
    tiles_34: Sequence[int],
    bao: int | None,
    declared_melds: int | Sequence[Meld] = 0,
    *,
    unseen: Sequence[int] | None = None,
) -> int:
    """Shanten across all forms, wildcards included: -1 complete, 0 ready (听牌), ….

    tiles_34: length-34 counts of a concealed hand of ``3*(4-declared)+1`` or
    ``+2`` tiles, 宝 included.  Table-driven.  Raises ``ValueError`` for a
    wrong tile count, :class:`CopyLimitError` for more than four copies of a kind
    across the hand and the melds (when the melds are given).

    Ready means what :func:`waits` says (issue 22): a kind whose four copies are all in
    the hand and the melds cannot be drawn, so ``123456789m1111z`` without 宝 — only a
    fifth 东 would complete it — is 1, not 0, and ``shanten(h) == 0`` exactly when
    ``waits(h)`` is not empty (for a hand of ``+2`` tiles: when some discard leaves a
    wait).  Farther from ready the count is the tables' (copy-blind, as
    :func:`form_shanten` without ``unseen``).

    unseen: optional length-34 counts (ints 0..4) of the copies the player has not
    seen (:func:`unseen_counts`, ``Observation.unseen()``): then only tiles that can
    still be drawn count (:mod:`.availability`, slower), at every distance.
    ``INFINITE_SHANTEN`` if no form can be reached.
    """
    p = _fast_prepare(tiles_34, bao, declared_melds)
    if p is None or not 1 <= p[0][N] + p[1][N] + p[2][N] + p[3][N] + p[4] - 3 * p[5] <= 2:
        tiles_34, bao = _args(tiles_34, bao)
        p = _prepare(tiles_34, bao, declared_melds, (1, 2), "shanten")
    s = shanten_entries(*p)
    if unseen is not None and s >= 0:
        return min(form_shanten(tiles_34, bao, declared_melds, unseen=unseen).values())
    if s == 0 and (4 in tiles_34 or not isinstance(declared_melds, int)):
        return _ready_or_more(list(tiles_34), bao, declared_melds)
    return s


def _ready_or_more(tiles_34: list[int], bao: int | None, declared_melds: DeclaredMelds) -> int:
    """The tables call the hand ready; 0 if a wait can still be drawn (as :func:`waits` counts:
    the hand and the melds hold fewer than four copies of it), else the shanten with only the
    hand's and the melds' own copies out of reach (≥ 1)."""
    held = list(tiles_34)
    if not isinstance(declared_melds, int):
        for m in declared_melds:
            for t in m.tiles:
                held[t] += 1
    if 4 not in held:
        return 0  # every kind has a copy left: the tables' wait is real
    if sum(tiles_34) % 3 == 1:
        if waits(tiles_34, bao, declared_melds):
            return 0
    else:
        for k in range(NUM_KINDS):
            if tiles_34[k]:
                tiles_34[k] -= 1
                found = waits(tiles_34, bao, declared_melds)
                tiles_34[k] += 1
                if found:
                    return 0
    return min(form_shanten(tiles_34, bao, declared_melds, unseen=[4 - h for h in held]).values())


def waits(
    tiles_34: Sequence[int],
    bao: int | None,
    declared_melds: int | Sequence[Meld] = 0,
    *,
    exclude_dead: bool = True,
    unseen: Sequence[int] | None = None,
) -> dict[int, list[Form]]:
    """Kinds that complete a hand one tile short, with the forms each completes.

    tiles_34: concealed hand of ``3*(4-declared)+1`` tiles.  Drawing the 宝
    kind adds a wildcard.  With ``exclude_dead`` a kind of which the hand and
    melds already hold all four copies is left out (it cannot be drawn).
    unseen: optional length-34 counts of copies not in sight (:func:`unseen_counts`);
    a kind with none left is left out (e.g. the indicator's fourth copy, R1).

    Returns ``{kind: [Form, ...]}`` in kind order.  Raises ``ValueError`` for
    a wrong tile count, :class:`CopyLimitError` for a fifth copy across hand and the given melds.
    :func:`shanten` is 0 exactly when this is not empty.
    """
    _n_melds, _ = _melds_info(declared_melds)
    tiles_34, bao = _args(tiles_34, bao)
    _prepare(tiles_34, bao, declared_melds, (1,), "waits")
    live = None if unseen is None else check_unseen(unseen, tiles_34)
    held = list(tiles_34)
    if not isinstance(declared_melds, int):
        for m in declared_melds:
            for t in m.tiles:
                held[t] += 1
    out: dict[int, list[Form]] = {}
    hand = list(tiles_34)
    for k in range(NUM_KINDS):
        if (exclude_dead and held[k] >= 4) or (live is not None and not live[k]):
            continue
        hand[k] += 1
        # a fifth copy (only asked for with exclude_dead=False) is beyond the tables
        deficits = (
            form_deficits(hand, bao, declared_melds) if hand[k] <= 4 else form_deficits_plain(hand, bao, declared_melds)
        )
        forms = [f for f, d in deficits.items() if d == 0]
        hand[k] -= 1
        if forms:
            out[k] = forms
    return out


def waits_after_discards(
    tiles_34: Sequence[int],
    bao: int | None,
    declared_melds: int | Sequence[Meld] = 0,
    discards: Iterable[int] | None = None,
    *,
    unseen: Sequence[int] | None = None,
) -> dict[int, dict[int, list[Form]]]:
    """What each discard leaves the hand waiting on: ``{discarded kind: {wait kind: [Form, ...]}}``.

    tiles_34: a concealed hand of ``3*(4-declared)+2`` tiles (one to discard).  discards: the kinds
    to try (default: every kind held).  unseen: as for :func:`waits` (waits with no copy left in
    sight are left out).  Only discards that leave the hand ready are listed.  Raises ``ValueError``
    for a wrong tile count.  The CLI's action list and the web view show these.
    """
    hand, bao = _args(tiles_34, bao)
    _prepare(hand, bao, declared_melds, (2,), "waits_after_discards")
    if discards is None:
        kinds = [k for k in range(NUM_KINDS) if hand[k]]
    elif isinstance(discards, (str, bytes)) or not isinstance(discards, Iterable):
        raise TypeError(f"discards must be kinds 0..33 or None, got {type(discards).__name__}")
    else:
        kinds = sorted({check_kind(k, "discards: a kind") for k in discards})
    out: dict[int, dict[int, list[Form]]] = {}
    for k in kinds:
        if not hand[k]:
            continue
        hand[k] -= 1
        try:
            w = waits(hand, bao, declared_melds, unseen=unseen)
        finally:
            hand[k] += 1
        if w:
            out[k] = w
    return out


def is_baodiao_state(tiles_34: Sequence[int], bao: int | None, declared_melds: int | Sequence[Meld] = 0) -> bool:
    """宝吊 state (宝吊头, D5): the hand before the draw, less one 宝, is complete melds.

    tiles_34: the concealed hand before the winning draw, ``3*(4-declared)+1``
    tiles.  True when it holds a 宝 and, with one 宝 set aside as the pair's
    half, the rest splits into complete melds (other 宝 may act).  From this
    state any drawn tile wins.  Raises ``ValueError`` for a wrong tile count,
    :class:`CopyLimitError` for a fifth copy across hand and the given melds.
    """
    tiles_34, bao = _args(tiles_34, bao)
    e0, e1, e2, e3, w, _m, _ = _prepare(tiles_34, bao, declared_melds, (1,), "is_baodiao_state")
    if bao is None:
        return False
    # melds only: the fewest 宝 completing the real tiles into melds must leave the one 宝 over
    need: int = e0[NEED0] + e1[NEED0] + e2[NEED0] + e3[NEED0]
    return w > 0 and need <= w - 1


@dataclass
class Analysis:
    """Result of :func:`shangrao.analyze`.

    tiles_34: the concealed hand; bao: the 宝 kind; melds: declared melds.
    winning: complete and a win; readings: every reading (when complete);
    waits: ``{kind: [Form]}`` when one tile short; shanten: across forms;
    form_shanten: per form; baodiao: in the 宝吊 state (hand one tile short).
    """

    tiles_34: list[int]
    bao: int | None
    melds: list[Meld]
    winning: bool
    readings: list[Reading] = field(default_factory=list)
    waits: dict[int, list[Form]] = field(default_factory=dict)
    shanten: int = INFINITE_SHANTEN
    form_shanten: dict[Form, int] = field(default_factory=dict)
    baodiao: bool = False

    @property
    def forms(self) -> list[Form]:
        return sorted({r.form for r in self.readings}, key=list(Form).index)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winning": self.winning,
            "forms": [f.value for f in self.forms],
            "readings": [r.to_dict() for r in self.readings],
            "waits": [
                {"tile": format_tile(k), "name": tile_name(k), "forms": [f.value for f in fs]}
                for k, fs in self.waits.items()
            ],
            "shanten": self.shanten,
            "form_shanten": {f.value: s for f, s in self.form_shanten.items()},
            "baodiao": self.baodiao,
        }


def validate_hand(tiles_34: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The counts of a concealed hand checked for analysis: 34 ints 0..4, at most four copies
    across hand and melds, ``3*(4-len(melds))+1`` or ``+2`` tiles.  Raises ``ValueError``."""
    from ..tiles import validate_tiles_34

    if len(melds) > 4:
        raise HandError(f"at most 4 declared melds, got {len(melds)}")
    counts = validate_tiles_34(tiles_34)
    total = list(counts)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    validate_tiles_34(total, "hand and melds together", CopyLimitError)
    _check_size(counts, len(melds), (1, 2), "hand")
    return counts


def analyze_34(
    tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld] = (), *, unseen: Sequence[int] | None = None
) -> Analysis:
    """Full analysis of a concealed hand of ``3*(4-len(melds))+1`` or ``+2`` tiles.

    unseen: optional copies not in sight (:func:`unseen_counts`); then waits and
    shanten count only tiles that can still be drawn.
    Raises ``ValueError`` for a wrong tile count or more than four copies of a kind
    across hand and melds.
    """
    counts, bao = _args(tiles_34, bao)
    counts = validate_hand(counts, melds)
    n = len(melds)
    fs = form_shanten(counts, bao, melds, unseen=unseen)
    result = Analysis(
        tiles_34=counts, bao=bao, melds=list(melds), winning=False, shanten=min(fs.values()), form_shanten=fs
    )
    if sum(counts) == 3 * (4 - n) + 2:
        result.readings = enumerate_readings(counts, bao, melds)
        result.winning = bool(result.readings)
    else:
        result.waits = waits(counts, bao, melds, unseen=unseen)
        result.baodiao = is_baodiao_state(counts, bao, melds)
    return result
