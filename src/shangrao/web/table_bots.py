"""A web table's bots, asked off the event loop (issue 34): a collaborator the :class:`~.tables.Table` holds.

:class:`~shangrao.game.table.TableState` never calls a bot: it hands each bot or stand-in decision
out once as a :class:`~shangrao.game.table.BotRequest`.  :meth:`TableBots.ask` runs the bot in the
server's bot threads (``TableManager.bot_pool``) with a deadline of ``Settings.bot_deadline``
seconds; its answer goes back through the ``deliver`` callback (the table applies it only while
that decision is current).  A bot that is late, fails, or is still busy with an earlier decision
gets the fallback (``greedy``, quick, on the loop) for that decision, and a warning in the log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future

from ..bots import close_bot, get_bot, web_bot_spec
from ..game import Action
from ..game.table import BotRequest, SeatLike, decide

__all__ = ["TableBots"]

log = logging.getLogger("shangrao.web")


class TableBots:
    """One table's bots in worker threads.

    table_id: for the log.  pool: the server's bot threads.  deadline: seconds a decision may take
    (then the fallback plays it).  seed: the fallback's seed.  deliver: ``deliver(request, action)``
    hands an answer to the table."""

    def __init__(
        self,
        table_id: int,
        pool: Executor,
        deadline: float,
        seed: object,
        deliver: Callable[[BotRequest, Action], None],
    ) -> None:
        self.table_id, self.pool, self.deadline, self.deliver = table_id, pool, deadline, deliver
        #: plays, on the loop, a decision whose bot was late, failed or still busy (quick: greedy)
        self.fallback = get_bot("greedy", seed=f"{seed}:fallback")
        self.faults = 0
        self._busy: set[int] = set()  # id() of the bots deciding in a worker thread now
        self._tasks: set[asyncio.Task[None]] = set()

    def make(self, spec: str, seed: str) -> object:
        """The bot of an offered label or spec, an outside bot's own timeout cut to the deadline."""
        bot = get_bot(web_bot_spec(spec), seed=seed)
        if isinstance(getattr(bot, "timeout", None), float):  # an outside bot: free its worker by the deadline
            bot.timeout = min(bot.timeout, self.deadline)  # type: ignore[attr-defined]
        return bot

    def ask(self, req: BotRequest) -> None:
        """Ask ``req``'s bot in a worker thread (:func:`~shangrao.game.table.decide`); its answer, or
        the fallback's after the deadline, goes to ``deliver``.  Call on the event loop."""
        loop = asyncio.get_running_loop()
        bid = id(req.bot)
        if bid in self._busy:
            self._fall_back(req, "is still busy with an earlier decision")
            return
        self._busy.add(bid)
        fut = self.pool.submit(decide, req)
        fut.add_done_callback(lambda _f: loop.call_soon_threadsafe(self._busy.discard, bid))
        task = loop.create_task(self._await(req, fut), name=f"table-{self.table_id}-bot")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _await(self, req: BotRequest, fut: Future[Action]) -> None:
        try:
            action = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(fut)), self.deadline)
        except TimeoutError:
            self._fall_back(req, f"gave no answer within {self.deadline:g} s")
            return
        except Exception as err:  # a bot's own failure: the fallback plays, the table goes on
            self._fall_back(req, f"failed ({type(err).__name__}: {str(err)[:200]})")
            return
        self.deliver(req, action)

    def _fall_back(self, req: BotRequest, why: str) -> None:
        self.faults += 1
        who = "stand-in" if req.standin else "bot"
        log.warning(
            "table %s seat %s: the %s %s %s; greedy plays this decision",
            self.table_id,
            req.seat,
            who,
            getattr(req.bot, "name", type(req.bot).__name__),
            why,
        )
        self.deliver(req, self.fallback.choose(req.observation, list(req.legal)))

    def cancel(self) -> None:
        """Drop the decisions being waited for (the table stops)."""
        for task in list(self._tasks):
            task.cancel()

    def close(self, seats: Sequence[SeatLike]) -> list[Future[None]]:
        """End the seats' bots that hold something (outside bots' processes) in the bots' threads,
        never on the loop; returns the futures.  Pending decisions are dropped."""
        self.cancel()
        ends = []
        for s in seats:
            bot = s.bot
            if bot is not None and callable(getattr(bot, "close", None)):
                try:
                    ends.append(self.pool.submit(close_bot, bot))
                except RuntimeError:  # the pool is shut down (the server is ending): end it here
                    close_bot(bot)
        return ends
