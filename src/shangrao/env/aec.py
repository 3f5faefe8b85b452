"""The PettingZoo AEC environment (documented in :mod:`shangrao.env`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game import Action, Game, HandResult, IllegalActionError, Match
from ..rules import DEFAULT_RULES, RuleSet
from . import encoding as enc

__all__ = ["AGENTS", "NORMALIZE_POINTS", "REWARD_MODES", "ShangraoAECEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1", "player_2", "player_3")
NORMALIZE_POINTS = 10.0
#: ``reward=`` options (documented in :mod:`shangrao.env`)
REWARD_MODES = ("points", "normalized", "rank")
#: the match-rank reward of places 1..4 (ties share the mean of their places)
RANK_REWARDS = (1.0, 1 / 3, -1 / 3, -1.0)


def state_space() -> spaces.Box:
    return spaces.Box(low=0, high=enc.STATE_HIGH.copy(), shape=enc.STATE_SHAPE, dtype=np.int8)


def reward_mode(reward: str | None, normalize: bool) -> str:
    """The reward mode of the ``reward`` / ``normalize`` options (ValueError naming a bad one)."""
    if reward is None:
        return "normalized" if normalize else "points"
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
    if normalize and reward != "normalized":
        raise ValueError(f"normalize=True and reward={reward!r}: give one")
    return reward


def rank_rewards(scores: tuple[int, ...] | list[int]) -> list[float]:
    """Match-rank rewards of final scores: 1st +1, 2nd +1/3, 3rd -1/3, 4th -1; tied seats share the mean."""
    out = []
    for s in scores:
        above = sum(1 for t in scores if t > s)
        tied = sum(1 for t in scores if t == s)
        out.append(sum(RANK_REWARDS[above : above + tied]) / tied)
    return out


def hand_rewards(mode: str, deltas: tuple[int, ...], match_over: bool, scores: tuple[int, ...]) -> list[float]:
    """Per-seat rewards when a hand ends, under a reward mode."""
    if mode == "points":
        return [float(d) for d in deltas]
    if mode == "normalized":
        return [d / NORMALIZE_POINTS for d in deltas]
    return rank_rewards(scores) if match_over else [0.0] * 4


def show(render_mode: str | None, text: Callable[[], str]) -> str | None:
    """``render()`` of the environments: ``"ansi"`` returns ``text()``, ``"human"`` prints it and
    returns None, no mode warns (gymnasium's logger) and returns None."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode")
        return None
    out = text()
    if render_mode == "human":
        print(out)
        return None
    return out


def render_text(game: Game | None, legal: Mapping[int, Action] | None = None, to_act: str | None = None) -> str:
    """The debugging view of a hand (every hand shown) that ``render()`` prints or returns."""
    if game is None:
        return ""
    from ..tiles import format_tile, format_tiles

    g = game
    lines = [f"hand {g.hand_no}  bao {format_tile(g.bao)}  tiles left {g.tiles_left}  phase {g.phase}"]
    for s in range(4):
        o = g.observation(s)
        melds = " ".join(str(m) for m in o.melds[s])
        lines.append(
            f"{AGENTS[s]}: {format_tiles(list(o.hand))}  [{melds}]  discards {format_tiles(list(o.discards[s]))}"
        )
    if not g.is_over and legal:
        lines.append(f"to act: {to_act}: " + ", ".join(f"{i}={a}" for i, a in sorted(legal.items())))
    return "\n".join(lines)


def observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0, high=enc.OBS_HIGH.copy(), shape=enc.OBS_SHAPE, dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(enc.N_ACTIONS,), dtype=np.int8),
        }
    )


def _episode_rules(rules: RuleSet, hands: int) -> RuleSet:
    if hands < 1:
        raise ValueError(f"hands must be at least 1, got {hands!r}")
    return rules if rules.hands_per_match == hands else dataclasses.replace(rules, hands_per_match=hands)


class ShangraoAECEnv(AECEnv, EzPickle):
    """Shangrao Mahjong as a PettingZoo AEC environment; see :mod:`shangrao.env`.

    ShangraoAECEnv(hands=1, rules=DEFAULT_RULES, dealer=None, normalize=False, render_mode=None, reward=None)
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "shangrao_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        hands: int = 1,
        rules: RuleSet = DEFAULT_RULES,
        dealer: int | None = None,
        normalize: bool = False,
        render_mode: str | None = None,
        reward: str | None = None,
    ) -> None:
        EzPickle.__init__(self, hands, rules, dealer, normalize, render_mode, reward)
        super().__init__()
        self.reward_mode = reward_mode(reward, normalize)
        self.state_space = state_space()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if dealer is not None and dealer not in range(4):
            raise ValueError(f"dealer must be None or a seat 0..3, got {dealer!r}")
        self.hands = hands
        self.rules = _episode_rules(rules, hands)
        self.dealer = dealer
        self.reward_divisor = NORMALIZE_POINTS if normalize else 1.0
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(enc.N_ACTIONS) for a in AGENTS}
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self._rng = random.Random()
        self.match: Match | None = None
        self.game: Game | None = None
        self._legal: dict[int, Action] = {}
        self.hand_results: list[HandResult] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        match_seed = self._rng.randrange(2**63)
        dealer = self._rng.randrange(4) if self.dealer is None else self.dealer
        self.match = Match(self.rules, seed=match_seed, dealer=dealer)
        self.game = self.match.new_hand()
        self.hand_results = []
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._select()

    def _select(self) -> None:
        g = self.game
        assert g is not None and g.current_seat is not None
        self.agent_selection = AGENTS[g.current_seat]
        self._legal = enc.legal_index_map(g)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        g = self.game
        assert g is not None and self.match is not None
        hands_left = self.rules.hands_per_match - len(self.match.hands)
        obs = enc.encode_observation(g.observation(seat), hands_left)
        if g.current_seat == seat and not g.is_over:
            mask = enc.action_mask(self._legal)
        else:
            mask = np.zeros(enc.N_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def legal_actions(self) -> dict[int, Any]:
        """``{flat index: engine Action}`` for :attr:`agent_selection` (empty when the episode is over)."""
        return dict(self._legal)

    def state(self) -> np.ndarray:
        """The perfect-information state (:func:`~shangrao.env.encoding.encode_state`), shape ``STATE_SHAPE``."""
        g = self.game
        if g is None or self.match is None:
            raise RuntimeError("state() before reset()")
        return enc.encode_state(g, self.rules.hands_per_match - len(self.match.hands))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None and self.match is not None
        if action is None:
            raise enc.InvalidActionError(f"{agent}: action None is only for an agent that is done; give a flat action")
        engine_action = self._legal.get(enc.check_action(action, agent))
        if engine_action is None:
            raise IllegalActionError(
                f"{agent}: flat action {action!r} is not legal now; legal: "
                + ", ".join(f"{i} ({a})" for i, a in sorted(self._legal.items()))
            )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        g.push(engine_action)
        if g.is_over:
            result = g.result
            assert result is not None
            self.match.finish_hand(g)
            self.hand_results.append(result)
            rewards = hand_rewards(self.reward_mode, result.deltas, self.match.is_over, self.match.scores)
            for i, a in enumerate(AGENTS):
                self.rewards[a] = rewards[i]
                self.infos[a] = {"hand_no": g.hand_no, "deltas": list(result.deltas)}
            if self.match.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
                self._legal = {}
                self._accumulate_rewards()
                self._deads_step_first()
            else:
                self.game = self.match.new_hand()
                self._accumulate_rewards()
                self._select()
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ misc
    def render(self) -> str | None:
        """``"ansi"``: the text of every hand (a debugging view); ``"human"``: prints it, returns None."""
        return show(
            self.render_mode,
            lambda: render_text(self.game, self._legal, self.agent_selection if self.game is not None else None),
        )

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> ShangraoAECEnv:
    """The unwrapped AEC environment (illegal actions raise :class:`~shangrao.game.IllegalActionError`)."""
    return ShangraoAECEnv(**kwargs)


def env(illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers.

    TerminateIllegalWrapper (an illegal action ends the episode; the offender gets
    ``illegal_reward``, the others 0), AssertOutOfBoundsWrapper, OrderEnforcingWrapper.
    """
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
