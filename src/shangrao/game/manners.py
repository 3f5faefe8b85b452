"""Table manners (issue 24): 托管 (a person hands their seat to the stand-in and takes it back), the
解散 vote (the match ends early only by the members' vote) and the quick phrases (快捷语), as data on
an injected clock like :class:`~shangrao.game.table.TableState`, which holds one :class:`Manners`
for the whole match (it outlives the hands).

- **托管** (``managed``): a seat in it is played by its stand-in as an absent player's is (after
  ``bot_delay``, in its turn and in every window); :meth:`Manners.set_managed` with ``on=False``
  gives the next decision back to the person (:meth:`TableState.set_managed` restarts a turn's
  countdown in progress from full length).
- **解散** (``vote``): any seated person proposes (:meth:`Manners.propose`; the proposer agrees); the
  other seated people answer 同意/拒绝 (:meth:`Manners.answer`) within ``dissolve_timeout`` seconds.
  The rule: the vote passes when MORE THAN HALF of the seated people agree (a strict majority: 2 of 3,
  3 of 4, 2 of 2, and a single person's own proposal passes at once); a tie (2 of 4) fails; the vote
  fails as soon as a majority can no longer be reached, and when its countdown runs out (an answer
  not given counts as no agreement).  One vote at a time.
- **快捷语** (``said``): a seat may say one of :data:`PHRASES` at most once every ``phrase_interval``
  seconds; one beyond it is refused in words (:class:`TooFast`).

Everything is data (:meth:`Manners.to_data` / :meth:`Manners.from_data`, with the countdown as
seconds left), so a server stores it and a restarted one goes on, the vote's countdown included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import IllegalActionError

__all__ = ["MANNER_WORDS", "PHRASES", "Manners", "MannersError", "TooFast", "Vote", "majority"]

#: the quick phrases (快捷语): id -> (Chinese, English); the web shows the Chinese to everyone
PHRASES: dict[str, tuple[str, str]] = {
    "hurry": ("快点吧", "hurry up"),
    "well_played": ("打得好", "well played"),
    "sorry": ("不好意思", "sorry"),
    "again": ("再来一局", "one more match"),
    "thanks": ("谢谢", "thank you"),
}

#: the words of the table manners: id -> (Chinese, English) (labels.py serves them to the web)
MANNER_WORDS: dict[str, tuple[str, str]] = {
    "managed": ("托管", "bot plays"),
    "manage": ("托管", "let the bot play"),
    "take_back": ("取消托管", "take my seat back"),
    "dissolve": ("解散", "dissolve"),
    "propose_dissolve": ("发起解散", "propose to dissolve"),
    "dissolve_asked": ("{0} 提议解散本场", "{0} proposes to end the match"),
    "agree": ("同意", "agree"),
    "refuse": ("拒绝", "refuse"),
    "dissolved": ("本场已解散", "the match was dissolved"),
    "dissolve_failed": ("解散未通过", "the vote to dissolve failed"),
    "failed_refused": ("解散未通过：{0}人拒绝", "the vote to dissolve failed: {0} refused"),
    "failed_timeout": ("解散未通过：投票超时", "the vote to dissolve failed: time ran out"),
    "paused": ("牌桌已暂停，等玩家回来", "The table is paused until a player is back"),
    "phrases": ("快捷语", "quick phrases"),
    "watch": ("观战", "watch"),
    "spectator": ("观战中", "watching"),
    "watch_link": ("观战链接", "spectator link"),
    "baodiao_any": ("任意牌（宝吊）", "any tile (宝吊)"),
    "end_dissolved": ("解散", "dissolved"),
}


class MannersError(IllegalActionError):
    """A table-manners request that is not allowed now (a ``ValueError``); the message says why."""


class TooFast(MannersError):
    """A quick phrase sooner than ``phrase_interval`` after the seat's last one."""


def majority(agree: int, voters: int) -> bool:
    """Whether ``agree`` of ``voters`` seated people is the 解散 majority: more than half (a tie fails)."""
    return 2 * agree > voters


@dataclass
class Vote:
    """A 解散 vote: ``proposer`` (a seat), ``voters`` (the seated people when it was proposed),
    ``answers`` (seat -> agrees; the proposer's is True), ``deadline`` (caller's clock, seconds)."""

    proposer: int
    voters: tuple[int, ...]
    answers: dict[int, bool]
    deadline: float

    def outcome(self, now: float) -> str | None:
        """ "passed", "failed" or None (still open): a strict majority of ``voters`` agreeing passes;
        fails once that cannot be reached or at the deadline."""
        agree = sum(1 for v in self.answers.values() if v)
        if majority(agree, len(self.voters)):
            return "passed"
        still = len(self.voters) - len(self.answers)
        if not majority(agree + still, len(self.voters)) or now >= self.deadline:
            return "failed"
        return None


@dataclass
class Manners:
    """The manners of one match (see the module docstring).  ``managed``: seat -> the time it was
    handed to the stand-in.  ``said``: seat -> the time of its last phrase.  ``vote``: the open vote,
    or None.  ``result``: the last vote's outcome ("passed"/"failed") or None.  Times: the caller's clock."""

    dissolve_timeout: float = 60.0
    phrase_interval: float = 3.0
    managed: dict[int, float] = field(default_factory=dict)
    said: dict[int, float] = field(default_factory=dict)
    vote: Vote | None = None
    result: str | None = None
    why: str | None = None  # a failed vote: "refused" (a majority can no longer agree) or "timeout"
    tally: tuple[int, int, int] | None = None  # the closed vote's (agreed, refused, voters)
    closed: int = 0  # votes closed in this match (a client tells a new outcome from one it has shown)
    version: int = 0  # bumped on every change shown

    # ------------------------------------------------------------------ 托管
    def is_managed(self, seat: int) -> bool:
        return seat in self.managed

    def set_managed(self, seat: int, on: bool, now: float) -> bool:
        """托管 on or off for ``seat``; False when it changes nothing."""
        if on == (seat in self.managed):
            return False
        if on:
            self.managed[seat] = now
        else:
            del self.managed[seat]
        self.version += 1
        return True

    # ------------------------------------------------------------------ 快捷语
    def say(self, seat: int, phrase: str, now: float) -> str:
        """Seat ``seat`` says ``phrase`` (an id of :data:`PHRASES`); returns its Chinese words.
        Raises MannersError (no such phrase) or TooFast (sooner than ``phrase_interval`` after the
        seat's last one; nothing recorded)."""
        if phrase not in PHRASES:
            raise MannersError(f"no quick phrase {phrase!r}; one of {', '.join(PHRASES)}")
        last = self.said.get(seat)
        if last is not None and now - last < self.phrase_interval:
            wait = self.phrase_interval - (now - last)
            raise TooFast(
                f"one quick phrase every {self.phrase_interval:g} s: wait {wait:.1f} s more "
                f"(快捷语每{self.phrase_interval:g}秒一次)"
            )
        self.said[seat] = now
        return PHRASES[phrase][0]

    # ------------------------------------------------------------------ 解散
    def propose(self, seat: int, voters: tuple[int, ...], now: float) -> str | None:
        """``seat`` proposes 解散 to ``voters`` (the seated people, ``seat`` among them); it agrees.
        Returns the outcome at once ("passed" for a single person) or None (open).  Raises
        MannersError (not a voter, or a vote is open already)."""
        if seat not in voters:
            raise MannersError("only a seated player may propose to dissolve the match")
        if self.vote is not None:
            raise MannersError("a vote to dissolve is open already; answer it")
        self.vote = Vote(seat, tuple(sorted(voters)), {seat: True}, now + self.dissolve_timeout)
        self.result = self.why = self.tally = None
        self.version += 1
        return self.settle(now)

    def answer(self, seat: int, agree: bool, now: float) -> str | None:
        """``seat``'s 同意 (True) or 拒绝 (False); returns the outcome or None (still open).  Raises
        MannersError (no vote open, not a voter, already answered)."""
        v = self.vote
        if v is None:
            raise MannersError("no vote to dissolve is open")
        if seat not in v.voters:
            raise MannersError("only the seated players vote on dissolving the match")
        if seat in v.answers:
            raise MannersError("you have answered this vote already")
        v.answers[seat] = agree
        self.version += 1
        return self.settle(now)

    def settle(self, now: float) -> str | None:
        """Close the open vote if it is decided at ``now`` (its outcome in :attr:`result`); returns
        the outcome or None (no vote, or still open)."""
        v = self.vote
        if v is None:
            return None
        out = v.outcome(now)
        if out is not None:
            agreed = sum(1 for a in v.answers.values() if a)
            refused = len(v.answers) - agreed
            self.vote = None
            self.result = out
            self.tally = (agreed, refused, len(v.voters))
            self.closed += 1
            # failed: refused when the 拒绝 made a majority impossible, else its countdown ran out
            still = len(v.voters) - len(v.answers)
            self.why = (
                None if out == "passed" else ("refused" if not majority(agreed + still, len(v.voters)) else "timeout")
            )
            self.version += 1
        return out

    def next_wakeup(self) -> float | None:
        """When the open vote's countdown runs out (None: no vote)."""
        return self.vote.deadline if self.vote is not None else None

    def public(self, now: float) -> dict[str, Any]:
        """What every seat (and a spectator) is shown: ``managed`` (seats), ``vote`` (``proposer``,
        ``voters``, ``answers`` as {seat: bool}, ``left`` seconds) or None, ``result``, and (issue 38)
        ``why`` a failed vote failed ("refused"/"timeout") and its ``tally`` [agreed, refused, voters]."""
        v = self.vote
        vote = (
            None
            if v is None
            else {
                "proposer": v.proposer,
                "voters": list(v.voters),
                "answers": {str(k): a for k, a in sorted(v.answers.items())},
                "left": round(max(0.0, v.deadline - now), 1),
            }
        )
        return {
            "managed": sorted(self.managed),
            "vote": vote,
            "result": self.result,
            "why": self.why,
            "tally": None if self.tally is None else list(self.tally),
            "closed": self.closed,
        }

    # ------------------------------------------------------------------ storage
    def to_data(self, now: float) -> dict[str, Any]:
        """As JSON-able data (times as seconds ago / left), for :meth:`from_data`."""
        v = self.vote
        return {
            "managed": sorted(self.managed),
            "result": self.result,
            "why": self.why,
            "tally": None if self.tally is None else list(self.tally),
            "closed": self.closed,
            "vote": None
            if v is None
            else {
                "proposer": v.proposer,
                "voters": list(v.voters),
                "answers": [[k, a] for k, a in sorted(v.answers.items())],
                "left": max(0.0, v.deadline - now),
            },
        }

    def stored(self, now: float) -> dict[str, Any] | None:
        """:meth:`to_data`, or None when there is nothing to keep (nobody in 托管, no vote now or before)."""
        if not self.managed and self.vote is None and self.result is None:
            return None
        return self.to_data(now)

    @classmethod
    def from_data(
        cls,
        data: object,
        now: float,
        *,
        dissolve_timeout: float = 60.0,
        phrase_interval: float = 3.0,
        elapsed: float = 0.0,
    ) -> Manners:
        """:meth:`to_data` read back at ``now``; ``elapsed``: seconds since it was stored (the vote's
        countdown goes on from there).  Data of another shape counts as no manners (nothing managed,
        no vote)."""
        m = cls(dissolve_timeout=dissolve_timeout, phrase_interval=phrase_interval)
        if not isinstance(data, dict):
            return m
        seats = data.get("managed")
        if isinstance(seats, list):
            m.managed = {s: now for s in seats if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 4}
        if data.get("result") in ("passed", "failed"):
            m.result = data["result"]
        if data.get("why") in ("refused", "timeout"):
            m.why = data["why"]
        tally, closed = data.get("tally"), data.get("closed")
        if isinstance(tally, list) and len(tally) == 3 and all(type(x) is int and 0 <= x <= 4 for x in tally):
            m.tally = (tally[0], tally[1], tally[2])
        if type(closed) is int and closed >= 0:
            m.closed = closed
        v = data.get("vote")
        try:
            if isinstance(v, dict):
                voters = tuple(int(s) for s in v["voters"])
                answers = {int(k): bool(a) for k, a in v["answers"]}
                left = float(v["left"]) - max(0.0, elapsed)
                m.vote = Vote(int(v["proposer"]), voters, answers, now + max(0.0, left))
        except (KeyError, TypeError, ValueError):
            m.vote = None
        return m
