"""The Gymnasium single-agent environment ``Shangrao-v1`` (documented in :mod:`shangrao.env`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import get_bot
from ..game import Action, Bot, Game, HandResult, IllegalActionError, Match
from ..rules import DEFAULT_RULES, RuleSet
from . import encoding as enc
from .aec import NORMALIZE_POINTS, _episode_rules, observation_space

__all__ = ["ILLEGAL_ACTION_MODES", "ShangraoGymEnv"]

ILLEGAL_ACTION_MODES = ("fallback", "terminate", "raise")


class ShangraoGymEnv(gym.Env):
    """One learner seat against three bots; see :mod:`shangrao.env`.

    ShangraoGymEnv(opponents=("random",)*3, seat=None, hands=1, rules=DEFAULT_RULES, dealer=None,
                   normalize=False, illegal_action="fallback", illegal_reward=-1.0, render_mode=None)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - gymnasium declares it on Env

    def __init__(
        self,
        opponents: Sequence[str | Bot] | str = ("random", "random", "random"),
        seat: int | None = None,
        hands: int = 1,
        rules: RuleSet = DEFAULT_RULES,
        dealer: int | None = None,
        normalize: bool = False,
        illegal_action: str = "fallback",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents] * 3
        opponents = list(opponents)
        if len(opponents) != 3:
            raise ValueError(f"opponents: give 3 bots (names or Bot objects), got {len(opponents)}")
        for o in opponents:
            if isinstance(o, str):
                get_bot(o)  # raises UnknownBotError early
            elif not isinstance(o, Bot):
                raise ValueError(f"opponent {o!r} is neither a bot name nor has choose(observation, legal_actions)")
        if seat is not None and seat not in range(4):
            raise ValueError(f"seat must be None (random per episode) or 0..3, got {seat!r}")
        if dealer is not None and dealer not in range(4):
            raise ValueError(f"dealer must be None (random per episode) or 0..3, got {dealer!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.opponent_specs = opponents
        self.fixed_seat = seat
        self.rules = _episode_rules(rules, hands)
        self.fixed_dealer = dealer
        self.reward_divisor = NORMALIZE_POINTS if normalize else 1.0
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(enc.N_ACTIONS)
        self.seat = 0
        self.match: Match | None = None
        self.game: Game | None = None
        self.bots: list[Bot | None] = [None] * 4
        self._legal: dict[int, Action] = {}
        self._done = True
        self.hand_results: list[HandResult] = []

    # ------------------------------------------------------------------ helpers
    def _mask(self) -> np.ndarray:
        # a terminal observation's mask is PASS alone, never all zeros: under Gymnasium's default
        # autoreset (AutoresetMode.NEXT_STEP) the learner is asked an action for it, which the reset ignores
        return enc.action_mask(self._legal) if self._legal else enc.action_mask([enc.PASS_INDEX])

    def _obs(self) -> dict[str, np.ndarray]:
        g = self.game
        assert g is not None and self.match is not None
        hands_left = self.rules.hands_per_match - len(self.match.hands)
        obs = enc.encode_observation(g.observation(self.seat), hands_left)
        return {"observation": obs, "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "action_mask": self._mask()}

    def _advance(self) -> float:
        """Let the bots play until the learner decides or the episode ends; returns the learner's points."""
        reward = 0.0
        m = self.match
        assert m is not None
        while True:
            g = self.game
            assert g is not None
            if g.is_over:
                m.finish_hand(g)
                assert g.result is not None
                self.hand_results.append(g.result)
                reward += g.result.deltas[self.seat]
                if m.is_over:
                    self._legal = {}
                    return reward
                self.game = g = m.new_hand()
            seat = g.current_seat
            assert seat is not None
            if seat == self.seat:
                self._legal = enc.legal_index_map(g)
                return reward
            legal = g.legal_actions()
            bot = self.bots[seat]
            assert bot is not None
            if len(legal) > 1 and hasattr(bot, "see_log"):
                bot.see_log(g.events, seat)  # an outside bot (ext:) follows its seat's log
            action = legal[0] if len(legal) == 1 else bot.choose(g.observation(seat), legal)
            if action in legal:
                g.push(action)
            else:
                g.apply(action)  # raises IllegalActionError naming the bot's mistake

    def passive_action(self) -> Action:
        """The most passive legal action: pass, else discard the drawn tile, else the last legal discard."""
        legal = self._legal
        if enc.PASS_INDEX in legal:
            return legal[enc.PASS_INDEX]
        g = self.game
        assert g is not None
        drawn = g.observation(self.seat).drawn
        if drawn is not None and enc.DISCARD_INDEX + drawn in legal:
            return legal[enc.DISCARD_INDEX + drawn]
        discards = [i for i in legal if i < enc.CHOW_INDEX]
        return legal[max(discards)] if discards else legal[min(legal)]

    # ------------------------------------------------------------------ gym API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        skipped = 0
        while True:
            match_seed = int(rng.integers(2**63 - 1))
            self.seat = int(rng.integers(4)) if self.fixed_seat is None else self.fixed_seat
            dealer = int(rng.integers(4)) if self.fixed_dealer is None else self.fixed_dealer
            self.bots = [None] * 4
            others = [s for s in range(4) if s != self.seat]
            for s, spec in zip(others, self.opponent_specs):
                self.bots[s] = get_bot(spec, seed=f"{match_seed}:{s}") if isinstance(spec, str) else spec
            self.match = Match(self.rules, seed=match_seed, dealer=dealer)
            self.game = self.match.new_hand()
            self.hand_results = []
            self._advance()  # the bots play until the learner's first decision
            if self._legal:
                break
            skipped += 1  # the whole episode ended before the learner decided (e.g. a bot's 天糊): redraw
        self._done = False
        info = self._info()
        if skipped:
            info["skipped_episodes"] = skipped
        return self._obs(), info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:  # a flat action
        if self.match is None or self._done:
            raise RuntimeError("step() on a finished episode: call reset()")
        g = self.game
        assert g is not None
        info_extra: dict[str, Any] = {}
        engine_action = self._legal.get(enc.check_action(action))
        if engine_action is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"flat action {action!r} is not legal now; legal: "
                    + ", ".join(f"{i} ({a})" for i, a in sorted(self._legal.items()))
                )
            info_extra["illegal_action"] = True
            if self.illegal_action == "terminate":
                self._legal = {}
                self._done = True
                info = self._info() | info_extra
                return self._obs(), self.illegal_reward, True, False, info
            engine_action = self.passive_action()
        g.push(engine_action)
        reward = self._advance() / self.reward_divisor
        terminated = self.match.is_over
        obs = self._obs()
        info = self._info() | info_extra
        if self.hand_results:
            info["deltas"] = list(self.hand_results[-1].deltas)
        self._done = terminated
        return obs, float(reward), terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The current mask as a bool array (the ``action_masks()`` hook some maskable learners call)."""
        return self._obs()["action_mask"].astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode")
            return None
        g = self.game
        if g is None:
            return ""
        from ..tiles import format_tile, format_tiles

        o = g.observation(self.seat)
        lines = [
            f"seat {self.seat}  hand {format_tiles(list(o.hand))}  bao {format_tile(o.bao)}  "
            f"tiles left {o.tiles_left}  phase {o.phase}"
        ]
        if self._legal:
            lines.append("legal: " + ", ".join(f"{i}={a}" for i, a in sorted(self._legal.items())))
        return "\n".join(lines)

    def legal_actions(self) -> dict[int, Action]:
        return dict(self._legal)
