#!/usr/bin/env python3
"""Make the screenshots in docs/web.md: the phone table (390×844), the desktop table (1280×800), a
settlement and the phone table showing the 提示 hint (and the same at 844×390, not kept), and the pages
around the table on a phone: the history, a replay's last frame and a replay's settlement with a 飞宝
payer, and a room's page (issue 24: four members, two matches, the 战绩) — in Debian's chromium through
Playwright (no CJK font needed).  Rerun:

    PYTHONPATH=src python tools/screenshots.py [room|stored|history|manners]

(``room``: only the room page, ``docs/web-room-phone.png``; ``history``: only the filtered history on a
phone and a desktop, ``docs/web-history-phone.png``, ``docs/web-history-desktop.png``; ``stored``: only
the replay's end and the 飞宝 settlement, ``docs/web-replay-end-phone.png``,
``docs/web-feibao-settlement-phone.png``; ``manners``: only the phone table with a
托管 badge and its spectator view, ``docs/web-tuoguan-phone.png`` and ``docs/web-watch-phone.png``.)
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHROMIUM = "/usr/bin/chromium"


def serve(db: str, **settings) -> tuple[object, str]:
    import uvicorn

    from shangrao.web import Settings
    from shangrao.web.app import create_app

    app = create_app(db, Settings(**{**dict(bot_delay=0.01, claim_pause=0.02, claim_timeout=15, turn_timeout=60,
                                            absent_timeout=600, next_hand_timeout=600), **settings}))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    return srv, f"http://127.0.0.1:{port}"


def play(page, until_decisions: int | None, shot: Path | None, hint: bool = False) -> None:
    """Tap through decisions (discard the drawn tile, pass claims, take wins); ``hint``: press 提示
    before the screenshot."""
    n = 0
    while not page.locator("#settlement").count():
        b, t = page.locator("#actions [data-action]"), page.locator("#hand .tile.playable")
        try:
            if not b.count() and not t.count():
                page.wait_for_timeout(20)
                continue
            n += 1
            if until_decisions is not None and n >= until_decisions and t.count() > 3 and shot and hint:
                page.click("#hint-btn")
                page.wait_for_selector("#hint li")
                page.wait_for_timeout(150)
                page.screenshot(path=str(shot))
                return
            if until_decisions is not None and n >= until_decisions and t.count() > 3 and shot:
                t.nth(3).click()  # show a selected tile
                page.wait_for_timeout(150)
                page.screenshot(path=str(shot))
                return
            win = [i for i in range(b.count()) if b.nth(i).get_attribute("data-action") == "win"]
            if win:
                b.nth(win[0]).click(timeout=1000)
            elif b.count():
                b.last.click(timeout=1000)
            else:
                t.last.click(timeout=1000)
                t.last.click(timeout=1000)
            page.wait_for_timeout(20)
        except Exception:
            continue


def stored_pages(br, url: str, tmp: str) -> None:
    """The history, a replay's end and a 飞宝 settlement on a phone, over games the bots play here
    (the scripted match of tests/web/test_pages_phone.py, whose sixth hand has a 飞宝 payer)."""
    sys.path.insert(0, str(ROOT))
    from shangrao.records import Store
    from tests.web.test_pages_phone import FEIBAO_HAND, FEIBAO_SEED, _play_and_store

    store = Store(f"sqlite:///{tmp}/shots.sqlite3")
    plain, _ = _play_and_store(store, 3, hands=2)
    feibao, _ = _play_and_store(store, FEIBAO_SEED, hands=FEIBAO_HAND + 1)
    store.close()
    page = br.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{url}/replay/{plain}")
    page.wait_for_selector("#slider")
    last = "() => { const s = document.getElementById('slider'); s.value = s.max; s.dispatchEvent(new Event('input')); }"
    page.evaluate(last)
    page.wait_for_timeout(200)
    page.screenshot(path=str(DOCS / "web-replay-end-phone.png"), full_page=True)
    page.goto(f"{url}/replay/{feibao}")
    page.wait_for_selector("#hand-select")
    with page.expect_response(f"**/hands/{FEIBAO_HAND}/frames"):
        page.select_option("#hand-select", str(FEIBAO_HAND))
    page.wait_for_timeout(100)
    page.evaluate(last)
    page.wait_for_selector("#settlement .flown-why")
    page.locator("#settlement").screenshot(path=str(DOCS / "web-feibao-settlement-phone.png"))
    page.close()


def room_page(br, tmp: str) -> None:
    """A room of four on a phone after two matches of three hands (the stand-ins play them: nobody
    sits at the tables), its 战绩 filled in: ``docs/web-room-phone.png``."""
    srv, url = serve(f"sqlite:///{tmp}/room.sqlite3", bot_delay=0.0, claim_pause=0.0, absent_timeout=0.0,
                     next_hand_timeout=0.0, standin_bot="greedy")
    ctxs = [br.new_context(viewport={"width": 390, "height": 844}) for _ in range(4)]
    code = ctxs[0].request.post(url + "/api/rooms", data={"player": "老王", "name": "周三老友局", "hands": 3}).json()["code"]
    for ctx, name in zip(ctxs[1:], ("小李", "阿芳", "张师傅")):
        ctx.request.post(f"{url}/api/rooms/{code}/join", data={"player": name})
    for _ in range(2):
        ctxs[0].request.post(f"{url}/api/rooms/{code}/matches")
        while (ctxs[0].request.get(f"{url}/api/rooms/{code}").json()["current"] or {}).get("status") != "finished":
            time.sleep(0.2)
    page = ctxs[1].new_page()
    page.goto(f"{url}/room/{code}")
    page.wait_for_selector("#standings-total")
    page.wait_for_timeout(300)
    page.screenshot(path=str(DOCS / "web-room-phone.png"), full_page=True)
    for ctx in ctxs:
        ctx.close()
    srv.should_exit = True


def history_pages(br, tmp: str) -> None:
    """对局记录 filtered (issue 38) on a phone and a desktop: a ``shangrao simulate --engine python --hands
    16`` run (hidden by default), terminal games, the browser's own web table (first, 我的) and a room's
    two matches under their room with the members' names: ``docs/web-history-phone.png``,
    ``docs/web-history-desktop.png``."""
    from typer.testing import CliRunner

    from shangrao.cli import app
    from shangrao.records import Store

    db = f"sqlite:///{tmp}/history.sqlite3"
    store = Store(db)
    for i in range(3):
        store.create_game("play", ["human", "greedy", "greedy", "greedy"], seed=i, rules={})
    store.close()
    CliRunner().invoke(app, ["simulate", "--engine", "python", "--hands", "16", "--db", db])
    srv, url = serve(db, bot_delay=0.0, claim_pause=0.0, absent_timeout=0.0, next_hand_timeout=0.0,
                     standin_bot="greedy")
    ctxs = [br.new_context(viewport={"width": 390, "height": 844}) for _ in range(3)]
    code = ctxs[0].request.post(url + "/api/rooms", data={"player": "老王", "name": "周三老友局", "hands": 1}).json()["code"]
    for ctx, name in zip(ctxs[1:], ("小李", "阿芳")):
        ctx.request.post(f"{url}/api/rooms/{code}/join", data={"player": name})
    for _ in range(2):
        ctxs[0].request.post(f"{url}/api/rooms/{code}/matches")
        while (ctxs[0].request.get(f"{url}/api/rooms/{code}").json()["current"] or {}).get("status") != "finished":
            time.sleep(0.2)
    for ctx in ctxs[1:]:
        ctx.close()
    for name, vw, vh in (("web-history-phone.png", 390, 844), ("web-history-desktop.png", 1280, 800)):
        ctx = br.new_context(viewport={"width": vw, "height": vh})
        page = ctx.new_page()
        made = page.request.post(url + "/api/tables", data={"name": "周末练手", "hands": 1, "seats": ["greedy"] * 3}).json()
        page.goto(url + made["url"])  # the table page remembers the seat
        page.wait_for_selector("#hand .tile")
        page.goto(url + "/history")
        page.wait_for_selector("#games tr.room-head")
        page.wait_for_timeout(200)
        page.screenshot(path=str(DOCS / name), full_page=vw < 700)
        ctx.close()
    ctxs[0].close()
    srv.should_exit = True


def manners_pages(br, tmp: str) -> None:
    """A phone table against bots with the player in 托管 (the badge on the seat, 取消托管 in the bar)
    and the same table seen by a spectator at ``/watch/<id>``: ``docs/web-tuoguan-phone.png``,
    ``docs/web-watch-phone.png``."""
    srv, url = serve(f"sqlite:///{tmp}/manners.sqlite3", bot_delay=0.4, standin_bot="greedy")
    page = br.new_page(viewport={"width": 390, "height": 844})
    page.goto(url + "/")
    page.wait_for_selector("#seat3 option", state="attached")
    page.fill("input[name=hands]", "2")
    for i in (1, 2, 3):
        page.select_option(f"#seat{i}", "greedy")
    page.click("#create-btn")
    page.wait_for_url("**/t/*/*")
    page.wait_for_selector("#hand .tile", timeout=20000)
    table_id = page.url.split("/t/")[1].split("/")[0]
    page.click("#manage")
    page.wait_for_selector("section.me .badge.managed")
    page.wait_for_timeout(2500)  # a few discards by the stand-in
    page.screenshot(path=str(DOCS / "web-tuoguan-phone.png"))
    spec = br.new_page(viewport={"width": 390, "height": 844})
    spec.goto(f"{url}/watch/{table_id}")
    spec.wait_for_selector(".badge.managed")
    spec.wait_for_timeout(300)
    spec.screenshot(path=str(DOCS / "web-watch-phone.png"))
    spec.close()
    page.close()
    srv.should_exit = True


def main() -> None:
    from playwright.sync_api import sync_playwright

    if sys.argv[1:] == ["manners"]:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            br = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            manners_pages(br, tmp)
            br.close()
        print("wrote docs/web-tuoguan-phone.png, docs/web-watch-phone.png", file=sys.stderr)
        return
    if sys.argv[1:] == ["stored"]:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            srv, url = serve(f"sqlite:///{tmp}/shots.sqlite3")
            br = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            stored_pages(br, url, tmp)
            br.close()
            srv.should_exit = True
        print("wrote docs/web-replay-end-phone.png, docs/web-feibao-settlement-phone.png", file=sys.stderr)
        return
    if sys.argv[1:] == ["history"]:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            br = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            history_pages(br, tmp)
            br.close()
        print("wrote docs/web-history-phone.png, docs/web-history-desktop.png", file=sys.stderr)
        return
    if sys.argv[1:] == ["room"]:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            br = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            room_page(br, tmp)
            br.close()
        print("wrote docs/web-room-phone.png", file=sys.stderr)
        return

    with tempfile.TemporaryDirectory() as tmp:
        srv, url = serve(f"sqlite:///{tmp}/shots.sqlite3")
        with sync_playwright() as p:
            br = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for name, vw, vh in (("web-phone.png", 390, 844), ("web-desktop.png", 1280, 800),
                                 ("web-hint-phone.png", 390, 844), ("web-hint-landscape.png", 844, 390)):
                page = br.new_page(viewport={"width": vw, "height": vh})
                page.goto(url + "/")
                page.wait_for_selector("#seat3 option", state="attached")
                page.fill("input[name=hands]", "4")
                for i in (1, 2, 3):
                    page.select_option(f"#seat{i}", "greedy")
                page.click("#create-btn")
                page.wait_for_selector("#hand .tile")
                out = DOCS / name if name != "web-hint-landscape.png" else Path(tmp) / name
                play(page, 4, out, hint="hint" in name)
                if name == "web-hint-landscape.png":
                    (DOCS.parent / "build").mkdir(exist_ok=True)
                    out.replace(DOCS.parent / "build" / name)  # to look at, not for the docs
                if name == "web-desktop.png":  # play on to a won hand for the settlement
                    for _ in range(6):
                        play(page, None, None)
                        if page.locator(".win").count() or not page.locator("#next").count():
                            break
                        page.click("#next")
                        page.wait_for_selector("#settlement", state="detached")
                    page.screenshot(path=str(DOCS / "web-settlement.png"))
                page.close()
            stored_pages(br, url, tmp)
            history_pages(br, tmp)
            room_page(br, tmp)
            manners_pages(br, tmp)
            br.close()
        srv.should_exit = True
    print("wrote docs/web-phone.png, docs/web-desktop.png, docs/web-settlement.png, docs/web-hint-phone.png, "
          "docs/web-history-phone.png, docs/web-history-desktop.png, docs/web-replay-end-phone.png, docs/web-feibao-settlement-phone.png, "
          "docs/web-room-phone.png "
          "(and build/web-hint-landscape.png)", file=sys.stderr)


if __name__ == "__main__":
    main()
