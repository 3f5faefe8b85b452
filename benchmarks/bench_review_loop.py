"""The web server's event loop while a game is reviewed (issue 37): ``GET /api/rules`` round trips,
idle and while the background review of a stored game runs, with the review in a worker process
(``--workers 1``, the default) or in a thread of the server (``--workers 0``).

    python benchmarks/bench_review_loop.py --hands 8 --workers 1
    python benchmarks/bench_review_loop.py --hands 8 --workers 0

The game is ``random, greedy, expert, greedy`` self-play stored in a temporary SQLite file; the app
is driven by FastAPI's TestClient (the client shares the process, as in the web tests)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from fastapi.testclient import TestClient
    from tests.web.conftest import SLOW_PEOPLE
    from tests.web.test_browser_review import _play_and_store

    from shangrao.records import Store
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    url = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    store = Store(url)
    gid = _play_and_store(store, 11, hands=args.hands)
    store.close()
    app = create_app(url, Settings(**{**SLOW_PEOPLE, "review_workers": args.workers}))
    with TestClient(app) as c:
        def rules() -> float:
            t0 = time.monotonic()
            c.get("/api/rules")
            return time.monotonic() - t0

        for _ in range(5):
            rules()
        idle = []
        for _ in range(20):
            idle.append(rules())
            time.sleep(0.05)
        t0 = time.monotonic()
        c.get(f"/api/games/{gid}/review")
        busy = []
        while True:
            busy.append(rules())
            if c.get(f"/api/games/{gid}/review").status_code != 202:
                break
            time.sleep(0.05)
    ms = lambda xs, q: 1000 * sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]  # noqa: E731
    print(f"review of {args.hands} hands ({'a worker process' if args.workers else 'a thread'}): "
          f"{time.monotonic() - t0:.1f} s wall")
    print(f"GET /api/rules idle:         n={len(idle)} median {ms(idle, .5):.0f} ms, max {1000 * max(idle):.0f} ms")
    print(f"GET /api/rules while review: n={len(busy)} median {ms(busy, .5):.0f} ms, "
          f"90th {ms(busy, .9):.0f} ms, max {1000 * max(busy):.0f} ms")


if __name__ == "__main__":
    main()
