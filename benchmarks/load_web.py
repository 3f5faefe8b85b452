"""Load test of ``shangrao serve``: a real server process, scripted WebSocket players.

Run (one command; prints a table)::

    PYTHONPATH=src python benchmarks/load_web.py                      # both presets, SQLite
    PYTHONPATH=src python benchmarks/load_web.py --db pg              # PostgreSQL (SHANGRAO_TEST_PG_URL)
    PYTHONPATH=src python benchmarks/load_web.py --db sqlite --db pg  # both databases
    PYTHONPATH=src python benchmarks/load_web.py --preset humans50 --seconds 30

What it does, per run:

1. starts ``shangrao serve --host 127.0.0.1`` as a subprocess (only the loopback address is
   ever used) on a free port, over a fresh database: a temporary SQLite file, or for ``pg`` a
   new database ``shangrao_bench_<pid>_<time>`` on the PostgreSQL server of
   ``SHANGRAO_TEST_PG_URL`` (or, without the right to create one, a schema of that name in
   that database); it is dropped afterwards;
2. creates the tables through ``POST /api/tables`` and ``/join``;
3. connects the scripted players (``websockets`` clients, one asyncio process): each one answers
   every state in which it has more than one legal action at once (a deterministic random legal
   action, 糊 when offered), sends ``ready`` after each settlement, and stops when its table is
   finished or the time is up (``--warmup`` + ``--seconds``; everything is bounded, the script
   stops by itself).  Only actions sent after the warm-up (5 s: connecting, the fill-in, the
   first deals of all tables at once) are measured;
4. reports: client actions/s (actions sent and answered by a newer state), game actions/s (every
   decision stored, bots and forced moves included, counted from the database afterwards),
   p50/p99/max action-to-update latency (from sending an action to receiving the first state of a
   newer position on the same socket), errors (error messages by code, closed sockets, failed
   requests), and the server's CPU (user+system seconds per wall second, from /proc) and
   memory (RSS at the end and peak).

Presets:
  humans50  50 tables x 4 scripted people, ``--bot-delay 0`` (forced moves at once), 32 hands
  bots200   200 tables, one scripted person each, the other three seats filled with bots by the
            ``fill_bots`` message; the server's ``--bot-delay`` is ``--bots-delay`` (default 0.6 s,
            the serve default), 32 hands

Server options that raise the per-address and per-server limits are passed when the server
knows them (read from ``serve --help``), so the same script measures older versions too:
``--server-src DIR`` runs the server from another source tree, e.g. the version before issue 13::

    git archive 12547b6 src | tar -x -C /tmp/before && \
        PYTHONPATH=src python benchmarks/load_web.py --server-src /tmp/before/src

``--against DIR --rounds N`` compares two servers in one run: each round runs every preset on ``DIR``
("before") and then on ``--server-src`` or this tree ("after"), taking turns so that the machine's
load falls on both alike (``--json-against`` writes the "before" rows apart)::

    git worktree add --detach /tmp/wt-before 1f0ce90 && \
        nice -n 5 python benchmarks/load_web.py --against /tmp/wt-before/src --rounds 2 \
        --server-arg=--claim-pause --server-arg=0 \
        --json benchmarks/load_web_after.json --json-against benchmarks/load_web_before.json

``--profile FILE`` runs the server under cProfile (for finding where the time goes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"  # loopback only, always
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgresql+psycopg://shangrao:shangrao@127.0.0.1:5432/shangrao_test"


# ---------------------------------------------------------------------------- helpers
def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def proc_cpu(pid: int) -> float:
    """user+system CPU seconds of a process (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(parts[11]) + int(parts[12])) / tick


def proc_mem(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) in MiB."""
    rss = hwm = 0.0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1]) / 1024
    return rss, hwm


def loadavg() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    i = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[i]


# ---------------------------------------------------------------------------- databases
class Database:
    """A fresh database for one run; ``url`` for the server, ``drop()`` afterwards."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        self._drop = None
        if kind == "sqlite":
            self.url = f"sqlite:///{tmp / 'bench.sqlite3'}"
            self.label = "SQLite (file, WAL)"
            return
        base = os.environ.get("SHANGRAO_TEST_PG_URL", DEFAULT_PG) if kind == "pg" else kind
        if not base.startswith("postgresql"):
            self.url, self.label = base, base.split(":", 1)[0]
            return
        self.label = "PostgreSQL"
        name = f"shangrao_bench_{os.getpid()}_{int(time.time())}"
        try:
            import psycopg

            admin = base.replace("postgresql+psycopg://", "postgresql://")
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'CREATE DATABASE "{name}"')
            prefix, _, _ = base.rpartition("/")
            self.url = f"{prefix}/{name}"

            def drop() -> None:
                with psycopg.connect(admin, autocommit=True) as c:
                    c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

            self._drop = drop
        except Exception:  # noqa: BLE001 - no CREATEDB right: a fresh schema in that database
            import psycopg

            admin = base.replace("postgresql+psycopg://", "postgresql://")
            with psycopg.connect(admin, autocommit=True) as c:
                c.execute(f'CREATE SCHEMA "{name}"')
            sep = "&" if "?" in base else "?"
            self.url = f"{base}{sep}options=-csearch_path%3D{name}"
            self.label = "PostgreSQL"

            def drop_schema() -> None:
                with psycopg.connect(admin, autocommit=True) as c:
                    c.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')

            self._drop = drop_schema

    def drop(self) -> None:
        if self._drop is not None:
            try:
                self._drop()
            except Exception as err:  # noqa: BLE001
                print(f"(could not drop the bench database: {err})")


def count_game_actions(url: str, ids: list[int]) -> int:
    """Decisions stored for these games (every seat, bots and forced moves included)."""
    sys.path.insert(0, str(ROOT / "src"))
    from shangrao.records import Store

    n = 0
    with Store(url) as st:
        for gid in ids:
            rec = st.load_game(gid)
            for h in rec.hands:
                n += sum(1 for e in h.events if "action" in e)
            for evs in rec.pending.values():
                n += sum(1 for e in evs if "action" in e)
    return n


# ---------------------------------------------------------------------------- the server
class Server:
    def __init__(self, db_url: str, bot_delay: float, extra: list[str], log: Path, profile: Path | None = None,
                 src: Path | None = None) -> None:
        self.port = free_port()
        self.src = src or ROOT / "src"
        env = {**os.environ, "PYTHONPATH": str(self.src) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        help_text = subprocess.run([sys.executable, "-c", "from shangrao.cli import main; main()", "serve", "--help"],
                                   env={**env, "COLUMNS": "200"}, capture_output=True, text=True).stdout
        args = ["serve", "--host", HOST, "--port", str(self.port), "--db", db_url,
                "--bot-delay", str(bot_delay), "--claim-timeout", "120", "--turn-timeout", "300",
                "--absent-timeout", "300"]
        # limits of newer servers, raised so the load test is not refused (when the server has them)
        for opt, value in (("--tables-per-minute", "100000"), ("--max-live-tables", "100000"),
                           ("--waiting-per-address", "100000"),  # issue 25: every table is created from 127.0.0.1
                           ("--messages-per-second", "1000"),
                           # every scripted player is at 127.0.0.1: one address (issue 22's cap is 64)
                           ("--address-connections", "1000000")):
            if opt in help_text:
                args += [opt, value]
        args += extra
        self.log = open(log, "w")
        cmd = [sys.executable, "-c", "from shangrao.cli import main; main()"]
        if profile is not None:  # the server under cProfile (slower; for finding where the time goes)
            runner = log.parent / "serve_runner.py"
            runner.write_text("from shangrao.cli import main\nmain()\n")
            cmd = [sys.executable, "-m", "cProfile", "-o", str(profile), str(runner)]
        self.proc = subprocess.Popen([*cmd, *args], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = f"http://{HOST}:{self.port}"

    def wait_ready(self, timeout: float = 30.0) -> None:
        import httpx

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}); see {self.log.name}")
            try:
                if httpx.get(self.url + "/api/rules", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# ---------------------------------------------------------------------------- the players
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    first: float | None = None
    last: float = 0.0
    states: int = 0
    bytes: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


async def player(url: str, table_id: int, token: str, seat: int, stats: Stats, stop_at: float,
                 fill_bots: bool, rng: random.Random, measure_from: float = 0.0) -> None:
    from websockets.asyncio.client import connect

    pending: tuple[tuple[int, int], float] | None = None
    acted: tuple[int, int] | None = None
    readied: int | None = None
    try:
        async with connect(f"{url}/ws/{table_id}/{token}", max_size=2**24, open_timeout=60,
                           ping_interval=None) as ws:
            if fill_bots:
                await ws.send(json.dumps({"type": "fill_bots"}))
            while True:
                left = stop_at - time.monotonic()
                if left <= 0:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), left)
                except asyncio.TimeoutError:
                    return
                now = time.monotonic()
                stats.bytes += len(raw)
                m = json.loads(raw)
                t = m.get("type")
                if t == "error":
                    stats.error(str(m.get("code")))
                    pending = None
                    continue
                if t != "state":
                    continue
                stats.states += 1
                view = m.get("view")
                table = m.get("table") or {}
                k = (m.get("hand_no", 0), m.get("seq", 0))
                if pending is not None and k > pending[0]:
                    if pending[1] >= measure_from:  # the warm-up (connecting, first deals) is not measured
                        stats.latencies.append(now - pending[1])
                        stats.actions += 1
                        stats.last = now
                    pending = None
                if table.get("status") == "finished":
                    return
                if view is None:
                    continue
                if view.get("phase") == "over":
                    if m.get("settlement") is not None and readied != k[0]:
                        readied = k[0]
                        await ws.send(json.dumps({"type": "ready"}))
                    continue
                legal = m.get("legal") or []
                if len(legal) > 1 and view.get("current_seat") == seat and pending is None and acted != k:
                    names = [a["action"] for a in legal]
                    a = "win" if "win" in names else rng.choice(names)
                    acted = k
                    t0 = time.monotonic()
                    if stats.first is None and t0 >= measure_from:
                        stats.first = t0
                    pending = (k, t0)
                    await ws.send(json.dumps({"type": "action", "action": a, "seq": k[1], "hand": k[0]}))
    except Exception as err:  # noqa: BLE001 - counted, the run goes on
        stats.error(f"socket:{type(err).__name__}")


async def create_tables(url: str, n: int, humans: int, stats: Stats) -> list[tuple[int, list[str]]]:
    import httpx

    out = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:
        for i in range(n):
            seats = ["human"] * 3
            r = await c.post("/api/tables", json={"name": f"bench {i}", "hands": 32, "seats": seats})
            if r.status_code != 200:
                stats.error(f"create:{r.status_code}")
                continue
            d = r.json()
            tokens = [d["token"]]
            for _ in range(humans - 1):
                j = await c.post(f"/api/tables/{d['id']}/join")
                if j.status_code != 200:
                    stats.error(f"join:{j.status_code}")
                    break
                tokens.append(j.json()["token"])
            out.append((d["id"], tokens))
    return out


async def play_tables(url: str, made: list, humans: int, stop_at: float, stats: Stats,
                      measure_from: float = 0.0) -> None:
    ws_url = url.replace("http://", "ws://")
    tasks = []
    for tid, tokens in made:
        for seat, tok in enumerate(tokens):
            rng = random.Random(f"{tid}:{seat}")
            tasks.append(asyncio.create_task(player(ws_url, tid, tok, seat, stats, stop_at,
                                                    fill_bots=(humans < 4 and seat == 0), rng=rng,
                                                    measure_from=measure_from)))
    await asyncio.gather(*tasks)


def _worker(url: str, made: list, humans: int, stop_at: float, measure_from: float, out) -> None:
    stats = Stats()
    asyncio.run(play_tables(url, made, humans, stop_at, stats, measure_from))
    ru = resource.getrusage(resource.RUSAGE_SELF)
    out.put((stats, ru.ru_utime + ru.ru_stime))


def drive(url: str, tables: int, humans: int, seconds: float, stats: Stats, procs: int,
          warmup: float) -> tuple[list[int], float]:
    """Create the tables, then play them from ``procs`` client processes for ``warmup + seconds``,
    measuring the last ``seconds``; returns (ids, client CPU s)."""
    import multiprocessing as mp

    made = asyncio.run(create_tables(url, tables, humans, stats))
    measure_from = time.monotonic() + warmup
    stop_at = measure_from + seconds
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    parts = [made[i::procs] for i in range(procs)]
    ps = [ctx.Process(target=_worker, args=(url, part, humans, stop_at, measure_from, q)) for part in parts if part]
    for p in ps:
        p.start()
    cpu = 0.0
    for _ in ps:
        st, c = q.get()
        cpu += c
        stats.latencies += st.latencies
        stats.actions += st.actions
        for k, v in st.errors.items():
            stats.errors[k] = stats.errors.get(k, 0) + v
        firsts = [x for x in (stats.first, st.first) if x is not None]
        stats.first = min(firsts) if firsts else None
        stats.last = max(stats.last, st.last)
        stats.states += st.states
        stats.bytes += st.bytes
    for p in ps:
        p.join()
    return [tid for tid, _ in made], cpu


# ---------------------------------------------------------------------------- a run
PRESETS = {
    "humans50": dict(tables=50, humans=4, bot_delay=0.0),
    "bots200": dict(tables=200, humans=1, bot_delay=None),  # None: --bots-delay
}


def run(preset: str, db_kind: str, seconds: float, bots_delay: float, extra: list[str], keep: Path | None,
        tables: int | None, procs: int, profile: Path | None = None, warmup: float = 5.0,
        src: Path | None = None) -> dict:
    p = PRESETS[preset]
    n_tables = tables or p["tables"]
    bot_delay = bots_delay if p["bot_delay"] is None else p["bot_delay"]
    tmp = Path(tempfile.mkdtemp(prefix="shangrao-load-"))
    db = Database(db_kind, tmp)
    server = Server(db.url, bot_delay, extra, (keep or tmp) / f"server-{preset}-{db_kind}.log", profile, src)
    stats = Stats()
    try:
        server.wait_ready()
        pid = server.proc.pid
        cpu0, wall0, load0 = proc_cpu(pid), time.monotonic(), loadavg()
        ids, client_cpu = drive(server.url, n_tables, p["humans"], seconds, stats, procs, warmup)
        wall = time.monotonic() - wall0
        cpu = proc_cpu(pid) - cpu0
        rss, hwm = proc_mem(pid)
        load1 = loadavg()
    finally:
        server.stop()
    try:
        game_actions = count_game_actions(db.url, ids)
    except Exception as err:  # noqa: BLE001
        print(f"(cannot count stored actions: {err})")
        game_actions = -1
    db.drop()
    if keep is None:
        shutil.rmtree(tmp, ignore_errors=True)
    span = (stats.last - stats.first) if stats.first else 0.0
    return {
        "preset": preset, "db": db.label, "server_src": str(src or "this checkout"), "tables": n_tables, "clients": n_tables * p["humans"],
        "bot_delay": bot_delay, "seconds": round(wall, 1),
        "client_actions": stats.actions, "client_actions_s": round(stats.actions / span, 1) if span else 0.0,
        "game_actions": game_actions, "game_actions_s": round(game_actions / wall, 1) if game_actions >= 0 else None,
        "p50_ms": round(pct(stats.latencies, 0.50) * 1000, 1), "p99_ms": round(pct(stats.latencies, 0.99) * 1000, 1),
        "max_ms": round(max(stats.latencies, default=float("nan")) * 1000, 1),
        "mean_ms": round(statistics.fmean(stats.latencies) * 1000, 1) if stats.latencies else None,
        "errors": sum(stats.errors.values()), "error_kinds": stats.errors,
        "server_cpu": round(cpu / wall, 2),
        "cpu_ms_per_action": round(cpu * 1000 / game_actions, 2) if game_actions > 0 else None, "client_cpu": round(client_cpu / wall, 2), "server_rss_mib": round(rss, 1), "server_peak_mib": round(hwm, 1),
        "states": stats.states, "mib_received": round(stats.bytes / 2**20, 1),
        "load_before": load0, "load_after": load1,
    }


COLUMNS = [("preset", "preset"), ("db", "database"), ("tables", "tables"), ("clients", "clients"),
           ("bot_delay", "bot delay s"), ("seconds", "run s"), ("client_actions_s", "client actions/s"),
           ("game_actions_s", "game actions/s"), ("p50_ms", "p50 ms"), ("p99_ms", "p99 ms"),
           ("max_ms", "max ms"), ("errors", "errors"), ("server_cpu", "server CPU (cores)"),
           ("cpu_ms_per_action", "server CPU ms/game action"),
           ("server_rss_mib", "RSS MiB"), ("server_peak_mib", "peak RSS MiB"),
           ("client_cpu", "clients CPU (cores)"), ("load_before", "loadavg before")]


def table(rows: list[dict]) -> str:
    cols = ([("round", "round"), ("server", "server")] if any("server" in r for r in rows) else []) + COLUMNS
    head = "| " + " | ".join(h for _, h in cols) + " |"
    sep = "|" + "|".join("---" for _ in cols) + "|"
    lines = [head, sep]
    for r in rows:
        lines.append("| " + " | ".join(str(r.get(k)) for k, _ in cols) + " |")
    return "\n".join(lines)


def comparison(rows: list[dict]) -> str:
    """With ``--against``: per preset and database, the median over the rounds of each server and the
    ratio after / before (game actions/s, latencies, CPU per game action); the median, so that one
    round in which the machine's load jumped does not decide."""
    keys = [("game_actions_s", "game actions/s"), ("client_actions_s", "client actions/s"), ("p50_ms", "p50 ms"),
            ("p99_ms", "p99 ms"), ("cpu_ms_per_action", "CPU ms / game action"), ("server_cpu", "server CPU")]
    lines = ["| preset | database | " + " | ".join(f"{h} before → after (ratio)" for _, h in keys) + " |",
             "|---|---|" + "---|" * len(keys)]
    groups: dict[tuple[str, str], dict[str, list[dict]]] = {}
    for r in rows:
        groups.setdefault((r["preset"], r["db"]), {}).setdefault(r.get("server", ""), []).append(r)
    for (preset, db), by in groups.items():
        cells = []
        for k, _ in keys:
            b = [r[k] for r in by.get("before", []) if isinstance(r.get(k), int | float)]
            w = [r[k] for r in by.get("after", []) if isinstance(r.get(k), int | float)]
            if not b or not w:
                cells.append("-")
                continue
            mb, mw = statistics.median(b), statistics.median(w)
            cells.append(f"{mb:.4g} → {mw:.4g} ({mw / mb:.2f})" if mb else f"{mb:.4g} → {mw:.4g}")
        lines.append(f"| {preset} | {db} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", action="append", choices=sorted(PRESETS), help="default: both")
    ap.add_argument("--db", action="append", help="sqlite | pg | a SQLAlchemy URL (default: sqlite); repeatable")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured length of each run (default 30)")
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds played before measuring (connecting, fill-in, first deals; default 5)")
    ap.add_argument("--server-src", type=Path,
                    help="run the server from this source tree (its src/ directory), e.g. an older version")
    ap.add_argument("--tables", type=int, default=None, help="override the preset's number of tables")
    ap.add_argument("--bots-delay", type=float, default=0.6, help="server --bot-delay for bots200 (default 0.6)")
    ap.add_argument("--server-arg", action="append", default=[], help="extra argument for shangrao serve")
    ap.add_argument("--profile", type=Path, help="run the server under cProfile, writing the stats here")
    ap.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    ap.add_argument("--against", type=Path,
                    help="a second source tree's src/ (e.g. the version before a change): every preset runs on it "
                         "and then on --server-src (or this tree), taking turns in each round, so that the "
                         "machine's load falls on both alike")
    ap.add_argument("--rounds", type=int, default=1, help="with --against: rounds of before, after (default 1)")
    ap.add_argument("--json-against", type=Path, help="with --against: write its rows here (the others to --json)")
    ap.add_argument("--keep", type=Path, help="keep the server logs in this directory")
    a = ap.parse_args(argv)
    presets = a.preset or ["humans50", "bots200"]
    dbs = a.db or ["sqlite"]
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip()
    print(f"# load_web.py  commit {rev}  {platform.node()}  {platform.processor() or platform.machine()}  "
          f"{os.cpu_count()} CPUs  Python {platform.python_version()}  loadavg {loadavg()}")
    print(f"# server from {a.server_src or ROOT / 'src'}; {a.warmup:g} s warm-up, {a.seconds:g} s measured per run")
    rows = []
    servers: list[tuple[str | None, Path | None]] = [(None, a.server_src)]
    if a.against:
        servers = [("before", a.against), ("after", a.server_src)]
        print(f"# against {a.against}: {a.rounds} round(s) of before, after for each preset")
    for rnd in range(a.rounds if a.against else 1):
        for db in dbs:
            for preset in presets:
                for label, src in servers:
                    r = run(preset, db, a.seconds, a.bots_delay, a.server_arg, a.keep, a.tables, a.procs, a.profile,
                            a.warmup, src)
                    if label is not None:
                        r["server"], r["round"] = label, rnd + 1
                    rows.append(r)
                    print(f"  {preset} {r['db']}{' ' + label if label else ''}: {r['client_actions_s']} client "
                          f"actions/s, p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, errors {r['error_kinds'] or 0}, "
                          f"CPU {r['server_cpu']}, RSS {r['server_rss_mib']} MiB, load {r['load_after']}",
                          flush=True)
    print()
    print(table(rows))
    if a.against:
        print()
        print(comparison(rows))
    if a.json:
        mine = [r for r in rows if r.get("server") != "before"] if a.json_against else rows
        a.json.write_text(json.dumps(mine, indent=1, ensure_ascii=False) + "\n")
    if a.json_against:
        a.json_against.write_text(json.dumps([r for r in rows if r.get("server") == "before"], indent=1,
                                             ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
