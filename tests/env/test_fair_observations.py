"""The RL observations show another seat only what the table shows (issue 12): in a claim or rob
window a non-deciding agent's observation does not change while other seats pass or call, and no
plane encodes who is deciding.  Checked at every step of ≥ 20 whole hands."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

import shangrao.env as senv
from shangrao.env import encoding as enc


def _window(g):
    if g.phase == "claim":
        return ("claim", sum(e["type"] == "discard" for e in g.events))
    if g.phase == "rob":
        return ("rob", g.pending_kong.seat, g.pending_kong.meld.tiles[0])
    return None


def test_aec_observations_hide_who_decides_in_windows():
    hands = windows = hidden = 0
    for episode in range(6):
        e = senv.raw_env(hands=4)
        e.reset(seed=100 + episode)
        rng = random.Random(episode)
        while e.agents:
            agent = e.agent_selection
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            g = e.game
            wid = _window(g)
            decider = g.current_seat
            before = {a: e.observe(a)["observation"] for a in senv.AGENTS}
            for s, a in enumerate(senv.AGENTS):
                o = g.observation(s)
                if wid is not None and s != decider:
                    assert o.current_seat is None
                    # the encoding is the same whoever decides
                    for other in range(4):
                        alt = dataclasses.replace(o, current_seat=other)
                        assert np.array_equal(enc.encode_observation(alt, 1), enc.encode_observation(o, 1))
                    assert not e.observe(a)["action_mask"].any()
            mask = obs["action_mask"]
            # prefer windows that stay open: pass when possible half of the time
            choices = np.flatnonzero(mask)
            action = int(enc.PASS_INDEX) if mask[enc.PASS_INDEX] and rng.random() < 0.5 else int(rng.choice(choices))
            hand_before = len(e.match.hands)
            e.step(action)
            if (
                e.agents
                and len(e.match.hands) == hand_before
                and wid is not None
                and _window(e.game) == wid
                and action != enc.CATCH_BAO_INDEX
            ):
                hidden += 1
                for s, a in enumerate(senv.AGENTS):
                    if s in (decider, e.game.current_seat):
                        continue
                    assert np.array_equal(e.observe(a)["observation"], before[a]), (agent, a)
            if wid is not None and wid != getattr(e, "_last_wid", None):
                windows += 1
            e._last_wid = wid
        hands += len(e.match.hands)
    assert hands >= 20 and windows >= 50 and hidden >= 5, (hands, windows, hidden)


def test_gym_observation_is_the_learner_view():
    env = senv.ShangraoGymEnv(opponents=("greedy", "random", "greedy"), hands=3)
    obs, _info = env.reset(seed=7)
    steps = 0
    done = False
    while not done and steps < 2000:
        g = env.game
        assert np.array_equal(
            obs["observation"],
            enc.encode_observation(g.observation(env.seat), env.rules.hands_per_match - len(env.match.hands)),
        )
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, _trunc, _info = env.step(int(legal[0]))
        steps += 1
