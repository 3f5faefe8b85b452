"""Dataset rows in the compiled core: the decisions of hands the core played, encoded without Python.

:func:`encode_hands` takes hands of :func:`~shangrao.sim.play.iter_match_hands` (seed, dealer, scores,
hand number, every decision's code) and replays them in one compiled call, writing for each decision
with more than one legal action (the ones a bot is asked) the row ``shangrao dataset`` writes: the
deciding seat's planes (:func:`shangrao.sim.vector._planes`, ``encode_observation`` value for value,
with the match's ``hands_left``), the legal flat actions, the flat action recorded and the seat.  The
recorded action is the one played, or — with a labeller (``label``: ``random``, ``greedy``, ``ukeire``
or a ``search`` spec) — that core bot's choice in the same position (DAgger labels), its seat ``i``
seeded as ``get_bot(label, seed=f"{match_seed}:label:{i}")`` is on the Python engine.  The rows are
the Python path's (``shangrao.data.write``'s :class:`~shangrao.data.write.DecisionRecorder`) byte for
byte: ``tests/sim/test_record.py``.

>>> from shangrao.sim.play import iter_match_hands
>>> from shangrao.sim.record import encode_hands
>>> hands = list(iter_match_hands([7], [1], ["random"] * 4))
>>> rows = encode_hands(hands)
>>> rows["planes"].shape[1:], bool((rows["action"] >= 0).all())
((20, 34), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ..rules import DEFAULT_RULES, RuleSet
from . import core as C
from . import search as SR
from .kernels import tables
from .rules import encode_rules
from .vector import _S_HANDS_LEFT, _SC, N_ACTIONS, N_PLANES, _flat_of, _planes

__all__ = ["LABEL_NONE", "LABELLERS", "encode_hands", "encode_kernel", "label_kernel"]

#: ``label`` code of :func:`encode_kernel` for "record the action played"
LABEL_NONE = -1
#: the core bots that label: name -> core bot code (``search`` for every ``search:OPT...`` spec)
LABELLERS = {**{k: v for k, v in C.CORE_BOTS.items() if k != "external"}, "search": SR.BOT_SEARCH}


@njit(cache=True)
def encode_kernel(
    rules: C.Rules,
    tb: C.Tables,
    bot_rules: C.Rules,
    hand_keys: npt.NDArray[np.uint32],
    hand_klen: npt.NDArray[np.int64],
    dealers: npt.NDArray[np.int64],
    scores: npt.NDArray[np.int64],
    hand_nos: npt.NDArray[np.int64],
    hands_left: npt.NDArray[np.int64],
    match_of: npt.NDArray[np.int64],
    dec: C.Codes,
    dec_off: npt.NDArray[np.int64],
    label: int,
    label_mts: npt.NDArray[np.uint32],
    params: SR.Params,
    lr: npt.NDArray[np.float64],
    planes: npt.NDArray[np.int8],
    mask: npt.NDArray[np.int8],
    action: npt.NDArray[np.int16],
    seat: npt.NDArray[np.int8],
    row_off: npt.NDArray[np.int64],
) -> int:
    """Replay hand ``h`` (its seed key ``hand_keys[h, :hand_klen[h]]``, ``dealers[h]``, ``scores[h]``,
    ``hand_nos[h]``, decisions ``dec[dec_off[h]:dec_off[h + 1]]``) and write its rows from
    ``row_off[h]`` to ``row_off[h + 1]``.  ``label``: :data:`LABEL_NONE` or a core bot code (the
    labeller of seat ``s`` of match ``match_of[h]`` draws from ``label_mts[match_of[h], s]``).
    Returns 0, or ``1 + h`` for a hand whose decisions do not replay (an illegal code or a hand not over)."""
    st = np.zeros(C.STATE_SIZE, dtype=np.int64)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=np.int64)
    buf = np.zeros(48, dtype=np.int32)
    v = np.zeros(SR.V_SIZE, dtype=np.int64)
    vals = np.zeros(48, dtype=np.float64)
    ses = np.zeros(48, dtype=np.float64)
    no_wall = np.full(136, -1, dtype=np.int32)
    no_dice = np.zeros(2, dtype=np.int32)
    r = 0
    row_off[0] = 0
    for h in range(dealers.shape[0]):
        C.new_hand(
            st, ev, rules, tb, hand_keys[h, : hand_klen[h]], dealers[h], scores[h], hand_nos[h], no_wall, no_dice
        )
        mts = label_mts[match_of[h]]
        for j in range(dec_off[h], dec_off[h + 1]):
            if st[C._O_PHASE] == C.P_OVER:
                return 1 + h
            a = dec[j]
            n = C.legal(st, rules, tb, buf)
            ok = False
            offered = False
            for i in range(n):
                if buf[i] == a:
                    ok = True
                if buf[i] == C.A_WIN and st[C._O_PHASE] == C.P_ACT:
                    offered = True
            if not ok:
                return 1 + h
            if n > 1:
                me = st[C._O_CUR]
                _planes(st, me, planes[r])
                hl = hands_left[h]
                planes[r, _SC, _S_HANDS_LEFT] = 0 if hl < 0 else (127 if hl > 127 else hl)
                for f in range(N_ACTIONS):
                    mask[r, f] = 0
                for i in range(n):
                    mask[r, _flat_of(st, buf[i])] = 1
                lab = a
                if label == C.BOT_RANDOM:
                    lab = buf[C.mt_below(mts[me], n)]
                elif label == C.BOT_GREEDY or label == C.BOT_UKEIRE:
                    lab = C._greedy(st, tb, bot_rules, me, buf, n, label == C.BOT_UKEIRE)
                elif label == SR.BOT_SEARCH:
                    SR.view_of(st, me, v)
                    word = C.mt_next(mts[me])
                    lab = SR.search(v, buf, n, bot_rules, tb, bot_rules, word, params, lr, vals, ses)
                action[r] = _flat_of(st, lab)
                seat[r] = me
                r += 1
            C.push(st, ev, rules, tb, a, offered)
        if st[C._O_PHASE] != C.P_OVER:
            return 1 + h
        row_off[h + 1] = r
    return 0


@njit(cache=True)
def label_kernel(
    states: npt.NDArray[np.int64],
    rules: C.Rules,
    tb: C.Tables,
    bot_rules: C.Rules,
    label: int,
    mts: npt.NDArray[np.uint32],
    params: SR.Params,
    lr: npt.NDArray[np.float64],
    out: npt.NDArray[np.int64],
) -> None:
    """``out[i]``: the flat action the core bot ``label`` picks for the deciding seat ``s`` of game
    ``states[i]`` (its stream ``mts[i, s]``); a single legal action without asking, as the core."""
    buf = np.zeros(48, dtype=np.int32)
    v = np.zeros(SR.V_SIZE, dtype=np.int64)
    vals = np.zeros(48, dtype=np.float64)
    ses = np.zeros(48, dtype=np.float64)
    for i in range(states.shape[0]):
        st = states[i]
        n = C.legal(st, rules, tb, buf)
        me = st[C._O_CUR]
        lab = buf[0]
        if n > 1:
            if label == C.BOT_RANDOM:
                lab = buf[C.mt_below(mts[i, me], n)]
            elif label == SR.BOT_SEARCH:
                SR.view_of(st, me, v)
                word = C.mt_next(mts[i, me])
                lab = SR.search(v, buf, n, bot_rules, tb, bot_rules, word, params, lr, vals, ses)
            else:
                lab = C._greedy(st, tb, bot_rules, me, buf, n, label == C.BOT_UKEIRE)
        out[i] = _flat_of(st, lab)


def encode_hands(hands: Sequence[Any], rules: RuleSet = DEFAULT_RULES, label: str | None = None) -> dict[str, Any]:
    """The dataset rows of ``hands`` (:class:`~shangrao.sim.play.CoreMatchHand`\\ s, played with
    ``rules``), encoded in one compiled call: ``planes`` int8 ``[R, 20, 34]``, ``mask`` int8 ``[R, 110]``,
    ``action`` int16 ``[R]`` (the action played, or ``label``'s choice), ``seat`` int8 ``[R]`` and
    ``row_off`` int64 ``[H + 1]`` (hand ``h``'s rows are ``row_off[h]:row_off[h + 1]``).  ``hands_left``
    is ``rules.hands_per_match - hand_no``, as the Python recorder writes it.  ``label``: None or a core
    bot spec (``random``, ``greedy``, ``ukeire``, ``search[:OPT]...``), seat ``s`` of match seed ``M``
    seeded ``f"{M}:label:{s}"``.  Raises ``ValueError`` for another labeller or a hand that does not replay."""
    nh = len(hands)
    code = LABEL_NONE
    params = SR.default_params()
    if label is not None:
        name = str(label).strip().lower()
        base = "search" if name.startswith("search:") else name
        if base not in LABELLERS:
            raise ValueError(f"label: {label!r} is not a core bot ({', '.join(LABELLERS)})")
        code = LABELLERS[base]
        if base == "search":
            from ..bots.search import search_params

            params = search_params(name)
    matches = list(dict.fromkeys(h.match_seed for h in hands))
    mindex = {m: i for i, m in enumerate(matches)}
    label_mts = np.zeros((max(len(matches), 1), 4, 625), dtype=np.uint32)
    if code != LABEL_NONE:
        for i, m in enumerate(matches):
            for s in range(4):
                C.mt_seed(label_mts[i, s], C.seed_key(f"{m}:label:{s}"))
    hk, hl = C.seed_keys([h.hand_seed for h in hands])
    dealers = np.array([h.dealer for h in hands], dtype=np.int64)
    scores = np.array([h.scores for h in hands], dtype=np.int64).reshape(nh, 4)
    hand_nos = np.array([h.hand_no for h in hands], dtype=np.int64)
    left = rules.hands_per_match - hand_nos
    match_of = np.array([mindex[h.match_seed] for h in hands], dtype=np.int64)
    dec_off = np.zeros(nh + 1, dtype=np.int64)
    dec_off[1:] = np.cumsum([len(h.decisions) for h in hands])
    dec = np.concatenate([np.asarray(h.decisions, dtype=np.int32) for h in hands]) if nh else np.zeros(0, np.int32)
    total = int(dec_off[-1])
    planes = np.zeros((total, N_PLANES, 34), dtype=np.int8)
    mask = np.zeros((total, N_ACTIONS), dtype=np.int8)
    action = np.zeros(total, dtype=np.int16)
    seat = np.zeros(total, dtype=np.int8)
    row_off = np.zeros(nh + 1, dtype=np.int64)
    kernel: Any = encode_kernel
    bad = kernel(
        encode_rules(rules),
        tables(),
        C.BOT_RULES,
        hk,
        hl,
        dealers,
        scores,
        hand_nos,
        left,
        match_of,
        dec,
        dec_off,
        code,
        label_mts,
        params,
        SR.weights_for(params),
        planes,
        mask,
        action,
        seat,
        row_off,
    )
    if bad:
        raise ValueError(f"hand {hands[bad - 1].hand_seed}: its decisions do not replay in the core")
    n = int(row_off[-1])
    return {"planes": planes[:n], "mask": mask[:n], "action": action[:n], "seat": seat[:n], "row_off": row_off}
