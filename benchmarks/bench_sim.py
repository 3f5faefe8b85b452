"""Speed of the compiled core (``shangrao.sim``, issue 23), every figure beside its peer in one process.

Run from the repository (needs the test extra for ``mahjong``: ``pip install -e ".[test]"``)::

    python benchmarks/bench_sim.py                      # every section
    python benchmarks/bench_sim.py --section "win checks" --quick
    python benchmarks/bench_sim.py --markdown /tmp/bench_sim.md

Sections (``--section``, repeatable; docs/performance.md records a run):

* ``win checks`` — batched win checks per second through the numba kernel
  (:func:`shangrao.sim.kernels.is_win_batch` over an ``int8[N, 34]`` array) against ``mahjong``'s
  ``Agari().is_agari`` (pure Python, one hand a call) on the same 20,000 complete 14-tile hands
  without 宝 (``bench.py``'s generator), and our Python table path (``HandKey(...).is_win``); then
  the same hands with 1-4 宝 (ours only: ``mahjong`` has no wildcards).  Interleaved rounds, the
  best round of each side (as ``bench.py``).  Every answer is checked (all hands are wins).
* ``hands`` — whole hands per second on one core (``time.process_time``), the compiled core
  (:func:`shangrao.sim.play.iter_match_hands`: matches of 8 hands, the Python side's seeding and
  records included) against the Python engine (``Match`` with ``get_bot``) on the same match seeds,
  for ``random``, ``greedy`` and ``ukeire``; every engine hand's deltas are checked against the
  core's.  RiichiEnv's published ~1,600 riichi hanchan (~10 hands each) per second per thread is
  quoted beside them.
* ``identity`` — a long identity run: ``--identity-hands`` (default 100,000) ``random`` hands, the
  core's event rows compared with the engine's log row by row (the suite plays 2,000).
* ``simulate`` — ``shangrao simulate --hands 100000 --bots random --no-store`` (fast engine) timed
  from outside, wall clock, beside the same command's summary with ``--engine python`` on 2,000 hands.
* ``batched env`` — the batched environment (:class:`shangrao.sim.vector.VectorEnv`, batch 256,
  observations and masks handed over every step; self-play and one learner against three core
  ``random`` bots; random legal actions sampled from the masks in NumPy) in learner steps per
  second, against pgx's ``sparrow_mahjong`` (batch 256, ``jit(vmap(step))`` with ``auto_reset``,
  the action sampled inside the jitted function; needs ``pip install pgx``, skipped without it)
  and this project's PettingZoo AEC environment (random legal actions), wall clock.
* ``bot arithmetic`` — the ``ukeire`` bot's discard decision (the lowest shanten, ties by the most
  unseen useful tiles) on the same real states, collected from Python self-play (four ``ukeire``
  bots): ``GreedyBot(ukeire=True)._discard`` against the kernels (:func:`~shangrao.sim.kernels.discard_shanten`
  and :func:`~shangrao.sim.kernels.useful_tiles` in one compiled loop over the states); both choices
  are checked equal.
* ``scoring`` — the wins of Python self-play (four ``greedy`` bots): ``shangrao.scoring.score`` of each
  win's situation against :func:`~shangrao.sim.kernels.score_win` in one compiled loop; the hand
  values are checked equal.
* ``warm-up`` — the first call of the kernels in a fresh process with an empty numba cache (the
  compile), then again with the cache filled (what every later run pays): import, the tables,
  the first win check, the first score.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import complete_hands, with_wildcards  # noqa: E402 (the shared hand generators)

Row = tuple[str, str, str, str]  # what, ours, peer, ratio


def _best_rates(rounds: int, n: int, *fns: Callable[[], object]) -> list[float]:
    """Items per second of each function over ``n`` items: interleaved rounds, the best of each."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return [n / b for b in best]


def bench_win_checks(args: argparse.Namespace) -> list[Row]:
    import numpy as np
    from mahjong.agari import Agari

    from shangrao.analysis.tables import HandKey
    from shangrao.sim import kernels as K

    n = 2000 if args.quick else 20000
    rounds = 1 if args.quick else 5
    rng = random.Random(args.seed)
    hands = complete_hands(n, rng)
    suit, honor = K.tables()
    arr = np.array(hands, dtype=np.int8)
    bao = np.full(n, K.NO_BAO, dtype=np.int64)
    m = np.full(n, 4, dtype=np.int64)
    jo = np.ones(n, dtype=np.bool_)
    out = np.zeros(n, dtype=np.bool_)
    K.is_win_batch(suit, honor, arr, bao, m, jo, out)
    assert out.all()
    agari = Agari()
    assert all(agari.is_agari(h) for h in hands)
    assert all(HandKey(h, None).is_win(4, True) for h in hands)  # (fills the Python tables: timed warm)
    ours, peer, py = _best_rates(
        rounds, n,
        lambda: K.is_win_batch(suit, honor, arr, bao, m, jo, out),
        lambda: [agari.is_agari(h) for h in hands],
        lambda: [HandKey(h, None).is_win(4, True) for h in hands],
    )
    rows: list[Row] = [
        ("win checks, 0 宝, numba batch (hands/s)", f"{ours:,.0f}", f"{peer:,.0f}", f"{ours / peer:.1f}× mahjong.is_agari"),
        ("win checks, 0 宝, Python tables HandKey.is_win (hands/s)", f"{py:,.0f}", f"{peer:,.0f}",
         f"{py / peer:.1f}× mahjong.is_agari; numba {ours / py:.1f}× it"),
    ]
    for nb in (1, 2, 3, 4):
        wild = with_wildcards(hands, nb, random.Random(args.seed + nb))
        arr_w = np.array([c for c, _ in wild], dtype=np.int8)
        bao_w = np.array([b for _, b in wild], dtype=np.int64)
        K.is_win_batch(suit, honor, arr_w, bao_w, m, jo, out)
        assert out.all()
        r, = _best_rates(rounds, n, lambda: K.is_win_batch(suit, honor, arr_w, bao_w, m, jo, out))  # noqa: B023
        rows.append((f"win checks, {nb} 宝, numba batch (hands/s)", f"{r:,.0f}", "—", f"{r / peer:.1f}× is_agari's 0 宝"))
    return rows


def _ukeire_states(n: int) -> list[tuple]:
    """(observation, legal, discard chosen) of ``n`` ukeire discard decisions of Python self-play."""
    from shangrao.bots import get_bot
    from shangrao.game import Match
    from shangrao.game.actions import ActionType

    states: list[tuple] = []

    class Recorder:
        def __init__(self, i: int) -> None:
            self.bot = get_bot("ukeire", seed=f"bench:{i}")

        def choose(self, obs, legal):  # type: ignore[no-untyped-def]
            action = self.bot.choose(obs, legal)
            types = {a.type for a in legal}
            if action.type is ActionType.DISCARD and ActionType.WIN not in types and len(states) < n:
                states.append((obs, legal, action.kind))
            return action

    bots = [Recorder(i) for i in range(4)]
    m = 0
    while len(states) < n:
        for _ in Match(seed=f"bench-states:{m}", bots=bots):
            if len(states) >= n:
                break
        m += 1
    return states


def bench_bot_arithmetic(args: argparse.Namespace) -> list[Row]:
    import numpy as np
    from numba import njit

    from shangrao.bots.greedy import GreedyBot
    from shangrao.game.actions import ActionType
    from shangrao.sim import kernels as K
    from shangrao.tiles import TERMINALS_AND_HONORS

    n = 300 if args.quick else 3000
    rounds = 1 if args.quick else 3
    states = _ukeire_states(n)
    hands = np.array([o.hand_34 for o, _, _ in states], dtype=np.int8)
    unseen = np.array([o.unseen() for o, _, _ in states], dtype=np.int8)
    bao = np.array([K.NO_BAO if o.bao is None else o.bao for o, _, _ in states], dtype=np.int64)
    ms = np.array([4 - len(o.melds[o.seat]) for o, _, _ in states], dtype=np.int64)
    jo = np.array([all(t in TERMINALS_AND_HONORS for md in o.melds[o.seat] for t in md.tiles) for o, _, _ in states])
    legal = np.zeros((len(states), 34), dtype=np.bool_)
    for i, (_, lg, _) in enumerate(states):
        for a in lg:
            if a.type is ActionType.DISCARD:
                legal[i, a.kind] = True
    chosen = np.zeros(len(states), dtype=np.int64)
    suit, honor = K.tables()

    @njit
    def decide(suit, honor, hands, bao, ms, jo, legal, unseen, chosen):  # type: ignore[no-untyped-def]
        out = np.zeros(34, dtype=np.int64)
        for i in range(hands.shape[0]):
            K.discard_shanten(suit, honor, hands[i], bao[i], ms[i], jo[i], out)
            any_non_bao = False
            for k in range(34):
                if legal[i, k] and k != bao[i]:
                    any_non_bao = True
            best = 99
            for k in range(34):
                if legal[i, k] and (k != bao[i] or not any_non_bao) and out[k] < best:
                    best = out[k]
            pick = -1
            most = -1
            n_tied = 0
            for k in range(34):
                if legal[i, k] and (k != bao[i] or not any_non_bao) and out[k] == best:
                    n_tied += 1
            for k in range(34):
                if legal[i, k] and (k != bao[i] or not any_non_bao) and out[k] == best:
                    u = K.useful_tiles(suit, honor, hands[i], bao[i], ms[i], jo[i], k, best, unseen[i]) if n_tied > 1 else 0
                    if u >= most:  # ties to the highest kind, as the bot's sort
                        most = u
                        pick = k
            chosen[i] = pick

    decide(suit, honor, hands, bao, ms, jo, legal, unseen, chosen)
    bot = GreedyBot(0, ukeire=True)
    assert [int(x) for x in chosen] == [k for _, _, k in states]
    assert all(bot._discard(o, lg).kind == k for o, lg, k in states[:50])
    ours, py = _best_rates(
        rounds, len(states),
        lambda: decide(suit, honor, hands, bao, ms, jo, legal, unseen, chosen),
        lambda: [bot._discard(o, lg) for o, lg, _ in states],
    )
    return [(f"ukeire discard decisions on {len(states):,} real states (decisions/s)", f"{ours:,.0f}",
             f"{py:,.0f}", f"{ours / py:.1f}× GreedyBot(ukeire=True)._discard")]


def bench_scoring(args: argparse.Namespace) -> list[Row]:
    import numpy as np
    from numba import njit

    from shangrao.bots import get_bot
    from shangrao.game import Match
    from shangrao.rules import DEFAULT_RULES
    from shangrao.scoring import score
    from shangrao.sim import kernels as K
    from shangrao.sim.convert import situation_record
    from shangrao.sim.rules import encode_rules

    n_hands = 100 if args.quick else 600
    rounds = 1 if args.quick else 3
    sits = []
    played = 0
    m = 0
    while played < n_hands:
        bots = [get_bot("greedy", seed=f"bench-score:{m}:{i}") for i in range(4)]
        for rec in Match(seed=f"bench-score:{m}", bots=bots):
            sits += [w.situation for w in rec.result.wins]
            played += 1
        m += 1
    cols = list(zip(*[situation_record(s) for s in sits]))
    arrays = [np.array(c) for c in cols]
    rules = encode_rules(DEFAULT_RULES)
    suit, honor = K.tables()
    values = np.zeros(len(sits), dtype=np.int64)

    @njit
    def run(suit, honor, h, wt, ba, mt, mk, nm, wb, hv, kc, wf, pf, hb, fb, cb, rb, tj, rules, values):  # type: ignore[no-untyped-def]
        out = np.zeros(K.N_OUT, dtype=np.int64)
        tb = (suit, honor)
        for i in range(h.shape[0]):
            K.score_win(tb, K.Situation(h[i], wt[i], ba[i], mt[i], mk[i], nm[i], wb[i], hv[i], kc[i], wf[i], pf[i],
                                        hb[i], fb[i], cb[i], rb[i], tj[i]), rules, out)
            values[i] = out[K.O_HAND_VALUE]

    run(suit, honor, *arrays, rules, values)
    assert [int(v) for v in values] == [score(s).hand_value for s in sits]
    ours, py = _best_rates(rounds, len(sits), lambda: run(suit, honor, *arrays, rules, values),
                           lambda: [score(s) for s in sits])
    return [(f"scoring the {len(sits):,} wins of {played} greedy hands (wins/s)", f"{ours:,.0f}", f"{py:,.0f}",
             f"{ours / py:.0f}× shangrao.scoring.score")]


_WARM = """
import time
t0 = time.perf_counter()
import numpy as np
from shangrao.sim import kernels as K
from shangrao.sim.convert import score_situation
from shangrao.scoring import WinSituation
t1 = time.perf_counter()
suit, honor = K.tables()
t2 = time.perf_counter()
a = np.zeros(34, dtype=np.int8); a[0] = 2; a[1:4] += 1; a[9:12] += 1; a[18:21] += 1; a[27] = 3
assert K.is_win(suit, honor, a, -1, 4, True)
t3 = time.perf_counter()
sit = WinSituation.from_dict({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"})
assert score_situation(sit)[K.O_HAND_VALUE] == 2
t4 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f} {t4 - t3:.3f}")
"""


def bench_warmup(args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = []
        for _ in range(2):
            done = subprocess.run([sys.executable, "-c", _WARM], env=env, capture_output=True, text=True, check=True)
            runs.append([float(x) for x in done.stdout.split()])
    (ci, ct, cw, cs), (wi, wt, ww, ws) = runs
    rows.append(("warm-up: import shangrao.sim (s)", f"{wi:.2f} cached", f"{ci:.2f} cold", ""))
    rows.append(("warm-up: the tables, kernels.tables() (s)", f"{wt:.2f} cached", f"{ct:.2f} cold", "built each process"))
    rows.append(("warm-up: first win check (s)", f"{ww:.3f} cached", f"{cw:.2f} cold", "cold = numba compile"))
    rows.append(("warm-up: first score_win (s)", f"{ws:.3f} cached", f"{cs:.2f} cold", "cold = numba compile"))
    rows.append(("warm-up: first run in all (s)", f"{wi + wt + ww + ws:.2f} cached", f"{ci + ct + cw + cs:.2f} cold", ""))
    return rows


def _match_seeds(n: int, seed: int) -> list[int]:
    from shangrao.selfplay import match_seed

    return [match_seed(seed, m) for m in range(n)]


def bench_hands(args: argparse.Namespace) -> list[Row]:
    from shangrao.bots import get_bot
    from shangrao.game import Match
    from shangrao.sim.play import iter_match_hands

    rows: list[Row] = []
    plan = {"random": (400, 40), "greedy": (400, 16), "ukeire": (100, 3)}  # matches: core, engine
    if args.quick:
        plan = {k: (max(2, a // 20), 1) for k, (a, _b) in plan.items()}
    for bot, (n_core, n_py) in plan.items():
        seeds = _match_seeds(n_core, args.seed)
        list(iter_match_hands(seeds[:1], [1], [bot] * 4))  # compiled (or loaded from the cache) first
        # each side keeps the deltas of its hands, not the hand objects (holding thousands of them makes
        # the garbage collector's passes part of the figure)
        t = time.process_time()
        core = [h.deltas for h in iter_match_hands(seeds, [8] * n_core, [bot] * 4)]
        core_rate = len(core) / (time.process_time() - t)
        t = time.process_time()
        played = []
        for s in seeds[:n_py]:
            played += [rec.result.deltas for rec in
                       Match(seed=s, bots=[get_bot(bot, seed=f"{s}:{i}") for i in range(4)]).play().hands]
        py_rate = len(played) / (time.process_time() - t)
        for i, (c, p) in enumerate(zip(core, played)):
            assert c == p, (bot, i)
        rows.append((f"whole hands/s on one core, 4× {bot} (fast core vs Python engine)", f"{core_rate:,.0f}",
                     f"{py_rate:,.0f}", f"{core_rate / py_rate:.1f}×"))
    rows.append(("RiichiEnv (Rust core, riichi), published: ~1,600 hanchan/s/thread ≈ hands/s", "",
                 "~16,000", "quoted, not run"))
    return rows


def bench_identity(args: argparse.Namespace) -> list[Row]:
    import numpy as np

    from shangrao.bots import RandomBot
    from shangrao.game import Game
    from shangrao.game.match import play_hand as engine_play_hand
    from shangrao.sim.events import encode_events
    from shangrao.sim.play import play_hand

    n = 200 if args.quick else args.identity_hands
    t = time.perf_counter()
    for h in range(n):
        seed = f"bench-identity:{h}"
        g = Game(seed=seed, dealer=h % 4)
        engine_play_hand(g, [RandomBot(f"{seed}:{i}") for i in range(4)])
        core = play_hand(seed=seed, bot_seeds=[f"{seed}:{i}" for i in range(4)], dealer=h % 4)
        py = encode_events(g.events)
        assert py.shape == core.rows.shape and np.array_equal(py, core.rows), f"hand {seed} differs"
        assert g.result is not None and core.deltas == g.result.deltas
    return [("identity: random hands, every event row and delta equal", f"{n:,} of {n:,}", "",
             f"{time.perf_counter() - t:.0f} s")]


def bench_simulate(args: argparse.Namespace) -> list[Row]:
    import json

    n = 2000 if args.quick else 100_000
    cmd = [sys.executable, "-c", "from shangrao.cli import main; main()", "simulate", "--hands", str(n), "--seed", "1",
           "--bots", "random", "--no-store", "--json"]
    subprocess.run([*cmd[:5], "10", *cmd[6:]], check=True, capture_output=True)  # the cache filled first
    t = time.perf_counter()
    fast = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    wall = time.perf_counter() - t
    small = [*cmd[:5], "2000", *cmd[6:]]
    a = json.loads(subprocess.run([*small, "--engine", "python"], check=True, capture_output=True, text=True).stdout)
    b = json.loads(subprocess.run([*small, "--engine", "fast"], check=True, capture_output=True, text=True).stdout)
    a.pop("timing")
    b.pop("timing")
    return [(f"shangrao simulate --hands {n:,} --bots random --no-store (wall s, fast engine)", f"{wall:.1f}",
             "", f"{fast['timing']['hands_per_second']:,.0f} hands/s"),
            ("simulate summary, --engine fast vs python, 2,000 hands", "same" if a == b else "DIFFERENT", "", "")]


def _pettingzoo_steps_per_second(seconds: float) -> float:
    """Steps/s of this project's PettingZoo AEC env (``shangrao.env.env()``), random legal actions."""
    import numpy as np

    import shangrao.env

    env = shangrao.env.env()
    rng = np.random.default_rng(0)
    steps = 0
    episode = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - t)


def _pgx_steps_per_second(batch: int, steps: int) -> float | None:
    """Steps/s of pgx's ``sparrow_mahjong``: ``jit(vmap(step))`` with ``auto_reset`` and the random
    legal action sampled inside the jitted function (pgx's own benchmark); None without pgx."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make("sparrow_mahjong")

    def one(state, key):
        k1, k2 = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k1, logits, axis=-1)
        return jax.vmap(auto_reset(env.step, env.init))(state, action, jax.random.split(k2, batch))

    step = jax.jit(one)
    key = jax.random.PRNGKey(0)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
    for _ in range(20):  # compiled first
        key, sub = jax.random.split(key)
        state = step(state, sub)
    state.current_player.block_until_ready()
    t = time.perf_counter()
    for _ in range(steps):
        key, sub = jax.random.split(key)
        state = step(state, sub)
    state.current_player.block_until_ready()
    return steps * batch / (time.perf_counter() - t)


def bench_batched_env(args: argparse.Namespace) -> list[Row]:
    """The batched env (``shangrao.sim.vector.VectorEnv``, batch 256, observations and masks) against
    pgx's ``sparrow_mahjong`` (batch 256, jit + vmap) and this project's PettingZoo AEC env; random
    legal actions everywhere (ours sampled from the masks in NumPy, outside the core)."""
    import numpy as np

    from shangrao.sim.vector import VectorEnv

    batch = 256
    n_steps = 100 if args.quick else 2000
    rows: list[Row] = []
    rates = {}
    for label, seats in (("self-play, 4 learner seats", ("learner",) * 4),
                         ("1 learner seat, 3 core random bots", ("learner", "random", "random", "random"))):
        env = VectorEnv(batch, seats)
        rng = np.random.default_rng(0)
        b = env.reset(seed=args.seed)
        for _ in range(20):
            b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
        t = time.perf_counter()
        hands = 0
        for _ in range(n_steps):
            b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
            hands += int(b.terminated.sum())
        dt = time.perf_counter() - t
        rates[label] = n_steps * batch / dt
        rows.append((f"batched env, batch {batch}, {label} (learner steps/s, wall)", f"{rates[label]:,.0f}", "",
                     f"{hands / dt:,.0f} hands/s"))
    ours = rates["self-play, 4 learner seats"]
    pz = _pettingzoo_steps_per_second(2.0 if args.quick else 15.0)
    rows.append(("… against this project's PettingZoo AEC env (`shangrao.env.env()`, steps/s)", f"{ours:,.0f}",
                 f"{pz:,.0f}", f"{ours / pz:.1f}×"))
    pg = _pgx_steps_per_second(batch, 100 if args.quick else 1000)
    if pg is None:
        rows.append(("… against pgx `sparrow_mahjong` (batch 256, jit + vmap)", f"{ours:,.0f}", "pgx not installed",
                     "`pip install pgx` to compare"))
    else:
        rows.append((f"… against pgx `sparrow_mahjong` (batch {batch}, jit + vmap, steps/s)", f"{ours:,.0f}",
                     f"{pg:,.0f}", f"{ours / pg:.1f}×"))
    return rows


SECTIONS: dict[str, Callable[[argparse.Namespace], list[Row]]] = {
    "win checks": bench_win_checks,
    "hands": bench_hands,
    "identity": bench_identity,
    "simulate": bench_simulate,
    "batched env": bench_batched_env,
    "bot arithmetic": bench_bot_arithmetic,
    "scoring": bench_scoring,
    "warm-up": bench_warmup,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--section", action="append", choices=sorted(SECTIONS), help="run only these sections")
    ap.add_argument("--quick", action="store_true", help="small inputs (smoke check)")
    ap.add_argument("--markdown", metavar="PATH", help="also write the table as Markdown")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--identity-hands", type=int, default=100_000, help="hands of the identity section")
    args = ap.parse_args()
    rows: list[Row] = []
    for name in args.section or list(SECTIONS):
        rows += SECTIONS[name](args)
    from importlib.metadata import version

    machine = (f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
               f"{platform.platform()}; numba {version('numba')}, mahjong {version('mahjong')}")
    lines = ["| measure | shangrao | peer | ratio |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    text = "\n".join(lines) + "\n\n" + machine + "\ncommand: python " + " ".join(
        ["benchmarks/bench_sim.py", *sys.argv[1:]])
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
