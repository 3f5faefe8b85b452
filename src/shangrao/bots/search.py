"""The ``search`` bot (issue 35): every option of a decision played to the end of the hand in the
compiled core, on worlds dealt from what the seat has seen (:mod:`shangrao.sim.search`).

The bot builds the seat's view from its :class:`~shangrao.game.Observation` (:func:`view_from_observation`
— only what the seat sees) and calls the compiled search with the next word of its own MT19937
stream (seeded as ``random.Random(seed)``) as the decision's seed.  The core plays the same bot
natively (``simulate``/``arena --engine fast``: :func:`shangrao.sim.search.play_to_end`) from the
true state's view, with the same stream: the same decision for the same position and seed
(``tests/sim/test_search.py``).  A decision with one legal action draws no word.

The play-outs score under the default rules (as the ``greedy`` bot's 偷机 does): the view carries
no rules, so the bot decides the same whatever table it sits at.

:class:`SearchEvaluator` (``name = "search"``) gives every legal option's value — the seat's mean
points delta over the rest of the hand, bonuses included — and its standard error, for
``advise --json`` and the game review (:mod:`shangrao.bots.evaluator`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..game.actions import Action
from ..game.state import Observation
from ..melds import MeldType
from ..rules import DEFAULT_RULES

__all__ = [
    "SEARCH_EVALUATOR_VERSION",
    "SearchBot",
    "SearchEvaluator",
    "parse_search_spec",
    "search_params",
    "view_from_observation",
]

#: bumped whenever the search's values change (stored with each review)
SEARCH_EVALUATOR_VERSION = "2"  # 2: 256 worlds (was 48)

_MELD_CODE = {t: i for i, t in enumerate(MeldType)}  # MeldType order = the core's M_* codes
_PHASES = ("act", "discard", "claim", "rob", "over")


def _policy_codes() -> dict[str, int]:
    """The play-out policies: the core's own bots (``shangrao.sim.core.CORE_BOTS``, not ``external``) -> codes."""
    from ..sim.core import CORE_BOTS

    return {n: c for n, c in CORE_BOTS.items() if n != "external"}


def view_from_observation(obs: Observation) -> np.ndarray:
    """The search's view (``shangrao.sim.search.V_*`` layout, int64[V_SIZE]) of an observation: the
    same array :func:`shangrao.sim.search.view_of` builds from the core state of that position."""
    from ..sim import search as S

    v = np.zeros(S.V_SIZE, dtype=np.int64)
    seat = obs.seat
    phase = str(getattr(obs.phase, "value", obs.phase))
    v[S.V_SEAT] = seat
    v[S.V_PHASE] = _PHASES.index(phase)
    v[S.V_DEALER] = obs.dealer
    v[S.V_BAO] = obs.bao
    v[S.V_IND] = obs.indicator
    v[S.V_LEFT] = obs.tiles_left
    v[S.V_CHAIN] = obs.kong_chain
    v[S.V_FIRST] = 1 if obs.first_discard else 0
    v[S.V_DRAWN] = -1 if obs.drawn is None else obs.drawn
    v[S.V_BAODRAWN] = obs.bao_drawn
    v[S.V_LD_SEAT : S.V_LD_KIND + 1] = obs.last_discard if obs.last_discard is not None else (-1, -1)
    if obs.kong is not None:
        ks, kk, kt = obs.kong
        v[S.V_KG_SEAT : S.V_KG_TYPE + 1] = (ks, kk, _MELD_CODE[MeldType(kt)])
    else:
        v[S.V_KG_SEAT : S.V_KG_TYPE + 1] = -1
    for s in range(4):
        v[S.V_SCORES + s] = obs.scores[s]
        v[S.V_FLOWN + s] = obs.flown[s]
        v[S.V_SIZES + s] = obs.hand_sizes[s]
        ms = obs.melds[s]
        v[S.V_NMELD + s] = len(ms)
        for i, m in enumerate(ms):
            o = S.V_MELD + (s * 4 + i) * 4
            v[o] = _MELD_CODE[m.type]
            v[o + 1] = m.tiles[0]
            v[o + 2] = -1 if m.claimed is None else m.claimed
            v[o + 3] = -1 if m.from_seat is None else m.from_seat
        ds = obs.discards[s]
        v[S.V_NDISC + s] = len(ds)
        for i, k in enumerate(ds):
            v[S.V_DISC + s * 40 + i] = k
    v[S.V_HAND : S.V_HAND + 34] = obs.hand_34
    return v


_SPEC_KEYS = {"worlds": int, "keep": int, "z": float, "margin": float, "cand": int, "tilt": int, "policy": str}


def parse_search_spec(spec: str) -> dict[str, object]:
    """The options of a bot spec ``search[:OPT]...`` as :class:`SearchBot` keyword arguments.

    ``OPT`` is a number (the worlds, play-outs per option: ``search:256``), a play-out policy
    (``random``, ``greedy``, ``ukeire``) or ``KEY=VALUE`` with KEY one of ``worlds``, ``keep``,
    ``policy``, ``z``, ``margin`` (the win rule, :func:`shangrao.sim.search.default_params`) and
    ``cand`` (candidate worlds resampled by the behaviour model; 0 off), ``tilt`` (tilted worlds on the
    seat's own turn, that many tries an opponent; 0 off) or ``tilted`` (``tilt=200``, the sampler's
    measured setting): ``search:256:z=0:margin=0``, ``search:tilted:margin=2``.
    Raises ``InputError`` naming the spec and the option."""
    parts = spec.strip().lower().split(":")
    if parts[0].strip() != "search":
        raise InputError(f"bot spec {spec!r}: not a search spec")
    out: dict[str, object] = {}
    for tok in (t.strip() for t in parts[1:]):
        if tok in _policy_codes():
            key, val = "policy", tok
        elif tok == "tilted":
            key, val = "tilt", str(_default_tilt())
        elif "=" in tok:
            key, _, val = (x.strip() for x in tok.partition("="))
        else:
            key, val = "worlds", tok
        kind = _SPEC_KEYS.get(key)
        if kind is None:
            raise InputError(
                f"bot spec {spec!r}: unknown option {tok!r}; options: a number of worlds, a policy "
                f"({', '.join(_policy_codes())}), tilted, or KEY=VALUE with KEY in {', '.join(_SPEC_KEYS)}"
            )
        try:
            out[key] = kind(val)
        except ValueError:
            raise InputError(
                f"bot spec {spec!r}: option {tok!r}: {key} takes a{'n int' if kind is int else ' number'}"
            ) from None
    try:
        _params(**out)  # type: ignore[arg-type]  # range checks
    except InputError as e:
        raise InputError(f"bot spec {spec!r}: {e}") from None
    return out


def search_params(spec: str) -> np.ndarray:
    """The compiled search's parameter array of a bot spec (:func:`parse_search_spec`)."""
    return _params(**parse_search_spec(spec))  # type: ignore[arg-type]


def _default_tilt() -> int:
    from ..sim import search as S

    return S.DEFAULT_TILT_TRIES


def _params(
    worlds: int | None = None,
    keep: int | None = None,
    policy: str = "greedy",
    prune: bool = True,
    z: float | None = None,
    margin: float | None = None,
    cand: int = 0,
    tilt: int = 0,
) -> np.ndarray:
    from ..sim import search as S

    worlds = S.DEFAULT_WORLDS if worlds is None else worlds
    keep = S.DEFAULT_KEEP if keep is None else keep
    z = S.DEFAULT_WIN_Z if z is None else z
    margin = S.DEFAULT_WIN_MARGIN if margin is None else margin
    for name, x in (("worlds", worlds), ("keep", keep)):
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 100_000:
            raise InputError(f"search bot: {name} must be an int 1..100000, got {x!r}")
    for name, x in (("cand", cand), ("tilt", tilt)):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 100_000:
            raise InputError(f"search bot: {name} must be an int 0..100000, got {x!r}")
    for name, f in (("z", z), ("margin", margin)):
        if isinstance(f, bool) or not isinstance(f, (int, float)) or not -1e6 <= f <= 1e6:
            raise InputError(f"search bot: {name} must be a number within ±1e6, got {f!r}")
    codes = _policy_codes()
    if policy not in codes:
        raise InputError(f"search bot: policy must be one of {', '.join(codes)}, got {policy!r}")
    code = codes[policy]
    return S.default_params(worlds, keep, code, prune, float(z), float(margin), cand, tilt)


class SearchBot:
    """Plays every worthwhile option out on ``worlds`` sampled worlds (module docstring).

    ``worlds``: play-outs per option (default :data:`shangrao.sim.search.DEFAULT_WORLDS`); ``keep``:
    discards of lowest shanten played out; ``policy``: the core bot playing the play-outs
    (random, greedy, ukeire); ``z``, ``margin``: the win rule (a win is declined only when
    declining beats it by more than ``z`` standard errors and ``margin`` points); ``cand``: candidate
    worlds resampled by the behaviour model (0: uniform worlds); ``tilt``: tilted worlds on the seat's
    own turn, that many tries an opponent (0: uniform worlds; :mod:`shangrao.sim.search`).  Raises ``InputError`` for a bad
    parameter.  After each search ``last`` holds every option's (value in points, standard error) —
    NaN for one pruned."""

    name = "search"

    def __init__(
        self,
        seed: int | str | None = None,
        worlds: int | None = None,
        keep: int | None = None,
        policy: str = "greedy",
        z: float | None = None,
        margin: float | None = None,
        cand: int = 0,
        tilt: int = 0,
    ) -> None:
        from ..sim import core as C
        from ..sim import search as S
        from ..sim.kernels import tables
        from ..sim.rules import encode_rules

        self.params = _params(worlds, keep, policy, True, z, margin, cand, tilt)
        self._lr = S.weights_for(self.params)
        self.mt = np.zeros(625, dtype=np.uint32)
        C.mt_seed(self.mt, C.seed_key(seed))
        self._rules = encode_rules(DEFAULT_RULES)
        self._tb = tables()
        self.last: dict[Action, tuple[float, float]] = {}

    def _run(self, obs: Observation, legal: Sequence[Action], params: np.ndarray) -> Action:
        from ..sim import core as C
        from ..sim.events import action_code
        from ..sim.search import search

        codes = np.zeros(48, dtype=np.int32)
        for i, a in enumerate(legal):
            codes[i] = action_code(a)
        n = len(legal)
        vals = np.zeros(48, dtype=np.float64)
        ses = np.zeros(48, dtype=np.float64)
        word = C.mt_next(self.mt)
        best = search(
            view_from_observation(obs), codes, n, self._rules, self._tb, self._rules, word, params, self._lr, vals, ses
        )
        self.last = {a: (float(vals[i]), float(ses[i])) for i, a in enumerate(legal)}
        return legal[[int(c) for c in codes[:n]].index(int(best))]

    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        if not legal:
            raise InputError("search bot: no legal actions")
        if len(legal) == 1:
            return legal[0]
        return self._run(observation, legal, self.params)


class SearchEvaluator:
    """The ``search`` bot's play-out values of **every** legal option (none pruned): value = the
    seat's mean points delta over the rest of the hand, with its standard error (see
    :class:`~shangrao.bots.evaluator.Evaluator`).  Deterministic for a ``seed``: each call searches
    with the seed's stream's next word."""

    name = "search"
    version = SEARCH_EVALUATOR_VERSION

    def __init__(self, seed: int | str | None = 0, worlds: int | None = None, policy: str = "greedy") -> None:
        self.bot = SearchBot(seed, worlds=worlds, policy=policy)
        self.params = _params(worlds, None, policy, False)

    def evaluate(
        self, observation: Observation, legal: list[Action], wins: Mapping[Action, float] | None = None
    ) -> dict[Action, tuple[float, float | None]]:
        """Every action of ``legal`` -> (mean points, standard error).  ``wins`` is not needed (a
        win's play-out is its exact settlement).  Raises ValueError for an empty ``legal``."""
        if not legal:
            raise ValueError("evaluate: no legal actions")
        if len(legal) == 1:
            self.bot._run(observation, legal + legal, self.params)  # the value of the one option
            v, se = self.bot.last[legal[0]]
            return {legal[0]: (v, se)}
        self.bot._run(observation, legal, self.params)
        return {a: (v, se) for a, (v, se) in self.bot.last.items()}
