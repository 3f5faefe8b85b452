"""The PettingZoo parallel environment with simultaneous claims (documented in :mod:`shangrao.env`)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import ParallelEnv

from ..game import Action, ActionType, Game, HandResult, IllegalActionError, Match
from ..rules import DEFAULT_RULES, RuleSet
from . import encoding as enc
from .aec import AGENTS, _episode_rules, hand_rewards, observation_space, render_text, reward_mode, show, state_space

__all__ = ["ShangraoParallelEnv", "parallel_env"]

_PASS = Action(ActionType.PASS)


class ShangraoParallelEnv(ParallelEnv, EzPickle):
    """Shangrao Mahjong as a PettingZoo ParallelEnv; see :mod:`shangrao.env` ("Parallel API").

    ShangraoParallelEnv(hands=1, rules=DEFAULT_RULES, dealer=None, normalize=False, render_mode=None, reward=None)
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "shangrao_v1", "render_fps": 1}

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
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if dealer is not None and dealer not in range(4):
            raise ValueError(f"dealer must be None or a seat 0..3, got {dealer!r}")
        self.hands = hands
        self.rules = _episode_rules(rules, hands)
        self.dealer = dealer
        self.reward_mode = reward_mode(reward, normalize)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.action_spaces = {a: spaces.Discrete(enc.N_ACTIONS) for a in AGENTS}
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self.state_space = state_space()
        self._rng = random.Random()
        self.match: Match | None = None
        self.game: Game | None = None
        self.hand_results: list[HandResult] = []
        self._asked: dict[int, dict[int, Action]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ who decides
    def _ask(self) -> None:
        """Seats to decide now and their legal actions: every seat of an open window, else the one to act."""
        g = self.game
        assert g is not None
        self._asked = {}
        if g.is_over:
            return
        window = g.window_options()
        if window:
            claimed = enc.claimed_kind(g)
            for s, opts in window.items():
                self._asked[s] = {enc.action_to_index(a, claimed): a for a in opts}
            return
        seat = g.current_seat
        assert seat is not None
        self._asked[seat] = enc.legal_index_map(g)

    def deciding_agents(self) -> list[str]:
        """The agents whose action the next :meth:`step` uses (non-zero masks)."""
        return [AGENTS[s] for s in sorted(self._asked)]

    def legal_actions(self, agent: str) -> dict[int, Action]:
        """``{flat index: engine Action}`` of ``agent`` now (empty when it does not decide)."""
        return dict(self._asked.get(AGENTS.index(agent), {}))

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        g = self.game
        assert g is not None and self.match is not None
        hands_left = self.rules.hands_per_match - len(self.match.hands)
        legal = self._asked.get(seat)
        mask = enc.action_mask(legal) if legal else np.zeros(enc.N_ACTIONS, dtype=np.int8)
        return {"observation": enc.encode_observation(g.observation(seat), hands_left), "action_mask": mask}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self._observe(i) for i, a in enumerate(AGENTS)}

    # ------------------------------------------------------------------ episode
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng = random.Random(seed)
        match_seed = self._rng.randrange(2**63)
        dealer = self._rng.randrange(4) if self.dealer is None else self.dealer
        self.match = Match(self.rules, seed=match_seed, dealer=dealer)
        self.game = self.match.new_hand()
        self.hand_results = []
        self.agents = list(AGENTS)
        self._ask()
        return self._observations(), {a: {} for a in AGENTS}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:
        """Apply every deciding agent's action (see "Parallel API" in :mod:`shangrao.env`).

        Actions of agents that do not decide now are ignored (any value, e.g. the 0 that sampling an
        all-zero mask gives); a deciding agent's action must be given, an integer flat action
        (:func:`~shangrao.env.encoding.check_action`) and legal (its mask), else
        :class:`~shangrao.game.IllegalActionError` names it.  The engine applies claims in its order
        (win over kong/pung over chow, then seat order from the discarder); an answer its rank made
        moot is dropped.
        """
        g = self.game
        if g is None or self.match is None or not self.agents:
            raise RuntimeError("step() on a finished episode: call reset()")
        if not isinstance(actions, dict):
            raise IllegalActionError(f"step() takes a dict agent -> action, got {type(actions).__name__}")
        chosen: dict[int, Action] = {}
        for s, legal in self._asked.items():
            agent = AGENTS[s]
            if agent not in actions:
                raise IllegalActionError(
                    f"{agent} decides now and has no action in step(); legal: "
                    + ", ".join(f"{i} ({a})" for i, a in sorted(legal.items()))
                )
            i = enc.check_action(actions[agent], agent)
            a = legal.get(i)
            if a is None:
                raise IllegalActionError(
                    f"{agent}: flat action {i} is not legal now; legal: "
                    + ", ".join(f"{j} ({b})" for j, b in sorted(legal.items()))
                )
            chosen[s] = a
        rewards = dict.fromkeys(AGENTS, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        # the engine asks window seats one at a time, in its order; feed it their answers
        window = (g.phase, id(g.claim), id(g.pending_kong))
        while chosen and not g.is_over:
            seat = g.current_seat
            if seat not in chosen:
                break  # e.g. after 接宝 the same seat decides again: asked in the next step
            a = chosen.pop(seat)
            legal_now = g.legal_actions()
            if a not in legal_now:
                a = _PASS if _PASS in legal_now else legal_now[0]  # an earlier answer outranked this one
            g.push(a)
            if (g.phase, id(g.claim), id(g.pending_kong)) != window:
                break  # the window closed (or another opened): the answers left are moot
        terminated = False
        if g.is_over:
            result = g.result
            assert result is not None
            self.match.finish_hand(g)
            self.hand_results.append(result)
            r = hand_rewards(self.reward_mode, result.deltas, self.match.is_over, self.match.scores)
            for i, ag in enumerate(AGENTS):
                rewards[ag] = r[i]
                infos[ag] = {"hand_no": g.hand_no, "deltas": list(result.deltas)}
            if self.match.is_over:
                terminated = True
            else:
                self.game = self.match.new_hand()
        self._ask()
        obs = self._observations()
        terms = dict.fromkeys(AGENTS, terminated)
        truncs = dict.fromkeys(AGENTS, False)
        if terminated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos

    def state(self) -> np.ndarray:
        """The perfect-information state (:func:`~shangrao.env.encoding.encode_state`)."""
        g = self.game
        if g is None or self.match is None:
            raise RuntimeError("state() before reset()")
        return enc.encode_state(g, self.rules.hands_per_match - len(self.match.hands))

    def render(self) -> str | None:
        """As the AEC environment's (:func:`~shangrao.env.aec.show`): every seat now deciding is named."""
        legal = next(iter(self._asked.values()), None) if len(self._asked) == 1 else None
        return show(self.render_mode, lambda: render_text(self.game, legal, ", ".join(self.deciding_agents())))

    def close(self) -> None:
        pass


def parallel_env(**kwargs: Any) -> ShangraoParallelEnv:
    """The parallel environment (simultaneous claims); options as :class:`ShangraoParallelEnv`."""
    return ShangraoParallelEnv(**kwargs)
